package pathsfilter

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The testdata/*-nearmiss.jsonl files below hold inputs kept because a
// one-token change of the port (a mutant, tools/mutate) turns their answer
// while the unmutated port agrees with the real library; the expected
// answers are the library's own, from node:
//
//   - jsyaml-load-nearmiss.jsonl: [src, v3, v4], js-yaml 3.14.0 safeLoad and
//     4.1.0 load as jsLoadJSON renders them (JSON.stringify of the value, or
//     "ERR reason line:col" with the error's 1-based mark).
//   - picomatch-nearmiss.jsonl: {p, re, match, nomatch}, picomatch 2.3.1
//     with {dot: true}: makeRe(p).source and picomatch(p)(path).
//   - jsregex-nearmiss.jsonl: {re, syntax, match, nomatch}, V8's new
//     RegExp(re) (syntax: it throws) and .test(s).
//
// The inputs come from random edits of the golden and held-out cases
// (filter texts, picomatch patterns) and from a random regex grammar.

func readNearMiss(t *testing.T, name string, row func(line []byte)) int {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		row(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("%s: no rows", name)
	}
	return n
}

func TestJSYAMLLoadOracleNearMisses(t *testing.T) {
	readNearMiss(t, "jsyaml-load-nearmiss.jsonl", func(line []byte) {
		var r [3]string
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		for i, major := range []int{3, 4} {
			if got := jsLoadJSON(r[0], major); got != r[1+i] {
				t.Errorf("js-yaml %d, %q:\n got %s\nwant %s", major, r[0], got, r[1+i])
			}
		}
	})
}

func TestPicomatchOracleNearMisses(t *testing.T) {
	readNearMiss(t, "picomatch-nearmiss.jsonl", func(line []byte) {
		var r struct {
			P, Re          string
			Match, Nomatch []string
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		source, _, err := pmMakeRe(r.P)
		if err != nil {
			t.Errorf("%q: %v", r.P, err)
			return
		}
		if got := v8Source(source); got != r.Re {
			t.Errorf("%q: regex source\n got  %s\n want %s", r.P, got, r.Re)
		}
		m, err := CompilePicomatch(r.P)
		if err != nil {
			t.Errorf("%q: %v", r.P, err)
			return
		}
		expectMatches(t, fmt.Sprintf("%q", r.P), m.Match, r.Match, r.Nomatch)
	})
}

func TestJSRegexOracleNearMisses(t *testing.T) {
	readNearMiss(t, "jsregex-nearmiss.jsonl", func(line []byte) {
		var r struct {
			Re             string
			Syntax         bool
			Match, Nomatch []string
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		re, err := compileJSRegex(r.Re)
		switch {
		case r.Syntax:
			if !errors.Is(err, errJSSyntax) {
				t.Errorf("/%s/: %v, want a syntax error", r.Re, err)
			}
			return
		case err != nil:
			t.Errorf("/%s/: %v", r.Re, err)
			return
		}
		expectMatches(t, "/"+r.Re+"/", func(s string) bool { return re.match([]rune(s)) }, r.Match, r.Nomatch)
	})
}
