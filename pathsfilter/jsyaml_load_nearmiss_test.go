package pathsfilter

import (
	"errors"
	"strings"
	"testing"
)

// TestJSYAMLLoadNearMisses: documents beside the one-token changes of the
// js-yaml port that turn them, with what js-yaml 3.14.0 (safeLoad) and
// 4.1.0 (load) give in node: JSON.stringify of the value, or the error's
// reason and 1-based mark ("ERR reason line:col"). v4 is "" when it is v3.
func TestJSYAMLLoadNearMisses(t *testing.T) {
	for _, c := range []struct{ src, v3, v4 string }{
		// a surrogate pair (U+10000 starts at 0xd800) is printable, in a plain
		// scalar and folded across lines
		{"a: b\U00010000c\n", "{\"a\":\"b\U00010000c\"}", ""},
		{"- \U00010000\n  \U0010ffff\n", "[\"\U00010000 \U0010ffff\"]", ""},
		// DEL is non-printable in plain and block text, wherever the captured
		// segment ends (at the line's end, before a fold)
		{"a: b\x7fc\n", "ERR the stream contains non-printable characters 1:7", ""},
		{"a: b\x7f\n  c\n", "ERR the stream contains non-printable characters 2:3", ""},
		{"a:\x7f\n  - x\n", "ERR the stream contains non-printable characters 2:3", ""},
		{"- b\n  c\x7f\n", "ERR the stream contains non-printable characters 2:5", ""},
		// but quoted scalars only reject control characters below 0x20
		{"a: \"b\x7fc\"\n", "{\"a\":\"b\x7fc\"}", ""},
		{"a: \"b\x7f\n  c\"\n", "{\"a\":\"b\x7f c\"}", ""},
		{"a: 'b\x7fc'\n", "{\"a\":\"b\x7fc\"}", ""},
		// a comment between a flow key's ':' and its value
		{"a: {b: #c\n  d}\n", "{\"a\":{\"b\":\"d\"}}", ""},
		// an anchor on a block mapping that starts after a blank line
		{"y:\n  - &m\n\n      added: x\n  - *m\n", "{\"y\":[{\"added\":\"x\"},{\"added\":\"x\"}]}", ""},
		{"- &m\n\n  a: x\n- *m\n", "[{\"a\":\"x\"},{\"a\":\"x\"}]", ""},
		// explicit keys without values, alone and before other entries
		{"? b", "{\"b\":null}", ""},
		{"? b\n? c\n", "{\"b\":null,\"c\":null}", ""},
		{"? b\nc: d\n", "{\"b\":null,\"c\":\"d\"}", ""},
		{"? b\n: c\n? d\n", "{\"b\":\"c\",\"d\":null}", ""},
		{"a:\n  ? b\n  ? c\n", "{\"a\":{\"b\":null,\"c\":null}}", ""},
		// a ':' with no key before it
		{":", "ERR incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line 1:1", ""},
		{"a: b\n: c\n", "ERR incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line 2:1", ""},
		{": b\n", "ERR incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line 1:1", ""},
		// a verbatim tag cut off by the end of the stream
		{"a: !<tag:yaml.org,2002:str", "ERR unexpected end of the stream within a verbatim tag 1:28", ""},
		// bad %YAML arguments are reported at the start of the next line
		{"%YAML 1\n---\na\n", "ERR ill-formed argument of the YAML directive 2:1", ""},
		{"%YAML\n---\na\n", "ERR YAML directive accepts exactly one argument 2:1", ""},
		{"%YAML 1.1\n  ---\na: b\n", "{\"a\":\"b\"}", ""},
		// a comment after a top-level plain scalar; another scalar after it
		{"a #c", "\"a\"", ""},
		{"a #c\nb\n", "ERR end of the stream or a document separator is expected 2:1", ""},
		// a hex digit 9; an anchor js-yaml 3 never finds (__proto__); an anchor
		// and a tag on an empty scalar
		{"0x9: a\n", "{\"9\":\"a\"}", ""},
		{"- &__proto__ a\n- *__proto__\n", "ERR unidentified alias \"__proto__\" 2:13", "[\"a\",\"a\"]"},
		{"- &x !!str a\n- *x\n", "[\"a\",\"a\"]", ""},
		{"a: &x !!str\nb: *x\n", "{\"a\":\"\",\"b\":\"\"}", ""},
		// DEL in literal and folded block scalars
		{"a: |\n  b\x7fc\n", "ERR the stream contains non-printable characters 2:6", ""},
		{"a: >\n  b\x7fc\n", "ERR the stream contains non-printable characters 2:6", ""},
	} {
		for _, v := range []struct {
			major int
			want  string
		}{{3, c.v3}, {4, c.v4}} {
			if v.want == "" {
				v.want = c.v3
			}
			if got := jsLoadJSON(c.src, v.major); got != v.want {
				t.Errorf("js-yaml %d, %q:\n got %s\nwant %s", v.major, c.src, got, v.want)
			}
		}
	}
}

// TestJSYAMLNestingLimit: past 1000 nested nodes the port stops, and
// whether js-yaml's load throws (node's stack) is unknown, never a
// verdict; 990 levels load in both majors (node loads them too).
func TestJSYAMLNestingLimit(t *testing.T) {
	nest := func(n int) string { return "a: " + strings.Repeat("[", n) + "x" + strings.Repeat("]", n) + "\n" }
	for _, major := range []int{3, 4} {
		if got := jsLoadJSON(nest(990), major); !strings.HasPrefix(got, `{"a":[[[`) {
			t.Errorf("js-yaml %d, 990 levels: %.80s, want the value", major, got)
		}
		for _, n := range []int{1001, 5000} {
			if got := jsLoadJSON(nest(n), major); !strings.HasPrefix(got, "UNKNOWN ") {
				t.Errorf("js-yaml %d, %d levels: %.80s, want unknown", major, n, got)
			}
			_, err := ParseFilters([]byte(nest(n)), Origin{File: "f.yml", JSYAML: major})
			var e *Error
			if !errors.As(err, &e) || !e.Unmodelled {
				t.Errorf("js-yaml %d, %d levels: ParseFilters %v, want an unmodelled error", major, n, err)
			}
		}
	}
}
