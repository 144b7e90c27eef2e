package pyparse

import (
	"math"
	"testing"
)

// TestLookupNameNearMiss: \N{...} names as CPython 3.11 resolves them
// (eval of the string literal): algorithmic CJK and Hangul names are exact
// and upper case, a CJK code point must lie in a CJK block, other names
// ignore case.
func TestLookupNameNearMiss(t *testing.T) {
	for _, c := range []struct {
		name string
		want rune // -1: unknown name
	}{
		{"CJK UNIFIED IDEOGRAPH-4E00", 0x4e00},
		{"CJK UNIFIED IDEOGRAPH-4e00", -1},
		{"cjk unified ideograph-4E00", -1},
		{"CJK UNIFIED IDEOGRAPH-04E00", 0x4e00},
		{"CJK UNIFIED IDEOGRAPH-3400", 0x3400},
		{"CJK UNIFIED IDEOGRAPH-4DBF", 0x4dbf},
		{"CJK UNIFIED IDEOGRAPH-4DC0", -1},
		{"CJK UNIFIED IDEOGRAPH-33FF", -1},
		{"CJK UNIFIED IDEOGRAPH-4E0", -1},
		{"CJK UNIFIED IDEOGRAPH-20000", 0x20000},
		{"HANGUL SYLLABLE GA", 0xac00},
		{"hangul syllable gag", -1},
		{"HANGUL SYLLABLE GAGG", 0xac02},
		{"HANGUL SYLLABLE KKWAEGS", -1},
		{"CJK COMPATIBILITY IDEOGRAPH-F900", 0xf900},
		{"CJK COMPATIBILITY IDEOGRAPH-f900", 0xf900},
		{"bullet", 0x2022},
		{"Bullet", 0x2022},
		{"BULLETX", -1},
		{"latin small letter a", 'a'},
		// compatibility ideographs: by range, hex as %04X, any case
		{"CJK COMPATIBILITY IDEOGRAPH-FA6D", 0xfa6d},
		{"CJK COMPATIBILITY IDEOGRAPH-FA6E", -1},
		{"CJK COMPATIBILITY IDEOGRAPH-FA70", 0xfa70},
		{"CJK COMPATIBILITY IDEOGRAPH-0F900", -1},
		{"CJK COMPATIBILITY IDEOGRAPH-2F800", 0x2f800},
		{"CJK COMPATIBILITY IDEOGRAPH-2FA1E", -1},
		{"CJK COMPATIBILITY IDEOGRAPH-fa6d", 0xfa6d},
		{"CJK COMPATIBILITY IDEOGRAPH-XYZ", -1},
		{"CJK COMPATIBILITY IDEOGRAPH-F8FF", -1},
		// Hangul: leading consonant (or none), vowel, trailing consonant
		{"HANGUL SYLLABLE GGA", 0xae4c},
		{"HANGUL SYLLABLE A", 0xc544},
		{"HANGUL SYLLABLE YEOLB", 0xc5f7},
		{"HANGUL SYLLABLE WAE", 0xc65c},
		{"HANGUL SYLLABLE NGA", -1},
		{"HANGUL SYLLABLE SSYI", 0xc50c},
		{"HANGUL SYLLABLE HIH", 0xd7a3},
		{"HANGUL SYLLABLE GAX", -1},
	} {
		r, ok := lookupName(c.name)
		if !ok {
			r = -1
		}
		if r != c.want {
			t.Errorf("lookupName(%q) = %#x, want %#x", c.name, r, c.want)
		}
	}
}

// TestParseNumberNearMiss: number literals as CPython 3.11 evaluates them
// (kind "" = a syntax error), each beside the literal one character away.
func TestParseNumberNearMiss(t *testing.T) {
	for _, c := range []struct {
		s, kind string
		v       float64
	}{
		{"0", "int", 0}, {"00", "int", 0}, {"01", "", 0}, {"007", "", 0}, {"0_0", "int", 0}, {"0_7", "", 0},
		{"10", "int", 10}, {"1_000", "int", 1000}, {"1_", "", 0}, {"1__0", "", 0},
		{"9999999999999999", "int", 9999999999999999}, {"0x1F", "int", 31}, {"0o17", "int", 15}, {"0b2", "", 0},
		{"1e5", "float", 1e5}, {"1.5", "float", 1.5}, {".5", "float", 0.5}, {"5.", "float", 5}, {"1e400", "float", math.Inf(1)},
		{"1j", "complex", 0},
	} {
		kind, v, ok := parseNumber(c.s)
		if ok != (c.kind != "") || kind != c.kind || (ok && v != c.v) {
			t.Errorf("parseNumber(%q) = %q %v %v, want %q %v", c.s, kind, v, ok, c.kind, c.v)
		}
	}
}

// TestUnescapeNearMiss: string and bytes literal bodies decoded as CPython
// 3.11 decodes them (the value's UTF-8, or the bytes): \N{...} only in
// str, \u and \U only in str, octal escapes of one to three digits, a
// code point past 0x7f.
func TestUnescapeNearMiss(t *testing.T) {
	for _, c := range []struct {
		body  string
		bytes bool
		want  string
	}{
		{`\N{BULLET}`, false, "\xe2\x80\xa2"},
		{`a\N{bullet}b`, false, "a\xe2\x80\xa2b"},
		{`\x41`, false, "A"},
		{`\u00e9`, false, "\xc3\xa9"},
		{`\U0001F600`, false, "\xf0\x9f\x98\x80"},
		{`\101`, false, "A"},
		{`\1011`, false, "A1"},
		{`\q`, false, `\q`},
		{"x\\\ny", false, "xy"},
		{`\0`, false, "\x00"},
		{`\400`, false, "\xc4\x80"},
		{`\N{BULLET}`, true, `\N{BULLET}`},
		{`\u0041`, true, `\u0041`},
		{`\U00000041`, true, `\U00000041`},
		{`\x41`, true, "A"},
		{`\xe9`, true, "\xe9"},
		{`\351`, true, "\xe9"},
		{`\q`, true, `\q`},
		{`\N`, true, `\N`},
	} {
		if got := unescape(c.body, c.bytes); got != c.want {
			t.Errorf("unescape(%q, bytes %v) = %q, want %q", c.body, c.bytes, got, c.want)
		}
	}
}
