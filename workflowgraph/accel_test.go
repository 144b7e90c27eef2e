package workflowgraph

import (
	"regexp"
	"strings"
	"testing"
)

// TestAccelerator: labels and groups seen on real fleets, and near misses
// that only look like one (each would be an accelerator without the rule
// that rejects it).
func TestAccelerator(t *testing.T) {
	for _, c := range []struct{ label, kind, token string }{
		{"linux-a100-s2", AccelNVIDIA, "a100"},
		{"mt-l-x86iamx-22-225-h100", AccelNVIDIA, "h100"},
		{"linux.rocm.gpu.ecosystem.gfx950.1", AccelAMD, "rocm"},
		{"linux-aiter-do-mi350x-8", AccelAMD, "mi350x"},
		{"linux-aiter-mi35x-1", AccelAMD, "mi35x"},
		{"nemo-ci-gcp-gpu-x8", AccelGPU, "gpu"},
		{"3090-r1", AccelNVIDIA, "3090"},
		{"linux.dgx.b200", AccelNVIDIA, "dgx"},
		{"linux-amd64-gpu-rtxpro6000-latest-1", AccelGPU, "gpu"},
		{"aws-g6-12xlarge-plus", AccelCloud, "g6"},
		{"aws-g6e-xlarge-plus", AccelCloud, "g6e"},
		{"aws-g4dn-2xlarge", AccelCloud, "g4dn"},
		{"L20x8", AccelNVIDIA, "l20x8"},
		{"linux-x86-a4-224-b200-1gpu", AccelCloud, "a4"},
		{"linux.google.tpuv7x.1", AccelTPU, "tpuv7x"},
		{"xpu-agent", AccelIntel, "xpu"},
		{"pvc", AccelIntel, "pvc"},
		{"linux-aarch64-a2-8", AccelCloud, "a2"},
		{"gaudi2", AccelIntel, "gaudi2"},
		{"linux-x86-ct5lp-224-8tpu", AccelTPU, "ct5lp"},
		{"linux-x86-ct6e-180-4tpu", AccelTPU, "ct6e"},
		{"tpu-v5e-8", AccelTPU, "tpu"},
		{"intel-b580", AccelIntel, "b580"},
		{"bmg-test", AccelIntel, "bmg"},
		{"ct", "", ""},
		{"linux.g5.12xlarge.nvidia.gpu", AccelCloud, "g5"},
		{"Standard_NC24ads_A100_v4", AccelCloud, "nc24ads"},
		{"trn1-32xlarge", AccelNeuron, "trn1"},
		{"ascend-910b", AccelNPU, "ascend"},
		{"8xh100", AccelNVIDIA, "8xh100"},
		{"h100", AccelNVIDIA, "h100"},
		{"GB10", AccelNVIDIA, "gb10"}, // DGX Spark
		{"16gb", "", ""},
		// near misses
		{"ubuntu-latest", "", ""},
		{"ubuntu-24.04-gpu-t4", "", ""}, // a GitHub-hosted image name
		{"windows-2022", "", ""},
		{"macos-14-xlarge", "", ""},
		{"linux-x86-n4-16", "", ""},
		{"linux.4xlarge", "", ""},
		{"t4g-medium", "", ""}, // Graviton, not a T4
		{"self-hosted", "", ""},
		{"ca1000", "", ""},
		{"build-only-aiter", "", ""},
		{"linux-amd64-cpu16", "", ""},
		{"c5-large", "", ""},
		{"arm64", "", ""},
		{"tinybox", "", ""},
		{"v4", "", ""},
	} {
		kind, token := Accelerator(c.label)
		if kind != c.kind || token != c.token {
			t.Errorf("Accelerator(%q) = %q, %q; want %q, %q", c.label, kind, token, c.kind, c.token)
		}
	}
}

func FuzzAccelerator(f *testing.F) {
	for _, s := range []string{"linux-a100-s2", "ubuntu-latest", "aws-g6-12xlarge-plus", "L20x8", "3090-r1", "", "-", "gpu"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, label string) {
		kind, token := Accelerator(label)
		if (kind == "") != (token == "") {
			t.Fatalf("Accelerator(%q) = %q, %q", label, kind, token)
		}
		if githubHosted(label) && kind != "" {
			t.Fatalf("GitHub-hosted %q classified %s", label, kind)
		}
	})
}

