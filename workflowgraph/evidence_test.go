package workflowgraph

import "testing"

// classOf checks each job's accelerator verdict (Classify and IsGPU
// agree) against want; a job missing from want must not be one.
func classOf(t *testing.T, src string, want map[string]bool) *Workflow {
	t.Helper()
	w := load(t, map[string]string{"w.yml": src}, "w.yml")
	c := NewClassifier(nil, nil, nil, nil)
	for _, j := range w.Jobs {
		cl := c.Classify(j)
		if got := cl.Class == ClassAccelerator; got != want[j.ID] || c.IsGPU(j) != got {
			t.Errorf("%s: Classify = %+v, IsGPU = %v; want accelerator %v", j.ID, cl, c.IsGPU(j), want[j.ID])
		}
	}
	return w
}

// TestPinnedRunner: jobs whose runs-on is another job's runner.name run on
// that job's machine, so one's device evidence holds for all; an output
// that is not the runner's name, or a group without evidence, pins nothing.
func TestPinnedRunner(t *testing.T) {
	w := classOf(t, `on: push
jobs:
  discover:
    runs-on: pool-a
    outputs: {name: "${{ steps.n.outputs.name }}", host: "${{ steps.h.outputs.host }}"}
    steps:
      - {id: n, run: 'echo "name=${{ runner.name }}" >> "$GITHUB_OUTPUT"'}
      - {id: h, run: 'echo "host=$(hostname)" >> "$GITHUB_OUTPUT"'}
  build:
    needs: discover
    runs-on: ${{ needs.discover.outputs.name }}
    steps: [{run: docker build .}]
  test:
    needs: discover
    runs-on: ${{ needs.discover.outputs.name }}
    steps: [{run: "docker run --runtime=habana img pytest"}]
  by-host:
    needs: discover
    runs-on: ${{ needs.discover.outputs.host }}
    steps: [{run: docker build .}]
  quiet:
    runs-on: pool-b
    outputs: {name: "${{ runner.name }}"}
    steps: [{run: "true"}]
  quiet-build:
    needs: quiet
    runs-on: ${{ needs.quiet.outputs.name }}
    steps: [{run: make}]
  named:
    runs-on: gaudi2-pool
    outputs: {name: "${{ runner.name }}"}
    steps: [{run: "true"}]
  named-build:
    needs: named
    runs-on: ${{ needs.named.outputs.name }}
    steps: [{run: make}]
`, map[string]bool{"discover": true, "build": true, "test": true, "named": true, "named-build": true})
	c := NewClassifier(nil, nil, nil, nil)
	for id, want := range map[string]string{
		"build":    "pinned with job discover to one machine (runs-on is its runner.name), where job test: a step's container gets --runtime=habana",
		"discover": "job test is pinned to this job's machine (runs-on is its runner.name), where a step's container gets --runtime=habana",
	} {
		if got := c.Classify(w.Job(id)).Reason; got != want {
			t.Errorf("%s: reason %q, want %q", id, got, want)
		}
	}
}

