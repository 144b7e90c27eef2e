package testregistry

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPolicyDifferential replays testdata/policy-differential.json, the
// reference's own ci_policy.py main() on 1,000 generated sets of workflow
// inputs (tools/registry-policy-diff), against ResolveWorkflowPolicy and
// WriteWorkflowPolicy, what `cicheck registry policy` runs: the same exit
// status, the same GITHUB_OUTPUT lines, the same ::error:: line. The GPU
// stage pruning reads the reference's tree, which the repository does not
// carry: REGISTRY_REFERENCE names a checkout of radixark/miles at the
// reference commit, and the test skips without one.
func TestPolicyDifferential(t *testing.T) {
	var golden struct {
		Cases []struct {
			Env  map[string]string `json:"env"`
			Diff *string           `json:"diff"`
			RC   any               `json:"rc"`
			Out  string            `json:"out"`
			Err  string            `json:"err"`
		} `json:"cases"`
	}
	fsys, cfg := referenceReplay(t, "policy-differential.json", &golden)
	if len(golden.Cases) < 1000 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	agree := 0
	for i, c := range golden.Cases {
		in := WorkflowInputs{EventName: c.Env["EVENT_NAME"], Schedule: c.Env["SCHEDULE"], PRLabelsJSON: c.Env["PR_LABELS_JSON"],
			CadenceOverride: c.Env["CADENCE_OVERRIDE"]}
		var diff []byte
		if c.Diff != nil {
			diff = []byte{}
			for _, r := range *c.Diff { // the generator writes the bytes as Latin-1
				diff = append(diff, byte(r))
			}
		}
		var out, log bytes.Buffer
		wp, err := ResolveWorkflowPolicy(fsys, cfg, in, diff)
		got := "0"
		if err == nil {
			err = WriteWorkflowPolicy(&out, &log, wp)
		}
		if err != nil {
			got = strings.TrimSpace("::error::" + err.Error()) // the reference's line, trailing blanks aside
		}
		want := "0"
		if rc, ok := c.RC.(float64); !ok || rc != 0 {
			want = strings.TrimSpace(c.Err)
		}
		if got != want || err == nil && out.String() != c.Out {
			t.Errorf("case %d %v diff %q:\n  reference %s %q\n  cicheck   %s %q", i, c.Env, deref(c.Diff), want, c.Out, got, out.String())
			continue
		}
		agree++
	}
	t.Logf("%d/%d agree with the reference's ci_policy.py", agree, len(golden.Cases))
}

// referenceReplay reads testdata/name (a reference replay) into golden and
// returns the reference's tree named by REGISTRY_REFERENCE, with its
// settled configuration; the test skips without a checkout.
func referenceReplay(t *testing.T, name string, golden any) (fs.FS, Config) {
	t.Helper()
	root := os.Getenv("REGISTRY_REFERENCE")
	if root == "" {
		t.Skip("REGISTRY_REFERENCE is not set (a radixark/miles checkout at the reference commit)")
	}
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, golden); err != nil {
		t.Fatal(err)
	}
	fsys := DirFS(root)
	cfg, err := DefaultConfig().Resolve(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return fsys, cfg
}