// refVocabulary is the vocabulary as regular expressions, in the order
// tokenKind tries it: the specification the plain-code matcher is checked
// against (TestTokenKindMatchesReference, FuzzTokenKind).
var refVocabulary = func() []struct {
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
		{AccelAMD, count(`rocm\d*|mi[1-4]\d{1,2}[a-z]*|gfx9\d{2}|gfx1\d{3}|radeon\w*|instinct`)},
		{AccelIntel, count(`xpu|pvc|gaudi\d*|hpu|bmg|b5[78]0|a7[57]0`)},
		{AccelNeuron, count(`trn\d|trainium\d*|inf[12]|inferentia\d*|neuron`)},
		{AccelNPU, count(`npu|ascend\w*|910[bc]?`)},
		{AccelNVIDIA, regexp.MustCompile(`^(?:1080|2080|3060|3070|3080|3090|4070|4080|4090|5070|5080|5090)(?:ti)?$`)},
		{AccelTPU, regexp.MustCompile(`^(?:\d*x?tpu\w*|ct[4-7][a-z]*)$`)},
		{AccelCloud, regexp.MustCompile(`^(?:g4dn|g4ad|g5|g5g|g6|g6e|g6f|gr6|p3|p3dn|p4d|p4de|p5|p5e|p5en|p6|a2|a3|a4|g2|n[cdv]\d+[a-z]*)$`)},
	}
}()

func refTokenKind(t string) string {
	for _, v := range refVocabulary {
		if v.re.MatchString(t) {
			return v.kind
		}
	}
	return ""
}

// TestTokenKindMatchesReference: every vocabulary word, with counts,
// digits and letters around it, is classified as the regular expressions
// classify it.
func TestTokenKindMatchesReference(t *testing.T) {
	words := []string{"gpu", "gpus", "nvidia", "cuda", "cuda12", "dgx", "a10", "a10g", "a30", "a40", "a100", "a800", "h20",
		"h100", "h200", "h800", "b100", "b200", "b300", "gb10", "gb200", "gb300", "gh200", "l4", "l20", "l40", "l40s", "t4",
		"v100", "p100", "rtx", "rtxpro6000", "a4000", "a6000", "quadro", "rocm", "rocm6", "mi300x", "mi35x", "mi250", "mi3",
		"mi5000", "gfx950", "gfx1100", "gfx90", "radeon", "instinct", "xpu", "pvc", "gaudi", "gaudi3", "hpu", "bmg", "b580",
		"a770", "trn1", "trn", "trainium2", "inf2", "inf3", "inferentia", "neuron", "npu", "ascend", "ascend910", "910",
		"910b", "910d", "3090", "3090ti", "4090", "1000", "tpu", "tpuv7x", "8tpu", "xtpu", "ct5lp", "ct6e", "ct8", "ct",
		"g4dn", "g5", "g6e", "p4d", "p5en", "a2", "a3", "a4", "g2", "nc24ads", "nd96", "nv", "nc", "t4g", "c5", "ubuntu",
		"x", "x8", "8x", "", "_", "a100_80g", "h100-80", "tpu_v5"}
	var affixes = []string{"", "8x", "x8", "1", "s", "x", "0x"}
	n := 0
	for _, w := range words {
		for _, pre := range affixes {
			for _, suf := range affixes {
				tok := pre + w + suf
				if got, want := tokenKind(tok), refTokenKind(tok); got != want {
					t.Errorf("tokenKind(%q) = %q, want %q", tok, got, want)
				}
				n++
			}
		}
	}
	if n < 4000 {
		t.Fatalf("only %d tokens", n)
	}
}

func FuzzTokenKind(f *testing.F) {
	for _, s := range []string{"h100", "8xh100", "l20x8", "gpus", "mi300x", "gfx950", "tpuv7x", "nc24ads", "3090ti", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		tok = strings.ToLower(tok)
		if strings.ContainsAny(tok, "-._/: \t") {
			return // not a token: the tokenizer splits there
		}
		if got, want := tokenKind(tok), refTokenKind(tok); got != want {
			t.Fatalf("tokenKind(%q) = %q, want %q", tok, got, want)
		}
	})
}
