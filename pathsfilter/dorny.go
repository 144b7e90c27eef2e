package pathsfilter

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"
)

// Step is one `uses: dorny/paths-filter@REF` step of a workflow.
type Step struct {
	// Job is the job id as written; JobID is its lower-cased form.
	Job, JobID string
	// ID is the step id ("" when absent: nothing can read its outputs).
	ID    string
	Index int // position in the job's steps, 0-based
	Pos   Pos // of the `uses:` value
	Uses  string
	Model Model

	// QuantifierRaw is the predicate-quantifier input as written ("" when
	// absent). Quantifier is the mode simulated, QuantVerdict how the
	// release treats the raw value.
	QuantifierRaw string
	QuantifierPos Pos
	Quantifier    Quantifier
	QuantVerdict  QuantifierVerdict

	ListFilesRaw string
	ListFilesPos Pos
	ListFiles    ListFiles
	// ListFilesInvalid: the release fails the step before any output.
	ListFilesInvalid bool

	// Inputs holds every `with:` value as written (keys lower-cased).
	Inputs map[string]string
	// If is the step's own `if:` as written ("" when absent).
	If string

	// FiltersPos locates the filters input value. FilterFile is set when
	// the input names a file (spec §2); Filters is nil when it could not
	// be read or parsed (Err), or when Dynamic.
	FiltersPos Pos
	FilterFile string
	Filters    *Filters
	Err        error
	// Dynamic: the filters input holds an expression; cicheck cannot know
	// its text.
	Dynamic bool
}

// FindSteps returns every dorny/paths-filter step of wf in file order.
// fsys (the repository root; may be nil) is used to read filter files; src
// is the workflow text, used to map inline filter positions.
func FindSteps(wf *actionlint.Workflow, src []byte, file string, fsys fs.FS, cfg Config) []*Step {
	if wf == nil {
		return nil
	}
	jobs := make([]*actionlint.Job, 0, len(wf.Jobs))
	for _, j := range wf.Jobs {
		if j != nil && j.ID != nil {
			jobs = append(jobs, j)
		}
	}
	sort.Slice(jobs, func(a, b int) bool { return posLess(jobs[a].Pos, jobs[b].Pos) })
	var lines [][]byte // split on first use: most workflows have no inline filters
	var out []*Step
	for _, j := range jobs {
		for i, st := range j.Steps {
			if st == nil {
				continue
			}
			ex, ok := st.Exec.(*actionlint.ExecAction)
			if !ok || ex.Uses == nil {
				continue
			}
			ref, ok := splitUses(ex.Uses.Value)
			if !ok {
				continue
			}
			s := &Step{Job: j.ID.Value, JobID: strings.ToLower(j.ID.Value), Index: i,
				Uses: ex.Uses.Value, Pos: strPos(file, ex.Uses), Model: ResolveRef(ref, cfg),
				Inputs: map[string]string{}}
			if st.ID != nil {
				s.ID = st.ID.Value
			}
			if st.If != nil {
				s.If = st.If.Value
			}
			for k, in := range ex.Inputs {
				if in != nil && in.Value != nil {
					s.Inputs[k] = in.Value.Value
				}
			}
			if in := ex.Inputs["predicate-quantifier"]; in != nil && in.Value != nil {
				// @actions/core's getInput trims every input (main.ts reads
				// them all through it).
				s.QuantifierRaw, s.QuantifierPos = strings.TrimSpace(in.Value.Value), strPos(file, in.Value)
			}
			s.Quantifier, s.QuantVerdict = s.Model.Quantifier(s.QuantifierRaw)
			if actionlint.ContainsExpression(s.QuantifierRaw) {
				s.QuantVerdict = QuantOK
			}
			s.ListFiles = ListNone
			if in := ex.Inputs["list-files"]; in != nil && in.Value != nil {
				s.ListFilesRaw, s.ListFilesPos = in.Value.Value, strPos(file, in.Value)
				if lf, ok := ParseListFiles(in.Value.Value); ok {
					s.ListFiles = lf
				} else if !actionlint.ContainsExpression(in.Value.Value) {
					s.ListFilesInvalid = true
				}
			}
			in := ex.Inputs["filters"]
			if in == nil || in.Value == nil {
				s.Err = &Error{Pos: s.Pos, Msg: "dorny/paths-filter step has no `filters` input"}
				out = append(out, s)
				continue
			}
			s.FiltersPos = strPos(file, in.Value)
			v := strings.TrimSpace(in.Value.Value) // getInput trims; isPathInput sees the trimmed text
			switch {
			case actionlint.ContainsExpression(v):
				s.Dynamic = true
			case IsFilterPath(v):
				s.FilterFile = path.Clean(path.Join(s.Inputs["working-directory"], strings.TrimSpace(v)))
				s.Filters, s.Err = readFilterFile(fsys, s.FilterFile, s.FiltersPos, s.Model.jsYAML())
			default:
				if lines == nil {
					lines = bytes.Split(src, []byte("\n"))
				}
				o := inlineOrigin(file, in.Value, lines)
				o.JSYAML = s.Model.jsYAML()
				s.Filters, s.Err = ParseFilters([]byte(v), o)
			}
			out = append(out, s)
		}
	}
	return out
}

