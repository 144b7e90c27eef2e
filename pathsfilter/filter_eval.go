package pathsfilter

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/cicheck/cicheck/expr"
)

// Tri is the module's three-valued truth (expr.Tri): what cicheck cannot
// decide stays Unknown, which is also the zero value.
type Tri = expr.Tri

// The truth values under the names a filter's match reads best with.
const (
	False   = expr.No
	True    = expr.Yes
	Unknown = expr.Maybe
)

// Change statuses as the action names them.
const (
	StatusAdded    = "added"
	StatusCopied   = "copied"
	StatusDeleted  = "deleted"
	StatusModified = "modified"
	StatusRenamed  = "renamed"
	StatusUnmerged = "unmerged"
	// StatusUndefined is git's `T` (type change): the action maps it to
	// undefined, which only status-less rules accept.
	StatusUndefined = "\x00undefined"
)

// ChangedFile is one entry of the diff. Status "" means not known (a plain
// file list): status-keyed rules then evaluate to unknown.
type ChangedFile struct {
	Path   string
	Status string
}

// StatusFromGit maps a `git diff --name-status` letter (spec §3).
func StatusFromGit(letter string) (string, bool) {
	if letter == "" {
		return "", false
	}
	switch letter[0] {
	case 'A':
		return StatusAdded, true
	case 'C':
		return StatusCopied, true
	case 'D':
		return StatusDeleted, true
	case 'M':
		return StatusModified, true
	case 'R':
		return StatusRenamed, true
	case 'U':
		return StatusUnmerged, true
	case 'T':
		return StatusUndefined, true
	}
	return "", false
}

// Witness is the first file that made a filter true and the pattern that
// matched it.
type Witness struct {
	File    string `json:"file"`
	Pattern string `json:"pattern"`
}

// Result is one filter evaluated on one diff.
type Result struct {
	Name  string
	Match Tri
	// Count is the number of files known to belong; CountKnown is false
	// when some file's membership is unknown.
	Count      int
	CountKnown bool
	// Files lists the files known to belong, in diff order.
	Files   []string
	Witness *Witness
	// Reason says why Match is Unknown.
	Reason string
}

// Evaluate decides every filter on the diff under quantifier q.
func (fs *Filters) Evaluate(files []ChangedFile, q Quantifier) []Result {
	ids, names := segments(files)
	preps := make([]Path, len(files))
	for i, cf := range files {
		preps[i] = PreparePath(cf.Path)
	}
	out := make([]Result, 0, len(fs.List))
	for _, f := range fs.List {
		out = append(out, f.evaluate(files, preps, ids, names, q))
	}
	return out
}

