package workflowgraph

import "strings"

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

// The vocabulary is matched against whole tokens of a runner label or
// group name: the label is split on '-', '.', '_', '/', ':' and spaces, so
// "linux-a100-s2", "linux.dgx.b200", "aws-g6-12xlarge-plus" and
// "nemo-ci-gcp-gpu-x8" each have a token that names their hardware, while
// "a100" inside "ca1000" or "t4" inside "t4g" does not match. A token may
// carry a count: "l20x8", "8xh100", "1gpu", "gpus". The matcher is plain
// code (no regular expressions: compiling them cost every run about 3 ms);
// accel_test.go holds the same vocabulary as regular expressions and checks
// the two agree.
var (
	nvidiaModels = set("nvidia", "dgx", "a10", "a10g", "a30", "a40", "a100", "a800", "h20", "h100", "h200", "h800",
		"b100", "b200", "b300", "gb10", "gb200", "gb300", "gh200", "l4", "l20", "l40", "l40s", "t4", "v100", "p100",
		"a4000", "a5000", "a6000")
	geforce     = set("1080", "2080", "3060", "3070", "3080", "3090", "4070", "4080", "4090", "5070", "5080", "5090")
	intelModels = set("xpu", "pvc", "hpu", "bmg", "b580", "b570", "a770", "a750")
	neuron      = set("trn0", "trn1", "trn2", "trn3", "trn4", "trn5", "trn6", "trn7", "trn8", "trn9", "inf1", "inf2", "neuron")
	npus        = set("npu", "910", "910b", "910c")
	cloudGPU    = set("g4dn", "g4ad", "g5", "g5g", "g6", "g6e", "g6f", "gr6", "p3", "p3dn", "p4d", "p4de", "p5", "p5e",
		"p5en", "p6", "a2", "a3", "a4", "g2")
)

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// tokenKind is the accelerator kind one lower-case token names, or "".
func tokenKind(t string) string {
	if isGPUWord(t) {
		return AccelGPU
	}
	for _, b := range counted(t) {
		switch {
		case nvidiaModels[b] || prefixDigits(b, "cuda") || strings.HasPrefix(b, "rtx") && word(b) || strings.HasPrefix(b, "quadro") && word(b):
			return AccelNVIDIA
		case prefixDigits(b, "rocm") || isMI(b) || isGFX(b) || strings.HasPrefix(b, "radeon") && word(b) || b == "instinct":
			return AccelAMD
		case intelModels[b] || prefixDigits(b, "gaudi"):
			return AccelIntel
		case neuron[b] || prefixDigits(b, "trainium") || prefixDigits(b, "inferentia"):
			return AccelNeuron
		case npus[b] || strings.HasPrefix(b, "ascend") && word(b):
			return AccelNPU
		}
	}
	if base := strings.TrimSuffix(t, "ti"); geforce[base] {
		return AccelNVIDIA
	}
	if isTPU(t) {
		return AccelTPU
	}
	if cloudGPU[t] || isAzureGPU(t) {
		return AccelCloud
	}
	return accelNothing
}

// counted is t and t without a count prefix ("8x"), a count suffix ("x8")
// or both.
func counted(t string) []string {
	out := []string{t}
	pre := func(s string) (string, bool) {
		if i := strings.IndexByte(s, 'x'); i > 0 && allDigits(s[:i]) {
			return s[i+1:], true
		}
		return s, false
	}
	suf := func(s string) (string, bool) {
		if i := strings.LastIndexByte(s, 'x'); i >= 0 && i < len(s)-1 && allDigits(s[i+1:]) {
			return s[:i], true
		}
		return s, false
	}
	p, okp := pre(t)
	if okp {
		out = append(out, p)
		if ps, ok := suf(p); ok {
			out = append(out, ps)
		}
	}
	if s, ok := suf(t); ok {
		out = append(out, s)
	}
	return out
}

// isGPUWord: digits, "gpu" or "gpus", digits ("1gpu", "gpus", "gpu4").
func isGPUWord(t string) bool {
	t = strings.TrimLeft(t, "0123456789")
	t = strings.TrimRight(t, "0123456789")
	return t == "gpu" || t == "gpus"
}

// isTPU: "tpu…" after optional digits and 'x' ("8tpu", "tpuv7x"), or a GCP
// TPU VM family (ct5lp, ct6e).
func isTPU(t string) bool {
	u := strings.TrimPrefix(strings.TrimLeft(t, "0123456789"), "x")
	if strings.HasPrefix(u, "tpu") && word(u) {
		return true
	}
	return len(t) >= 3 && t[:2] == "ct" && t[2] >= '4' && t[2] <= '7' && allLetters(t[3:])
}

// isMI: "mi" and 2-3 digits and letters (mi300x, mi35x, mi250).
func isMI(t string) bool {
	if !strings.HasPrefix(t, "mi") {
		return false
	}
	d := leadingDigits(t[2:])
	return d >= 2 && d <= 3 && t[2] >= '1' && t[2] <= '4' && allLetters(t[2+d:])
}

// isGFX: gfx9xx or gfx1xxx.
func isGFX(t string) bool {
	if !strings.HasPrefix(t, "gfx") || !allDigits(t[3:]) {
		return false
	}
	n := t[3:]
	return len(n) == 3 && n[0] == '9' || len(n) == 4 && n[0] == '1'
}

// isAzureGPU: NC/ND/NV sizes (nc24ads, nd96asr, nv12s).
func isAzureGPU(t string) bool {
	if len(t) < 3 || t[0] != 'n' || (t[1] != 'c' && t[1] != 'd' && t[1] != 'v') {
		return false
	}
	d := leadingDigits(t[2:])
	return d > 0 && allLetters(t[2+d:])
}

// prefixDigits: t is p followed by digits only (possibly none).
func prefixDigits(t, p string) bool { return strings.HasPrefix(t, p) && allDigits(t[len(p):]) }

func leadingDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func allDigits(s string) bool { return leadingDigits(s) == len(s) }

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// word: letters, digits and '_' only (what the tokenizer leaves).
func word(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

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
		if kind := tokenKind(t); kind != "" {
			return kind, t
		}
	}
	return accelNothing, ""
}