// TestAppleSilicon: a self-hosted Mac on ARM64, or a Mac with an M-series
// chip named, is Apple silicon; an Intel Mac, a build role, a
// GitHub-hosted macOS image, a macOS virtual machine of another service
// and AWS's m-family instances are not.
func TestAppleSilicon(t *testing.T) {
	w := classOf(t, `on: push
jobs:
  arm64: {runs-on: [self-hosted, macOS, ARM64], steps: [{run: pytest}]}
  mac: {runs-on: [self-hosted, macos], steps: [{run: pytest}]}
  chip: {runs-on: [self-hosted, macOS, m4pro], steps: [{run: pytest}]}
  pool: {runs-on: macos-m1-stable, steps: [{run: pytest}]}
  intel-mac: {runs-on: [self-hosted, macOS, X64], steps: [{run: pytest}]}
  build-mac: {runs-on: [self-hosted, macOS, ARM64, builder], steps: [{run: make}]}
  hosted: {runs-on: macos-14, steps: [{run: pytest}]}
  hosted-large: {runs-on: macos-15-xlarge, steps: [{run: pytest}]}
  vm: {runs-on: ghcr.io/cirruslabs/macos-runner:sonoma, steps: [{run: pytest}]}
  aws: {runs-on: [self-hosted, linux, m5.2xlarge], steps: [{run: pytest}]}
  linux-arm: {runs-on: [self-hosted, linux, ARM64], steps: [{run: pytest}]}
`, map[string]bool{"arm64": true, "mac": true, "chip": true, "pool": true})
	c := NewClassifier(nil, nil, nil, nil)
	if got := c.Classify(w.Job("arm64")); got.Kind != "apple" ||
		got.Reason != `labels "ARM64", "macOS", "self-hosted": a self-hosted Mac not labelled X64: Apple silicon (an M-series GPU)` {
		t.Errorf("arm64: %+v", got)
	}
	if got := c.Classify(w.Job("hosted")); got.Class != ClassGitHubHosted {
		t.Errorf("hosted: %+v", got)
	}
}

// TestScriptEvidence: a docker run continued over lines gets the device on
// a later line; a visibility variable set in a script names devices. Near
// misses: a device path in a command that is not a docker run, a line not
// continued, a variable printed or read, emptied, hidden or set from
// another variable.
func TestScriptEvidence(t *testing.T) {
	w := classOf(t, `on: push
jobs:
  continued:
    runs-on: [self-hosted, linux]
    steps:
      - run: |
          docker run --rm \
            --device /dev/dri \
            img pytest
  not-continued:
    runs-on: [self-hosted, linux]
    steps:
      - run: |
          docker run --rm img make
          ls -l /dev/dri
  exported:
    runs-on: [self-hosted, linux]
    steps: [{run: "export ZE_AFFINITY_MASK=0.0\npytest"}]
  prefixed:
    runs-on: [self-hosted, linux]
    steps: [{run: "HABANA_VISIBLE_DEVICES=all python test.py"}]
  docker-env:
    runs-on: [self-hosted, linux]
    steps: [{run: "docker run -e CUDA_VISIBLE_DEVICES=0,1 img pytest"}]
  printed:
    runs-on: [self-hosted, linux]
    steps: [{run: "echo \"CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES\"\necho \"to pick a GPU: CUDA_VISIBLE_DEVICES=0 make test\""}]
  emptied:
    runs-on: [self-hosted, linux]
    steps: [{run: "CUDA_VISIBLE_DEVICES= pytest\nexport HIP_VISIBLE_DEVICES=''\nexport CUDA_VISIBLE_DEVICES=-1"}]
  from-var:
    runs-on: [self-hosted, linux]
    steps: [{run: "CUDA_VISIBLE_DEVICES=$GPU pytest"}]
  other-name:
    runs-on: [self-hosted, linux]
    steps: [{run: "MY_CUDA_VISIBLE_DEVICES=0 make"}]
  hosted:
    runs-on: ubuntu-latest
    steps: [{run: "CUDA_VISIBLE_DEVICES=0 pytest"}]
  ixsmi:
    runs-on: [self-hosted, linux]
    steps: [{run: "ixsmi && pytest"}]
  sycl-ls:
    runs-on: [self-hosted, linux]
    steps: [{run: "sycl-ls && clinfo -l && pytest"}]
  selector:
    runs-on: [self-hosted, linux]
    steps: [{run: "source setvars.sh\nexport ONEAPI_DEVICE_SELECTOR=level_zero:gpu\n./test"}]
  selector-env:
    runs-on: [self-hosted, linux]
    env: {ONEAPI_DEVICE_SELECTOR: "cuda:0"}
    steps: [{run: ./test}]
  filter-gpu:
    runs-on: [self-hosted, linux]
    steps: [{run: "SYCL_DEVICE_FILTER=opencl:gpu:0 ./test"}]
  selector-cpu:
    runs-on: [self-hosted, linux]
    env: {ONEAPI_DEVICE_SELECTOR: "opencl:cpu"}
    steps: [{run: "export ONEAPI_DEVICE_SELECTOR='*:cpu'\nexport SYCL_DEVICE_FILTER=host\nONEAPI_DEVICE_SELECTOR=!level_zero:* ./test"}]
`, map[string]bool{"continued": true, "exported": true, "prefixed": true, "docker-env": true, "selector": true, "selector-env": true, "ixsmi": true, "filter-gpu": true})
	c := NewClassifier(nil, nil, nil, nil)
	for id, kind := range map[string]string{"selector": "intel", "selector-env": "nvidia", "exported": "intel", "continued": AccelGPU} {
		if got := c.Classify(w.Job(id)); got.Kind != kind {
			t.Errorf("%s: %+v, want kind %s", id, got, kind)
		}
	}
}

