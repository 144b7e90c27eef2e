package workflowgraph

import (
	"strings"

	"github.com/rhysd/actionlint"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Classifier decides which jobs are GPU (accelerator) jobs and which run on
// heavy (scarce) runners. A job is a GPU job when it is listed by id, when
// a runner label or its group matches a configured glob or names an
// accelerator (Accelerator: a token such as h100, mi350x, g6e, tpuv7x),
// when a label its symbolic runs-on may take does (Runner.Candidates), or,
// on a runner that is not GitHub-hosted, when the job itself needs a GPU
// (container options --gpus or a device mount, a step calling nvidia-smi
// or rocm-smi). Labels matching an exclude pattern never count.
type Classifier struct {
	gpuLabels, heavyLabels []string
	excluded               []string
	gpuJobs, heavyJobs     map[string]bool
	selfHostedHeavy        bool

	// Runner labels repeat across a workflow's jobs (and rules ask about
	// the same job several times), so each label's verdict is cached.
	mu               sync.Mutex
	gpuHit, heavyHit map[string]bool
	witnesses        map[*Workflow]map[string]*Job // per workflow: runner key -> job with device evidence
	anchors          map[*Workflow]map[*Job]*Job   // per workflow: job -> the job whose machine it is pinned to
}

// NewClassifier builds a Classifier. Patterns use doublestar glob syntax
// (`*gpu`, `cuda*`, `mi3*`); job ids compare case-insensitively.
func NewClassifier(gpuLabels, gpuJobs, heavyLabels, heavyJobs []string) *Classifier {
	c := &Classifier{gpuJobs: map[string]bool{}, heavyJobs: map[string]bool{}}
	for _, p := range gpuLabels {
		c.gpuLabels = append(c.gpuLabels, strings.ToLower(p))
	}
	for _, p := range heavyLabels {
		c.heavyLabels = append(c.heavyLabels, strings.ToLower(p))
	}
	for _, j := range gpuJobs {
		c.gpuJobs[strings.ToLower(j)] = true
	}
	for _, j := range heavyJobs {
		c.heavyJobs[strings.ToLower(j)] = true
	}
	return c
}

// Exclude returns c with labels matching patterns (doublestar globs,
// case-insensitive) never taken for accelerators: a label that only looks
// like one.
func (c *Classifier) Exclude(patterns ...string) *Classifier {
	for _, p := range patterns {
		c.excluded = append(c.excluded, strings.ToLower(p))
	}
	return c
}

// IsGPU reports whether j runs on a GPU runner (or calls a workflow that
// does), or is listed as a GPU job.
func (c *Classifier) IsGPU(j *Job) bool { return c.GPULabel(j) != "" }

// GPULabel returns why j is a GPU job: the first matching label, or
// "gpu.jobs" when listed by id; "" when it is not one.
func (c *Classifier) GPULabel(j *Job) string {
	if c == nil || j == nil {
		return ""
	}
	if c.gpuJobs[strings.ToLower(j.ID)] {
		return "gpu.jobs"
	}
	if j.Callee == nil {
		if l := c.match(c.gpuLabels, &c.gpuHit, j.Runner); l != "" {
			return l
		}
		if _, ok := c.appleMac(j.Runner.All()); ok {
			return "apple silicon: " + strings.Join(j.Runner.All(), ", ")
		}
		for _, cand := range j.Runner.Candidates {
			if c.gpuHitLocked(cand.Label) {
				return cand.Label
			}
		}
		for _, lit := range literalParts(j.Runner) {
			if c.gpuHitLocked(lit) {
				return lit
			}
		}
	}
	if cj := c.acceleratedCallee(j); cj != nil {
		return "calls " + j.Uses
	}
	if !hostedOnly(j.Runner) {
		if why, _ := deviceEvidence(j); why != "" {
			return why
		}
		if w := c.witness(j); w != nil {
			return "same runner as " + w.ID
		}
		if why, _ := c.pinned(j); why != "" {
			return why
		}
	}
	return ""
}

// acceleratedCallee is the first job of the local workflow j calls that
// is an accelerator job (by its own labels or evidence) and may run for
// j's inputs: the caller runs it, so the evidence reaches the caller. nil
// when none. A caller is judged by its called jobs, not by the union of
// their labels, which holds the runners of jobs its inputs skip.
func (c *Classifier) acceleratedCallee(j *Job) *Job {
	if j.Callee == nil {
		return nil
	}
	for _, cj := range j.Callee.Jobs {
		if !jobNeverRuns(cj) && c.IsGPU(cj) {
			return cj
		}
	}
	return nil
}

// witness is another job of j's workflow on exactly j's runner (the same
// labels and group, all resolved) whose own device evidence shows that
// runner is an accelerator's: its evidence holds for j too. nil when none.
func (c *Classifier) witness(j *Job) *Job {
	if j.wf == nil || len(j.Runner.Symbolic) > 0 || !specific(j.Runner) {
		return nil
	}
	key := runnerKey(j.Runner)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.witnesses == nil {
		c.witnesses = map[*Workflow]map[string]*Job{}
	}
	m, ok := c.witnesses[j.wf]
	if !ok {
		m = map[string]*Job{}
		for _, o := range j.wf.Jobs {
			if len(o.Runner.Symbolic) > 0 || hostedOnly(o.Runner) {
				continue
			}
			k := runnerKey(o.Runner)
			if _, seen := m[k]; seen || k == "" {
				continue
			}
			if why, _ := deviceEvidence(o); why != "" {
				m[k] = o
			}
		}
		c.witnesses[j.wf] = m
	}
	if w := m[key]; w != nil && w != j {
		return w
	}
	return nil
}

// defaultLabels are the labels every self-hosted runner gets (GitHub docs,
// "Using labels with self-hosted runners"): a set of only these names no
// pool, so one job's evidence says nothing of another's runner.
var defaultLabels = map[string]bool{"self-hosted": true, "linux": true, "windows": true, "macos": true, "x64": true, "arm": true, "arm64": true}

// CustomLabels are r's labels that name a pool: neither a default
// self-hosted label nor a GitHub-hosted image's name.
func CustomLabels(r Runner) []string {
	var out []string
	for _, l := range r.Labels {
		if !defaultLabels[strings.ToLower(l)] && !githubHosted(l) {
			out = append(out, l)
		}
	}
	return out
}

// specific: the runner names a pool (a group, or a label that is neither a
// default one nor a GitHub-hosted image's name borrowed by a self-hosted
// runner).
func specific(r Runner) bool {
	if r.Group != "" {
		return true
	}
	for _, l := range r.Labels {
		if !defaultLabels[strings.ToLower(l)] && !githubHosted(l) {
			return true
		}
	}
	return false
}

// runnerKey identifies a resolved runner: its sorted labels and group.
func runnerKey(r Runner) string {
	return strings.ToLower(strings.Join(r.Labels, "\x00") + "\x00group:" + r.Group)
}

// gpuHitLocked is the GPU verdict for one label, through the cache.
func (c *Classifier) gpuHitLocked(l string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gpuHit == nil {
		c.gpuHit = map[string]bool{}
	}
	return c.gpuLabelHit(l)
}

// gpuLabelHit is the uncached verdict, under c.mu.
func (c *Classifier) gpuLabelHit(l string) bool {
	if ok, seen := c.gpuHit[l]; seen {
		return ok
	}
	ok := match(c.excluded, []string{l}) == "" && (match(c.gpuLabels, []string{l}) != "" || accelOf(l))
	c.gpuHit[l] = ok
	return ok
}

func accelOf(l string) bool { k, _ := Accelerator(l); return k != "" }

// hostedOnly: every label is a GitHub-hosted image and nothing is symbolic.
func hostedOnly(r Runner) bool {
	if len(r.Labels) == 0 || len(r.Symbolic) > 0 || r.Group != "" {
		return false
	}
	for _, l := range r.Labels {
		if !githubHosted(l) {
			return false
		}
	}
	return true
}

// containsWord reports w in s between non-word characters.
func containsWord(s, w string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], w)
		if k < 0 {
			return false
		}
		k += i
		before := k == 0 || !isWordByte(s[k-1])
		after := k+len(w) == len(s) || !isWordByte(s[k+len(w)])
		if before && after {
			return true
		}
		i = k + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b == '-' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// HeavySelfHosted returns c with every job whose runs-on names
