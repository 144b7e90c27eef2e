package workflowgraph

import (
	"regexp"
	"strings"
	"sync"
)

// Accelerator kinds.
const (
	AccelNVIDIA  = "nvidia"
	AccelAMD     = "amd"
	AccelTPU     = "tpu"
	AccelIntel   = "intel"
	AccelNeuron  = "aws-neuron"
	AccelNPU     = "npu"
	AccelGPU     = "gpu"       // a GPU of no stated vendor
	AccelCloud   = "cloud-gpu" // a cloud GPU instance family
	accelNothing = ""
)

// accelVocabulary is matched against whole tokens of a runner label or
// group name: the label is split on '-', '.', '_', '/', ':' and spaces, so
// "linux-a100-s2", "linux.dgx.b200", "aws-g6-12xlarge-plus" and
// "nemo-ci-gcp-gpu-x8" each have a token that names their hardware, while
// "a100" inside "ca1000" or "t4" inside "t4g" does not match. A token may
// carry a count: "l20x8", "8xh100", "1gpu", "gpus".
var accelVocabulary = sync.OnceValue(func() []struct {
	kind string
	re   *regexp.Regexp
} {
	count := func(body string) *regexp.Regexp {
		return regexp.MustCompile(`^(?:\d+x)?(?:` + body + `)(?:x\d+)?$`)
	}
	return []struct {
		kind string
		re   *regexp.Regexp
	}{
		{AccelGPU, regexp.MustCompile(`^\d*gpus?\d*$`)},
		{AccelNVIDIA, count(`nvidia|cuda\d*|dgx|a10g?|a30|a40|a100|a800|h20|h100|h200|h800|b100|b200|b300|gb10|gb200|gb300|gh200|l4|l20|l40s?|t4|v100|p100|rtx\w*|a[456]000|quadro\w*`)},
		// Consumer cards by model number, as fleets of workstations name them
		// ("3090-r1"): only the GeForce numbers, which name nothing else here.
		{AccelNVIDIA, regexp.MustCompile(`^(?:1080|2080|3060|3070|3080|3090|4070|4080|4090|5070|5080|5090)(?:ti)?$`)},
		{AccelAMD, count(`rocm\d*|mi[1-4]\d{1,2}[a-z]*|gfx9\d{2}|gfx1\d{3}|radeon\w*|instinct`)},
		// TPUs, and GCP's TPU VM families (ct5lp, ct6e).
		{AccelTPU, regexp.MustCompile(`^(?:\d*x?tpu\w*|ct[4-7][a-z]*)$`)},
		// Intel: data-center GPUs and Gaudi, and the Arc cards fleets name
		// (Battlemage, B580/B570, A770/A750).
		{AccelIntel, count(`xpu|pvc|gaudi\d*|hpu|bmg|b5[78]0|a7[57]0`)},
		{AccelNeuron, count(`trn\d|trainium\d*|inf[12]|inferentia\d*|neuron`)},
		{AccelNPU, count(`npu|ascend\w*|910[bc]?`)},
		// Cloud GPU instance families: AWS (g4dn ... p6), GCP (a2, a3, a4,
		// g2), Azure (NC/ND/NV sizes).
		{AccelCloud, regexp.MustCompile(`^(?:g4dn|g4ad|g5|g5g|g6|g6e|g6f|gr6|p3|p3dn|p4d|p4de|p5|p5e|p5en|p6|a2|a3|a4|g2|n[cdv]\d+[a-z]*)$`)},
	}
})

// githubHosted reports a label of a GitHub-hosted runner image (standard
// or larger): never an accelerator, whatever its name contains.
func githubHosted(label string) bool {
	l := strings.ToLower(label)
	for _, p := range []string{"ubuntu-", "windows-", "macos-"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// Accelerator returns the accelerator kind a runner label or group name
// names and the token that says so, or "" when it names none. A
// GitHub-hosted image label names none.
func Accelerator(label string) (kind, token string) {
	if githubHosted(label) {
		return accelNothing, ""
	}
	for _, t := range strings.FieldsFunc(strings.ToLower(label), func(r rune) bool {
		return r == '-' || r == '.' || r == '_' || r == '/' || r == ':' || r == ' ' || r == '\t'
	}) {
		for _, v := range accelVocabulary() {
			if v.re.MatchString(t) {
				return v.kind, t
			}
		}
	}
	return accelNothing, ""
}
