package testregistry

import (
	"math"
	"reflect"
	"testing"

	"github.com/cicheck/cicheck/finding"
)

// FuzzSglangCallArgs: any argument list of a marker call under the sglang
// grammar evaluates without panicking, twice the same way, and a call
// that yields a registration has produced no error.
func FuzzSglangCallArgs(f *testing.F) {
	for _, s := range []string{
		"est_time=60, suite='base-a-test-cpu'", "60, 'base-a-test-cpu', True, 'flaky'", "est_time=1, stage='a', runner_config='b'",
		"*a", "**k", "1, 's', False, None, 5", "est_time=-5, suite='s'", "est_time=True, suite=None", "est_time=1, stage=None, runner_config='x'",
		"est_time=1, suite='s', in_process_group=''", "est_time=x, stage=y", "1, 's', suite='t'", "est_time=1j, suite=b's'",
		"est_time=..., suite='s', nightly=1, disabled=2, in_process_group=3", "labels=['a']",
	} {
		f.Add(s)
	}
	sc := &scanner{cfg: Sglang(), minor: targetMinor(PythonNewest)}
	f.Fuzz(func(t *testing.T, args string) {
		src := "register_cuda_ci(" + args + ")\n"
		a := sc.scanFile("test/registered/test_fuzz.py", src)
		b := sc.scanFile("test/registered/test_fuzz.py", src)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("two scans of %q differ", src)
		}
		if len(a.regs) > 0 {
			for _, fd := range a.findings {
				if fd.Severity == finding.Error && fd.Rule != RuleNoMain {
					t.Fatalf("%q: a registration and the error %s", src, fd.Message)
				}
			}
		}
	})
}

// FuzzLiveEst: any partition model file loads without panicking, and
// no estimate it yields is NaN.
func FuzzLiveEst(f *testing.F) {
	for _, s := range []string{
		`{"est": {"s": {"a": 1, "group:g": "2.5"}}}`, `{"est": [1]}`, `{"est": {"s": {"a": null}}}`, `{"est": {"s": {"a": NaN}}}`,
		`{"est": {"s": {"a": " 1_0 "}}}`, `{"est": {"s": {"a": "-inf"}}}`, `{"est": {"s": {"a": 1e999}}}`, `{"est"`, "\xff", `[]`, `{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		live, err := loadLiveEst(mapFS(map[string]string{"m.json": doc}), "m.json", "s")
		if err != nil && live != nil {
			t.Fatal("an error and estimates")
		}
		for k, v := range live {
			if math.IsNaN(v) {
				t.Fatalf("%q: est[%q] = %v", doc, k, v)
			}
		}
	})
}
