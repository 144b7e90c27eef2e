package pyparse

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// String literal decoding errors, as CPython's parser raises them when it
// builds a constant (decode_unicode_with_escapes, _PyBytes_DecodeEscape):
// ast.parse fails on "\x4", "\u12", "\N{BOGUS}", b"\x4" or b"é", so the
// reference collector does too.

// bytesLiteralError checks the body of a non-f bytes literal.
func bytesLiteralError(body string, raw bool) string {
	for i := 0; i < len(body); i++ {
		if body[i] >= 0x80 {
			return "bytes can only contain ASCII literal characters"
		}
	}
	if raw {
		return ""
	}
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' {
			continue
		}
		i++
		if i < len(body) && body[i] == 'x' {
			if i+2 >= len(body) || !isHexDigit(body[i+1]) || !isHexDigit(body[i+2]) {
				return fmt.Sprintf("(value error) invalid \\x escape at position %d", i-1)
			}
			i += 2
		}
	}
	return ""
}

// unicodeEscapeError checks the body of a non-raw str literal (or of one
// literal part of an f-string). Positions in the message count bytes of
// the buffer CPython decodes, where each non-ASCII character has become a
// 10-byte \UXXXXXXXX escape and a backslash before one a \u005c escape.
func unicodeEscapeError(body string) string {
	if !strings.Contains(body, "\\") {
		return ""
	}
	var b []byte
	for i := 0; i < len(body); {
		c := body[i]
		if c == '\\' {
			b = append(b, c)
			i++
			if i >= len(body) || body[i] >= 0x80 {
				b = append(b, "u005c"...)
				if i >= len(body) {
					break
				}
			}
			c = body[i]
		}
		if c >= 0x80 {
			r, n := utf8.DecodeRuneInString(body[i:])
			b = fmt.Appendf(b, "\\U%08x", r)
			i += n
			continue
		}
		b = append(b, c)
		i++
	}
	fail := func(start, end int, reason string) string {
		if end-start == 1 {
			return fmt.Sprintf("(unicode error) 'unicodeescape' codec can't decode byte 0x%02x in position %d: %s", b[start], start, reason)
		}
		return fmt.Sprintf("(unicode error) 'unicodeescape' codec can't decode bytes in position %d-%d: %s", start, end-1, reason)
	}
	for i := 0; i < len(b); {
		if b[i] != '\\' {
			i++
			continue
		}
		start := i
		i++
		if i >= len(b) {
			return fail(start, i, "\\ at end of string")
		}
		c := b[i]
		i++
		switch c {
		case 'x', 'u', 'U':
			count, msg := 2, "truncated \\xXX escape"
			switch c {
			case 'u':
				count, msg = 4, "truncated \\uXXXX escape"
			case 'U':
				count, msg = 8, "truncated \\UXXXXXXXX escape"
			}
			v := uint64(0)
			for ; count > 0; count-- {
				if i >= len(b) || !isHexDigit(b[i]) {
					return fail(start, i, msg)
				}
				d, _ := strconv.ParseUint(string(b[i]), 16, 8)
				v = v*16 + d
				i++
			}
			if v > 0x10ffff {
				return fail(start, i, "illegal Unicode character")
			}
		case 'N':
			msg := "malformed \\N character escape"
			if i >= len(b) || b[i] != '{' {
				return fail(start, i, msg)
			}
			i++
			nameStart := i
			for i < len(b) && b[i] != '}' {
				i++
			}
			if i >= len(b) {
				return fail(start, i, msg)
			}
			if i == nameStart {
				return fail(start, i, msg)
			}
			i++
			if _, ok := lookupName(string(b[nameStart : i-1])); !ok {
				return fail(start, i, "unknown Unicode character name")
			}
		}
	}
	return ""
}

//go:embed unicode_names.gz
var unicodeNamesGz []byte

type nameRange struct {
	prefix      string
	first, last rune
}

