package scope

import (
	"os"
	"strings"
	"testing"
)

// referencePolicy has the reference values of spec B3: version 2, both
// groups grant write and admin, 21 allowed labels, run-ci-all and nightly
// absent.
const referencePolicy = `{
  "version": 2,
  "groups": {
    "add_label_access": {"repository_permissions": ["write", "admin"], "user_ids": []},
    "repo_write_access": {"repository_permissions": ["write", "admin"]}
  },
  "commands": {
    "add_label": {
      "group": "add_label_access",
      "allowed_labels": [
        "run-ci-megatron", "run-ci-model-scripts", "run-ci-sglang", "run-ci-fsdp", "run-ci-short",
        "run-ci-long", "run-ci-ckpt", "run-ci-lora", "run-ci-eval", "run-ci-precision",
        "run-ci-ft-short", "run-ci-ft-long", "run-ci-weight-update", "run-ci-fully-async",
        "run-ci-replay", "run-ci-qwen35", "run-ci-mooncake", "run-ci-miles-plugin", "run-ci-amd",
        "run-ci-image", "bypass-fastfail"
      ]
    },
    "clear_labels": {"group": "repo_write_access"},
    "rerun_failed_ci": {"group": "repo_write_access"},
    "run_test_file": {"group": "repo_write_access"}
  }
}
`

func TestParsePolicyReference(t *testing.T) {
	p, err := ParsePolicy([]byte(referencePolicy), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Commands[PolicyAddLabel].AllowedLabels); n != 21 {
		t.Fatalf("%d labels", n)
	}
	if p.LabelAllowed("run-ci-all") || p.LabelAllowed("nightly") || !p.LabelAllowed("bypass-fastfail") {
		t.Fatal("allowlist wrong")
	}
	if !p.Allows(PolicyRunTestFile, "admin", 0) || p.Allows(PolicyRunTestFile, "triage", 0) {
		t.Fatal("authorization wrong")
	}
}

// The fixture repository's policy must stay valid.
func TestParsePolicyFixture(t *testing.T) {
	data, err := os.ReadFile("../fixtures/scope-miles/.github/workflows/policies/comment-command-access.json")
	if err != nil {
		t.Skipf("fixture absent: %v", err)
	}
	if _, err := ParsePolicy(data, "fixture"); err != nil {
		t.Fatal(err)
	}
}

