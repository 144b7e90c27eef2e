package pathsfilter

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The golden files come from the real picomatch@2.3.1 with {dot: true}
// (tools/picomatch-golden/generate.js); these tests never run Node.

// unsupportedAllowed lists the only golden patterns the port may refuse:
// raw regex lookbehind, which picomatch passes through to V8 verbatim, and
// (unsupportedBackref) a backslash-digit that refers to one of picomatch's
// own capture groups.
var unsupportedAllowed = map[string]bool{
	"(?<=a)b": true,
}

func unsupportedBackref(err error) bool {
	return err != nil && strings.Contains(err.Error(), "construct (backreference)")
}

// readJSONL calls fn with each row of testdata/name, a JSON array per
// line; a file without rows fails the test.
func readJSONL(t *testing.T, name string, fn func(row []any)) {
	t.Helper()
	readNearMiss(t, name, func(line []byte) {
		var row []any
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fn(row)
	})
}

func TestPicomatchGoldenRegexSource(t *testing.T) {
	n := 0
	readJSONL(t, "picomatch-regex.jsonl", func(row []any) {
		pattern, want := row[0].(string), row[1].(string)
		n++
		if strings.HasPrefix(want, "THROWS: ") {
			if _, err := CompilePicomatch(pattern); err == nil {
				t.Errorf("%q: picomatch throws (%s), CompilePicomatch accepted it", pattern, want)
			}
			return
		}
		source, _, err := pmMakeRe(pattern)
		if err != nil {
			t.Errorf("%q: %v", pattern, err)
			return
		}
		if want == "$^" {
			// V8 rejected the regex and picomatch fell back to /$^/.
			if _, err := compileJSRegex(source); !errors.Is(err, errJSSyntax) {
				t.Errorf("%q: V8 rejects %s, the port's regex engine says %v", pattern, source, err)
			}
			return
		}
		if v8Source(source) != want {
			t.Errorf("%q: regex source\n got  %s\n want %s", pattern, source, want)
		}
	})
	if n < 500 {
		t.Fatalf("only %d patterns in the regex golden file", n)
	}
}

func TestPicomatchGolden(t *testing.T) {
	compiled := map[string]*Picomatch{}
	failed := map[string]error{}
	rows, mismatches := 0, 0
	unsupported := map[string]int{}
	readJSONL(t, "picomatch-golden.jsonl", func(row []any) {
		pattern, path, want := row[0].(string), row[1].(string), row[2].(bool)
		rows++
		m, ok := compiled[pattern]
		if !ok {
			if _, bad := failed[pattern]; !bad {
				var err error
				m, err = CompilePicomatch(pattern)
				if err != nil {
					failed[pattern] = err
				} else {
					compiled[pattern] = m
				}
			}
		}
		if err := failed[pattern]; err != nil {
			if !errors.Is(err, ErrUnsupportedGlob) {
				t.Errorf("%q: unexpected error %v", pattern, err)
			}
			unsupported[pattern]++
			return
		}
		if got := m.Match(path); got != want {
			mismatches++
			if mismatches <= 60 {
				t.Errorf("picomatch(%q)(%q) = %v, want %v (regex %s)", pattern, path, got, want, m.Regexp())
			}
		}
	})
	if rows < 1500 {
		t.Fatalf("golden file has %d rows, want at least 1500", rows)
	}
	for p, n := range unsupported {
		if !unsupportedAllowed[p] && !unsupportedBackref(failed[p]) {
			t.Errorf("%q: unsupported (%d rows) but not in the allowed list: %v", p, n, failed[p])
		}
	}
	if mismatches > 0 {
		t.Errorf("%d of %d rows disagree with picomatch 2.3.1", mismatches, rows)
	}
	t.Logf("%d rows, %d patterns, %d unsupported patterns", rows, len(compiled)+len(failed), len(unsupported))
}

// v8Source is what RegExp.prototype.source prints for a regex created from
// s: V8 escapes '/' outside character classes and line terminators.
func v8Source(s string) string {
	var b strings.Builder
	inClass, esc := false, false
	for _, r := range s {
		switch {
		case esc:
			esc = false
		case r == '\\':
			esc = true
		case r == '[':
			inClass = true
		case r == ']':
			inClass = false
		case r == '/' && !inClass:
			b.WriteString("\\/")
			continue
		}
		switch r {
		case '\n':
			b.WriteString("\\n")
			continue
		case '\r':
			b.WriteString("\\r")
			continue
		case 0x2028:
			b.WriteString("\\u2028")
			continue
		case 0x2029:
			b.WriteString("\\u2029")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// MatchPath must answer exactly like Match.
func TestPicomatchGoldenPrepared(t *testing.T) {
	compiled := map[string]*Picomatch{}
	readJSONL(t, "picomatch-golden.jsonl", func(row []any) {
		pattern, path, want := row[0].(string), row[1].(string), row[2].(bool)
		m, ok := compiled[pattern]
		if !ok {
			m, _ = CompilePicomatch(pattern)
			compiled[pattern] = m
		}
		if m == nil {
			return
		}
		p := PreparePath(path)
		if got := m.MatchPath(&p); got != want {
			t.Errorf("MatchPath(%q, %q) = %v, want %v", pattern, path, got, want)
		}
	})
}
