package checks

import (
	"testing"

	"github.com/cicheck/cicheck/report"
)

// TestUnknownNeedsFingerprint: adding an unrelated job leaves the finding's
// fingerprint alone, so a baselined finding stays accepted.
func TestUnknownNeedsFingerprint(t *testing.T) {
	before := Run(loadSrc(t, "on: push\njobs:\n  a:\n    needs: [zz]\n    runs-on: x\n    steps: [{run: a}]\n"), "", nil, []*Rule{UnknownNeeds})
	after := Run(loadSrc(t, "on: push\njobs:\n  pre: {runs-on: x, steps: [{run: a}]}\n  a:\n    needs: [zz]\n    runs-on: x\n    steps: [{run: a}]\n"), "", nil, []*Rule{UnknownNeeds})
	if len(before) != 1 || len(after) != 1 || report.Fingerprint(before[0]) != report.Fingerprint(after[0]) {
		t.Errorf("fingerprint changed:\n%v\n%v", before, after)
	}
}

// TestUnknownNeedsFix checks the suggested fix: it never names the job
// itself or one of its descendants (that would be a cycle), and it keeps the
// job's other needs.
func TestUnknownNeedsFix(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"no self suggestion", `on: push
jobs:
  a:
    needs: [zz]
    runs-on: x
    steps: [{run: a}]
`, "w.yml:4:13: error [unknown-needs] job \"a\" needs job \"zz\", which does not exist in this workflow job=a fix=\n"},
		{"no descendant suggestion", `on: push
jobs:
  test:
    needs: biuld
    runs-on: x
    steps: [{run: a}]
  build:
    needs: test
    runs-on: x
    steps: [{run: a}]
`, "w.yml:4:12: error [unknown-needs] job \"test\" needs job \"biuld\", which does not exist in this workflow job=test fix=\n"},
		{"other needs kept", `on: push
jobs:
  lint: {runs-on: x, steps: [{run: a}]}
  build: {runs-on: x, steps: [{run: a}]}
  test:
    needs: [lint, biuld]
    runs-on: x
    steps: [{run: a}]
`, "w.yml:6:19: error [unknown-needs] job \"test\" needs job \"biuld\", which does not exist in this workflow job=test fix=needs: [lint, build]\n"},
		{"no far-fetched suggestion", `on: push
jobs:
  b: {runs-on: x, steps: [{run: a}]}
  a:
    needs: [zz]
    runs-on: x
    steps: [{run: a}]
`, "w.yml:5:13: error [unknown-needs] job \"a\" needs job \"zz\", which does not exist in this workflow job=a fix=\n"},
		{"transposition still suggested", `on: push
jobs:
  tset: {runs-on: x, steps: [{run: a}]}
  a:
    needs: test
    runs-on: x
    steps: [{run: a}]
`, "w.yml:5:12: error [unknown-needs] job \"a\" needs job \"test\", which does not exist in this workflow job=a fix=needs: tset\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := render(Run(loadSrc(t, c.src), "", nil, []*Rule{UnknownNeeds}))
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
