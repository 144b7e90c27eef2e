package fix_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/fix"
	"github.com/cicheck/cicheck/workflowgraph"
)

// apply runs fix.Apply on src with one finding per listed job.
func apply(t *testing.T, src string, fs ...finding.Finding) fix.Result {
	t.Helper()
	w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(src)}}, "w.yml")
	if err != nil || w == nil {
		t.Fatalf("load: %v", err)
	}
	return fix.Apply([]byte(src), w, fs)
}

func gateOn(job string) finding.Finding {
	return finding.Finding{Rule: "gpu-gate", Job: job, Edit: finding.CondEdit{Terms: "!cancelled() && needs.a.result == 'success'"}}
}

func cancelOn(job string) finding.Finding {
	return finding.Finding{Rule: "always-without-cancelled", Job: job, Edit: finding.CondEdit{Cancel: true}}
}

// TestFixRefusesWhatItCannotEditExactly: each shape that fix used to
// destroy is left byte for byte as it was, with a reason; the near miss
// of each (the same job in block style) is fixed.
func TestFixRefusesWhatItCannotEditExactly(t *testing.T) {
	const head = "on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{run: x}]\n"
	for _, c := range []struct {
		name, src string
		f         finding.Finding
		reason    string
	}{
		{"flow mapping with if", head + "  b: {needs: a, if: always(), runs-on: [self-hosted, h100], steps: [{run: x}]}\n", cancelOn("b"), "flow style"},
		{"flow mapping without if", head + "  b: {needs: a, runs-on: [self-hosted, h100], steps: [{run: x}]}\n", gateOn("b"), "flow style"},
		{"anchored if", head + "  b:\n    needs: a\n    if: &cond always()\n    runs-on: x\n    steps: [{run: x}]\n  c:\n    needs: a\n    if: *cond\n    runs-on: x\n    steps: [{run: x}]\n", cancelOn("b"), "anchor"},
		{"aliased if", head + "  b:\n    needs: a\n    if: &cond always()\n    runs-on: x\n    steps: [{run: x}]\n  c:\n    needs: a\n    if: *cond\n    runs-on: x\n    steps: [{run: x}]\n", cancelOn("c"), "alias"},
		{"anchored job", head + "  b: &job\n    needs: a\n    runs-on: x\n    steps: [{run: x}]\n  c: *job\n", gateOn("b"), "anchor"},
		{"tagged if", head + "  b:\n    needs: a\n    if: !!str always()\n    runs-on: x\n    steps: [{run: x}]\n", cancelOn("b"), "tag"},
		{"merge key", head + "  b:\n    <<: {runs-on: x}\n    needs: a\n    steps: [{run: x}]\n", gateOn("b"), "merge key"},
		{"value on the next line", head + "  b:\n    needs: a\n    if:\n      always()\n    runs-on: x\n    steps: [{run: x}]\n", cancelOn("b"), "key's line"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: []byte(c.src)}}, "w.yml")
			if err != nil || w == nil || w.Job(c.f.Job) == nil {
				t.Skipf("the loader does not read this shape: %v", err)
			}
			r := fix.Apply([]byte(c.src), w, []finding.Finding{c.f})
			if string(r.Source) != c.src || len(r.Applied) != 0 {
				t.Fatalf("edited:\n%s", r.Source)
			}
			if len(r.Skipped) != 1 || !strings.Contains(r.Skipped[0].Reason, c.reason) {
				t.Errorf("skipped %+v, want a reason with %q", r.Skipped, c.reason)
			}
			if r.Unified("w.yml") != "" {
				t.Error("a refused fix has a diff")
			}
		})
	}
	// The near miss: the same job in block style, no anchor or tag, is fixed.
	src := head + "  b:\n    needs: a\n    if: always()\n    runs-on: x\n    steps: [{run: x}]\n"
	if r := apply(t, src, cancelOn("b")); len(r.Applied) != 1 {
		t.Errorf("block-style near miss not fixed: %+v", r.Skipped)
	}
}

// TestFixKeepsCommentsAndNeighbours: a comment indented under if:, a
// comment above the first key and a trailing comment all stay; only the
// condition's own text grows.
func TestFixKeepsCommentsAndNeighbours(t *testing.T) {
	src := "on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{run: x}]\n" +
		"  b:\n    needs: a\n    if: always() && vars.GO # why\n      # a comment indented under if:\n    runs-on: x\n    steps: [{run: x}]\n" +
		"  c: # the build\n    # what c does\n    needs: a\n    runs-on: x\n    steps: [{run: x}]\n"
	r := apply(t, src, cancelOn("b"), gateOn("c"))
	want := "on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{run: x}]\n" +
		"  b:\n    needs: a\n    if: ${{ !cancelled() && vars.GO }} # why\n      # a comment indented under if:\n    runs-on: x\n    steps: [{run: x}]\n" +
		"  c: # the build\n    if: ${{ !cancelled() && needs.a.result == 'success' }}\n    # what c does\n    needs: a\n    runs-on: x\n    steps: [{run: x}]\n"
	if string(r.Source) != want || len(r.Applied) != 2 {
		t.Errorf("got\n%s\nwant\n%s\nskipped %+v", r.Source, want, r.Skipped)
	}
}

