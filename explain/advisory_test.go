package explain

import "testing"

// TestJobDefinitionsNearMiss: edits GitHub does not see compare equal,
// and the smallest edits it does see do not.
func TestJobDefinitionsNearMiss(t *testing.T) {
	const base = "on: push\njobs:\n  a:\n    runs-on: [self-hosted, gb10]\n    env: {FOO: x}\n    steps:\n      - run: make\n      - run: test\n"
	for _, c := range []struct {
		name, head string
		same       bool
	}{
		{"identical", base, true},
		{"comments", "# top\non: push\njobs:\n  a: # job\n    runs-on: [self-hosted, gb10] # box\n    env: {FOO: x}\n    steps:\n      - run: make # build\n      - run: test\n", true},
		{"quoting", "on: push\njobs:\n  a:\n    runs-on: ['self-hosted', \"gb10\"]\n    env: {FOO: 'x'}\n    steps:\n      - run: \"make\"\n      - run: test\n", true},
		{"lines shifted", "on: push\n\n\njobs:\n\n  a:\n    runs-on: [self-hosted, gb10]\n    env: {FOO: x}\n    steps:\n      - run: make\n      - run: test\n", true},
		{"key order", "on: push\njobs:\n  a:\n    steps:\n      - run: make\n      - run: test\n    env: {FOO: x}\n    runs-on: [self-hosted, gb10]\n", true},
		{"block style", "on: push\njobs:\n  a:\n    runs-on:\n      - self-hosted\n      - gb10\n    env:\n      FOO: x\n    steps:\n      - run: make\n      - run: test\n", true},
		// Near misses.
		{"run changed", "on: push\njobs:\n  a:\n    runs-on: [self-hosted, gb10]\n    env: {FOO: x}\n    steps:\n      - run: make all\n      - run: test\n", false},
		{"steps swapped", "on: push\njobs:\n  a:\n    runs-on: [self-hosted, gb10]\n    env: {FOO: x}\n    steps:\n      - run: test\n      - run: make\n", false},
		{"runner label", "on: push\njobs:\n  a:\n    runs-on: [self-hosted, gb200]\n    env: {FOO: x}\n    steps:\n      - run: make\n      - run: test\n", false},
		{"env name case", "on: push\njobs:\n  a:\n    runs-on: [self-hosted, gb10]\n    env: {Foo: x}\n    steps:\n      - run: make\n      - run: test\n", false},
		{"key added", "on: push\njobs:\n  a:\n    runs-on: [self-hosted, gb10]\n    timeout-minutes: 5\n    env: {FOO: x}\n    steps:\n      - run: make\n      - run: test\n", false},
		{"quoted text changed", "on: push\njobs:\n  a:\n    runs-on: [self-hosted, gb10]\n    env: {FOO: 'x '}\n    steps:\n      - run: make\n      - run: test\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, h := JobDefinitions([]byte(base)), JobDefinitions([]byte(c.head))
			if b["a"] == "" || h["a"] == "" {
				t.Fatalf("no definition: %q, %q", b["a"], h["a"])
			}
			if (b["a"] == h["a"]) != c.same {
				t.Errorf("same = %v, want %v\nbase %s\nhead %s", b["a"] == h["a"], c.same, b["a"], h["a"])
			}
		})
	}
	for _, src := range []string{"", "jobs: [\n", "- x\n"} {
		if d := JobDefinitions([]byte(src)); len(d) != 0 {
			t.Errorf("%q: %v", src, d)
		}
	}
}
