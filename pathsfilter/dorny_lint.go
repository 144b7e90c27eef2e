package pathsfilter

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/textdist"
)

// Rule ids of the paths-filter diagnostics (spec §10). The checks package
// wraps each in a Rule value; the logic lives here, next to the model.
const (
	RuleNegationWidens        = "paths-filter-negation-widens"
	RuleEveryUnsatisfiable    = "paths-filter-every-unsatisfiable"
	RuleQuantifierUnsupported = "paths-filter-quantifier-unsupported"
	RuleQuantifierIgnored     = "paths-filter-quantifier-ignored"
	RuleQuantifierUnverified  = "paths-filter-quantifier-unverified"
	RuleVersionUnknown        = "paths-filter-version-unknown"
	RuleUnknownOutput         = "paths-filter-unknown-output"
	RuleOutputUnknown         = "paths-filter-output-unknown"
	RuleStatusTypo            = "paths-filter-status-typo"
	RuleUnused                = "paths-filter-unused"
	RuleSelfTrigger           = "workflow-self-trigger"
	RuleDeadPattern           = "paths-filter-dead-pattern"
	RuleExtglobNegation       = "paths-filter-extglob-negation"
	RuleChangesCollision      = "paths-filter-changes-name-collision"
	RuleFileNeedsCheckout     = "paths-filter-file-needs-checkout"
	RuleInvalid               = "paths-filter-invalid"
	RuleUnsupportedGlob       = "paths-filter-unsupported-glob"
	RuleTriggerNegationOnly   = "trigger-paths-negation-only"
	RuleTriggerIgnoreNegation = "trigger-paths-ignore-negation"
	RuleTriggerPicomatch      = "trigger-paths-picomatch-syntax"
)

// Analysis is one workflow's paths-filter steps, ready for the lints.
type Analysis struct {
	File     string
	Workflow *actionlint.Workflow
	Source   []byte
	Steps    []*Step
}

// Analyze finds the paths-filter steps of a parsed workflow. fsys (may be
// nil) is the repository root, for filter files.
func Analyze(wf *actionlint.Workflow, src []byte, file string, fsys fs.FS, cfg Config) *Analysis {
	return &Analysis{File: file, Workflow: wf, Source: src, Steps: FindSteps(wf, src, file, fsys, cfg)}
}

func (a *Analysis) at(p Pos, job, msg, fix string) finding.Finding {
	// A filter read from a file of the repository is reported there, where
	// the fix goes; everything else is in the workflow.
	file := a.File
	if p.File != "" {
		file = p.File
	}
	return finding.Finding{File: file, Line: p.Line, Column: p.Col, Job: job, Message: msg, Fix: fix}
}

// Each lint is a method, so a rule names its check by a compile-checked
// method expression, never by a string.

// check selects which lint a scan shared by several reports for: a value
// of its own type, so no rule id string steers the logic.
type check int

const (
	checkQuantUnsupported check = iota + 1
	checkQuantIgnored
	checkQuantUnverified
	checkVersionUnknown
	checkUnknownOutput
	checkOutputUnknown
	checkDeadPattern
	checkExtglobNegation
	checkUnsupportedGlob
	checkTriggerNegationOnly
	checkTriggerIgnoreNegation
	checkTriggerPicomatch
)

// tag sets the rule id of every finding.
func tag(id string, out []finding.Finding) []finding.Finding {
	for i := range out {
		out[i].Rule = id
	}
	return out
}

// NegationWidens reports the findings of RuleNegationWidens.
func (a *Analysis) NegationWidens() []finding.Finding {
	return tag(RuleNegationWidens, a.negationWidens())
}

// EveryUnsatisfiable reports the findings of RuleEveryUnsatisfiable.
func (a *Analysis) EveryUnsatisfiable() []finding.Finding {
	return tag(RuleEveryUnsatisfiable, a.everyUnsatisfiable())
}

// QuantifierUnsupported reports the findings of RuleQuantifierUnsupported.
func (a *Analysis) QuantifierUnsupported() []finding.Finding {
	return tag(RuleQuantifierUnsupported, a.quantifier(checkQuantUnsupported))
}

// QuantifierIgnored reports the findings of RuleQuantifierIgnored.
func (a *Analysis) QuantifierIgnored() []finding.Finding {
	return tag(RuleQuantifierIgnored, a.quantifier(checkQuantIgnored))
}

// QuantifierUnverified reports the findings of RuleQuantifierUnverified.
func (a *Analysis) QuantifierUnverified() []finding.Finding {
	return tag(RuleQuantifierUnverified, a.quantifier(checkQuantUnverified))
}

// VersionUnknown reports the findings of RuleVersionUnknown.
func (a *Analysis) VersionUnknown() []finding.Finding {
	return tag(RuleVersionUnknown, a.quantifier(checkVersionUnknown))
}

// UnknownOutput reports the findings of RuleUnknownOutput.
func (a *Analysis) UnknownOutput() []finding.Finding {
	return tag(RuleUnknownOutput, a.outputs(checkUnknownOutput))
}