// TestParsePolicyErrors is the table of spec B3, one row per rule.
func TestParsePolicyErrors(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(referencePolicy, old) {
			t.Fatalf("test setup: %q not in the reference policy", old)
		}
		return strings.Replace(referencePolicy, old, new, 1)
	}
	tests := []struct {
		name, doc, want string
	}{
		{"duplicate key", edit(`"version": 2,`, `"version": 2, "version": 2,`), "p.json:2:17: duplicate JSON key: version"},
		{"NaN", edit(`"version": 2,`, `"version": NaN,`), "p.json:2:14: non-standard JSON number: NaN"},
		{"-Infinity", edit(`"user_ids": []`, `"user_ids": [-Infinity]`), "non-standard JSON number: -Infinity"},
		{"syntax", `{"version": 2,}`, "p.json:1:15: cannot read JSON from p.json: expecting property name enclosed in double quotes"},
		{"not an object", `[]`, "p.json:1:1: policy must contain only version, groups, and commands"},
		{"extra root key", edit(`"version": 2,`, `"version": 2, "extra": 1,`), "policy must contain only version, groups, and commands"},
		{"version string", edit(`"version": 2,`, `"version": "2",`), "p.json:2:14: policy version must be 2"},
		{"version float", edit(`"version": 2,`, `"version": 2.0,`), "policy version must be 2"},
		{"version bool", edit(`"version": 2,`, `"version": true,`), "policy version must be 2"},
		{"groups", edit(`"repo_write_access": {"repository_permissions": ["write", "admin"]}`, `"other": {"repository_permissions": ["write"]}`),
			"policy groups must contain only add_label_access and repo_write_access"},
		{"group fields", edit(`"repo_write_access": {"repository_permissions": ["write", "admin"]}`, `"repo_write_access": {"repository_permissions": ["write"], "user_ids": []}`),
			"invalid fields for policy group repo_write_access"},
		{"add_label_access needs user_ids", edit(`, "user_ids": []}`, `}`), "invalid fields for policy group add_label_access"},
		{"empty permissions", edit(`{"repository_permissions": ["write", "admin"]}`, `{"repository_permissions": []}`),
			"groups.repo_write_access.repository_permissions must be a non-empty array"},
		{"read permission", edit(`{"repository_permissions": ["write", "admin"]}`, `{"repository_permissions": ["read"]}`),
			"groups.repo_write_access.repository_permissions must contain only write or admin"},
		{"duplicate permission", edit(`{"repository_permissions": ["write", "admin"]}`, `{"repository_permissions": ["write", "write"]}`),
			"groups.repo_write_access.repository_permissions contains duplicate permissions"},
		{"user_ids not array", edit(`"user_ids": []`, `"user_ids": 5`), "groups.add_label_access.user_ids must be an array"},
		{"user_ids zero", edit(`"user_ids": []`, `"user_ids": [0]`), "groups.add_label_access.user_ids must contain only positive integers"},
		{"user_ids bool", edit(`"user_ids": []`, `"user_ids": [true]`), "must contain only positive integers"},
		{"user_ids duplicate", edit(`"user_ids": []`, `"user_ids": [7, 7]`), "groups.add_label_access.user_ids contains duplicate user IDs"},
		{"commands", edit(`"run_test_file": {"group": "repo_write_access"}`, `"run_tests": {"group": "repo_write_access"}`),
			"policy commands do not match the static command registry"},
		{"command fields", edit(`"clear_labels": {"group": "repo_write_access"}`, `"clear_labels": {"group": "repo_write_access", "allowed_labels": []}`),
			"invalid fields for policy command clear_labels"},
		{"unknown group", edit(`"clear_labels": {"group": "repo_write_access"}`, `"clear_labels": {"group": "nobody"}`),
			"policy command clear_labels references an unknown group"},
		{"user id grant", edit(`"rerun_failed_ci": {"group": "repo_write_access"}`, `"rerun_failed_ci": {"group": "add_label_access"}`) + "",
			""}, // valid while add_label_access has no user ids
		{"user id grant with ids", strings.Replace(edit(`"rerun_failed_ci": {"group": "repo_write_access"}`, `"rerun_failed_ci": {"group": "add_label_access"}`), `"user_ids": []`, `"user_ids": [42]`, 1),
			"policy command rerun_failed_ci cannot grant access by user ID"},
		{"labels empty", edit(`"allowed_labels": [`, `"allowed_labels": [], "x": [`), "invalid fields for policy command add_label"},
		{"bad label", edit(`"run-ci-image",`, `"nightly",`), "invalid exact CI label: 'nightly'"},
		{"bad label type", edit(`"run-ci-image",`, `null,`), "invalid exact CI label: None"},
		{"duplicate label", edit(`"run-ci-image",`, `"run-ci-amd",`), "commands.add_label.allowed_labels contains duplicate labels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePolicy([]byte(tt.doc), "p.json")
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted, want %q", tt.want)
			}
			if strings.HasPrefix(tt.want, "p.json:") && err.Error() != tt.want || !strings.HasSuffix(err.Error(), tt.want) {
				t.Fatalf("got %q, want %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "p.json:") {
				t.Fatalf("no position: %q", err)
			}
		})
	}
}

func FuzzParsePolicy(f *testing.F) {
	f.Add(referencePolicy)
	f.Add(`{"version": NaN}`)
	f.Add(`{"a": "\ud800\udc00", "a": 1}`)
	f.Add(`[[[[1e5, -0, "x\u0000"]]]]`)
	f.Fuzz(func(t *testing.T, doc string) {
		p, err := ParsePolicy([]byte(doc), "f.json")
		if err == nil && p == nil {
			t.Fatal("nil policy without error")
		}
		if err != nil && !strings.HasPrefix(err.Error(), "f.json:") {
			t.Fatalf("error without position: %v", err)
		}
	})
}