// self-hosted counted as heavy (heavy.self-hosted): a repository without
// .cicheck.yaml still hears about its scarce runners.
func (c *Classifier) HeavySelfHosted(on bool) *Classifier {
	c.selfHostedHeavy = on
	return c
}

// IsHeavy reports whether j runs on a runner matching heavy.runner-labels,
// is listed in heavy.jobs, or (with HeavySelfHosted) runs on a runner
// labelled self-hosted.
func (c *Classifier) IsHeavy(j *Job) bool {
	if c == nil || j == nil {
		return false
	}
	if c.selfHostedHeavy {
		for _, l := range j.Runner.Labels {
			if strings.EqualFold(l, "self-hosted") {
				return true
			}
		}
	}
	return c.heavyJobs[strings.ToLower(j.ID)] || c.match(c.heavyLabels, &c.heavyHit, j.Runner) != ""
}

// MatchHeavyLabel reports whether a single label matches
// heavy.runner-labels.
func (c *Classifier) MatchHeavyLabel(label string) bool {
	return c != nil && match(c.heavyLabels, []string{label}) != ""
}

// MatchLabel reports whether a single label is a GPU label: a configured
// pattern or the accelerator vocabulary, and not excluded.
func (c *Classifier) MatchLabel(label string) bool {
	return c != nil && c.gpuHitLocked(label)
}