// OutputUnknown reports the findings of RuleOutputUnknown.
func (a *Analysis) OutputUnknown() []finding.Finding {
	return tag(RuleOutputUnknown, a.outputs(checkOutputUnknown))
}

// StatusTypo reports the findings of RuleStatusTypo.
func (a *Analysis) StatusTypo() []finding.Finding { return tag(RuleStatusTypo, a.statusTypo()) }

// Unused reports the findings of RuleUnused.
func (a *Analysis) Unused() []finding.Finding { return tag(RuleUnused, a.unused()) }

// SelfTrigger reports the findings of RuleSelfTrigger.
func (a *Analysis) SelfTrigger() []finding.Finding { return tag(RuleSelfTrigger, a.selfTrigger()) }

// DeadPattern reports the findings of RuleDeadPattern.
func (a *Analysis) DeadPattern() []finding.Finding {
	return tag(RuleDeadPattern, a.patterns(checkDeadPattern))
}

// ExtglobNegation reports the findings of RuleExtglobNegation.
func (a *Analysis) ExtglobNegation() []finding.Finding {
	return tag(RuleExtglobNegation, a.patterns(checkExtglobNegation))
}

// UnsupportedGlob reports the findings of RuleUnsupportedGlob.
func (a *Analysis) UnsupportedGlob() []finding.Finding {
	return tag(RuleUnsupportedGlob, a.patterns(checkUnsupportedGlob))
}

// ChangesCollision reports the findings of RuleChangesCollision.
func (a *Analysis) ChangesCollision() []finding.Finding {
	return tag(RuleChangesCollision, a.changesCollision())
}

// FileNeedsCheckout reports the findings of RuleFileNeedsCheckout.
func (a *Analysis) FileNeedsCheckout() []finding.Finding {
	return tag(RuleFileNeedsCheckout, a.fileNeedsCheckout())
}

// Invalid reports the findings of RuleInvalid.
func (a *Analysis) Invalid() []finding.Finding { return tag(RuleInvalid, a.invalid()) }

// TriggerNegationOnly reports the findings of RuleTriggerNegationOnly.
func (a *Analysis) TriggerNegationOnly() []finding.Finding {
	return tag(RuleTriggerNegationOnly, a.trigger(checkTriggerNegationOnly))
}

// TriggerIgnoreNegation reports the findings of RuleTriggerIgnoreNegation.
func (a *Analysis) TriggerIgnoreNegation() []finding.Finding {
	return tag(RuleTriggerIgnoreNegation, a.trigger(checkTriggerIgnoreNegation))
}

// TriggerPicomatch reports the findings of RuleTriggerPicomatch.
func (a *Analysis) TriggerPicomatch() []finding.Finding {
	return tag(RuleTriggerPicomatch, a.trigger(checkTriggerPicomatch))
}

func (a *Analysis) filters(fn func(s *Step, f *Filter)) {
	for _, s := range a.Steps {
		if s.Filters == nil {
			continue
		}
		for _, f := range s.Filters.List {
			fn(s, f)
		}
	}
}

// simulatedSome: the step evaluates filters with plain `some` semantics.
func (s *Step) simulatedSome() bool {
	return s.QuantVerdict != QuantRejected && s.Quantifier == QuantSome
}

func positives(f *Filter) (pos, neg []*Pattern) {
	for i := range f.Rules {
		r := &f.Rules[i]
		if r.List {
			continue
		}
		for j := range r.Patterns {
			if r.Patterns[j].Negated {
				neg = append(neg, &r.Patterns[j])
			} else {
				pos = append(pos, &r.Patterns[j])
			}
		}
	}
	return pos, neg
}

// widenWitness finds a path the filter accepts only because of a `!`
// rule: one no positive pattern matches.
func widenWitness(f *Filter, q Quantifier) string {
	cands := []string{"README.md", "docs/index.md", "LICENSE", ".github/CODEOWNERS", "z/unrelated.txt"}
	for _, c := range cands {
		cf := ChangedFile{Path: c, Status: StatusModified}
		if in, _ := f.belongs(cf, q); in != True {
			continue
		}
		wide := true
		for _, r := range f.Rules {
			for _, p := range r.Patterns {
				if !p.Negated && p.Err == nil && p.matcher().Match(c) {
					wide = false
				}
			}
		}
		if wide {
			return c
		}
	}
	return ""
}

