package testregistry

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// TestScanDetachesFromReadBuffer scans trees through DirFS, whose reads
// reuse one buffer per worker, with every byte of a file overwritten once
// its result is detached, and compares the whole registry with a scan
// through os.DirFS, whose sources are fresh strings: a result string that
// still pointed into the buffer would come out as '#'s. The trees are the
// golden corpus and a file with every kind of value a registration keeps
// (labels, suite, a disabled reason, extra parameters, findings quoting
// the source).
func TestScanDetachesFromReadBuffer(t *testing.T) {
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for root := range all {
		if strings.HasPrefix(root, "testregistry/") {
			dirs = append(dirs, strings.TrimPrefix(root, "testregistry/"))
		} else {
			dirs = append(dirs, filepath.Join("..", root))
		}
	}
	rich := t.TempDir()
	writeTree(t, rich, map[string]string{
		"tests/e2e/test_a.py": "from x import register_cuda_ci\n" +
			"register_cuda_ci(est_time=12, suite='stage-b-2-gpu-h200', labels=['megatron', 'fsdp', 'nope'], disabled='flaky on h200', hardware=['h200', 'b200'], owner='team-x')\n" +
			"register_cuda_ci(est_time=12, suite='stage-b-2-gpu-h200', labels=['megatron'], hardware=['h100'], owner='team-y')\n",
		"tests/e2e/test_b.py": "register_cuda_ci(est_time=12, suite='not-a-suite', labels=['undeclared'], hardware=['a100'])\n",
		"tests/e2e/test_c.py": "def f(:\n",
	})
	dirs = append(dirs, rich)
	cfg := DefaultConfig()
	cfg.ExtraParams = map[string]map[string]Param{"register_cuda_ci": {
		"hardware": {Required: true, Type: "str_list", Allowed: []string{"h100", "h200", "b200"}},
		"owner":    {Type: "str"},
	}}
	scribble := func(src string) {
		b := unsafe.Slice(unsafe.StringData(src), len(src))
		for i := range b {
			b[i] = '#'
		}
	}
	var regs int
	for _, dir := range dirs {
		fresh, err := Scan(os.DirFS(dir), cfg)
		if err != nil {
			t.Fatal(err)
		}
		reused, err := scanWith(DirFS(dir), cfg, nil, scribble) // only here: os.DirFS's sources are the results' own
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fresh.Registrations, reused.Registrations) || !reflect.DeepEqual(fresh.Findings, reused.Findings) {
			t.Errorf("%s: the scan through DirFS kept memory of the read buffer:\n%v\n%v\nos.DirFS:\n%v\n%v", dir,
				reused.Registrations, reused.Findings, fresh.Registrations, fresh.Findings)
		}
		regs += len(fresh.Registrations)
		if dir == rich {
			var kinds []string
			for _, g := range fresh.Registrations {
				if g.Disabled != nil && g.Extra["owner"] != nil && len(g.Labels) > 1 {
					kinds = append(kinds, "disabled, extra, labels")
				}
			}
			if len(kinds) != 1 || len(fresh.Findings) < 4 {
				t.Errorf("the rich tree lacks what it is for: %v %v", fresh.Registrations, fresh.Findings)
			}
		}
	}
	if regs < 30 {
		t.Errorf("only %d registrations compared", regs)
	}
}

// writeTree writes files (slash paths) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