func readFilterFile(fsys fs.FS, name string, at Pos, jsYAML int) (*Filters, error) {
	if fsys == nil {
		return nil, &Error{Pos: at, Msg: fmt.Sprintf("Configuration file '%s' not found", name)}
	}
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, &Error{Pos: at, Msg: fmt.Sprintf("Configuration file '%s' not found", name)}
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{Pos: at, Msg: fmt.Sprintf("'%s' is not a file.", name)}
	}
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, &Error{Pos: at, Msg: fmt.Sprintf("Configuration file '%s' cannot be read: %v", name, err)}
	}
	return ParseFilters(b, Origin{File: name, JSYAML: jsYAML})
}

// inlineOrigin maps positions inside an inline `filters:` value back to the
// workflow file. A block scalar's content starts on the line after its
// indicator, at the indentation of its first non-blank line.
func inlineOrigin(file string, s *actionlint.String, lines [][]byte) Origin {
	if s.Pos == nil {
		return Origin{File: file}
	}
	o := Origin{File: file, Line: s.Pos.Line, Col: s.Pos.Col}
	if s.Quoted {
		o.Col++
	}
	if l := s.Pos.Line; l >= 1 && l <= len(lines) {
		rest := strings.TrimSpace(string(lines[l-1][min(len(lines[l-1]), max(0, s.Pos.Col-1)):]))
		if strings.HasPrefix(rest, "|") || strings.HasPrefix(rest, ">") {
			o.Block = true
			for k := l; k < len(lines); k++ {
				t := string(lines[k])
				if strings.TrimSpace(t) == "" {
					continue
				}
				o.Indent = len(t) - len(strings.TrimLeft(t, " "))
				// Blank leading lines are dropped from the value; count them.
				o.Line = k
				break
			}
		}
	}
	return o
}

func strPos(file string, s *actionlint.String) Pos {
	if s == nil || s.Pos == nil {
		return Pos{File: file}
	}
	p := Pos{file, s.Pos.Line, s.Pos.Col}
	if s.Quoted {
		p.Col++
	}
	return p
}

func posLess(a, b *actionlint.Pos) bool {
	if a == nil || b == nil {
		return b != nil
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

// StepResult is one step simulated on one diff.
type StepResult struct {
	Step *Step
	// Failed: the step fails (an invalid input value or bad filters), so
	// no output is set and its job's result is failure.
	Failed     bool
	FailReason string
	// Unknown: cicheck cannot simulate the step at all (dynamic filters,
	// an unmodelled release); every output is unknown.
	Unknown bool
	Reason  string
	Results []Result
	Outputs map[string]Output
}

// APIMaxFiles is how many files the pulls.listFiles API returns: on pull
// request events with a token the action never sees more (spec §4).
const APIMaxFiles = 3000

// UsesAPI reports whether, on event, the action lists the changed files
// through the REST API (pull request events, `base` not HEAD, a token,
// which defaults to github.token) rather than git.
func (s *Step) UsesAPI(event string) bool {
	switch event {
	case "pull_request", "pull_request_review", "pull_request_review_comment", "pull_request_target":
	default:
		return false
	}
	if s.Inputs["base"] == "HEAD" {
		return false
	}
	tok, set := s.Inputs["token"]
	return !set || tok != ""
}

// Evaluate simulates the step on the changed files.
func (s *Step) Evaluate(files []ChangedFile) StepResult {
	r := StepResult{Step: s}
	switch {
	case s.QuantVerdict == QuantRejected:
		r.Failed = true
		r.FailReason = fmt.Sprintf("Input parameter 'predicate-quantifier' is set to invalid value '%s'. Valid values: %s", s.QuantifierRaw, s.Model.ValidQuantifiers())
		return r
	case s.ListFilesInvalid:
		r.Failed = true
		r.FailReason = fmt.Sprintf("Input parameter 'list-files' is set to invalid value '%s'", s.ListFilesRaw)
		return r
	case s.Dynamic:
		r.Unknown, r.Reason = true, "the filters input is an expression"
		return r
	case s.Err != nil:
		var e *Error
		if errors.As(s.Err, &e) && e.Unmodelled {
			r.Unknown, r.Reason = true, e.Msg
			return r
		}
		r.Failed, r.FailReason = true, s.Err.Error()
		return r
	case !s.Model.Modelled:
		r.Unknown, r.Reason = true, fmt.Sprintf("dorny/paths-filter %s predates picomatch and is not modelled", s.Model.Version)
		return r
	}
	q := s.Quantifier
	if actionlint.ContainsExpression(s.QuantifierRaw) {
		r.Unknown, r.Reason = true, "predicate-quantifier is an expression"
		return r
	}
	r.Results = s.Filters.Evaluate(files, q)
	if !s.Model.Resolved && s.QuantifierRaw != "" && s.QuantifierRaw != string(QuantSome) {
		// The release is unknown, so the quantifier's meaning is too.
		for i := range r.Results {
			r.Results[i] = Result{Name: r.Results[i].Name, Match: Unknown,
				Reason: fmt.Sprintf("unknown release for ref %q: predicate-quantifier %q may not be honoured", s.Model.Ref, s.QuantifierRaw)}
		}
	}
	r.Outputs = Outputs(r.Results, s.ListFiles)
	return r
}