func (a *Analysis) negationWidens() []finding.Finding {
	var out []finding.Finding
	a.filters(func(s *Step, f *Filter) {
		// A status list is one any-of matcher: its `!` widens whatever the
		// quantifier (spec §3), except under some-with-excludes where it
		// is unverified.
		for _, r := range f.Rules {
			if !r.List || s.Quantifier == QuantSomeWithExcludes {
				continue
			}
			for _, p := range r.Patterns {
				if p.Negated && len(r.Patterns) > 1 {
					w := widenWitness(&Filter{Rules: []Rule{r}}, QuantSome)
					msg := fmt.Sprintf("filter %q: the list under status key %q is one any-of matcher, so %q matches every file it does not name", f.Name, strings.Join(r.Status, "|"), p.Text)
					if w != "" {
						msg += fmt.Sprintf("; a change to %s wakes it", w)
					}
					out = append(out, a.at(p.Pos, s.Job, msg, "move the exclusion out of the status list and use predicate-quantifier: every, or write one extglob such as 'src/**/!(*.md)'"))
					break
				}
			}
		}
		if !s.simulatedSome() {
			return
		}
		pos, neg := positives(f)
		if len(neg) == 0 || (len(pos) == 0 && len(neg) == 1) {
			return
		}
		w := widenWitness(f, QuantSome)
		n := neg[0]
		var msg string
		catchAll := ""
		for _, p := range pos {
			if p.Err == nil && p.matcher().Match("README.md") && p.matcher().Match("docs/index.md") && p.matcher().Match(".github/CODEOWNERS") && p.matcher().Match("z/unrelated.txt") {
				catchAll = p.Text
			}
		}
		switch {
		case catchAll != "":
			msg = fmt.Sprintf("filter %q: under predicate-quantifier some its `!` patterns exclude nothing: %q already matches every file, so a change confined to %s still wakes it", f.Name, catchAll, strings.TrimSuffix(strings.TrimLeft(n.Text, "!"), "/**")+"/")
		case len(pos) > 0:
			msg = fmt.Sprintf("filter %q mixes positive and `!` patterns under predicate-quantifier some: %q matches every file outside %s, so the filter is true for almost any change", f.Name, n.Text, strings.TrimLeft(n.Text, "!"))
		default:
			msg = fmt.Sprintf("filter %q has %d `!` patterns under predicate-quantifier some: each matches what the others exclude, so the filter matches every file", f.Name, len(neg))
		}
		if w != "" && catchAll == "" {
			msg += fmt.Sprintf(" (a change to %s wakes it)", w)
		}
		var fix string
		switch {
		case len(pos) == 1:
			fix = fmt.Sprintf("set predicate-quantifier: every (one positive pattern %q AND NOT each exclusion)", pos[0].Text)
			if s.Model.Version.Less(Version{3, 0, 3}) {
				fix += "; needs dorny/paths-filter@v3.0.3 or later"
			}
		case len(pos) > 1:
			fix = "set predicate-quantifier: some-with-excludes (dorny/paths-filter@v4.0.3 or later), or merge the positives into one pattern such as '{a,b}/**' and set predicate-quantifier: every, or use one extglob per exclusion such as 'src/**/!(*.md)'"
		default:
			fix = fmt.Sprintf("use one extglob, e.g. '!(%s)/**'", strings.Join(trimNeg(neg), "|"))
		}
		out = append(out, a.at(n.Pos, s.Job, msg, fix))
	})
	return out
}

func trimNeg(ps []*Pattern) []string {
	var out []string
	for _, p := range ps {
		t := strings.TrimLeft(p.Text, "!")
		t = strings.TrimSuffix(t, "/**")
		out = append(out, t)
	}
	return out
}

// literalPrefix is the text before the first glob metacharacter.
func literalPrefix(p string) string {
	p = strings.TrimPrefix(p, "./")
	if i := strings.IndexAny(p, "*?[{(!+@\\"); i >= 0 {
		return p[:i]
	}
	return p
}

func disjoint(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return false
			}
		}
	}
	return true
}

// sample builds a concrete path a pattern is likely to match.
func sample(p string) string {
	p = strings.TrimPrefix(p, "./")
	r := strings.NewReplacer("**/", "", "/**", "/x", "**", "x", "*", "x", "?", "x")
	return r.Replace(p)
}

