package workflowgraph

import "testing"

// TestClassifierEvidence: each way a job is found to be an accelerator
// job, each beside a near miss that the same rule must leave alone.
func TestClassifierEvidence(t *testing.T) {
	src := `on: push
jobs:
  setup:
    runs-on: ubuntu-latest
    outputs:
      runner: ${{ github.event_name == 'push' && 'gpu-x8' || 'gpu-x8-ephemeral' }}
      cpu: ${{ github.event_name == 'push' && 'linux-x86-n4-16' || 'ubuntu-latest' }}
      picked: ${{ steps.pick.outputs.runner }}
    steps: [{id: pick, run: echo}]
  fallback:
    needs: setup
    runs-on: ["${{ needs.setup.outputs.runner-label || 'L20x8' }}"]
    steps: [{run: pytest}]
  from-output:
    needs: setup
    runs-on: ${{ needs.setup.outputs.runner }}
    steps: [{run: pytest}]
  cpu-output:
    needs: setup
    runs-on: ${{ needs.setup.outputs.cpu }}
    steps: [{run: pytest}]
  step-output:
    needs: setup
    runs-on: ${{ needs.setup.outputs.picked }}
    steps: [{run: pytest}]
  by-name:
    runs-on: ${{ vars.GB200_RUNNER }}
    steps: [{run: pytest}]
  plain-var:
    runs-on: ${{ vars.RUNNER }}
    steps: [{run: pytest}]
  compared:
    runs-on: ${{ github.repository == 'org/h100' && 'big-box' || 'ubuntu-24.04' }}
    steps: [{run: pytest}]
  smi:
    runs-on: [self-hosted, linux]
    steps: [{run: "nvidia-smi && pytest"}]
  smi-hosted:
    runs-on: ubuntu-latest
    steps: [{run: "nvidia-smi || true"}]
  smi-word:
    runs-on: [self-hosted, linux]
    steps: [{run: "echo run-nvidia-smi && nvidia-smi-wrapper"}]
  gpus-container:
    runs-on: [self-hosted, linux]
    container: {image: nvcr.io/nvidia/pytorch:24.01-py3, options: --gpus all --shm-size 16g}
    steps: [{run: pytest}]
  cuda-image:
    runs-on: [self-hosted, linux]
    container: {image: nvidia/cuda:12.4.0-devel-ubuntu22.04}
    steps: [{run: make}]
  group:
    runs-on: {group: aws-g6e-xlarge-plus}
    steps: [{run: pytest}]
  token:
    runs-on: [self-hosted, linux-a100-s2]
    steps: [{run: pytest}]
  gpu-larger-runner:
    runs-on: ubuntu-24.04-gpu-t4
    steps: [{run: pytest}]
  ascend-env:
    runs-on: linux-aarch64-a2-1
    env: {ASCEND_RT_VISIBLE_DEVICES: "0"}
    steps: [{run: pytest}]
  ascend-launcher:
    runs-on: linux-aarch64-a2-0
    steps: [{run: python launch.py}]
  hidden-devices:
    runs-on: [self-hosted, linux]
    env: {CUDA_VISIBLE_DEVICES: ""}
    steps: [{run: pytest}]
  docker-run:
    runs-on: [self-hosted, linux]
    steps: [{run: "docker run --rm --device=/dev/kfd --device=/dev/dri rocm/pytorch pytest"}]
  docker-build:
    runs-on: [self-hosted, linux]
    steps: [{run: "docker build -t x . && docker run --rm x make"}]
  stack-builder:
    runs-on: [self-hosted, linux-scale-rocm-prod]
    steps: [{run: make}]
  tt-smi:
    runs-on: [self-hosted, n300]
    steps: [{run: tt-smi -s}]
  pool-witness:
    runs-on: [self-hosted, pool-7]
    container: {image: x, options: --device /dev/davinci0}
    steps: [{run: pytest}]
  pool-sibling:
    runs-on: [self-hosted, pool-7]
    steps: [{run: ./report.sh}]
  pool-other:
    runs-on: [self-hosted, pool-8]
    steps: [{run: ./report.sh}]
  excluded:
    runs-on: [self-hosted, a100-license-server]
    steps: [{run: pytest}]
`
	w := load(t, map[string]string{"w.yml": src}, "w.yml")
	c := NewClassifier(nil, nil, nil, nil).Exclude("a100-license-*")
	want := map[string]bool{
		"setup": false, "fallback": true, "from-output": true, "cpu-output": false, "step-output": false,
		"by-name": false, "plain-var": false, "compared": false, "smi": true, "smi-hosted": false,
		"smi-word": false, "gpus-container": true, "cuda-image": false, "group": true, "token": true,
		"gpu-larger-runner": true, "excluded": false, "ascend-env": true, "ascend-launcher": false,
		"hidden-devices": false, "docker-run": true, "docker-build": false, "stack-builder": false, "tt-smi": true,
		// a sibling on the same named pool as a job with device evidence is
		// one; a generic [self-hosted, linux] set (smi-word beside smi) is not
		"pool-witness": true, "pool-sibling": true, "pool-other": false,
	}
	for _, j := range w.Jobs {
		if got := c.IsGPU(j); got != want[j.ID] {
			t.Errorf("%s: IsGPU = %v (%q), want %v; runner %+v", j.ID, got, c.GPULabel(j), want[j.ID], j.Runner)
		}
		if cl := c.Classify(j); (cl.Class == ClassAccelerator) != want[j.ID] || cl.Reason == "" {
			t.Errorf("%s: Classify = %+v, want accelerator %v", j.ID, cl, want[j.ID])
		}
	}
	for id, want := range map[string]JobClass{
		"token":       {Class: ClassAccelerator, Kind: "nvidia", Reason: `label "linux-a100-s2": token "a100" names an accelerator: nvidia gpu`},
		"group":       {Class: ClassAccelerator, Kind: "aws", Reason: `group "aws-g6e-xlarge-plus": token "g6e" names an accelerator: aws accelerator instance family`},
		"smi":         {Class: ClassAccelerator, Kind: "nvidia", Reason: "a step runs nvidia-smi"},
		"ascend-env":  {Class: ClassAccelerator, Kind: "huawei", Reason: `job env ASCEND_RT_VISIBLE_DEVICES=0`},
		"docker-run":  {Class: ClassAccelerator, Kind: "amd", Reason: `a step's container gets /dev/kfd`},
		"setup":       {Class: ClassGitHubHosted, Reason: "GitHub-hosted image ubuntu-latest"},
		"cuda-image":  {Class: ClassSelfHosted, Reason: "not a GitHub-hosted image and no accelerator named"},
		"plain-var":   {Class: ClassUnknown, Reason: "runs-on comes from a configuration variable (${{ vars.RUNNER }}), which cicheck cannot resolve"},
		"step-output": {Class: ClassUnknown, Reason: "runs-on comes from a job output (${{ needs.setup.outputs.picked }}), which cicheck cannot resolve"},
	} {
		if got := c.Classify(w.Job(id)); got != want {
			t.Errorf("Classify(%s) = %+v, want %+v", id, got, want)
		}
	}
	if !c.MatchLabel("linux.dgx.b200") || c.MatchLabel("a100-license-server") || c.MatchLabel("ubuntu-latest") {
		t.Error("MatchLabel: vocabulary, exclusion or hosted image wrong")
	}
}

// TestHeavySelfHosted: with heavy.self-hosted, a job labelled self-hosted
// is heavy; a GitHub-hosted one and a self-hosted one without it are not.
func TestHeavySelfHosted(t *testing.T) {
	w := load(t, map[string]string{"w.yml": `on: push
jobs:
  box: {runs-on: [self-hosted, build-box], steps: [{run: x}]}
  hosted: {runs-on: ubuntu-latest, steps: [{run: x}]}
  custom: {runs-on: build-box, steps: [{run: x}]}
`}, "w.yml")
	on := NewClassifier(nil, nil, nil, nil).HeavySelfHosted(true)
	off := NewClassifier(nil, nil, nil, nil)
	for id, want := range map[string]bool{"box": true, "hosted": false, "custom": false} {
		if got := on.IsHeavy(w.Job(id)); got != want {
			t.Errorf("%s: heavy %v, want %v", id, got, want)
		}
		if off.IsHeavy(w.Job(id)) {
			t.Errorf("%s: heavy without heavy.self-hosted", id)
		}
	}
}
