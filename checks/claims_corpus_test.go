package checks

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/simulate"
	"github.com/cicheck/cicheck/workflowgraph"
)

// TestGateClaimsAgreeWithSimulate checks what the gate rules claim on every
// workflow of ../shared/corpus against simulate run scenario by scenario,
// so lint and simulate cannot disagree about a job: for every bridge
// (D, A, r) a gpu-gate or closure-bridge finding names, the scenario "A
// ends r, nothing else known" skips the job while D is not skipped; and
// every GPU job a gpu-gate finding says a skip of the job takes down is
// skipped when the job is.
func TestGateClaimsAgreeWithSimulate(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Skip("../shared/corpus is absent")
	}
	cfg := config.Default()
	bridges, gpus := 0, 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		w, _, err := workflowgraph.Load(os.DirFS(dir), filepath.ToSlash(rel))
		if err != nil || w == nil {
			return nil
		}
		pass := &Pass{Workflow: w, Config: cfg, Classifier: cfg.Classifier(), File: rel}
		g := gateAnalysisOf(pass)
		if !g.usable() {
			return nil
		}
		sim := simulate.New(w)
		verdicts := func(sc simulate.Scenario) map[string]simulate.Decision {
			m := map[string]simulate.Decision{}
			for _, v := range sim.Run(sc) {
				m[v.ID] = v.Verdict
			}
			return m
		}
		for _, j := range w.Jobs {
			bs, _ := g.bridges(j)
			for _, b := range bs {
				vs := verdicts(simulate.Scenario{Results: map[string]simulate.Result{b.A: b.Result}, DefaultOutcome: simulate.Unknown})
				if vs[j.ID] != simulate.VerdictSkip || vs[b.D] == simulate.VerdictSkip {
					t.Errorf("%s: lint says %s ending %s skips %s through %s; simulate: %s is %s, %s is %s",
						rel, b.A, b.Result, j.ID, b.D, j.ID, vs[j.ID], b.D, vs[b.D])
				}
				bridges++
			}
			if len(bs) > 0 && g.path[j.ID] {
				listed, _ := g.skippedGPU(j)
				vs := verdicts(simulate.Scenario{Results: map[string]simulate.Result{j.ID: simulate.Skipped}, DefaultOutcome: simulate.Unknown})
				for _, x := range listed {
					if vs[x] != simulate.VerdictSkip {
						t.Errorf("%s: lint says skipping %s skips GPU job %s; simulate: %s", rel, j.ID, x, vs[x])
					}
					gpus++
				}
			}
		}
		return nil
	})
	if bridges == 0 || gpus == 0 {
		t.Fatalf("the corpus gave no claim to check (%d bridges, %d GPU jobs)", bridges, gpus)
	}
	t.Logf("%d bridge claims and %d skipped-GPU claims agree with simulate", bridges, gpus)
}