func (a *Analysis) everyUnsatisfiable() []finding.Finding {
	var out []finding.Finding
	a.filters(func(s *Step, f *Filter) {
		if s.QuantVerdict == QuantRejected || s.Quantifier != QuantEvery {
			return
		}
		var posRules []*Rule
		for i := range f.Rules {
			r := &f.Rules[i]
			if e, _ := isExclusion(r); !e {
				posRules = append(posRules, r)
			}
		}
		if len(posRules) < 2 {
			return
		}
		// Statuses: every status-keyed rule must accept the same status.
		var status map[string]bool
		for _, r := range posRules {
			if r.Status == nil {
				continue
			}
			next := map[string]bool{}
			for _, st := range r.Status {
				if status == nil || status[st] {
					next[st] = true
				}
			}
			status = next
		}
		first := &posRules[0].Patterns[0]
		names := make([]string, 0, len(posRules))
		for _, r := range posRules {
			names = append(names, fmt.Sprintf("%q", r.Patterns[0].Text))
		}
		fix := "under every, list exactly one positive pattern (merge them with braces, e.g. '{kernels,csrc}/**') and keep the `!` exclusions"
		if status != nil && len(status) == 0 {
			out = append(out, a.at(first.Pos, s.Job, fmt.Sprintf("filter %q can never be true: predicate-quantifier every needs one file whose status satisfies every status key, and the keys share none", f.Name), fix))
			return
		}
		// Disjoint literal prefixes: no single path matches both.
		for i := 0; i < len(posRules); i++ {
			for j := i + 1; j < len(posRules); j++ {
				if len(posRules[i].Patterns) != 1 || len(posRules[j].Patterns) != 1 {
					continue
				}
				pi, pj := posRules[i].Patterns[0], posRules[j].Patterns[0]
				a1, a2 := literalPrefix(pi.Text), literalPrefix(pj.Text)
				if !strings.HasPrefix(a1, a2) && !strings.HasPrefix(a2, a1) && pi.Text != pj.Text {
					out = append(out, a.at(pi.Pos, s.Job, fmt.Sprintf("filter %q can never be true: predicate-quantifier every needs one file matching both %q and %q, and their literal prefixes are disjoint", f.Name, pi.Text, pj.Text), fix))
					return
				}
				if pi.suffixes != nil && pj.suffixes != nil && disjoint(pi.suffixes, pj.suffixes) {
					out = append(out, a.at(pi.Pos, s.Job, fmt.Sprintf("filter %q can never be true: predicate-quantifier every needs one file matching both %q and %q, and they require different extensions", f.Name, pi.Text, pj.Text), fix))
					return
				}
			}
		}
		// Try to prove satisfiable with a constructed path.
		var cands []string
		for _, r := range posRules {
			for _, o := range posRules {
				cands = append(cands, sample(r.Patterns[0].Text), literalPrefix(r.Patterns[0].Text)+sample(o.Patterns[0].Text))
			}
		}
		for _, c := range cands {
			ok := true
			for _, r := range posRules {
				cf := ChangedFile{Path: c}
				for st := range status {
					cf.Status = st
					break
				}
				if cf.Status == "" {
					cf.Status = StatusModified
				}
				if m, _ := matchRule(r, cf); m != True {
					ok = false
					break
				}
			}
			if ok {
				return
			}
		}
		out = append(out, finding.Finding{File: a.File, Line: first.Pos.Line, Column: first.Pos.Col, Job: s.Job, Severity: finding.Warning,
			Message: fmt.Sprintf("filter %q: predicate-quantifier every makes it true only for a file matching all of %s at once; cicheck cannot find such a path", f.Name, strings.Join(names, ", ")), Fix: fix})
	})
	return out
}

func (a *Analysis) quantifier(which check) []finding.Finding {
	var out []finding.Finding
	for _, s := range a.Steps {
		switch which {
		case checkQuantUnsupported:
			if s.QuantVerdict == QuantRejected {
				fix := "use some or every"
				if s.QuantifierRaw == string(QuantSomeWithExcludes) {
					fix = "pin dorny/paths-filter@v4.0.3 or later (some-with-excludes was added there)"
				}
				out = append(out, a.at(s.QuantifierPos, s.Job, fmt.Sprintf("dorny/paths-filter@%s (%s) rejects predicate-quantifier %q: the step fails with \"Input parameter 'predicate-quantifier' is set to invalid value '%s'. Valid values: %s\" and every job behind it is skipped",
					s.Model.Ref, s.Model.Version, s.QuantifierRaw, s.QuantifierRaw, s.Model.ValidQuantifiers()), fix))
			}
		case checkQuantIgnored:
			if s.QuantVerdict == QuantIgnored {
				out = append(out, a.at(s.QuantifierPos, s.Job, fmt.Sprintf("dorny/paths-filter@%s (%s) ignores predicate-quantifier (added in v3.0.2): filters are evaluated with some", s.Model.Ref, s.Model.Version), "pin dorny/paths-filter@v3.0.3 or later"))
			}
		case checkQuantUnverified:
			if s.Quantifier != QuantSomeWithExcludes || s.Filters == nil || s.QuantVerdict == QuantRejected {
				continue
			}
			for _, f := range s.Filters.List {
				for _, r := range f.Rules {
					if _, ok := isExclusion(&r); !ok {
						out = append(out, a.at(r.StatusPos, s.Job, fmt.Sprintf("filter %q: how some-with-excludes classifies a status-keyed rule holding `!` patterns is not known; cicheck reports the filter's result as unknown", f.Name), "keep exclusions as plain `!` list entries outside status keys"))
					}
				}
			}
		case checkVersionUnknown:
			if !s.Model.Resolved {
				out = append(out, a.at(s.Pos, s.Job, fmt.Sprintf("cannot resolve dorny/paths-filter@%s to a release; simulating %s, with quantifier-dependent results unknown", s.Model.Ref, s.Model.Version), "pin a release tag, or map the ref under paths-filter.tags in .cicheck.yaml"))
			}
		}
	}
	return out
}

