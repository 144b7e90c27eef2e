package workflowgraph

import (
	"slices"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/internal/ghschema"
)

// TestAccelerator: labels and groups seen on real fleets, by the vendor
// the catalogue names, and near misses that only look like one (each
// would be an accelerator without the rule that rejects it).
func TestAccelerator(t *testing.T) {
	for _, c := range []struct{ label, kind, token string }{
		{"linux-a100-s2", "nvidia", "a100"},
		{"mt-l-x86iamx-22-225-h100", "nvidia", "h100"},
		{"linux.rocm.gpu.ecosystem.gfx950.1", AccelGPU, "gpu"}, // rocm is a stack: the next token decides
		{"linux-aiter-do-mi350x-8", "amd", "mi350x"},
		{"linux-aiter-mi35x-1", "amd", "mi35x"},
		{"nemo-ci-gcp-gpu-x8", AccelGPU, "gpu"},
		{"3090-r1", "nvidia", "3090"},
		{"linux.dgx.b200", "nvidia", "dgx"},
		{"linux-amd64-gpu-rtxpro6000-latest-1", AccelGPU, "gpu"},
		{"aws-g6-12xlarge-plus", "aws", "g6"},
		{"aws-g6e-xlarge-plus", "aws", "g6e"},
		{"aws-g4dn-2xlarge", "aws", "g4dn"},
		{"L20x8", "nvidia", "l20x8"},
		{"linux-x86-a4-224-b200-1gpu", "nvidia", "b200"}, // a4 is ambiguous; b200 is not
		{"linux.google.tpuv7x.1", "google", "tpuv7x"},
		{"xpu-agent", "intel", "xpu"},
		{"pvc", "intel", "pvc"},
		{"gaudi2", "intel", "gaudi2"},
		{"linux-x86-ct5lp-224-8tpu", "google", "ct5lp"},
		{"linux-x86-ct6e-180-4tpu", "google", "ct6e"},
		{"tpu-v5e-8", "google", "tpu"},
		{"intel-b580", "intel", "b580"},
		{"bmg-test", "intel", "bmg"},
		{"linux.g5.12xlarge.nvidia.gpu", "aws", "g5"},
		{"Standard_NC24ads_A100_v4", "azure", "nc24ads"},
		{"trn1-32xlarge", "aws", "trn1"},
		{"ascend-910b", "huawei", "910b"},
		{"ascend910b", "huawei", "ascend910b"},
		{"8xh100", "nvidia", "8xh100"},
		{"GB10", "nvidia", "gb10"}, // DGX Spark
		{"a2-highgpu-1g", "gcp", "highgpu"},
		{"tt-wormhole-n300", "tenstorrent", "wormhole"},
		{"p150a-runner", "tenstorrent", "p150a"},
		{"mlu370-x8", "cambricon", "mlu370"},
		{"mtt-s4000", "moorethreads", "s4000"},
		{"cloud-ai100", "qualcomm", "ai100"},
		{"rtxa6000", "nvidia", "rtxa6000"},
		{"windows-2022-gpu-t4", AccelGPU, "gpu"}, // a GPU larger runner: not a hosted image
		{"linux-npu-8", AccelGPU, "npu"},
		// Intel GPUs by product and code name, Gaudi by card and server
		{"max1450-runner", "intel", "max1450"},
		{"lnl-windows", "intel", "lnl"},
		{"arl-h", "intel", "arl"},
		{"battlemage-b60", "intel", "battlemage"},
		{"linux-a770m", "intel", "a770m"},
		{"hls2-node", "intel", "hls2"},
		{"hl325l-8", "intel", "hl325l"},
		{"linux-rdna3", "amd", "rdna3"},
		{"gfx94x-dcgpu", "amd", "gfx94x"},
		{"rtxpro6000-1", "nvidia", "rtxpro6000"},
		{"ci-igpu", AccelGPU, "igpu"},
		{"mac-studio-m2ultra", "apple", "m2ultra"}, // a Mac token and a chip
		{"mtl-runner", "", ""},                     // Meteor Lake's short name is Metal's too: weak
		{"ptl-tests", "", ""},                      // PyTorch Lightning: weak
		{"levelzero-build", "", ""},                // a stack
		{"flex-pool", "", ""},                      // a common word, not Flex 170
		{"max-parallel", "", ""},                   // not Data Center GPU Max
		// near misses
		{"16gb", "", ""},
		{"ct", "", ""},
		{"ubuntu-latest", "", ""},
		{"ubuntu-24.04", "", ""},
		{"windows-2022", "", ""},
		{"macos-14-xlarge", "", ""},
		{"mac-metal", "apple", "metal"}, // a Mac labelled for Metal
		{"linux-metal", "", ""},         // bare metal
		{"mps", "", ""},                 // a framework alone
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
		// software stacks and ambiguous names are not evidence alone
		{"linux-scale-rocm-prod", "", ""},
		{"cuda12-builder", "", ""},
		{"linux-aarch64-a2-0", "", ""}, // a2: GCP's family, NVIDIA's A2, Huawei's Atlas A2
		{"neuron-build", "", ""},
		{"macos-m2", "apple", "m2"},        // beside a Mac, m2 is Apple's chip
		{"macos-m1-stable", "apple", "m1"}, // a self-hosted Mac pool
		{"m5-2xlarge", "", ""},             // AWS's m5 family: no Mac
		{"linux-m2", "", ""},               // no Mac
		{"macos-m2-intel", "", ""},         // an Intel Mac says so
		{"macos-m1-builder", "", ""},       // a build role
		{"macos-14-xlarge", "", ""},        // GitHub-hosted M1 image
		{"archive", "", ""},                // not Intel Arc
		{"atlas-db", "", ""},               // not Huawei Atlas
		{"tesla-runner", "", ""},
	} {
		kind, token := Accelerator(c.label)
		if kind != c.kind || token != c.token {
			t.Errorf("Accelerator(%q) = %q, %q; want %q, %q", c.label, kind, token, c.kind, c.token)
		}
	}
}

