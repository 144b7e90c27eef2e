package checks

import (
	"testing"
)

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
`, "w.yml:4:13: error [unknown-needs] job \"a\" needs job \"zz\", which does not exist in this workflow (jobs: a) job=a fix=\n"},
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
`, "w.yml:4:12: error [unknown-needs] job \"test\" needs job \"biuld\", which does not exist in this workflow (jobs: test, build) job=test fix=\n"},
		{"other needs kept", `on: push
jobs:
  lint: {runs-on: x, steps: [{run: a}]}
  build: {runs-on: x, steps: [{run: a}]}
  test:
    needs: [lint, biuld]
    runs-on: x
    steps: [{run: a}]
`, "w.yml:6:19: error [unknown-needs] job \"test\" needs job \"biuld\", which does not exist in this workflow (jobs: lint, build, test) job=test fix=needs: [lint, build]\n"},
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