// validOutput reports whether the step sets output name.
func (s *Step) validOutput(name string) bool {
	// The runner's step outputs dictionary ignores case:
	// steps.f.outputs.SRC reads the output src.
	has := func(n string) bool {
		for _, f := range s.Filters.List {
			if strings.EqualFold(f.Name, n) {
				return true
			}
		}
		return false
	}
	lower := strings.ToLower(name)
	if has(name) || lower == "changes" {
		return true
	}
	if b, ok := strings.CutSuffix(lower, "_count"); ok && has(b) {
		return true
	}
	if b, ok := strings.CutSuffix(lower, "_files"); ok && has(b) && s.ListFiles != ListNone {
		return true
	}
	return false
}

// filesNeedListFiles reports <filter>_files for an existing filter on a
// step whose list-files is none (the output is then never set).
func (s *Step) filesNeedListFiles(name string) bool {
	b, ok := strings.CutSuffix(strings.ToLower(name), "_files")
	if !ok || s.ListFiles != ListNone {
		return false
	}
	for _, f := range s.Filters.List {
		if strings.EqualFold(f.Name, b) {
			return true
		}
	}
	return false
}

// unreleasedOutput reports an output only unreleased revisions of the
// action set: unknown, not empty (spec §1).
func unreleasedOutput(name string) bool {
	n := strings.ToLower(name)
	return n == "any_changed" || n == "all_changed"
}

var (
	stepsOutRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`steps\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)`)
	})
	needsOutRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`needs\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)`)
	})
)

// stepByID finds the paths-filter step with id in job (lower-cased ids).
func (a *Analysis) stepByID(jobID, id string) *Step {
	for _, s := range a.Steps {
		if s.JobID == jobID && s.ID != "" && strings.EqualFold(s.ID, id) {
			return s
		}
	}
	return nil
}

// deadOutputs maps "job/output" to the filter output a job output
// re-exports when that output does not exist.
func (a *Analysis) deadOutputs() map[string]string {
	dead := map[string]string{}
	for id, j := range a.Workflow.Jobs {
		for name, o := range j.Outputs {
			if o == nil || o.Value == nil {
				continue
			}
			for _, m := range stepsOutRE().FindAllStringSubmatch(o.Value.Value, -1) {
				if s := a.stepByID(id, m[1]); s != nil && s.Filters != nil && !s.validOutput(m[2]) && !unreleasedOutput(m[2]) {
					dead[id+"/"+strings.ToLower(name)] = m[2]
				}
			}
		}
	}
	return dead
}

func (a *Analysis) outputs(which check) []finding.Finding {
	var out []finding.Finding
	if a.Workflow == nil || !a.hasFilters() {
		return nil // every finding below names a paths-filter step with filters
	}
	report := func(s *Step, job string, at Pos, name, where string) {
		unreleased := unreleasedOutput(name)
		switch {
		case which == checkOutputUnknown && unreleased:
			out = append(out, a.at(at, job, fmt.Sprintf("%s reads output %q, which dorny/paths-filter %s does not set (only unreleased revisions do); cicheck treats it as unknown", where, name, s.Model.Version), "read the filter outputs or `changes` instead"))
		case which == checkUnknownOutput && !unreleased && s.filesNeedListFiles(name):
			out = append(out, a.at(at, job, fmt.Sprintf("%s reads steps.%s.outputs.%s, but the step sets %s only with list-files (csv, json, shell or escape) and its list-files is none: the value is always empty", where, s.ID, name, name), "list-files: json"))
		case which == checkUnknownOutput && !unreleased:
			out = append(out, a.at(at, job, fmt.Sprintf("%s reads steps.%s.outputs.%s, but the paths-filter step has no filter %q (it sets: %s); the value is always empty, so the jobs behind it can never wake", where, s.ID, name, name, strings.Join(s.outputNames(), ", ")), closestOutput(s, name)))
		}
	}
	ids := make([]string, 0, len(a.Workflow.Jobs))
	for id := range a.Workflow.Jobs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, jid := range ids {
		j := a.Workflow.Jobs[jid]
		job := j.ID.Value
		names := make([]string, 0, len(j.Outputs))
		for n := range j.Outputs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			o := j.Outputs[n]
			if o == nil || o.Value == nil {
				continue
			}
			for _, m := range stepsOutRE().FindAllStringSubmatch(o.Value.Value, -1) {
				if s := a.stepByID(jid, m[1]); s != nil && s.Filters != nil && !s.validOutput(m[2]) {
					report(s, job, strPos(a.File, o.Value), m[2], fmt.Sprintf("job output %q", o.Name.Value))
				}
			}
		}
		for _, st := range j.Steps {
			if st == nil || st.If == nil {
				continue
			}
			for _, m := range stepsOutRE().FindAllStringSubmatch(st.If.Value, -1) {
				if s := a.stepByID(jid, m[1]); s != nil && s.Filters != nil && !s.validOutput(m[2]) {
					report(s, job, strPos(a.File, st.If), m[2], "step condition")
				}
			}
		}
	}
	if which != checkUnknownOutput {
		return out
	}
	// A job condition reading a re-exported output that does not exist.
	dead := a.deadOutputs()
	for _, jid := range ids {
		j := a.Workflow.Jobs[jid]
		if j.If == nil {
			continue
		}
		for _, m := range needsOutRE().FindAllStringSubmatch(j.If.Value, -1) {
			if x, ok := dead[strings.ToLower(m[1])+"/"+strings.ToLower(m[2])]; ok {
				out = append(out, a.at(strPos(a.File, j.If), j.ID.Value, fmt.Sprintf("job condition reads needs.%s.outputs.%s, which re-exports the non-existent paths-filter output %q: it is always empty, so this job can never wake through it", m[1], m[2], x), ""))
			}
		}
	}
	return out
}

