package ghschema

import (
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// alErrors runs the embedded actionlint's parser and rules on src (what
// checks.Linter runs, without a project).
func alErrors(t *testing.T, src string) []*actionlint.Error {
	t.Helper()
	l, err := actionlint.NewLinter(&strings.Builder{}, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.Lint("probe.yml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

func asErr(e *actionlint.Error) Err {
	return Err{Kind: e.Kind, Message: e.Message, Line: e.Line, Column: e.Column}
}

// TestItemsStillRejected fails when an upgraded actionlint accepts what an
// item drops: delete the item (and, when actionlint now validates the
// construct itself, cicheck's own check of it).
func TestItemsStillRejected(t *testing.T) {
	for _, it := range Items {
		t.Run(it.ID, func(t *testing.T) {
			if it.Source == "" || it.Since == "" || it.Probe == "" {
				t.Fatalf("item %s needs a source, a date and a probe", it.ID)
			}
			errs := alErrors(t, it.Probe)
			n := 0
			for _, e := range errs {
				if it.Matches(asErr(e), NewSource([]byte(it.Probe))) {
					n++
				}
			}
			if n == 0 {
				t.Errorf("actionlint no longer reports %s (%s): it accepts the construct, so remove the item; its errors:", it.ID, it.What)
				for _, e := range errs {
					t.Logf("  [%s] %s", e.Kind, e.Message)
				}
			}
		})
	}
}

// TestItemsMatchExactly: an item drops its own error only. A near miss of
// the construct (another key, another label, another kind) keeps
// actionlint's error; each row fails if the match is widened.
func TestItemsMatchExactly(t *testing.T) {
	for _, c := range []struct {
		name, src string
		kind      string
		msg       string // a message the embedded actionlint gives that must be kept
	}{
		{"another key", "on: push\nconcurrency: {group: g, queues: max}\njobs:\n  a: {runs-on: ubuntu-latest, steps: [{run: x}]}\n",
			"syntax-check", `unexpected key "queues" for "concurrency" section`},
		{"queue elsewhere", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    environment: {name: e, queue: max}\n    steps: [{run: x}]\n",
			"syntax-check", `unexpected key "queue" for "environment" section`},
		{"another label", "on: push\njobs:\n  a: {runs-on: ubuntu-26.04-armx, steps: [{run: x}]}\n",
			"runner-label", `label "ubuntu-26.04-armx" is unknown`},
		{"another permission scope", "on: push\npermissions:\n  vulnerability-alert: read\njobs:\n  a: {runs-on: ubuntu-latest, steps: [{run: x}]}\n",
			"permissions", `unknown permission scope "vulnerability-alert"`},
		{"a step that runs nothing", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - name: empty\n      - {id: s, run: x, background: true}\n",
			"syntax-check", `step must run script with "run" section`},
		{"another step key", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - {run: x, backgrounds: true}\n",
			"syntax-check", `unexpected key "backgrounds" for step`},
		{"an unknown step id", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - parallel:\n          - {id: fe, run: a}\n      - run: echo ${{ steps.be.outcome }}\n",
			"expression", `property "be" is not defined in object type`},
		{"a parallel id read another way", "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - parallel:\n          - {id: fe, run: a}\n      - run: echo ${{ needs.fe.result }}\n",
			"expression", `property "fe" is not defined in object type`},
		{"label prefix", "on: push\njobs:\n  a: {runs-on: ubuntu-26.0, steps: [{run: x}]}\n",
			"runner-label", `label "ubuntu-26.0" is unknown`},
	} {
		t.Run(c.name, func(t *testing.T) {
			found := false
			for _, e := range alErrors(t, c.src) {
				if e.Kind == c.kind && strings.HasPrefix(e.Message, c.msg) {
					found = true
					if Accepted(asErr(e), NewSource([]byte(c.src))) {
						t.Errorf("dropped %q", e.Message)
					}
				}
			}
			if !found {
				t.Errorf("actionlint gave no %q error", c.msg)
			}
		})
	}
	// The kind is part of the match.
	if Accepted(Err{Kind: "expression", Message: `unexpected key "queue" for "concurrency" section. expected one of "cancel-in-progress", "group"`}, NewSource(nil)) {
		t.Error("matched another kind")
	}
}

func TestNearHosted(t *testing.T) {
	for _, c := range []struct{ label, want string }{
		{"ubuntu-lates", "ubuntu-latest"},
		{"Ubuntu-Latest", ""}, // GitHub matches labels ignoring case: this is ubuntu-latest
		{"ubunut-latest", "ubuntu-latest"},
		{"ubuntu-2404", "ubuntu-24.04"},
		{"windows-lastest", "windows-latest"},
		{"macos-15-larg", "macos-15-large"},
		{"ubuntu-latest", ""},
		{"ubuntu-26.04-arm", ""},
		{"ubuntu-20.04", ""}, // retired, reported as such rather than as a typo of ubuntu-22.04
		// Custom labels: never near misses.
		{"docker-build", ""},
		{"big-box-7", ""},
		{"x86", ""}, // one edit from the x64 preset, but short names differ by one edit
		{"linux-x64", ""},
		{"ubuntu-latest-64-cores", ""}, // an organisation's larger runner, one edit from ubuntu-latest-4-cores
		{"windows-latest-16-cores", ""},
		{"ubuntu-24.04-16core", ""},
		{"ubuntu-gpu", ""},
		{"macos-arm64", ""},
	} {
		if got := NearHosted(c.label); got != c.want {
			t.Errorf("NearHosted(%q) = %q, want %q", c.label, got, c.want)
		}
	}
}

// TestHostedLabels: the list is actionlint's own plus the added images,
// less the retired ones, so a label actionlint learns is noticed here.
func TestHostedLabels(t *testing.T) {
	for _, it := range Items {
		if !strings.HasPrefix(it.ID, "runner-") {
			continue
		}
		label := strings.TrimPrefix(it.ID, "runner-")
		if !slices.Contains(HostedLabels, label) {
			t.Errorf("%s is added by an item but not in HostedLabels", label)
		}
	}
	for _, im := range RetiredImages {
		if slices.Contains(HostedLabels, im.Label) {
			t.Errorf("%s is retired but in HostedLabels", im.Label)
		}
		if im.Retired == "" || im.Source == "" || im.Use == "" {
			t.Errorf("%s needs a date, a source and a replacement", im.Label)
		}
	}
	// Every hosted label that is not an added image must be one actionlint
	// accepts: a typo in the list would otherwise be a label cicheck
	// suggests and GitHub does not have.
	for _, l := range HostedLabels {
		src := "on: push\njobs:\n  a: {runs-on: " + l + ", steps: [{run: x}]}\n"
		for _, e := range alErrors(t, src) {
			if e.Kind == "runner-label" && !Accepted(asErr(e), NewSource([]byte(src))) {
				t.Errorf("%s: actionlint: %s", l, e.Message)
			}
		}
	}
}

// TestPermissionScopes: every added scope has the item that drops
// actionlint's error for it, and actionlint does not know it yet.
func TestPermissionScopes(t *testing.T) {
	for scope := range PermissionScopes {
		if !slices.ContainsFunc(Items, func(it *Item) bool { return it.ID == "permission-"+scope }) {
			t.Errorf("%s has no item", scope)
		}
	}
}

// TestSourceReadsOnlyWithAKey: the source is read again only for a
// parallel-step key used as a key, in block or flow style; not for a
// word in a script nor for strategy's max-parallel (the near miss that
// made every matrix workflow be read twice).
func TestSourceReadsOnlyWithAKey(t *testing.T) {
	const head = "on: push\njobs:\n  a:\n    runs-on: x\n"
	for _, c := range []struct {
		src  string
		read bool
	}{
		{head + "    strategy:\n      max-parallel: 2\n      matrix: {x: [1]}\n    steps:\n      - run: echo wait: done\n", false},
		{head + "    steps:\n      - run: x\n        background: true\n", true},
		{head + "    steps:\n      - wait-all: true\n", true},
		{head + "    steps: [{parallel: [{run: a}, {run: b}]}]\n", true},
		{head + "    steps:\n      - \"cancel\": x\n", true},
	} {
		if got := NewSource([]byte(c.src)).Jobs() != nil; got != c.read {
			t.Errorf("read %v, want %v:\n%s", got, c.read, c.src)
		}
	}
}
