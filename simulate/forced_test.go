package simulate

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/workflowgraph"
)

// randomWorkflow writes a workflow of n jobs whose needs point to earlier
// jobs and whose conditions mix status functions, needs results and
// outputs (some of which raise on a skipped need), contexts nobody gives,
// reusable-workflow callers and continue-on-error.
func randomWorkflow(rng *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("on: push\njobs:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  j%d:\n", i)
		var needs []string
		if i > 0 {
			for k := rng.Intn(4); k > 0; k-- {
				needs = append(needs, fmt.Sprintf("j%d", rng.Intn(i)))
			}
		}
		if len(needs) > 0 {
			fmt.Fprintf(&b, "    needs: [%s]\n", strings.Join(needs, ", "))
			x := needs[rng.Intn(len(needs))]
			conds := []string{
				"", "", "always()", "${{ !cancelled() }}", "failure()", "success()", "cancelled()",
				"needs.X.result == 'success'", "${{ !cancelled() && needs.X.result == 'success' }}",
				"needs.X.outputs.o == 'true'", "always() && needs.X.outputs.o == 'true'",
				"fromJSON(needs.X.outputs.o)", "always() && fromJSON(needs.X.outputs.o).a",
				"contains(needs.*.result, 'failure')", "always() && !contains(needs.*.result, 'failure')",
				"always() && (needs.X.result == 'skipped' || needs.X.result == 'success')",
				"!failure() && needs.X.result != 'skipped'", "github.event_name == 'push'",
				"always() && github.ref == 'refs/heads/main'", "needs.X.outputs.o",
				"failure() || needs.X.result == 'skipped'", "always() && needs.X.outputs.undeclared == ''",
				"always() && !failure()", "${{ !failure() }}", "always() && fromJSON(needs.X.outputs.o)",
			}
			if c := strings.ReplaceAll(conds[rng.Intn(len(conds))], "X", x); c != "" {
				fmt.Fprintf(&b, "    if: %s\n", c)
			}
		}
		if rng.Intn(6) == 0 {
			b.WriteString("    uses: org/repo/.github/workflows/called.yml@v1\n")
			continue
		}
		if rng.Intn(8) == 0 {
			b.WriteString("    continue-on-error: true\n")
		}
		b.WriteString("    runs-on: ubuntu-latest\n    outputs:\n      o: ${{ steps.s.outputs.o }}\n    steps:\n      - id: s\n        run: echo\n")
	}
	return b.String()
}

func randomWorkflows(t *testing.T, count int) []*workflowgraph.Workflow {
	t.Helper()
	rng := rand.New(rand.NewSource(1))
	var out []*workflowgraph.Workflow
	for len(out) < count {
		src := randomWorkflow(rng, 2+rng.Intn(12))
		w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
		if err != nil || w == nil {
			t.Fatalf("load: %v\n%s", err, src)
		}
		out = append(out, w)
	}
	return out
}

// TestForcedMatchesRun is the differential test of the forced table: for
// every job a and result r, Forced answers what Run answers for the
// scenario "a ends r, every other outcome unknown", job by job; Through
// agrees with the same scenarios checked one by one.
func TestForcedMatchesRun(t *testing.T) {
	checked, skips := 0, 0
	for _, w := range randomWorkflows(t, 400) {
		s := New(w)
		f := s.Forced()
		for _, a := range w.Jobs {
			for _, r := range []Result{Failure, Skipped} {
				vs := s.Run(Scenario{Results: map[string]Result{a.ID: r}, DefaultOutcome: Unknown, VerdictsOnly: true})
				byID := map[string]Verdict{}
				for _, v := range vs {
					byID[v.ID] = v
					want := v.Verdict == VerdictSkip
					if got := f.Skipped(v.ID, a.ID, r); got != want {
						t.Fatalf("%s ends %s: Forced says skipped(%s)=%v, Run says %s (%s)\n%s", a.ID, r, v.ID, got, v.Verdict, v.Reason, w.Source)
					}
					checked++
					if want {
						skips++
					}
				}
				for _, d := range w.Jobs {
					others := d.Needs // any list of jobs will do as the siblings
					if !slices.Contains(w.Ancestors(d.ID), a.ID) || slices.Contains(others, a.ID) {
						continue
					}
					through := byID[d.ID].Verdict != VerdictSkip
					for _, o := range others {
						if o != d.ID && byID[o].Verdict == VerdictSkip {
							through = false
						}
					}
					var got Result
					all, total := f.Through(d.ID, others, len(w.Jobs))
					if total != len(all) {
						t.Fatalf("Through(%s) lists %d of %d with room for all", d.ID, len(all), total)
					}
					for _, x := range all {
						if x.Job == a.ID {
							got = x.Result
						}
						if slices.Contains(others, x.Job) {
							t.Fatalf("Through(%s, %v) lists %s", d.ID, others, x.Job)
						}
					}
					if first, n := f.Through(d.ID, others, 1); n != total || len(first) != min(1, total) || total > 0 && first[0] != all[0] {
						t.Fatalf("Through(%s, max 1) = %v, %d; want %v, %d", d.ID, first, n, all[:min(1, total)], total)
					}
					// Through reports the failure when both pass.
					if through && r == Failure && got != Failure || !through && got == r {
						t.Fatalf("Through(%s, %v) for %s ends %s: got %q, through=%v\n%s", d.ID, others, a.ID, r, got, through, w.Source)
					}
				}
			}
		}
		// SkippedBelow over every other job agrees with the job-by-job answers.
		odd := map[string]bool{}
		for i, j := range w.TopoOrder() {
			odd[j] = i%2 == 1
		}
		mask := f.Mask(func(id string) bool { return odd[id] })
		for _, a := range w.Jobs {
			for _, r := range []Result{Failure, Skipped} {
				var want []string
				for _, x := range w.TopoOrder() {
					if odd[x] && f.IsAncestor(a.ID, x) && f.Skipped(x, a.ID, r) {
						want = append(want, x)
					}
				}
				all, n := f.SkippedBelow(a.ID, r, mask, len(w.Jobs))
				first, m := f.SkippedBelow(a.ID, r, mask, 2)
				if !slices.Equal(all, want) || n != len(want) || m != n || !slices.Equal(first, want[:min(2, len(want))]) {
					t.Fatalf("SkippedBelow(%s, %s) = %v (%d), first %v (%d); want %v", a.ID, r, all, n, first, m, want)
				}
			}
		}
		for _, x := range w.Jobs {
			for _, a := range w.Jobs {
				if got, want := f.IsAncestor(a.ID, x.ID), slices.Contains(w.Ancestors(x.ID), a.ID); got != want {
					t.Fatalf("IsAncestor(%s, %s) = %v, want %v", a.ID, x.ID, got, want)
				}
			}
		}
	}
	// The generated cases must exercise both answers.
	if checked < 20000 || skips < checked/10 || skips > checked*9/10 {
		t.Fatalf("weak corpus: %d verdicts checked, %d skips", checked, skips)
	}
	t.Logf("%d verdicts checked, %d skips", checked, skips)
}

