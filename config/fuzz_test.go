package config

import (
	"testing"
	"testing/fstest"
)

// FuzzParse: the strict decoder never panics; an error always names the
// file; a success always marshals.
func FuzzParse(f *testing.F) {
	f.Add(defaultsYAML)
	f.Add([]byte("gpu:\n  runner-labels: [h100]\n  labels: [x]\n"))
	f.Add([]byte("rules:\n  gpu-gate: {severity: notice, strict: false, enabled: true}\n"))
	f.Add([]byte("a: &a {b: *a}\n"))
	f.Add([]byte("registry:\n  policy: {nightly-subtract: [long]}\nscope: {max-targets: 3}\npaths-filter: {tags: {v9: v9.0.0}}\n"))
	f.Add([]byte("registry:\n  profile: mils\n"))
	f.Add([]byte("registry:\n  profile: auto\n  roots: [t]\n  extra-params: {register_cuda_ci: {hw: {type: str}}}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse("c.yaml", b)
		if err != nil {
			if len(err.Error()) < 6 || err.Error()[:6] != "c.yaml" {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if _, err := c.Marshal(); err != nil {
			t.Fatalf("marshal: %v", err)
		}
		// Settling the profile where there is no miles layout re-applies
		// the section over the neutral values: an error names the file too.
		if _, err := c.Registry.Resolve(fstest.MapFS{}); err != nil && (len(err.Error()) < 6 || err.Error()[:6] != "c.yaml") {
			t.Fatalf("resolve error does not name the file: %v", err)
		}
	})
}
