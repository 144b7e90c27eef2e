package workflowgraph

import "testing"

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