// matchRule evaluates one rule on one file; pat is the pattern that matched.
// prep, when not nil, is cf.Path prepared once for all patterns.
func matchRule(r *Rule, cf ChangedFile, prep ...*Path) (Tri, string) {
	status := True
	if r.Status != nil {
		switch {
		case cf.Status == "":
			status = Unknown
		case contains(r.Status, cf.Status):
		default:
			return False, ""
		}
	}
	path := False
	pat := ""
	for i := range r.Patterns {
		p := &r.Patterns[i]
		if p.Err != nil {
			path = expr.TriOr(path, Unknown)
			continue
		}
		var ok bool
		switch {
		case !p.mayMatch(cf.Path):
		case len(prep) > 0 && prep[0] != nil:
			ok = p.matcher().MatchPath(prep[0])
		default:
			ok = p.matcher().Match(cf.Path)
		}
		if ok {
			path, pat = True, p.Text
			break
		}
	}
	return expr.TriAnd(status, path), pat
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isExclusion: under some-with-excludes a plain rule whose one pattern is
// negated is an exclusion. ok is false for a status-keyed list that holds
// a negated pattern: the release's classification of it is unknown.
func isExclusion(r *Rule) (excl, ok bool) {
	neg := 0
	for _, p := range r.Patterns {
		if p.Negated {
			neg++
		}
	}
	if r.Status != nil && neg > 0 {
		return false, false
	}
	return neg > 0 && neg == len(r.Patterns), true
}

// Evaluate decides one filter (spec §3).
func (f *Filter) Evaluate(files []ChangedFile, q Quantifier) Result {
	ids, names := segments(files)
	return f.evaluate(files, nil, ids, names, q)
}

// evaluate is Evaluate with the files' first path segments interned
// (segments), so each distinct segment is looked up in the index once.
func (f *Filter) evaluate(files []ChangedFile, preps []Path, ids []int, keys []fileKey, q Quantifier) Result {
	res := Result{Name: f.Name, CountKnown: true}
	if f.index == nil {
		f.index = buildIndex(f)
	}
	var cands [][]int
	if q == QuantSome {
		cands = make([][]int, len(keys))
		for id, k := range keys {
			cands[id] = f.candidatesFor(k)
		}
	}
	if q == QuantSomeWithExcludes {
		for i := range f.Rules {
			if _, ok := isExclusion(&f.Rules[i]); !ok {
				res.Match, res.CountKnown = Unknown, false
				res.Reason = "some-with-excludes: how a status-keyed list with `!` patterns is classified is unknown"
				return res
			}
		}
	}
	// Members are collected as indexes and copied out once: growing a
	// []string by append copies pointers under GC write barriers, which
	// was a quarter of evaluation time on large diffs.
	var members []int32
	for i, cf := range files {
		var in Tri
		var pat string
		if q == QuantSome {
			var prep *Path
			if preps != nil {
				prep = &preps[i]
			}
			in, pat = f.someOf(cf, cands[ids[i]], prep)
		} else {
			in, pat = f.belongsSeg(cf, keys[ids[i]].seg, q)
		}
		switch in {
		case True:
			res.Count++
			members = append(members, int32(i))
			if res.Witness == nil {
				res.Witness = &Witness{File: cf.Path, Pattern: pat}
			}
		case Unknown:
			res.CountKnown = false
			if res.Reason == "" {
				res.Reason = "cannot decide " + cf.Path
				for _, r := range f.Rules {
					for _, p := range r.Patterns {
						if p.Err != nil {
							res.Reason = p.Err.Error()
						}
					}
				}
				if cf.Status == "" {
					for _, r := range f.Rules {
						if r.Status != nil {
							res.Reason = "status-keyed rules need file statuses (--name-status)"
						}
					}
				}
			}
		}
	}
	if len(members) > 0 {
		res.Files = make([]string, len(members))
		for k, i := range members {
			res.Files[k] = files[i].Path
		}
	}
	switch {
	case res.Count > 0:
		res.Match = True
	case !res.CountKnown:
		res.Match = Unknown
	default:
		res.Match = False
	}
	if res.Match == True {
		res.Reason = ""
	}
	return res
}

func (f *Filter) belongs(cf ChangedFile, q Quantifier) (Tri, string) {
	return f.belongsSeg(cf, firstSegment(cf.Path), q)
}

// belongsSeg decides one file's membership; seg is its first segment.
func (f *Filter) belongsSeg(cf ChangedFile, seg string, q Quantifier) (Tri, string) {
	if f.index == nil {
		f.index = buildIndex(f)
	}
	ix := f.index
	switch q {
	case QuantEvery:
		// A rule whose literal head differs cannot match: every fails.
		for i := range ix.heads {
			if !ix.canMatch(i, seg) {
				return False, ""
			}
		}
		in, pat := True, ""
		for i := range f.Rules {
			m, p := matchRule(&f.Rules[i], cf)
			in = expr.TriAnd(in, m)
			if in == False {
				return False, ""
			}
			if pat == "" && !f.Rules[i].Patterns[0].Negated {
				pat = p
			}
		}
		if pat == "" && len(f.Rules) > 0 {
			pat = f.Rules[0].Patterns[0].Text
		}
		return in, pat
	case QuantSomeWithExcludes:
		incl, pat := False, ""
		excl := True
		for i := range f.Rules {
			r := &f.Rules[i]
			if e, _ := isExclusion(r); e {
				// The negated matcher is false exactly when the file is
				// excluded.
				m, _ := matchRule(r, cf)
				excl = expr.TriAnd(excl, m)
				continue
			}
			if !ix.canMatch(i, seg) {
				continue // cannot match
			}
			m, p := matchRule(r, cf)
			if m == True && incl != True {
				pat = p
			}
			incl = expr.TriOr(incl, m)
		}
		return expr.TriAnd(incl, excl), pat
	default:
		return f.someOf(cf, ix.candidates(seg), nil)
	}
}

// someOf is membership under `some` over the candidate rules, in order.
func (f *Filter) someOf(cf ChangedFile, cands []int, prep *Path) (Tri, string) {
	in := False
	for _, i := range cands {
		m, p := matchRule(&f.Rules[i], cf, prep)
		if m == True {
			return True, p
		}
		in = expr.TriOr(in, m)
	}
	return in, ""
}

// ListFiles is a validated `list-files` input value.
type ListFiles string

const (
	ListNone   ListFiles = "none"
	ListCSV    ListFiles = "csv"
	ListJSON   ListFiles = "json"
	ListShell  ListFiles = "shell"
	ListEscape ListFiles = "escape"
)

// ParseListFiles lower-cases and validates a list-files value ("" = none).
func ParseListFiles(v string) (ListFiles, bool) {
	switch l := ListFiles(strings.ToLower(strings.TrimSpace(v))); l {
	case "":
		return ListNone, true
	case ListNone, ListCSV, ListJSON, ListShell, ListEscape:
		return l, true
	}
	return "", false
}

// Output is one step output value; Known is false when the value cannot
// be decided (it must stay unknown, not become ”).
type Output struct {
	Value string
	Known bool
}

// Outputs computes the step outputs the action sets (spec §3): `<filter>`,
// `<filter>_count`, `<filter>_files` (list-files ≠ none) and `changes`
// (unless a filter is itself named changes). A name absent from the map is
// not set.
func Outputs(results []Result, lf ListFiles) map[string]Output {
	out := map[string]Output{}
	var changes []string
	changesKnown := true
	for _, r := range results {
		switch r.Match {
		case True:
			out[r.Name] = Output{"true", true}
			changes = append(changes, r.Name)
		case False:
			out[r.Name] = Output{"false", true}
		default:
			out[r.Name] = Output{}
			changesKnown = false
		}
		if r.CountKnown {
			out[r.Name+"_count"] = Output{strconv.Itoa(r.Count), true}
		} else {
			out[r.Name+"_count"] = Output{}
		}
		if lf != ListNone && lf != "" {
			if r.CountKnown {
				out[r.Name+"_files"] = Output{formatFiles(r.Files, lf), true}
			} else {
				out[r.Name+"_files"] = Output{}
			}
		}
	}
	for _, r := range results {
		if r.Name == "changes" {
			return out
		}
	}
	if changesKnown {
		if changes == nil {
			changes = []string{}
		}
		b, _ := json.Marshal(changes)
		out["changes"] = Output{string(b), true}
	} else {
		out["changes"] = Output{}
	}
	return out
}

func formatFiles(files []string, lf ListFiles) string {
	switch lf {
	case ListJSON:
		if files == nil {
			files = []string{}
		}
		b, _ := json.Marshal(files)
		return string(b)
	case ListCSV:
		q := make([]string, len(files))
		for i, f := range files {
			if strings.ContainsAny(f, ",\"\n\r") {
				f = `"` + strings.ReplaceAll(f, `"`, `""`) + `"`
			}
			q[i] = f
		}
		return strings.Join(q, ",")
	case ListShell:
		q := make([]string, len(files))
		for i, f := range files {
			if strings.ContainsAny(f, " \t\n'\"\\$`!*?[](){}<>|&;#~") {
				f = "'" + strings.ReplaceAll(f, "'", `'\''`) + "'"
			}
			q[i] = f
		}
		return strings.Join(q, " ")
	default: // escape
		q := make([]string, len(files))
		for i, f := range files {
			var b strings.Builder
			for _, c := range f {
				if strings.ContainsRune(" \t\n'\"\\$`!*?[](){}<>|&;#~", c) {
					b.WriteByte('\\')
				}
				b.WriteRune(c)
			}
			q[i] = b.String()
		}
		return strings.Join(q, " ")
	}
}
