package testregistry

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/finding"
)

func TestLoadLabels(t *testing.T) {
	tests := []struct {
		name, src string
		keys      string // loaded keys, comma-joined; "-" = not loaded
		rule, msg string // first finding
	}{
		{"annotated dict", "KNOWN_LABELS: dict[str, str] = {'a': 'x', 'b': 'y'}\n", "a,b", "", ""},
		{"set", "KNOWN_LABELS = {'a', 'b'}\n", "a,b", "", ""},
		{"list", "KNOWN_LABELS = ['a', 'b']\n", "a,b", "", ""},
		{"tuple", "KNOWN_LABELS = ('a', 'b')\n", "a,b", "", ""},
		{"frozenset", "KNOWN_LABELS = frozenset({'a', 'b'})\n", "a,b", "", ""},
		{"set of list", "KNOWN_LABELS = set(['a'])\n", "a", "", ""},
		{"last binding wins", "KNOWN_LABELS = ['a']\nKNOWN_LABELS = ['b']\n", "b", "", ""},
		{"chained", "KNOWN_LABELS = ALIAS = ('a',)\n", "a", "", ""},
		{"inside function ignored", "KNOWN_LABELS = ['a']\ndef f():\n    KNOWN_LABELS = ['b']\n", "a", "", ""},
		{"mutated |=", "KNOWN_LABELS = {'a'}\nKNOWN_LABELS |= {'b'}\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is modified after its assignment on line 1; label checks are skipped"},
		{"mutated update", "KNOWN_LABELS = {'a': ''}\nKNOWN_LABELS.update(b='')\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is modified after its assignment on line 1; label checks are skipped"},
		{"mutated add", "KNOWN_LABELS = {'a'}\nKNOWN_LABELS.add('b')\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is modified after its assignment on line 1; label checks are skipped"},
		{"item assignment", "KNOWN_LABELS = {'a': ''}\nKNOWN_LABELS['b'] = ''\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is modified after its assignment on line 1; label checks are skipped"},
		{"rebound by unpacking", "KNOWN_LABELS = ['a']\nKNOWN_LABELS, X = ['b'], 1\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"rebound by starred unpacking", "KNOWN_LABELS = ['a']\nX, *KNOWN_LABELS = 1, 2\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"rebound in a target list", "KNOWN_LABELS = ['a']\n[X, (KNOWN_LABELS, Y)] = 1, (2, 3)\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"deleted", "KNOWN_LABELS = ['a']\ndel KNOWN_LABELS\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"rebound by for", "KNOWN_LABELS = ['a']\nfor KNOWN_LABELS in []: pass\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"rebound by import", "KNOWN_LABELS = ['a']\nfrom m import KNOWN_LABELS\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"rebound by as", "KNOWN_LABELS = ['a']\nimport m as KNOWN_LABELS\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"rebound by with", "KNOWN_LABELS = ['a']\nwith f() as KNOWN_LABELS: pass\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		// The statements after the assignment on its own line, and an
		// import after a ';' on a later line, rebind it too.
		{"deleted on the same line", "KNOWN_LABELS = ['a']; del KNOWN_LABELS\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"imported on the same line", "KNOWN_LABELS = ['a']; import KNOWN_LABELS\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"imported after a ';'", "KNOWN_LABELS = ['a']\nx = 1; import KNOWN_LABELS\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"read on the same line", "KNOWN_LABELS = ['a']; print(KNOWN_LABELS)\n", "a", "", ""},      // near miss: a read binds nothing
		{"another name deleted on the same line", "KNOWN_LABELS = ['a']; del X\n", "a", "", ""},    // near miss: not the symbol
		{"deleted before the assignment", "del KNOWN_LABELS; KNOWN_LABELS = ['a']\n", "a", "", ""}, // near miss: before it
		{"rebound by walrus", "KNOWN_LABELS = ['a']\nif (KNOWN_LABELS := ['b']): pass\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it is rebound after its assignment on line 1; label checks are skipped"},
		{"imported then bound", "from m import KNOWN_LABELS\nKNOWN_LABELS = ['a']\n", "a", "", ""},
		{"reads are not rebindings", "KNOWN_LABELS = ['a']\nALL = sorted(KNOWN_LABELS)\nfor k in KNOWN_LABELS: pass\nx, y = KNOWN_LABELS, 1\nf(KNOWN_LABELS, a=1)\nd[KNOWN_LABELS, 1] = 2\ng(x)(KNOWN_LABELS, b=2)\nfrom KNOWN_LABELS import y\nq = (KNOWN_LABELS, 1)\n", "a", "", ""},
		{"spread", "KNOWN_LABELS = {**BASE, 'a': ''}\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: it uses **spread; label checks are skipped"},
		{"comprehension", "KNOWN_LABELS = {k: '' for k in X}\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: the value is a DictComp, not a literal; label checks are skipped"},
		{"names", "KNOWN_LABELS = [A, 'b']\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: an element is a Name, not a string literal; label checks are skipped"},
		{"missing", "OTHER = []\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: no module-level assignment of KNOWN_LABELS; label checks are skipped"},
		{"syntax error", "KNOWN_LABELS = [\n", "-", RuleLabelsNotLiteral, "cannot load KNOWN_LABELS statically: syntax error: '[' was never closed; label checks are skipped"},
		{"reserved", "KNOWN_LABELS = ['a', 'image']\n", "a,image", RuleLabelsReserved, "KNOWN_LABELS must not contain 'image': it is a workflow-only scope, not a domain label"},
		{"bad key", "KNOWN_LABELS = ['a b']\n", "a b", RuleLabelsBadKey, "label 'a b' does not match ^[A-Za-z0-9][A-Za-z0-9_.-]*$, so the workflow adapter silently drops 'run-ci-a b'"},
		{"duplicate", "KNOWN_LABELS = {'a': '1', 'a': '2'}\n", "a", RuleLabelsDupKey, "label 'a' is listed twice in KNOWN_LABELS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			ls, fs := loadLabels(fstest.MapFS{"tests/ci/labels.py": {Data: []byte(tt.src)}}, cfg)
			keys := "-"
			if ls != nil {
				var k []string
				for _, x := range ls.keys {
					if !x.dup {
						k = append(k, x.name)
					}
				}
				keys = strings.Join(k, ",")
			}
			if keys != tt.keys {
				t.Errorf("keys = %q, want %q", keys, tt.keys)
			}
			if tt.rule == "" {
				if len(fs) > 0 {
					t.Errorf("unexpected findings %v", fs)
				}
				return
			}
			if len(fs) == 0 || fs[0].Rule != tt.rule || fs[0].Message != tt.msg {
				t.Errorf("findings = %v\nwant %s: %s", fs, tt.rule, tt.msg)
			}
		})
	}
}

func TestLoadSuites(t *testing.T) {
	cfg := DefaultConfig()
	m, _ := loadSuites(fstest.MapFS{"tests/ci/run_suite.py": {Data: []byte("CI_SUITES = {'cpu': ['a'], 'cuda': ('b', 'c')}\n")}}, cfg)
	if strings.Join(m["cpu"], ",") != "a" || strings.Join(m["cuda"], ",") != "b,c" {
		t.Errorf("string keys: %v", m)
	}
	m, _ = loadSuites(fstest.MapFS{"tests/ci/run_suite.py": {Data: []byte("CI_SUITES = build()\n")}}, cfg)
	if m != nil {
		t.Errorf("non-literal without a map = %v, want nil", m)
	}
	cfg.Suites.Map = map[string][]string{"CPU": {"x"}}
	m, _ = loadSuites(fstest.MapFS{}, cfg)
	if strings.Join(m["cpu"], ",") != "x" {
		t.Errorf("fallback map = %v", m)
	}
	r, err := Scan(fstest.MapFS{"tests/ci/labels.py": {Data: []byte("KNOWN_LABELS = []\n")}}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 1 || r.Findings[0].Rule != RuleSuitesUnknown {
		t.Errorf("findings = %v", r.Findings)
	}
}

func TestAccessPolicyDrift(t *testing.T) {
	files := repo(nil)
	files[".github/workflows/policies/comment-command-access.json"] = &fstest.MapFile{Data: []byte(`{
  "commands": {
    "add_label": {
      "group": "maintainers",
      "allowed_labels": ["run-ci-megatron", "run-ci-image", "bypass-fastfail", "run-ci-all", "nightly"]
    }
  }
}`)}
	r, err := Scan(files, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if f.Rule == RuleAllowlistDrift {
			got = append(got, f.Message)
			if f.Line != 5 || f.Column != 7 {
				t.Errorf("position %d:%d", f.Line, f.Column)
			}
		}
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "commands.add_label.allowed_labels has entries that are not run-ci-<key> for a KNOWN_LABELS key, run-ci-image or bypass-fastfail: ['nightly', 'run-ci-all']") ||
		!strings.HasPrefix(got[1], "commands.add_label.allowed_labels is missing ['run-ci-amd', 'run-ci-ckpt',") {
		t.Errorf("drift = %q", got)
	}
}

func TestOrphans(t *testing.T) {
	files := repo(map[string]string{
		"tests/e2e/test_ok.py":            "register_cpu_ci(1, 'stage-b-cpu')\n",
		"tests/manual/test_manual.py":     "", // outside CI on purpose (the miles profile)
		"tests/manual/deep/test_deep.py":  "",
		"tests/manualx/test_near.py":      "", // a near miss of tests/manual/
		"tests/test_top.py":               "",
		"miles/utils/test_wandb_utils.py": "",
		"tools/.hidden/test_x.py":         "",
		"tests/conftest.py":               "",
	})
	r, err := Scan(files, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if f.Rule == RuleOrphanTest {
			got = append(got, f.File)
			if f.Severity != finding.Warning {
				t.Errorf("severity %v", f.Severity)
			}
		}
	}
	if strings.Join(got, ",") != "tests/manualx/test_near.py,tests/test_top.py" {
		t.Errorf("orphans = %v", got)
	}
}

func TestDiscover(t *testing.T) {
	files := fstest.MapFS{
		"tests/fast/test_b.py":            {},
		"tests/fast/sub/test_a.py":        {},
		"tests/fast-gpu/test_c.py":        {},
		"tests/e2e/.hidden/test_x.py":     {},
		"tests/e2e/.test_hidden.py":       {},
		"tests/e2e/x_test.py":             {},
		"tests/e2e/conftest.py":           {},
		"tests/e2e/deep/er/test_d.py":     {},
		"tests/ci/test_e.py":              {},
		"tests/other/test_orphan.py":      {},
		"tests/e2e/linked":                {Data: []byte("../fast/sub"), Mode: 0o777 | 1<<27},
		"tests/e2e/test_dir.py/inner.txt": {},
	}
	got, err := Discover(files, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	want := "tests/ci/test_e.py,tests/e2e/deep/er/test_d.py,tests/e2e/linked/test_a.py,tests/fast-gpu/test_c.py,tests/fast/sub/test_a.py,tests/fast/test_b.py"
	if strings.Join(got, ",") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, ","), want)
	}
}
