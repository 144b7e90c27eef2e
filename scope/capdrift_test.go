package scope

import (
	"testing"
	"testing/fstest"
)

func TestCheckCap(t *testing.T) {
	c := resolved(t, "flashinfer")
	tests := []struct {
		name, src string
		want      string // "" = no finding
		line, col int
	}{
		{"equal", "import os\nMAX_TEST_PATHS = 16\n", "", 0, 0},
		{"annotated", "MAX_TEST_PATHS: int = 16  # shared with the bot\n", "", 0, 0},
		{"drift", "\n\nMAX_TEST_PATHS = 20\n", "MAX_TEST_PATHS is 20 but scope.max-targets is 16; the two caps must be equal", 3, 18},
		{"absent", "def f():\n    MAX_TEST_PATHS = 16\n", "no module-level integer MAX_TEST_PATHS found; cannot check scope.max-targets (16) against the runner's cap", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := CheckCap(fstest.MapFS{"scripts/test_sharding/runner.py": {Data: []byte(tt.src)}}, c)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(fs) != 0 {
					t.Fatalf("unexpected %v", fs)
				}
				return
			}
			if len(fs) != 1 || fs[0].Message != tt.want || fs[0].Line != tt.line || fs[0].Column != tt.col {
				t.Fatalf("got %+v", fs)
			}
		})
	}
	if fs, err := CheckCap(fstest.MapFS{}, c); err != nil || fs != nil {
		t.Fatalf("missing file: %v %v", fs, err)
	}
}
