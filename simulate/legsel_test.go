package simulate

import (
	"strings"
	"testing"
)

func TestParseLegSelector(t *testing.T) {
	for in, want := range map[string]string{
		"python=3.12,gpu=h100":       "gpu=h100 python=3.12",
		" Python = 3.12 , GPU=H100 ": "gpu=H100 python=3.12",
		"a=":                         "a=",
	} {
		m, err := ParseLegSelector(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		var parts []string
		for _, k := range []string{"a", "gpu", "python"} {
			if v, ok := m[k]; ok {
				parts = append(parts, k+"="+v)
			}
		}
		if got := strings.Join(parts, " "); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{"", "gpu", "=x", "a=1,,b=2"} {
		if _, err := ParseLegSelector(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzParseLegSelector(f *testing.F) {
	for _, s := range []string{"python=3.12,gpu=h100", "a=", "x", ",", "k=v=w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseLegSelector(s)
		if err == nil && len(m) == 0 {
			t.Fatalf("%q: no error and no key", s)
		}
		for k := range m {
			if k == "" || k != strings.ToLower(k) {
				t.Fatalf("%q: key %q", s, k)
			}
		}
	})
}
