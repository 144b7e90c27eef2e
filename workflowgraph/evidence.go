package workflowgraph

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/rhysd/actionlint"

	"github.com/cicheck/cicheck/expr"
)

// Device evidence: what a job does that only an accelerator's machine
// allows, for every vendor. A container given devices, a `docker run` or
// `podman run` in a step that is, a vendor's inventory tool, a device
// visibility variable with a value. An accelerator base image proves
// nothing on its own: a CUDA image on a CPU runner is a build.

// deviceNodes are device paths, by vendor ("gpu": shared by AMD and Intel).
var deviceNodes = []struct{ path, vendor string }{
	{"/dev/nvidia", "nvidia"}, {"/dev/kfd", "amd"}, {"/dev/dri", AccelGPU}, {"/dev/davinci", "huawei"},
	{"/dev/neuron", "aws"}, {"/dev/accel", AccelGPU}, {"/dev/tenstorrent", "tenstorrent"},
	{"/dev/mtgpu", "moorethreads"}, {"/dev/cambricon", "cambricon"}, {"/dev/hl", "intel"},
}

// runtimes are container runtimes that give a container a vendor's devices.
var runtimes = []struct{ name, vendor string }{
	{"nvidia", "nvidia"}, {"habana", "intel"}, {"mthreads", "moorethreads"}, {"ascend", "huawei"},
}

// inventoryTools are commands that list or manage a vendor's devices and
// fail without them.
var inventoryTools = []struct{ name, vendor string }{
	{"nvidia-smi", "nvidia"}, {"rocm-smi", "amd"}, {"amd-smi", "amd"}, {"rocminfo", "amd"}, {"xpu-smi", "intel"},
	{"hl-smi", "intel"}, {"npu-smi", "huawei"}, {"neuron-ls", "aws"}, {"neuron-top", "aws"}, {"tt-smi", "tenstorrent"},
	{"tpu-info", "google"}, {"mthreads-gmi", "moorethreads"}, {"cnmon", "cambricon"},
	{"intel_gpu_top", "intel"}, {"hy-smi", "hygon"}, {"ixsmi", "iluvatar"}, {"mx-smi", "metax"},
	{"efsmi", "enflame"}, {"xpu_smi", "kunlunxin"},
	// Not sycl-ls or clinfo: they succeed on a CPU-only machine, listing
	// its CPU's OpenCL or SYCL device.
}

// visibilityVars select devices for a vendor's runtime; set to a device
// list they say the job has some.
type visibilityVar struct{ name, vendor string }

var visibilityVars = []visibilityVar{
	{"CUDA_VISIBLE_DEVICES", "nvidia"}, {"NVIDIA_VISIBLE_DEVICES", "nvidia"}, {"HIP_VISIBLE_DEVICES", "amd"},
	{"ROCR_VISIBLE_DEVICES", "amd"}, {"ZE_AFFINITY_MASK", "intel"}, {"HABANA_VISIBLE_DEVICES", "intel"},
	{"HABANA_VISIBLE_MODULES", "intel"}, {"ASCEND_VISIBLE_DEVICES", "huawei"}, {"ASCEND_RT_VISIBLE_DEVICES", "huawei"},
	{"NEURON_RT_VISIBLE_CORES", "aws"}, {"TPU_VISIBLE_CHIPS", "google"}, {"MLU_VISIBLE_DEVICES", "cambricon"},
	{"MUSA_VISIBLE_DEVICES", "moorethreads"}, {"TT_VISIBLE_DEVICES", "tenstorrent"},
	// oneAPI's device selectors: the vendor is the backend they name (selectsDevices).
	{"ONEAPI_DEVICE_SELECTOR", "intel"}, {"SYCL_DEVICE_FILTER", "intel"},
}

