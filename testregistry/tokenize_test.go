package testregistry

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

var testMarkers = DefaultConfig().Markers

func TestFindCalls(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "fn@line:col"
		err  string   // substring of the syntax error
	}{
		{"plain", "register_cpu_ci(1, 'stage-a-cpu')\n", []string{"register_cpu_ci@1:1"}, ""},
		{"no trailing newline", "register_cpu_ci(1, 'x')", []string{"register_cpu_ci@1:1"}, ""},
		{"two on one line", "register_cpu_ci(1, 'a'); register_cuda_ci(2, 'b')\n", []string{"register_cpu_ci@1:1", "register_cuda_ci@1:26"}, ""},
		{"assignment", "x = register_cuda_ci(1, 'a')\n", nil, ""},
		{"attribute", "ci.register_cuda_ci(1, 'a')\n", nil, ""},
		{"alias", "from m import register_cuda_ci as r\nr(1, 'a')\n", nil, ""},
		{"in if", "if True:\n    register_cuda_ci(1, 'a')\n", nil, ""},
		{"if one line", "if True: register_cuda_ci(1, 'a')\n", nil, ""},
		{"in def", "def f():\n    register_cuda_ci(1, 'a')\n", nil, ""},
		{"in class", "class A:\n    register_cuda_ci(1, 'a')\n", nil, ""},
		{"main guard", "if __name__ == \"__main__\":\n    register_cuda_ci(1, 'a')\n", nil, ""},
		{"in try", "try:\n    register_cuda_ci(1, 'a')\nexcept Exception:\n    pass\n", nil, ""},
		{"after block", "def f():\n    pass\nregister_rocm_ci(1, 'a')\n", []string{"register_rocm_ci@3:1"}, ""},
		{"in string", "s = 'register_cuda_ci(1, \"a\")'\n", nil, ""},
		{"in triple string", "\"\"\"\nregister_cuda_ci(1, 'a')\n\"\"\"\n", nil, ""},
		{"in raw triple", "r'''\\'''\nregister_cuda_ci(1, 'a')\n'''\n", nil, ""},
		{"in f-string", "f\"{x}\nregister_cuda_ci(1, 'a')\"\n", nil, "unterminated string literal"},
		{"in f-string nested quotes", "x = f\"{'}'}\"\nregister_cpu_ci(1, 'a')\n", []string{"register_cpu_ci@2:1"}, ""},
		{"in f-string format spec", "x = f'{a:{w}}'\nregister_cpu_ci(1, 'a')\n", []string{"register_cpu_ci@2:1"}, ""},
		{"in comment", "# register_cuda_ci(1, 'a')\n", nil, ""},
		{"continuation", "register_cuda_ci(1, \\\n 'a')\n", []string{"register_cuda_ci@1:1"}, ""},
		{"statement continuation", "x = 1 + \\\n2\nregister_cpu_ci(1, 'a')\n", []string{"register_cpu_ci@3:1"}, ""},
		{"bracket nesting multi-line", "register_cuda_ci(\n    est_time=1,\n    suite='a',\n    labels=[\n        'x',\n    ],\n)\n", []string{"register_cuda_ci@1:1"}, ""},
		{"parenthesised", "(register_cpu_ci(1, 'a'))\n", []string{"register_cpu_ci@1:2"}, ""},
		{"called result", "register_cpu_ci(1, 'a')(2)\n", nil, ""},
		{"binop", "register_cpu_ci(1, 'a') + 1\n", nil, ""},
		{"decorator", "@register_cpu_ci(1, 'a')\ndef f():\n    pass\n", nil, ""},
		{"bytes prefix", "x = rb'\\'' ; register_cpu_ci(1, 'a')\n", []string{"register_cpu_ci@1:14"}, ""},
		{"crlf", "register_cpu_ci(1, 'a')\r\nregister_cpu_ci(2, 'b')\r\n", []string{"register_cpu_ci@1:1", "register_cpu_ci@2:1"}, ""},
		{"bom", "\ufeffregister_cpu_ci(1, 'a')\n", []string{"register_cpu_ci@1:1"}, ""},
		{"unterminated", "x = 'abc\n", nil, "unterminated string literal (detected at line 1)"},
		{"unterminated triple", "x = '''abc\n", nil, "unterminated triple-quoted string literal"},
		{"never closed", "register_cpu_ci(1, 'a'\n", nil, "'(' was never closed"},
		{"mismatch", "x = (1]\n", nil, "closing parenthesis ']' does not match opening parenthesis '('"},
		{"unmatched", "x = 1)\n", nil, "unmatched ')'"},
		{"bad dedent", "if x:\n    a = 1\n  b = 2\n", nil, "unindent does not match any outer indentation level"},
		{"unexpected indent", "a = 1\n    b = 2\n", nil, "unexpected indent"},
		{"expected block", "if x:\nb = 2\n", nil, "expected an indented block"},
		{"positional after keyword", "register_cpu_ci(est_time=1, 'a')\n", nil, "positional argument follows keyword argument"},
		{"bytes mix", "register_cpu_ci(1, b'a' 'b')\n", nil, "cannot mix bytes and nonbytes literals"},
		{"invalid char", "x = 1 $ 2\n", nil, "invalid character '$'"},
		{"bad continuation", "x = 1 \\ 2\n", nil, "unexpected character after line continuation character"},
		{"tabs", "if x:\n\tregister_cpu_ci(1, 'a')\nregister_cpu_ci(2, 'b')\n", []string{"register_cpu_ci@3:1"}, ""},
		{"comment-only indented lines", "a = 1\n    # comment\nregister_cpu_ci(1, 'a')\n", []string{"register_cpu_ci@3:1"}, ""},
		{"match soft keyword", "match = 1\nregister_cpu_ci(1, 'a')\n", []string{"register_cpu_ci@2:1"}, ""},
		{"lambda and walrus", "f = lambda x: x\n(y := 2)\nregister_cpu_ci(1, 'a')\n", []string{"register_cpu_ci@3:1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, err := findCalls(tt.src, testMarkers)
			if tt.err != "" {
				var se *SyntaxError
				if !errors.As(err, &se) || !strings.Contains(se.Msg, tt.err) {
					t.Fatalf("err = %v, want syntax error containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			var got []string
			for _, c := range calls {
				got = append(got, c.fn+"@"+strconv.Itoa(c.node.line)+":"+strconv.Itoa(c.node.col))
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("calls = %v, want %v", got, tt.want)
			}
		})
	}
}