// TestClosureMatchesAncestors checks Run's per-job closure summaries
// against the ancestor sets listed explicitly: a job without if: runs when
// every ancestor succeeded, is skipped when one did not (and the reason
// names the first in dependency order, and the direct need it comes
// through), and is unknown otherwise.
func TestClosureMatchesAncestors(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	results := []Result{Success, Failure, Cancelled, Unknown, Success, Success}
	for _, w := range randomWorkflows(t, 300) {
		order := w.TopoOrder()
		pos := map[string]int{}
		for i, id := range order {
			pos[id] = i
		}
		sc := Scenario{Outcomes: map[string]Result{}}
		for _, j := range w.Jobs {
			sc.Outcomes[j.ID] = results[rng.Intn(len(results))]
		}
		vs := Run(w, sc)
		res := map[string]Result{}
		for _, v := range vs {
			res[v.ID] = v.Result
		}
		for _, v := range vs {
			j := w.Job(v.ID)
			if j.If != nil || len(j.Needs) == 0 {
				continue
			}
			anc := w.Ancestors(j.ID)
			slices.SortFunc(anc, func(a, b string) int { return pos[a] - pos[b] })
			bad, unknown := "", false
			for _, a := range anc {
				switch res[a] {
				case Success:
				case Unknown:
					unknown = true
				default:
					if bad == "" {
						bad = a
					}
				}
			}
			switch {
			case bad != "":
				via := ""
				for _, n := range j.Needs {
					if n == bad {
						via = "direct need"
						break
					}
				}
				for _, n := range j.Needs {
					if via == "" && slices.Contains(w.Ancestors(n), bad) {
						via = "ancestor via " + n
					}
				}
				if v.Verdict != VerdictSkip || !strings.Contains(v.Reason, ": "+bad+" ") || !strings.HasSuffix(v.Reason, "("+via+")") {
					t.Fatalf("%s: want skip through %s (%s), got %s: %s\n%s", j.ID, bad, via, v.Verdict, v.Reason, w.Source)
				}
			case unknown:
				if v.Verdict != VerdictUnknown {
					t.Fatalf("%s: want unknown, got %s: %s", j.ID, v.Verdict, v.Reason)
				}
			default:
				if v.Verdict != VerdictRun {
					t.Fatalf("%s: want run, got %s: %s", j.ID, v.Verdict, v.Reason)
				}
			}
		}
	}
}

// TestSkippedUnder: the ancestors SkippedUnder visits are exactly those
// for which Skipped holds, each once, and returning false stops it.
func TestSkippedUnder(t *testing.T) {
	for _, w := range randomWorkflows(t, 200) {
		f := New(w).Forced()
		for _, x := range w.Jobs {
			for _, r := range []Result{Failure, Skipped} {
				var want, got []string
				for _, a := range w.Ancestors(x.ID) {
					if f.Skipped(x.ID, a, r) {
						want = append(want, a)
					}
				}
				f.SkippedUnder(x.ID, r, func(a string) bool { got = append(got, a); return true })
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("SkippedUnder(%s, %s) = %v, want %v\n%s", x.ID, r, got, want, w.Source)
				}
				n := 0
				f.SkippedUnder(x.ID, r, func(string) bool { n++; return false })
				if n != min(1, len(want)) {
					t.Fatalf("SkippedUnder(%s, %s) went on after false: %d calls", x.ID, r, n)
				}
			}
		}
	}
}