// deviceEvidence is the job's own evidence that it uses an accelerator,
// and the vendor it points to ("gpu" when shared), or "".
func deviceEvidence(j *Job) (why, vendor string) {
	// Classification asks for a job's evidence once per sibling, caller and
	// witness it weighs: read each job's steps once per workflow.
	if j.wf == nil || j.wf.memo == nil {
		return readDeviceEvidence(j)
	}
	m := j.wf.memo
	m.mu.Lock()
	r, ok := m.evidence[j]
	m.mu.Unlock()
	if !ok {
		r[0], r[1] = readDeviceEvidence(j)
		m.mu.Lock()
		if m.evidence == nil {
			m.evidence = map[*Job][2]string{}
		}
		m.evidence[j] = r
		m.mu.Unlock()
	}
	return r[0], r[1]
}

// readDeviceEvidence is deviceEvidence without the memo.
func readDeviceEvidence(j *Job) (why, vendor string) {
	if j.AST == nil {
		return "", ""
	}
	if ct := j.AST.Container; ct != nil {
		if ct.Options != nil {
			if what, v := dockerDevices(ct.Options.Value); what != "" {
				return "container options " + what, v
			}
			for _, o := range matrixValuesRead(j, ct.Options.Value) {
				if what, v := dockerDevices(o); what != "" {
					return "container options, by a matrix value, " + what, v
				}
			}
		}
		if what, v := visibleDevices(ct.Env); what != "" {
			return "container env " + what, v
		}
	}
	if what, v := visibleDevices(j.AST.Env); what != "" {
		return "job env " + what, v
	}
	for _, st := range j.AST.Steps {
		if stepNeverRuns(j, st) {
			continue
		}
		if what, v := visibleDevices(st.Env); what != "" {
			return "step env " + what, v
		}
		run, ok := st.Exec.(*actionlint.ExecRun)
		if !ok || run.Run == nil {
			continue
		}
		script := run.Run.Value
		for _, t := range inventoryTools {
			if containsWord(script, t.name) {
				return "a step runs " + t.name, t.vendor
			}
		}
		for _, line := range commandLines(script) {
			if strings.Contains(line, "docker run") || strings.Contains(line, "podman run") || strings.Contains(line, "docker create") {
				if what, v := dockerDevices(line); what != "" {
					return "a step's container gets " + what, v
				}
			}
			if what, v := scriptVisibleDevices(line); what != "" {
				return "a step sets " + what, v
			}
		}
	}
	return "", ""
}

// stepNeverRuns: in a called workflow, the step's if: is false for the
// inputs this caller passes (`if: inputs.mode == 'cuda'` called with mode
// cpu), so its evidence is not this job's.
func stepNeverRuns(j *Job, st *actionlint.Step) bool {
	return st.If != nil && neverRunsFor(j.wf, st.If.Value, false)
}

// jobNeverRuns: a called job whose if: is false for the caller's inputs
// (`if: inputs.run-macos`, not passed and false by default): it runs for
// other callers, not this one, so its runner is not this caller's.
func jobNeverRuns(j *Job) bool {
	return j.AST != nil && j.AST.If != nil && neverRunsFor(j.wf, j.AST.If.Value, true)
}

// neverRunsFor: in w, a workflow built for a caller, the condition is
// false for the inputs the caller passes, or their defaults (typed as
// declared). Only a condition whose every input is known is judged. A
// value the caller passes as an expression (several values over its
// matrix) is unknown when exact is set; else it is compared as written, as
// steps always were.
func neverRunsFor(w *Workflow, cond string, exact bool) bool {
	if w == nil || w.Inputs == nil {
		return false
	}
	v := strings.TrimSpace(cond)
	if strings.HasPrefix(v, "${{") && strings.HasSuffix(v, "}}") {
		v = v[3 : len(v)-2]
	}
	e, err := ParseExpr(v)
	if err != "" {
		return false
	}
	var defaults map[string]string
	rc := &resolveCtx{}
	if w.AST != nil {
		rc.types, defaults = inputTypes(w.AST), inputDefaults(w.AST)
	}
	known := map[string]expr.Value{}
	complete := true
	actionlint.VisitExprNode(e, func(n, _ actionlint.ExprNode, entering bool) {
		d, ok := n.(*actionlint.ObjectDerefNode)
		if !ok || !entering {
			return
		}
		if r, ok := d.Receiver.(*actionlint.VariableNode); ok && strings.EqualFold(r.Name, "inputs") {
			name := strings.ToLower(d.Property)
			val, ok := w.Inputs[name]
			if !ok {
				val, ok = defaults[name]
			}
			if !ok || exact && strings.Contains(val, "${{") {
				complete = false
				return
			}
			known[name] = rc.typed(name, expr.String(val))
		}
	})
	if !complete || len(known) == 0 {
		return false
	}
	env := &expr.Env{Contexts: map[string]expr.Value{"inputs": expr.Object(known)}}
	return expr.Eval(e, env).Truthy() == expr.No
}

