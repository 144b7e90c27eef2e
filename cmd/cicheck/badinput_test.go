package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInputMatrix lints a workflows folder holding every kind of file
// GitHub users have put there, next to one valid workflow with a known
// finding: each bad file is a finding or a one-line error naming it, no
// run panics, and the valid file's finding is still reported.
func TestBadInputMatrix(t *testing.T) {
	valid := "on: push\njobs:\n  a:\n    needs: nope\n    runs-on: ubuntu-latest\n    steps: [{run: x}]\n"
	job := "    runs-on: ubuntu-latest\n    steps: [{run: x}]\n"
	var big, many, deep, bomb strings.Builder
	big.WriteString("on: push\njobs:\n")
	for i := 0; big.Len() < 10<<20; i++ {
		fmt.Fprintf(&big, "  j%d:\n%s", i, job)
	}
	many.WriteString("on: push\njobs:\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&many, "  j%d:\n", i)
		if i > 0 {
			fmt.Fprintf(&many, "    needs: j%d\n", i-1)
		}
		many.WriteString(job)
	}
	deep.WriteString("on: push\njobs:\n  a:\n" + job + "    env:\n      X: ")
	deep.WriteString(strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n")
	bomb.WriteString("on: push\nx0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&bomb, "x%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	bomb.WriteString("jobs:\n  a:\n" + job)
	files := map[string]string{
		"empty.yml":    "",
		"comments.yml": "# on: push\n# jobs: {}\n",
		"list.yml":     "- on: push\n",
		"binary.yml":   "on: push\x00\x01\x02",
		"latin1.yml":   "on: push\n# caf\xe9\n",
		"bom.yml":      "\ufeff" + valid,
		"crlf.yml":     strings.ReplaceAll(valid, "\n", "\r\n"),
		"tabs.yml":     "on: push\njobs:\n\ta:\n\t\truns-on: x\n",
		"big.yml":      big.String(),
		"deep.yml":     deep.String(),
		"bomb.yml":     bomb.String(),
		"dupkeys.yml":  "on: push\njobs:\n  a:\n" + job + "  a:\n" + job,
		"many.yml":     many.String(),
		"cycle.yml":    "on: push\njobs:\n  a:\n    needs: b\n" + job + "  b:\n    needs: a\n" + job,
		"unicode.yml":  "on: push\njobs:\n  测试:\n" + job + "  ünï:\n    needs: 测试\n" + job,
		"valid.yml":    valid,
	}
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
	dir := filepath.Join(root, ".github", "workflows")
	for name, src := range files {
		writeFile(t, filepath.Join(dir, name), src)
	}
	if err := os.Symlink("valid.yml", filepath.Join(dir, "link.yml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("missing.yml", filepath.Join(dir, "dangling.yml")); err != nil {
		t.Fatal(err)
	}
	out, errs, code := runIn(t, root, "lint", "--format", "text", "--color", "never")
	if code == exitInternal || strings.Contains(out+errs, "panic") || strings.Contains(out+errs, "goroutine") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !strings.Contains(out, `.github/workflows/valid.yml:4:12: error: job "a" needs job "nope"`) {
		t.Errorf("the valid file's finding is missing:\n%s", out)
	}
	for name := range files {
		if name == "valid.yml" || name == "many.yml" || name == "unicode.yml" {
			continue
		}
		if !strings.Contains(out+errs, ".github/workflows/"+name) {
			t.Errorf("%s is neither a finding nor an error:\nstdout:\n%.3000s\nstderr:\n%s", name, out, errs)
		}
	}
	// A symlink is read through; a dangling one is a one-line error (exit 2).
	if !strings.Contains(out, ".github/workflows/link.yml:4:12: error: job \"a\" needs job \"nope\"") {
		t.Errorf("the symlinked workflow was not linted")
	}
	if code != exitUsage || !strings.Contains(errs, "dangling.yml: no such file or directory") {
		t.Errorf("the dangling symlink is not named on stderr: %s", errs)
	}
	for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
		if l != "" && !strings.HasPrefix(l, "cicheck: ") {
			t.Errorf("stderr line is not a one-line error: %q", l)
		}
	}
}