// TestMatrixContainerOptions: container options that read a matrix value
// get the devices that value gives; a matrix value under another key, or
// options that give no device, give none.
func TestMatrixContainerOptions(t *testing.T) {
	classOf(t, `on: push
jobs:
  multi:
    strategy:
      matrix:
        build:
          - {runs-on: box, opts: "--device /dev/tenstorrent/0 --device /dev/tenstorrent/1"}
    runs-on: [self-hosted, linux]
    container: {image: img, options: "--user root ${{ matrix.build.opts }}"}
    steps: [{run: pytest}]
  included:
    strategy:
      matrix:
        os: [a]
        include: [{os: a, docker: "--device=/dev/kfd --device=/dev/dri"}]
    runs-on: [self-hosted, linux]
    container: {image: img, options: "${{ matrix.docker }}"}
    steps: [{run: pytest}]
  other-key:
    strategy:
      matrix:
        build: [{opts: "--shm-size 1g", note: "--device /dev/dri"}]
    runs-on: [self-hosted, linux]
    container: {image: img, options: "${{ matrix.build.opts }}"}
    steps: [{run: pytest}]
  null-device:
    strategy:
      matrix:
        build: [{opts: "--device /dev/null"}]
    runs-on: [self-hosted, linux]
    container: {image: img, options: "${{ matrix.build.opts }}"}
    steps: [{run: pytest}]
`, map[string]bool{"multi": true, "included": true})
}

// TestCalledJobSkipped: a caller is an accelerator job through a called
// job that may run for its inputs; one its inputs skip (passed, or by a
// typed default) is not its runner. An input passed as an expression is
// not known, so the called job may run.
func TestCalledJobSkipped(t *testing.T) {
	files := map[string]string{
		".github/workflows/stage.yml": `on:
  workflow_call:
    inputs:
      run-linux: {type: boolean, default: false}
      run-macos: {type: boolean, default: false}
jobs:
  linux:
    if: ${{ inputs.run-linux }}
    runs-on: linux.2xlarge
    steps: [{run: make}]
  mac:
    if: ${{ inputs.run-macos == true }}
    runs-on: macos-m1-stable
    steps: [{run: make}]
`,
		".github/workflows/w.yml": `on: push
jobs:
  linux-only:
    uses: ./.github/workflows/stage.yml
    with: {run-linux: true}
  mac-off:
    uses: ./.github/workflows/stage.yml
    with: {run-linux: true, run-macos: false}
  both:
    uses: ./.github/workflows/stage.yml
    with: {run-linux: true, run-macos: true}
  by-matrix:
    strategy: {matrix: {mac: [true, false]}}
    uses: ./.github/workflows/stage.yml
    with: {run-macos: "${{ matrix.mac }}"}
`,
	}
	w := load(t, files, ".github/workflows/w.yml")
	c := NewClassifier(nil, nil, nil, nil)
	for id, want := range map[string]bool{"linux-only": false, "mac-off": false, "both": true, "by-matrix": true} {
		cl := c.Classify(w.Job(id))
		if got := cl.Class == ClassAccelerator; got != want || c.IsGPU(w.Job(id)) != want {
			t.Errorf("%s: %+v, want accelerator %v", id, cl, want)
		}
	}
}
