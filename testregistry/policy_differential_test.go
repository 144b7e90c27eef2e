package testregistry

import (
	"bytes"
	"encoding/json"
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
	root := os.Getenv("REGISTRY_REFERENCE")
	if root == "" {
		t.Skip("REGISTRY_REFERENCE is not set (a radixark/miles checkout at the reference commit)")
	}
	b, err := os.ReadFile(filepath.Join("testdata", "policy-differential.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases []struct {
			Env  map[string]string `json:"env"`
			Diff *string           `json:"diff"`
			RC   any               `json:"rc"`
			Out  string            `json:"out"`
			Err  string            `json:"err"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) < 1000 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	fsys := DirFS(root)
	cfg, err := DefaultConfig().Resolve(fsys)
	if err != nil {
		t.Fatal(err)
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
