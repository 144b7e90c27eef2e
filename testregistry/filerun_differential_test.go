package testregistry

import (
	"encoding/json"
	"strconv"
	"testing"
)

// TestFileRunDifferential replays testdata/filerun-differential.json, the
// reference's own file_run.py resolve_file_run on every test file of its
// tree, each also written another way, with valid and invalid image tags
// (tools/registry-policy-diff), against Registry.ResolveFile, what
// `cicheck registry resolve-file` runs: the same plan or the same error.
// It needs the reference's tree, a checkout named by REGISTRY_REFERENCE.
func TestFileRunDifferential(t *testing.T) {
	var golden struct {
		Cases []struct {
			File  string             `json:"file"`
			Tag   string             `json:"tag"`
			Plan  *map[string]string `json:"plan"`
			Error *string            `json:"error"`
		} `json:"cases"`
	}
	fsys, cfg := referenceReplay(t, "filerun-differential.json", &golden)
	if len(golden.Cases) < 1000 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	r, err := Scan(fsys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	agree := 0
	for i, c := range golden.Cases {
		plan, err := r.ResolveFile(c.File, c.Tag)
		got := ""
		if err != nil {
			got = "error " + err.Error()
		} else {
			runsOn := ""
			if len(plan.RunsOn) > 0 {
				b, _ := json.Marshal(plan.RunsOn)
				runsOn = string(b)
			}
			got = "plan " + plan.Backend + " " + plan.Suite + " " + runsOn + " " + plan.Image + " " + strconv.Itoa(plan.TimeoutSeconds)
		}
		want := ""
		if c.Error != nil {
			want = "error " + *c.Error
		} else {
			p := *c.Plan
			var runsOn []string
			if p["runs_on"] != "" {
				if err := json.Unmarshal([]byte(p["runs_on"]), &runsOn); err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(runsOn) // Python's json.dumps puts a space after each comma
				p["runs_on"] = string(b)
			}
			want = "plan " + p["hw"] + " " + p["suite"] + " " + p["runs_on"] + " " + p["container_image"] + " " + p["timeout_seconds"]
		}
		if got != want {
			t.Errorf("case %d %q tag %q:\n  reference %s\n  cicheck   %s", i, c.File, c.Tag, want, got)
			continue
		}
		agree++
	}
	t.Logf("%d/%d agree with the reference's file_run.py", agree, len(golden.Cases))
}