func (s *Step) outputNames() []string {
	var out []string
	for _, f := range s.Filters.List {
		out = append(out, f.Name)
	}
	if s.Filters.Lookup("changes") == nil {
		out = append(out, "changes")
	}
	return out
}

func closestOutput(s *Step, name string) string {
	best, bd := "", 3
	for _, n := range s.outputNames() {
		if d := textdist.Levenshtein(strings.ToLower(n), strings.ToLower(name)); d < bd {
			best, bd = n, d
		}
	}
	if best == "" {
		return fmt.Sprintf("add a filter named %s, or read an existing one", name)
	}
	return fmt.Sprintf("steps.%s.outputs.%s", s.ID, best)
}

var validStatus = map[string]bool{"added": true, "copied": true, "deleted": true, "modified": true, "unmerged": true, "changed": true, "unchanged": true}

func (a *Analysis) statusTypo() []finding.Finding {
	var out []finding.Finding
	a.filters(func(s *Step, f *Filter) {
		for _, r := range f.Rules {
			for _, st := range r.Status {
				if validStatus[st] {
					continue
				}
				msg := fmt.Sprintf("filter %q: status %q never occurs, so this rule never matches (valid: added, copied, deleted, modified, unmerged, changed, unchanged)", f.Name, st)
				fix := ""
				if st == "renamed" {
					msg = fmt.Sprintf("filter %q: status \"renamed\" never occurs: the action diffs with --no-renames (a rename is deleted + added)", f.Name)
					fix = "added|deleted"
				} else {
					best, bd := "", 3
					for v := range validStatus {
						if d := textdist.Levenshtein(v, st); d < bd || (d == bd && v < best) {
							best, bd = v, d
						}
					}
					if best == "" && strings.HasPrefix("added", st) {
						best = "added"
					}
					fix = best
				}
				out = append(out, a.at(r.StatusPos, s.Job, msg, fix))
			}
		}
	})
	return out
}

// readers counts every `steps.X.outputs.Y` and `needs.X.outputs.Y` read in
// the workflow text (comment lines skipped), and whether outputs are read
// dynamically (then nothing can be called unused).
func (a *Analysis) readers() (steps map[string]int, needs map[string]bool, dynamic bool) {
	steps, needs = map[string]int{}, map[string]bool{}
	for line := range strings.SplitSeq(string(a.Source), "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "#") || !(strings.Contains(line, "outputs") || strings.Contains(line, "needs")) {
			continue // every pattern below holds "outputs" or "needs"
		}
		for _, m := range stepsOutRE().FindAllStringSubmatch(line, -1) {
			steps[strings.ToLower(m[1]+"/"+m[2])]++
		}
		for _, m := range needsOutRE().FindAllStringSubmatch(line, -1) {
			needs[strings.ToLower(m[1]+"/"+m[2])] = true
		}
		for _, d := range []string{"outputs[", "toJSON(needs", "toJson(needs", "tojson(needs", ".outputs.*", ".outputs)"} {
			if strings.Contains(line, d) {
				dynamic = true
			}
		}
	}
	return steps, needs, dynamic
}

// hasFilters reports a paths-filter step whose filters parsed: the lints
// about filter outputs have nothing to say without one, and most
// workflows have none, so they skip their scans.
func (a *Analysis) hasFilters() bool {
	return slices.ContainsFunc(a.Steps, func(s *Step) bool { return s.Filters != nil })
}