// TestFixQuotedContinuation: a double-quoted if: continued on the next
// line at the key's indent (what FuzzApply found) keeps its lines.
func TestFixQuotedContinuation(t *testing.T) {
	src := "on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{run: x}]\n  b:\n    needs: a\n    if: \"always() &&\n    vars.GO\"\n    runs-on: x\n    steps: [{run: x}]\n"
	r := apply(t, src, cancelOn("b"))
	want := "    if: \"!cancelled() &&\n    vars.GO\"\n"
	if !strings.Contains(string(r.Source), want) || len(r.Applied) != 1 {
		t.Errorf("got\n%s\nskipped %+v", r.Source, r.Skipped)
	}
}

// TestFixCRLFAndBOM: a file with a byte order mark and CRLF endings keeps
// both; the added line ends as the others do.
func TestFixCRLFAndBOM(t *testing.T) {
	src := "\ufeffon: push\r\njobs:\r\n  a:\r\n    runs-on: x\r\n    steps: [{run: x}]\r\n  b:\r\n    needs: a\r\n    runs-on: x\r\n    steps: [{run: x}]\r\n  c:\r\n    needs: a\r\n    if: always() # é\r\n    runs-on: x\r\n    steps: [{run: x}]\r\n"
	r := apply(t, src, gateOn("b"), cancelOn("c"))
	got := string(r.Source)
	if len(r.Applied) != 2 || !strings.HasPrefix(got, "\ufeff") || strings.Count(got, "\n") != strings.Count(got, "\r\n") {
		t.Fatalf("got %q, skipped %+v", got, r.Skipped)
	}
	for _, want := range []string{"  b:\r\n    if: ${{ !cancelled() && needs.a.result == 'success' }}\r\n", "    if: ${{ !cancelled() }} # é\r\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%q", want, got)
		}
	}
}

// TestFixKeepsTheAuthorsText: the condition as written, case, spacing,
// grouping and all, follows the new terms; a term already there is not
// added again; || gets parentheses only where precedence needs them.
func TestFixKeepsTheAuthorsText(t *testing.T) {
	head := "on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{run: x}]\n  b:\n    needs: a\n"
	for _, c := range []struct{ cond, want string }{
		{"${{ a || b || c }}", "${{ !cancelled() && needs.a.result == 'success' && (a || b || c) }}"},
		{"${{ (a || b) && c }}", "${{ !cancelled() && needs.a.result == 'success' && (a || b) && c }}"},
		{"${{ needs.a.outputs.matrix-AMD != '' }}", "${{ !cancelled() && needs.a.result == 'success' && needs.a.outputs.matrix-AMD != '' }}"},
		{"${{ vars.UV_BUILD_CACHE == 'on' }}", "${{ !cancelled() && needs.a.result == 'success' && vars.UV_BUILD_CACHE == 'on' }}"},
		{"${{ needs.A.result == 'success' && x }}", "${{ !cancelled() && needs.A.result == 'success' && x }}"},
		{"${{x||y}}", "${{!cancelled() && needs.a.result == 'success' && (x||y)}}"},
		// YAML reads `true` as a boolean, the fixed value as a string: the
		// implicit tag follows the text.
		{"true", "${{ !cancelled() && needs.a.result == 'success' && true }}"},
	} {
		src := head + "    if: " + c.cond + "\n    runs-on: x\n    steps: [{run: x}]\n"
		r := apply(t, src, gateOn("b"))
		if !strings.Contains(string(r.Source), "    if: "+c.want+"\n") {
			t.Errorf("%s: got\n%s\nskipped %+v", c.cond, r.Source, r.Skipped)
		}
	}
}

// TestFixIdempotent: applying the same edit to the fixed text changes
// nothing (every term is already there).
func TestFixIdempotent(t *testing.T) {
	src := "on: push\njobs:\n  a:\n    runs-on: x\n    steps: [{run: x}]\n  b:\n    needs: a\n    if: |\n      x ||\n      y\n    runs-on: x\n    steps: [{run: x}]\n"
	r := apply(t, src, gateOn("b"))
	if len(r.Applied) != 1 {
		t.Fatalf("not applied: %+v", r.Skipped)
	}
	again := apply(t, string(r.Source), gateOn("b"))
	if string(again.Source) != string(r.Source) || len(again.Applied) != 0 {
		t.Errorf("second run changed:\n%s", again.Source)
	}
}

// TestFixBareCR: YAML breaks lines at a bare CR, which positions counted
// by LF would misplace (FuzzApply found the panic); such a file is left
// alone. The near miss, CRLF, is fixed (TestFixCRLFAndBOM).
func TestFixBareCR(t *testing.T) {
	src := "\rjobs:\n  a:\n    runs-on: x\n  b:\n    needs: a\n    if: \"always()\"\n    runs-on: x\n"
	r := apply(t, src, cancelOn("b"))
	if string(r.Source) != src || len(r.Skipped) != 1 || !strings.Contains(r.Skipped[0].Reason, "bare CR") {
		t.Errorf("%+v", r)
	}
}
