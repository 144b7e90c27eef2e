package testregistry

import (
	"strings"
	"testing"
)

func TestValidateConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string // "" = valid
	}{
		{"default", func(*Config) {}, ""},
		{"root with trailing slash and ./", func(c *Config) { c.Roots = []string{"tests/e2e/", "./tests/ci"} }, ""},
		{"root outside the repository", func(c *Config) { c.Roots = []string{"tests/e2e", "../outside"} },
			`registry.roots: "../outside" is not a directory inside the repository`},
		{"absolute root", func(c *Config) { c.Roots = []string{"/srv/tests"} },
			`registry.roots: "/srv/tests" is not a directory inside the repository`},
		{"orphan search outside", func(c *Config) { c.OrphanSearch = []string{"../"} },
			`registry.orphan-search: "../" is not a directory inside the repository`},
		{"bad glob", func(c *Config) { c.FileGlob = "[" }, `registry.file-glob: invalid pattern "["`},
		{"bad marker backend", func(c *Config) { c.Markers["register_tpu_ci"] = Marker{Backend: "tpu"} },
			`registry.markers.register_tpu_ci.backend: "tpu" is not one of cpu, cuda, rocm, amd, npu, xpu, musa, mlx`},
		{"bad implicit backend", func(c *Config) { c.ImplicitRoot.Backend = "tpu" },
			`registry.implicit-root.backend: "tpu" is not one of cpu, cuda, rocm, amd, npu, xpu, musa, mlx`},
		{"no implicit root", func(c *Config) { c.ImplicitRoot = Implicit{} }, ""},
		{"extra param on an unknown marker", func(c *Config) {
			c.ExtraParams = map[string]map[string]Param{"register_x": {"hw": {Type: "str"}}}
		}, `registry.extra-params: "register_x" is not a configured marker`},
		{"first bad extra param in sorted order", func(c *Config) {
			c.ExtraParams = map[string]map[string]Param{"register_cuda_ci": {"b": {Type: "x"}, "a": {Type: "y"}, "c": {Type: "z"}}}
		}, `registry.extra-params.register_cuda_ci.a.type: "y" is not one of`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.edit(&c)
			err := ValidateConfig(c)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
				t.Fatalf("err = %v, want prefix %q", err, tc.want)
			}
		})
	}
}
