package testregistry

import (
	"strings"
	"testing"

	"github.com/cicheck/cicheck/internal/pybench"
)

func addSeedFiles(f *testing.F) {
	for _, src := range pybench.SeedFiles("testdata/crosscheck/tests/*/*.py") {
		f.Add(src)
	}
}

// FuzzScanFile: scanning any file never panics and always terminates, for
// the default target, the implicit root and Python 3.11 (the front-end's own
// fuzz target is pyparse.FuzzTokenize).
func FuzzScanFile(f *testing.F) {
	addSeedFiles(f)
	for _, s := range pybench.FuzzSeeds {
		f.Add(s)
	}
	sc := &scanner{cfg: DefaultConfig(), minor: targetMinor(DefaultConfig().Python), known: map[string]bool{"megatron": true}, knownList: []string{"megatron"}, knownOK: true}
	cfg311 := DefaultConfig()
	cfg311.Python = "3.11"
	sc311 := &scanner{cfg: cfg311, minor: targetMinor(cfg311.Python), known: sc.known, knownList: sc.knownList, knownOK: true}
	f.Fuzz(func(t *testing.T, src string) {
		sc.scanFile("tests/e2e/test_fuzz.py", src)
		sc.scanFile("tests/fast/test_fuzz.py", src)
		sc311.scanFile("tests/e2e/test_fuzz.py", src)
	})
}

// FuzzCallArgs: evaluating any argument list of a marker call never panics,
// and a call that yields a registration has produced no error.
func FuzzCallArgs(f *testing.F) {
	for _, s := range []string{
		"1, 'stage-a-cpu'", "*a", "**k", "est_time=1, est_time=2", "1, 2, 3", "labels=[1, None, b'x', f'y', *z]",
		"labels=(1,)", "labels={'a'}", "labels=[x for x in y]", "-5, 's'", "1j, 's'", "..., 's'", "True, 's', nightly=1",
		"1, 's', disabled=False", "1, 's', labels=['megatron', 'megatron']", "lambda: 1, 's'", "(yield), 's'",
		"a if b else c, 's'", "x := 1", "1, 's', hardware=['h100']", "1, 's' 'b'", "1, b's' 's'", "f(x for x in y)",
		"a[1:2, ::3], {**a, 'b': 1}, {1, 2}, {k: v for k, v in x}, not a, a is not b, a not in b, await x",
	} {
		f.Add(s)
	}
	cfg := DefaultConfig()
	cfg.ExtraParams = map[string]map[string]Param{"register_cuda_ci": {"hardware": {Required: true, Type: "str_list", Allowed: []string{"h100"}}}}
	sc := &scanner{cfg: cfg, minor: targetMinor(cfg.Python), known: map[string]bool{"megatron": true}, knownList: []string{"megatron"}, knownOK: true}
	f.Fuzz(func(t *testing.T, args string) {
		for _, fn := range []string{"register_cpu_ci", "register_cuda_ci"} {
			res := sc.scanFile("tests/e2e/test_fuzz.py", fn+"("+args+")\n")
			// One statement is at most one call: it registers or fails.
			if len(res.regs)+len(res.firsts) > strings.Count(args, "register_")+1 {
				t.Fatalf("%d registrations and %d failures from %q", len(res.regs), len(res.firsts), args)
			}
		}
	})
}

// FuzzPyRepr: Python's repr of any string never panics.
func FuzzPyRepr(f *testing.F) {
	for _, s := range []string{"", "a", "'", "\"'", "\\", "\x00", "\xed\xa0\x80", "é😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { pyRepr(s) })
}
