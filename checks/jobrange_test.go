package checks

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cicheck/cicheck/workflowgraph"
)

// TestJobRangeBytes: job ranges over byte-slice lines (AssignJobs) equal the
// string ones suppressions use, on CRLF text and on every job of the real
// workflows in ../shared/corpus (when present).
func TestJobRangeBytes(t *testing.T) {
	check := func(name string, src []byte) {
		t.Helper()
		w, _, err := workflowgraph.Load(fstest.MapFS{"w.yml": {Data: src}}, "w.yml")
		if err != nil || w == nil {
			return
		}
		sl, bl := splitLines(src), bytes.Split(src, []byte("\n"))
		for _, j := range w.Jobs {
			s1, e1 := jobRange(sl, j)
			s2, e2 := jobRange(bl, j)
			if s1 != s2 || e1 != e2 {
				t.Errorf("%s: job %s: bytes %d-%d, strings %d-%d", name, j.ID, s2, e2, s1, e1)
			}
		}
	}
	crlf := "on: push\r\njobs:\r\n  a:\r\n    runs-on: x\r\n    \r\n    # c\r\n    steps: [{run: y}]\r\n  b:\r\n    runs-on: x\r\n    steps:\r\n      - run: z\r\n"
	check("crlf", []byte(crlf))
	check("lf", []byte(strings.ReplaceAll(crlf, "\r\n", "\n")))
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Logf("corpus %s is absent: only the inline cases were checked", root)
		return
	}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
			if src, err := os.ReadFile(p); err == nil {
				check(p, src)
			}
		}
		return nil
	})
}
