package simulate

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestStaticOutputs: an output the job's steps do not decide is evaluated
// as the runner evaluates it when the job ends; a matrix job's legs combine
// (empty values dropped, the last non-empty one wins, so known only when
// they agree).
func TestStaticOutputs(t *testing.T) {
	w := load(t, fstest.MapFS{"w.yml": {Data: []byte(`on: push
jobs:
  plan:
    runs-on: x
    outputs:
      lit: "true"
      empty: ""
      ev: "on-${{ github.event_name }}"
      step: ${{ steps.s.outputs.x }}
      pass: ${{ needs.pre.outputs.v }}
    needs: pre
    steps: [{id: s, run: echo}]
  pre:
    runs-on: x
    outputs:
      v: ${{ steps.s.outputs.v }}
    steps: [{id: s, run: echo}]
  legs:
    runs-on: x
    strategy:
      matrix:
        v: [1, 2]
    outputs:
      each: ${{ matrix.v }}
      one: ${{ matrix.v == 2 && 'yes' || '' }}
      same: fixed
    steps: [{run: echo}]
  lit-true:
    needs: plan
    if: needs.plan.outputs.lit == 'true'
    runs-on: x
    steps: [{run: echo}]
  empty-unset:
    needs: plan
    if: needs.plan.outputs.empty == ''
    runs-on: x
    steps: [{run: echo}]
  ev:
    needs: plan
    if: needs.plan.outputs.ev == 'on-push'
    runs-on: x
    steps: [{run: echo}]
  step-unknown:
    needs: plan
    if: needs.plan.outputs.step == 'x'
    runs-on: x
    steps: [{run: echo}]
  pass:
    needs: plan
    if: needs.plan.outputs.pass == '7'
    runs-on: x
    steps: [{run: echo}]
  each-set:
    needs: legs
    if: needs.legs.outputs.each != ''
    runs-on: x
    steps: [{run: echo}]
  each-which:
    needs: legs
    if: needs.legs.outputs.each == '1'
    runs-on: x
    steps: [{run: echo}]
  one:
    needs: legs
    if: needs.legs.outputs.one == 'yes'
    runs-on: x
    steps: [{run: echo}]
  after-failure:
    needs: plan
    if: always() && needs.plan.outputs.lit == 'true'
    runs-on: x
    steps: [{run: echo}]
  step-after-failure:
    needs: plan
    if: always() && needs.plan.outputs.step == ''
    runs-on: x
    steps: [{run: echo}]
  same:
    needs: legs
    if: needs.legs.outputs.same == 'fixed'
    runs-on: x
    steps: [{run: echo}]
  each-none:
    needs: legs
    if: needs.legs.outputs.each == '3'
    runs-on: x
    steps: [{run: echo}]
  each-number:
    needs: legs
    if: needs.legs.outputs.each > 0
    runs-on: x
    steps: [{run: echo}]
`)}}, "w.yml")
	sc := Scenario{Event: "push", Outputs: map[string]map[string]string{"pre": {"v": "7"}}}
	want := map[string]Decision{
		"lit-true":     VerdictRun,
		"empty-unset":  VerdictRun,
		"ev":           VerdictRun,
		"step-unknown": VerdictUnknown,
		"pass":         VerdictRun,
		"each-set":     VerdictRun,     // every leg writes something
		"each-which":   VerdictUnknown, // which leg finished last is timing
		"one":          VerdictRun,     // leg 1's empty value is not set
		"same":         VerdictRun,
		"each-none":    VerdictSkip, // neither leg's value
		"each-number":  VerdictRun,  // '1' and '2' both compare as numbers
	}
	check := func(name string, sc Scenario, want map[string]Decision) {
		t.Helper()
		for _, v := range Run(w, sc) {
			if wv, ok := want[v.ID]; ok && v.Verdict != wv {
				t.Errorf("%s: %s: %s (%s), want %s", name, v.ID, v.Verdict, v.Reason, wv)
			}
		}
	}
	check("success", sc, want)
	for _, v := range Run(w, sc) {
		if v.ID == "each-which" && !strings.Contains(v.Reason, "last leg to finish") {
			t.Errorf("each-which: reason %q does not say why", v.Reason)
		}
	}
	// The runner evaluates outputs of a failed job too: the literal is set,
	// the step output may be missing.
	failed := sc
	failed.Outcomes = map[string]Result{"plan": Failure}
	check("failed", failed, map[string]Decision{"lit-true": VerdictSkip, "after-failure": VerdictRun, "step-after-failure": VerdictUnknown})
	// A given output wins over the template.
	given := sc
	given.Outputs = map[string]map[string]string{"pre": {"v": "7"}, "plan": {"lit": "false"}}
	check("given", given, map[string]Decision{"lit-true": VerdictSkip})
}