// TestCatalogue: every entry names a vendor, a known kind and strength
// and a source; a token that two vendors claim is weak in both (it cannot
// tell them apart); software stacks are weak; and the GitHub-hosted list
// is exact (a larger runner an organisation names is not on it).
func TestCatalogue(t *testing.T) {
	c, err := ParseCatalogue(hardwareYAML)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{"gpu", "tpu", "npu", "hpu", "accelerator", "instance", "stack"}
	vendors := map[string]map[string]bool{} // token -> vendors
	for _, e := range c.Entries {
		if e.Vendor == "" || e.Source == "" || !slices.Contains(kinds, e.Kind) || (e.Strength != "strong" && e.Strength != "weak") {
			t.Errorf("entry %+v: vendor, kind, strength and source are required", e)
		}
		if e.Kind == "stack" && e.Strong() {
			t.Errorf("%s: a software stack must be weak", e.Source)
		}
		for _, m := range append(append([]string{}, e.Models...), e.Numbered...) {
			if m != strings.ToLower(m) || strings.ContainsAny(m, "-._/: ") {
				t.Errorf("%q: a token is lower-case and has no separator", m)
			}
			if vendors[m] == nil {
				vendors[m] = map[string]bool{}
			}
			vendors[m][e.Vendor] = true
		}
	}
	for tok, vs := range vendors {
		if len(vs) < 2 {
			continue
		}
		for _, e := range c.Entries {
			if slices.Contains(e.Models, tok) && e.Strong() {
				t.Errorf("%q is claimed by %d vendors but strong for %s", tok, len(vs), e.Vendor)
			}
		}
	}
	for _, l := range []string{"ubuntu-latest", "ubuntu-26.04", "windows-2025", "macos-15-xlarge"} {
		if !githubHosted(l) {
			t.Errorf("%s is a GitHub-hosted image", l)
		}
	}
	for _, l := range []string{"ubuntu-22.04-16core", "windows-2022-gpu-t4", "macos-arm64", "ubuntu-gpu"} {
		if githubHosted(l) {
			t.Errorf("%s is not on GitHub's list", l)
		}
	}
	if len(ghschema.HostedLabels) == 0 {
		t.Fatal("no hosted labels")
	}
}

// TestTokenCounts: a model with a device count before or after it is the
// model; digits or letters glued to it otherwise are not.
func TestTokenCounts(t *testing.T) {
	c := Hardware()
	for tok, want := range map[string]bool{
		"h100": true, "8xh100": true, "h100x8": true, "8xh100x8": true, "l20x8": true, "1gpu": true, "gpus": true, "gpu4": true,
		"h1000": false, "xh100": false, "h100y": false, "gpux": false, "mi300x": true, "mi3": false, "mi5000": false,
		"gfx942": true, "gfx90": false, "cuda12": true, "cudax": false, "gaudi3": true, "tpuv5e": true, "8tpu": true,
		"nc24ads": true, "nc": false, "gfx90a": true, "gfx94x": true, "gfx110x": true, "gfx1151": true,
		"gfx9x": false, "gfx90z": false, "gfx110y": false, "gfx": false, "gfx2000": false,
	} {
		if _, got := c.tokenHit(tok); got != want {
			t.Errorf("tokenHit(%q) = %v, want %v", tok, got, want)
		}
	}
}

func FuzzAccelerator(f *testing.F) {
	for _, s := range []string{"linux-a100-s2", "ubuntu-latest", "aws-g6-12xlarge-plus", "L20x8", "3090-r1", "", "-", "gpu", "rtxa6000", "mtts4000"} {
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
		if token != "" && !slices.Contains(tokens(label), token) {
			t.Fatalf("Accelerator(%q) names %q, not one of its tokens", label, token)
		}
	})
}