func (a *Analysis) unused() []finding.Finding {
	if a.Workflow == nil || !a.hasFilters() {
		return nil // most workflows have no paths-filter step: skip the source scan
	}
	stepReads, needsReads, dynamic := a.readers()
	if dynamic {
		return nil
	}
	var lowerSrc string // lower-cased source, made on first use (rarely needed)
	mentions := func(s string) bool {
		if lowerSrc == "" {
			lowerSrc = strings.ToLower(string(a.Source))
		}
		return strings.Contains(lowerSrc, s)
	}
	var out []finding.Finding
	for _, s := range a.Steps {
		if s.Filters == nil {
			continue
		}
		j := a.Workflow.Jobs[s.JobID]
		// used: output o is read by a step, or re-exported by a job output
		// that some job (or the reusable workflow's outputs) reads. The
		// job outputs that re-export it unread go to unread, for the message.
		var unread []string
		used := func(o string) bool {
			if s.ID == "" {
				return false
			}
			key := strings.ToLower(s.ID + "/" + o)
			inOutputs := 0
			for name, jo := range j.Outputs {
				if jo == nil || jo.Value == nil {
					continue
				}
				for _, m := range stepsOutRE().FindAllStringSubmatch(jo.Value.Value, -1) {
					if strings.ToLower(m[1]+"/"+m[2]) != key {
						continue
					}
					inOutputs++
					if needsReads[s.JobID+"/"+strings.ToLower(name)] || mentions("jobs."+s.JobID+".outputs."+strings.ToLower(name)) {
						return true
					}
					unread = append(unread, name)
				}
			}
			return stepReads[key] > inOutputs
		}
		if s.Filters.Lookup("changes") == nil && used("changes") {
			continue
		}
		for _, f := range s.Filters.List {
			unread = unread[:0]
			if used(f.Name) || used(f.Name+"_count") || used(f.Name+"_files") {
				continue
			}
			msg := fmt.Sprintf("filter %q is never read: no job condition, job output or step reads it (nor `changes`)", f.Name)
			fix := "remove the filter, or gate the job it was written for on it"
			switch {
			case s.ID == "":
				msg = fmt.Sprintf("filter %q is never read: the paths-filter step has no `id:`, so its outputs cannot be referenced", f.Name)
			case len(unread) > 0:
				// Job outputs is a map: name the re-exporting output deterministically.
				slices.Sort(unread)
				msg = fmt.Sprintf("filter %q is never read: job output %q re-exports it, but no job reads needs.%s.outputs.%s", f.Name, unread[0], s.Job, unread[0])
				fix = "remove the filter and the job output, or gate the job it was written for on it"
			}
			out = append(out, a.at(f.Pos, s.Job, msg, fix))
		}
	}
	return out
}

// WorkflowRepoPath returns the repository-relative path of a workflow file
// (from `.github/workflows/` on), as a filter would name it. A file read
// from elsewhere is assumed to live in .github/workflows/ under its name.
func WorkflowRepoPath(file string) string {
	if i := strings.Index(file, ".github/workflows/"); i >= 0 {
		return file[i:]
	}
	return ".github/workflows/" + path.Base(file)
}

func (a *Analysis) selfTrigger() []finding.Finding {
	var out []finding.Finding
	self := WorkflowRepoPath(a.File)
	a.filters(func(s *Step, f *Filter) {
		// A filter made only of .github/ patterns is a "workflows changed"
		// filter (it gates a workflow linter): that is its purpose.
		other := false
		for _, r := range f.Rules {
			for _, p := range r.Patterns {
				if !p.Negated && !strings.HasPrefix(strings.TrimPrefix(p.Text, "./"), ".github/") {
					other = true
				}
			}
		}
		if !other {
			return
		}
		for _, r := range f.Rules {
			for _, p := range r.Patterns {
				// Only patterns aimed at workflow files: a catch-all such as
				// `**` matching the workflow is not what this rule is about.
				if p.Negated || p.Err != nil || !strings.Contains(p.Text, ".github") || !p.matcher().Match(self) {
					continue
				}
				out = append(out, a.at(p.Pos, s.Job, fmt.Sprintf("filter %q matches its own workflow file %s (via %q): editing a comment in it wakes every job behind the filter", f.Name, self, p.Text),
					"drop the workflow file from the filter; lint workflow changes in a cheap hosted job and offer an opt-in label (such as ci:full) to run the heavy jobs deliberately"))
				return
			}
		}
	})
	return out
}

func (a *Analysis) patterns(which check) []finding.Finding {
	var out []finding.Finding
	a.filters(func(s *Step, f *Filter) {
		for _, r := range f.Rules {
			for _, p := range r.Patterns {
				body := strings.TrimLeft(strings.TrimPrefix(p.Text, "./"), "!")
				switch which {
				case checkDeadPattern:
					switch {
					case strings.HasSuffix(p.Text, "/"):
						out = append(out, a.at(p.Pos, s.Job, fmt.Sprintf("filter %q: pattern %q ends with `/` and never matches a file path git reports", f.Name, p.Text), strings.TrimRight(p.Text, "/")+"/**"))
					case strings.HasPrefix(body, "/"):
						out = append(out, a.at(p.Pos, s.Job, fmt.Sprintf("filter %q: pattern %q starts with `/` and never matches: changed paths are repository-relative", f.Name, p.Text), strings.TrimLeft(body, "/")))
					}
				case checkExtglobNegation:
					if strings.Contains(p.Text, "!(") {
						msg := fmt.Sprintf("filter %q: the extglob `!(…)` in %q negates per path segment run, not per file; check what it matches", f.Name, p.Text)
						if w := extglobWitness(&p); w != "" {
							msg = fmt.Sprintf("filter %q: %q still matches %s, which its `!(…)` looks like it excludes", f.Name, p.Text, w)
						}
						out = append(out, a.at(p.Pos, s.Job, msg, "prefer predicate-quantifier every with plain `!` exclusions"))
					}
				case checkUnsupportedGlob:
					if p.Err != nil {
						out = append(out, a.at(p.Pos, s.Job, fmt.Sprintf("filter %q: %v; cicheck reports its result as unknown", f.Name, p.Err), ""))
					}
				}
			}
		}
	})
	return out
}

