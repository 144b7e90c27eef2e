package replay

import (
	"strings"
	"testing"
	"unicode"
)

// TestHostileSubjects: a commit subject or a job name from the repository
// issues no workflow command, prints no terminal escape and renders no
// link or HTML (issue 27).
func TestHostileSubjects(t *testing.T) {
	r := &Result{Commits: 1, Old: "a", New: "b", Event: "pull_request", Jobs: []*Job{{
		Workflow: "ci.yml", Job: "j`x`|y", Class: "gpu", Old: 1, ChangedTotal: 1,
		Changed: []*Change{{Commit: "0123456789abcdef", Old: "run", New: "skip",
			Subject: "::warning file=x::INJECTED \x1b[2J [click](https://evil) <img src=x>", Why: "a\n::error::b"}},
	}}}
	txt, md := text(r), markdown(r)
	for name, out := range map[string]string{"text": txt, "markdown": md} {
		if strings.ContainsAny(out, "\x1b") {
			t.Errorf("%s: raw ESC in %q", name, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") {
				t.Errorf("%s: a line runs as a workflow command: %q", name, l)
			}
		}
	}
	if !strings.Contains(md, "| ``j`x`\\|y`` |") {
		t.Errorf("job name not a whole code span:\n%s", md)
	}
	for _, bad := range []string{"[click](", "<img"} {
		if strings.Contains(md, bad) {
			t.Errorf("markdown holds %q verbatim:\n%s", bad, md)
		}
	}
}