// unicodeNames is the table tools/registry-diff/unicode_names.py writes,
// loaded on the first \N{...} escape not naming a printable ASCII
// character. Keys are upper case.
var unicodeNames = sync.OnceValues(func() (map[string]rune, []nameRange) {
	m := map[string]rune{}
	var ranges []nameRange
	zr, err := gzip.NewReader(bytes.NewReader(unicodeNamesGz))
	if err != nil {
		return m, nil
	}
	sc := bufio.NewScanner(zr)
	cp := rune(0)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 3)
		switch {
		case len(f) == 3 && f[0] == "=":
			// "= PREFIX- first last": the prefix holds one space less.
			g := strings.Fields(sc.Text())
			a, _ := strconv.ParseUint(g[len(g)-2], 16, 32)
			z, _ := strconv.ParseUint(g[len(g)-1], 16, 32)
			ranges = append(ranges, nameRange{strings.Join(g[1:len(g)-2], " "), rune(a), rune(z)})
		case len(f) == 3 && f[0] == "+":
			v, _ := strconv.ParseUint(f[1], 16, 32)
			m[f[2]] = rune(v)
		case len(f) >= 2:
			d, _ := strconv.ParseUint(f[0], 16, 32)
			cp += rune(d)
			m[strings.Join(f[1:], " ")] = cp
		}
	}
	return m, ranges
})

var hangulL = strings.Split("G,GG,N,D,DD,R,M,B,BB,S,SS,,J,JJ,C,K,T,P,H", ",")
var hangulV = strings.Split("A,AE,YA,YAE,EO,E,YEO,YE,O,WA,WAE,OE,YO,U,WEO,WE,WI,YU,EU,YI,I", ",")
var hangulT = strings.Split(",G,GG,GS,N,NJ,NH,D,L,LG,LM,LB,LS,LT,LP,LH,M,B,BS,S,SS,NG,J,C,K,T,P,H", ",")

// lookupName resolves a \N{...} name as CPython's unicodedata does: stored
// names and aliases ignore ASCII case; CJK unified ideographs and Hangul
// syllables are computed, with an upper-case prefix and hex digits.
func lookupName(name string) (rune, bool) {
	if r, ok := asciiNames()[asciiUpper(name)]; ok {
		return r, true
	}
	if rest, ok := strings.CutPrefix(name, "HANGUL SYLLABLE "); ok {
		for l, ls := range hangulL {
			if !strings.HasPrefix(rest, ls) {
				continue
			}
			for v, vs := range hangulV {
				if !strings.HasPrefix(rest[len(ls):], vs) {
					continue
				}
				for t, ts := range hangulT {
					if ls+vs+ts == rest {
						return rune(0xac00 + (l*21+v)*28 + t), true
					}
				}
			}
		}
		return 0, false
	}
	names, ranges := unicodeNames()
	if hex, ok := strings.CutPrefix(name, "CJK UNIFIED IDEOGRAPH-"); ok {
		if len(hex) != 4 && len(hex) != 5 || strings.ToUpper(hex) != hex {
			return 0, false
		}
		v, err := strconv.ParseUint(hex, 16, 32)
		if err != nil {
			return 0, false
		}
		for _, r := range ranges {
			if r.prefix == "CJK UNIFIED IDEOGRAPH-" && rune(v) >= r.first && rune(v) <= r.last {
				return rune(v), true
			}
		}
		return 0, false
	}
	up := asciiUpper(name)
	if r, ok := names[up]; ok {
		return r, true
	}
	for _, r := range ranges {
		if r.prefix == "CJK UNIFIED IDEOGRAPH-" {
			continue
		}
		if hex, ok := strings.CutPrefix(up, r.prefix); ok {
			v, err := strconv.ParseUint(hex, 16, 32)
			if err == nil && fmt.Sprintf("%04X", v) == hex && rune(v) >= r.first && rune(v) <= r.last {
				return rune(v), true
			}
		}
	}
	return 0, false
}

func asciiUpper(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'a' && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