// match is the first of r's labels (then its group) matching patterns,
// through the per-label cache.
func (c *Classifier) match(patterns []string, cache *map[string]bool, r Runner) string {
	if len(patterns) == 0 && cache != &c.gpuHit {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if *cache == nil {
		*cache = map[string]bool{}
	}
	hit := func(l string) bool {
		if cache == &c.gpuHit {
			return c.gpuLabelHit(l)
		}
		ok, seen := (*cache)[l]
		if !seen {
			ok = match(patterns, []string{l}) != ""
			(*cache)[l] = ok
		}
		return ok
	}
	for _, l := range r.Labels {
		if hit(l) {
			return l
		}
	}
	if r.Group != "" && hit(r.Group) {
		return r.Group
	}
	return ""
}

func match(patterns, labels []string) string {
	for _, l := range labels {
		ll := strings.ToLower(l)
		for _, p := range patterns {
			if ok, err := doublestar.Match(p, ll); err == nil && ok {
				return l
			}
		}
	}
	return ""
}

// Runner classes.
const (
	ClassAccelerator  = "accelerator"
	ClassSelfHosted   = "self-hosted"
	ClassGitHubHosted = "github-hosted"
	ClassUnknown      = "unknown"
)

// JobClass is a job's runner class and why.
type JobClass struct {
	// Class is accelerator, self-hosted, github-hosted or unknown.
	Class string `json:"class"`
	// Kind is the accelerator's vendor as the hardware catalogue names it
	// (nvidia, amd, intel, google, aws, huawei, ...), or "gpu" when no
	// vendor is named; "" when unknown.
	Kind string `json:"kind"`
	// Reason says what decided, e.g. `label "linux-a100-s2": token "a100"
	// names nvidia gpu`.
	Reason string `json:"reason"`
}

// Classify returns j's runner class with its reason, by the same rules as
// GPULabel.
func (c *Classifier) Classify(j *Job) JobClass {
	if c == nil || j == nil {
		return JobClass{Class: ClassUnknown}
	}
	if c.gpuJobs[strings.ToLower(j.ID)] {
		return JobClass{Class: ClassAccelerator, Reason: "listed in gpu.jobs"}
	}
	labels := append(append([]string(nil), j.Runner.Labels...), j.Runner.Group)
	if j.Callee != nil {
		return c.classifyRest(j, labels)
	}
	for i, l := range labels {
		if l == "" {
			continue
		}
		what := "label"
		if i == len(labels)-1 {
			what = "group"
		}
		if why, kind, ok := c.labelReason(l); ok {
			return JobClass{Class: ClassAccelerator, Kind: kind, Reason: what + " " + quote(l) + ": " + why}
		}
	}
	if why, ok := c.appleMac(j.Runner.All()); ok {
		return JobClass{Class: ClassAccelerator, Kind: "apple", Reason: "labels " + quoteAll(j.Runner.All()) + ": " + why}
	}
	for _, cand := range j.Runner.Candidates {
		if why, kind, ok := c.labelReason(cand.Label); ok {
			return JobClass{Class: ClassAccelerator, Kind: kind,
				Reason: "runs-on may be " + quote(cand.Label) + " (" + cand.Why + "): " + why}
		}
	}
	for _, lit := range literalParts(j.Runner) {
		if why, kind, ok := c.labelReason(lit); ok {
			return JobClass{Class: ClassAccelerator, Kind: kind,
				Reason: "the literal text of runs-on " + quote(lit) + ": " + why}
		}
	}
	return c.classifyRest(j, labels)
}

// classifyRest is the rest of Classify (all of it for a caller): called
// jobs (as acceleratedCallee finds them), then the job's own device
// evidence, a sibling's, a pinned machine's, and else the runner's class.
func (c *Classifier) classifyRest(j *Job, labels []string) JobClass {
	if cj := c.acceleratedCallee(j); cj != nil {
		cl := c.Classify(cj)
		return JobClass{Class: ClassAccelerator, Kind: cl.Kind, Reason: "calls " + j.Uses + ", whose job " + cj.ID + " is one: " + cl.Reason}
	}
	if !hostedOnly(j.Runner) {
		if why, vendor := deviceEvidence(j); why != "" {
			if h, ok := c.weakHit(labels); ok && (vendor == AccelGPU || vendor == h.Vendor()) {
				why += ", on " + h.Describe()
				vendor = h.Vendor()
			}
			return JobClass{Class: ClassAccelerator, Kind: vendor, Reason: why}
		}
		if w := c.witness(j); w != nil {
			why, vendor := deviceEvidence(w)
			return JobClass{Class: ClassAccelerator, Kind: vendor,
				Reason: "the same runner as " + w.wf.Path + ":" + w.ID + ", where " + why}
		}
		if why, vendor := c.pinned(j); why != "" {
			return JobClass{Class: ClassAccelerator, Kind: vendor, Reason: why}
		}
	}
	switch {
	case hostedOnly(j.Runner):
		return JobClass{Class: ClassGitHubHosted, Reason: "GitHub-hosted image " + strings.Join(j.Runner.Labels, ", ")}
	case len(j.Runner.Labels) > 0 || j.Runner.Group != "":
		return JobClass{Class: ClassSelfHosted, Reason: "not a GitHub-hosted image and no accelerator named"}
	}
	return JobClass{Class: ClassUnknown, Reason: unresolvedReason(j)}
}

// literalParts is the text a symbolic runs-on has around its ${{ }}
// expressions ("runs-on=${{ github.run_id }}/image=ubuntu24-gpu-x64"): it
// is part of the label whatever the expressions give.
func literalParts(r Runner) []string {
	var out []string
	for _, sym := range r.Symbolic {
		sym = strings.TrimPrefix(sym, "group: ")
		if !strings.Contains(sym, "${{") {
			continue // a note such as "runs-on inside owner/repo/...": no label text
		}
		var b strings.Builder
		for {
			i := strings.Index(sym, "${{")
			if i < 0 {
				b.WriteString(sym)
				break
			}
			b.WriteString(sym[:i])
			b.WriteByte(' ')
			k := strings.Index(sym[i:], "}}")
			if k < 0 {
				break
			}
			sym = sym[i+k+2:]
		}
		if t := strings.TrimSpace(b.String()); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// unresolvedReason says where a runs-on cicheck cannot resolve comes from
// (a job output, a step, an input, a variable, a remote workflow), so the
// reader knows what to look at, or to list in gpu.runner-labels.
func unresolvedReason(j *Job) string {
	if j.Uses != "" && j.Callee == nil {
		return "the job calls " + j.Uses + ", whose runners cicheck cannot read"
	}
	for _, sym := range j.Runner.Symbolic {
		for _, n := range parseEmbedded(strings.TrimPrefix(sym, "group: "), nil) {
			var from string
			actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
				if d, ok := node.(*actionlint.ObjectDerefNode); ok && entering && from == "" {
					if _, ok := d.Receiver.(*actionlint.ObjectDerefNode); !ok {
						if _, ok := d.Receiver.(*actionlint.VariableNode); ok {
							from = derefPath(d)
						}
					}
				}
			})
			if from != "" {
				return "runs-on comes from " + sourceOf(from) + " (" + sym + "), which cicheck cannot resolve"
			}
		}
	}
	return "runs-on is not resolved statically"
}

// sourceOf names what a context path is: needs.x.outputs.y is a job's
// output, inputs.x an input, vars.x a variable, steps.x a step's output.
func sourceOf(path string) string {
	head, _, _ := strings.Cut(path, ".")
	switch head {
	case "needs":
		return "a job output"
	case "steps":
		return "a step output"
	case "inputs":
		return "an input"
	case "github":
		return "the github context"
	case "vars":
		return "a configuration variable"
	case "matrix":
		return "a matrix value"
	case "env":
		return "an environment variable"
	}
	return head
}

// labelReason says why one label is an accelerator's, if it is.
func (c *Classifier) labelReason(l string) (why, kind string, ok bool) {
	if match(c.excluded, []string{l}) != "" {
		return "", "", false
	}
	if p := matchingPattern(c.gpuLabels, l); p != "" {
		return "matches gpu.runner-labels " + quote(p), "", true
	}
	if githubHosted(l) {
		return "", "", false
	}
	for _, h := range labelHits(l) {
		if h.Strong() {
			return h.Describe(), h.Vendor(), true
		}
	}
	return "", "", false
}

// weakHit is the first weak hardware token of the labels, when none of
// them says CPU or build machine: it names the vendor beside the job's own
// device evidence, and never decides alone.
func (c *Classifier) weakHit(labels []string) (Hit, bool) {
	var first Hit
	found := false
	for _, l := range labels {
		if l == "" || githubHosted(l) || match(c.excluded, []string{l}) != "" {
			continue
		}
		if hasRole(l) {
			return Hit{}, false
		}
		for _, h := range labelHits(l) {
			if !found && !h.Strong() {
				first, found = h, true
			}
		}
	}
	return first, found
}

func matchingPattern(patterns []string, l string) string {
	ll := strings.ToLower(l)
	for _, p := range patterns {
		if ok, err := doublestar.Match(p, ll); err == nil && ok {
			return p
		}
	}
	return ""
}

func quote(s string) string { return `"` + s + `"` }

func quoteAll(ls []string) string {
	q := make([]string, len(ls))
	for i, l := range ls {
		q[i] = quote(l)
	}
	return strings.Join(q, ", ")
}

// appleMac is appleSilicon over the labels not excluded by configuration.
func (c *Classifier) appleMac(labels []string) (string, bool) {
	var keep []string
	for _, l := range labels {
		if match(c.excluded, []string{l}) == "" {
			keep = append(keep, l)
		}
	}
	return appleSilicon(keep)
}