// dockerDevices finds, in docker (or podman) options, the flag that gives
// the container an accelerator.
func dockerDevices(opts string) (string, string) {
	o := strings.ToLower(opts)
	if containsWord(o, "--gpus") {
		return "--gpus", "nvidia"
	}
	for _, r := range runtimes {
		if strings.Contains(o, "--runtime="+r.name) || strings.Contains(o, "--runtime "+r.name) {
			return "--runtime=" + r.name, r.vendor
		}
	}
	for _, d := range deviceNodes {
		if strings.Contains(o, d.path) {
			return d.path, d.vendor
		}
	}
	return "", ""
}

// commandLines splits a script into its commands' lines, a line ending in
// a backslash joined with the next (a `docker run \` whose --device flag
// is on the line below is one command).
func commandLines(script string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(script, "\n") {
		t := strings.TrimRight(line, " \t\r")
		if rest, ok := strings.CutSuffix(t, "\\"); ok {
			cur.WriteString(rest)
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(line)
		out = append(out, cur.String())
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// assignRE matches NAME=value as a shell assignment or a docker -e/--env
// value: at the start of a command, after export, or after a space or =;
// not inside a quoted string (`echo "X=$X"` prints, it sets nothing).
var assignRE = regexp.MustCompile(`(?:^|[\s;(=])(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s;'"]*)`)

// scriptVisibleDevices finds, in a script line, a device visibility
// variable set to devices: a literal value, not empty, not one that hides
// them, and not another variable (whose value is not known).
func scriptVisibleDevices(line string) (string, string) {
	if !slices.ContainsFunc(visibilityVars, func(v visibilityVar) bool { return strings.Contains(line, v.name) }) {
		return "", "" // most lines: no regular expression, no quoting scan
	}
	quoted := quotedAt(line)
	for _, ix := range assignRE.FindAllStringSubmatchIndex(line, -1) {
		name := line[ix[2]:ix[3]]
		if quoted[ix[2]] {
			continue
		}
		for _, v := range visibilityVars {
			if name != v.name {
				continue
			}
			val := strings.Trim(line[ix[4]:ix[5]], `"'`)
			if strings.HasPrefix(val, "$") {
				continue
			}
			if vendor, ok := selectsDevices(v.name, val, v.vendor); ok {
				return v.name + "=" + val, vendor
			}
		}
	}
	return "", ""
}

// quotedAt reports, for each byte of a shell line, whether it is inside a
// quoted string.
func quotedAt(line string) []bool {
	out := make([]bool, len(line)+1)
	var q byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q != 0 && c == q:
			q = 0
			out[i] = true
			continue
		}
		out[i] = q != 0
	}
	return out
}

// selectsDevices reports a visibility value that selects devices, and the
// vendor it names. oneAPI's selectors name a backend and device type
// (level_zero:gpu is Intel's GPU, cuda:* NVIDIA's, hip:* AMD's); one that
// selects only CPUs (opencl:cpu) or only excludes (!level_zero:*) selects
// no accelerator.
func selectsDevices(name, val, vendor string) (string, bool) {
	if hidesDevices(val) {
		return "", false
	}
	if name != "ONEAPI_DEVICE_SELECTOR" && name != "SYCL_DEVICE_FILTER" {
		return vendor, true
	}
	for _, term := range strings.FieldsFunc(strings.ToLower(val), func(r rune) bool { return r == ';' || r == ',' && name == "SYCL_DEVICE_FILTER" }) {
		// An exclusion ("!level_zero") or a CPU backend matches no case.
		backend, devs, _ := strings.Cut(strings.TrimSpace(term), ":")
		switch backend {
		case "level_zero", "ext_oneapi_level_zero":
			return "intel", true
		case "cuda", "ext_oneapi_cuda":
			return "nvidia", true
		case "hip", "ext_oneapi_hip":
			return "amd", true
		case "opencl", "*", "gpu":
			if strings.HasPrefix(devs, "gpu") || backend == "gpu" { // gpu, gpu:0
				return AccelGPU, true
			}
		}
	}
	return "", false
}

// hidesDevices: a visibility value that selects no device.
func hidesDevices(val string) bool {
	switch strings.ToLower(strings.TrimSpace(val)) {
	case "", "-1", "none", "void", "nodevfiles":
		return true
	}
	return false
}

// visibleDevices finds a device visibility variable set to devices (not
// empty, and not a value that hides them: "", -1, none, void).
func visibleDevices(env *actionlint.Env) (string, string) {
	if env == nil {
		return "", ""
	}
	for _, v := range visibilityVars {
		for _, ev := range env.Vars {
			if ev == nil || ev.Name == nil || !strings.EqualFold(ev.Name.Value, v.name) || ev.Value == nil {
				continue
			}
			if vendor, ok := selectsDevices(v.name, ev.Value.Value, v.vendor); ok {
				return v.name + "=" + ev.Value.Value, vendor
			}
		}
	}
	return "", ""
}

// Runner pinning: a job whose runs-on is another job's output holding
// runner.name runs on that job's very machine (a runner's name is one of
// its labels). The anchor and the jobs pinned to it share one machine, so
// device evidence in any of them, or an accelerator the anchor's labels
// name, holds for all of them.

// runnerNameRef matches what a step writes for the runner's name.
var runnerNameRef = regexp.MustCompile(`\$\{\{\s*runner\.name\s*\}\}|\$\{?RUNNER_NAME\b`)

// pinnedAnchor is the job of j's workflow whose machine j's runs-on names
// (`${{ needs.x.outputs.y }}`, y being x's runner.name), or nil.
func pinnedAnchor(j *Job) *Job {
	if j.wf == nil || len(j.Runner.Symbolic) != 1 || len(j.Runner.Labels) > 0 || j.Runner.Group != "" {
		return nil
	}
	t := strings.TrimSpace(j.Runner.Symbolic[0])
	if !isSingleExpr(t) {
		return nil
	}
	e, err := ParseExpr(t[3 : len(t)-2])
	if err != "" {
		return nil
	}
	out, ok := e.(*actionlint.ObjectDerefNode)
	if !ok {
		return nil
	}
	outs, ok := out.Receiver.(*actionlint.ObjectDerefNode)
	if !ok || !strings.EqualFold(outs.Property, "outputs") {
		return nil
	}
	need, ok := outs.Receiver.(*actionlint.ObjectDerefNode)
	if !ok {
		return nil
	}
	if v, ok := need.Receiver.(*actionlint.VariableNode); !ok || !strings.EqualFold(v.Name, "needs") {
		return nil
	}
	x := j.wf.Job(strings.ToLower(need.Property))
	if x == nil || x == j || !outputIsRunnerName(x, strings.ToLower(out.Property)) {
		return nil
	}
	return x
}

// outputIsRunnerName: x's output name is `${{ runner.name }}`, directly or
// through a step of x that writes it to $GITHUB_OUTPUT under that key.
func outputIsRunnerName(x *Job, name string) bool {
	v := strings.TrimSpace(x.Outputs[name])
	if !isSingleExpr(v) {
		return false
	}
	inner := strings.TrimSpace(v[3 : len(v)-2])
	if strings.EqualFold(inner, "runner.name") {
		return true
	}
	parts := strings.Split(inner, ".")
	if len(parts) != 4 || !strings.EqualFold(parts[0], "steps") || !strings.EqualFold(parts[2], "outputs") || x.AST == nil {
		return false
	}
	for _, st := range x.AST.Steps {
		if st == nil || st.ID == nil || !strings.EqualFold(st.ID.Value, parts[1]) {
			continue
		}
		run, ok := st.Exec.(*actionlint.ExecRun)
		if !ok || run.Run == nil {
			return false
		}
		for _, line := range strings.Split(run.Run.Value, "\n") {
			if strings.Contains(line, "GITHUB_OUTPUT") && strings.Contains(line, parts[3]+"=") && runnerNameRef.MatchString(line) {
				return true
			}
		}
	}
	return false
}

// anchorsOf maps each job of w pinned to another's machine to that job,
// found once per workflow (rules ask about every job, often several times).
func (c *Classifier) anchorsOf(w *Workflow) map[*Job]*Job {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := c.anchors[w]; ok {
		return m
	}
	m := map[*Job]*Job{}
	for _, o := range w.Jobs {
		if a := pinnedAnchor(o); a != nil {
			m[o] = a
		}
	}
	if c.anchors == nil {
		c.anchors = map[*Workflow]map[*Job]*Job{}
	}
	c.anchors[w] = m
	return m
}

// pinned is the evidence that j's machine, shared by pinning with other
// jobs of its workflow, is an accelerator's: the anchor's labels or
// another job's device evidence. "" when none.
func (c *Classifier) pinned(j *Job) (why, vendor string) {
	if j.wf == nil {
		return "", ""
	}
	anchors := c.anchorsOf(j.wf)
	anchor := anchors[j]
	if anchor == nil {
		anchor = j
	}
	if hostedOnly(anchor.Runner) {
		return "", ""
	}
	var group []*Job
	for _, o := range j.wf.Jobs {
		if o == anchor || anchors[o] == anchor {
			group = append(group, o)
		}
	}
	if len(group) < 2 {
		return "", ""
	}
	link := "pinned with job " + anchor.ID + " to one machine (runs-on is its runner.name)"
	if anchor != j {
		for _, l := range anchor.Runner.All() {
			if why, kind, ok := c.labelReason(l); ok {
				return link + ", whose label " + quote(l) + ": " + why, kind
			}
		}
	}
	for _, o := range group {
		if o == j {
			continue
		}
		if why, v := deviceEvidence(o); why != "" {
			if anchor == j {
				return "job " + o.ID + " is pinned to this job's machine (runs-on is its runner.name), where " + why, v
			}
			return link + ", where job " + o.ID + ": " + why, v
		}
	}
	return "", ""
}

// matrixValuesRead is the text of the job's matrix values that s reads
// through `${{ matrix.a.b }}`: every string under key b (the last name) in
// the matrix's rows and include entries. Each leg reads its own; any leg
// with a device makes the job an accelerator job, as any leg's label does.
func matrixValuesRead(j *Job, s string) []string {
	if j.AST.Strategy == nil || j.AST.Strategy.Matrix == nil || !mentionsMatrix(s) {
		return nil
	}
	keys := map[string]bool{}
	for _, n := range parseEmbedded(s, nil) {
		actionlint.VisitExprNode(n, func(node, _ actionlint.ExprNode, entering bool) {
			if d, ok := node.(*actionlint.ObjectDerefNode); ok && entering && strings.HasPrefix(strings.ToLower(derefPath(d)), "matrix.") {
				keys[strings.ToLower(d.Property)] = true
			}
		})
	}
	var out []string
	var walk func(key string, v actionlint.RawYAMLValue)
	walk = func(key string, v actionlint.RawYAMLValue) {
		switch v := v.(type) {
		case *actionlint.RawYAMLString:
			if keys[key] {
				out = append(out, v.Value)
			}
		case *actionlint.RawYAMLObject:
			for k, p := range v.Props {
				walk(strings.ToLower(k), p)
			}
		case *actionlint.RawYAMLArray:
			for _, e := range v.Elems {
				walk(key, e)
			}
		}
	}
	m := j.AST.Strategy.Matrix
	for name, row := range m.Rows {
		if row != nil {
			for _, v := range row.Values {
				walk(strings.ToLower(name), v)
			}
		}
	}
	if m.Include != nil {
		for _, c := range m.Include.Combinations {
			if c == nil {
				continue
			}
			for k, a := range c.Assigns {
				if a != nil {
					walk(strings.ToLower(k), a.Value)
				}
			}
		}
	}
	sort.Strings(out) // map order: the first device found is the same every run
	return out
}