// extglobWitness finds a sample path of an alternative inside `!(…)` that
// the whole pattern nevertheless matches (#135).
func extglobWitness(p *Pattern) string {
	if p.Err != nil {
		return ""
	}
	i := strings.Index(p.Text, "!(")
	j := strings.LastIndex(p.Text, ")")
	if i < 0 || j < i {
		return ""
	}
	for _, alt := range strings.Split(p.Text[i+2:j], "|") {
		for _, c := range []string{sample(alt), "x/" + sample(alt), strings.TrimPrefix(sample(alt), "x/")} {
			if c != "" && p.matcher().Match(c) {
				return c
			}
		}
	}
	return ""
}

func (a *Analysis) changesCollision() []finding.Finding {
	var out []finding.Finding
	a.filters(func(s *Step, f *Filter) {
		if f.Name == "changes" {
			out = append(out, a.at(f.Pos, s.Job, "a filter named \"changes\" replaces the step's `changes` output (the list of true filters is not set)", "rename the filter"))
		}
	})
	return out
}

func (a *Analysis) fileNeedsCheckout() []finding.Finding {
	var out []finding.Finding
	for _, s := range a.Steps {
		if s.FilterFile == "" || a.Workflow == nil {
			continue
		}
		j := a.Workflow.Jobs[s.JobID]
		ok := false
		for i := 0; i < s.Index && i < len(j.Steps); i++ {
			if ex, isAct := j.Steps[i].Exec.(*actionlint.ExecAction); isAct && ex.Uses != nil && strings.HasPrefix(strings.ToLower(ex.Uses.Value), "actions/checkout@") {
				ok = true
			}
		}
		if !ok {
			out = append(out, a.at(s.FiltersPos, s.Job, fmt.Sprintf("filters are read from the file %s, but no actions/checkout step runs before this step: the step fails with \"Configuration file '%s' not found\"", s.FilterFile, s.FilterFile), "add `- uses: actions/checkout@v4` before the paths-filter step"))
		}
	}
	return out
}

func (a *Analysis) invalid() []finding.Finding {
	var out []finding.Finding
	for _, s := range a.Steps {
		if s.ListFilesInvalid {
			out = append(out, a.at(s.ListFilesPos, s.Job, fmt.Sprintf("list-files %q is not accepted: the step fails with \"Input parameter 'list-files' is set to invalid value '%s'\"", s.ListFilesRaw, s.ListFilesRaw), "none, csv, json, shell or escape"))
		}
		if s.Err == nil {
			continue
		}
		if s.FilterFile != "" && strings.Contains(s.Err.Error(), "not found") {
			continue // reported by file-needs-checkout or unknowable without the tree
		}
		var e *Error
		if !errors.As(s.Err, &e) || e.Unmodelled {
			continue
		}
		msg := e.Msg
		if !strings.HasSuffix(msg, "(the step crashes)") {
			msg += " (the step fails at run time)"
		}
		out = append(out, a.at(e.Pos, s.Job, msg, ""))
	}
	return out
}

func (a *Analysis) trigger(which check) []finding.Finding {
	var out []finding.Finding
	if a.Workflow == nil {
		return nil
	}
	for _, ev := range a.Workflow.On {
		we, ok := ev.(*actionlint.WebhookEvent)
		if !ok || we.Hook == nil {
			continue
		}
		name := we.Hook.Value
		for _, flt := range []*actionlint.WebhookEventFilter{we.Paths, we.PathsIgnore} {
			if flt.IsEmpty() {
				continue
			}
			isIgnore := flt == we.PathsIgnore
			key := "paths"
			if isIgnore {
				key = "paths-ignore"
			}
			pos, neg := 0, 0
			for _, v := range flt.Values {
				if strings.HasPrefix(v.Value, "!") {
					neg++
					if which == checkTriggerIgnoreNegation && isIgnore {
						out = append(out, a.at(strPos(a.File, v), "", fmt.Sprintf("on.%s.paths-ignore entry %q: `!` inside paths-ignore is undocumented; cicheck reports the trigger as unknown", name, v.Value), "move the exception into on."+name+".paths with a positive pattern before it"))
					}
				} else {
					pos++
				}
				if which == checkTriggerPicomatch && PicomatchOnlySyntax(v.Value) {
					out = append(out, a.at(strPos(a.File, v), "", fmt.Sprintf("on.%s.%s entry %q uses picomatch syntax (braces or extglobs), which GitHub's path filter treats literally", name, key, v.Value), "list each alternative as its own pattern"))
				}
			}
			if which == checkTriggerNegationOnly && !isIgnore && neg > 0 && pos == 0 {
				out = append(out, a.at(strPos(a.File, flt.Name), "", fmt.Sprintf("on.%s.paths has only `!` patterns: nothing is ever included, so the workflow never runs for a path change", name), "start with a positive pattern such as '**'"))
			}
		}
	}
	return out
}
