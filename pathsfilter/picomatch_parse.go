package pathsfilter

// A line-by-line port of picomatch 2.3.1 lib/parse.js (MIT, Jon Schlinkert)
// for the option set dorny/paths-filter uses: {dot: true} on posix. The port
// keeps the original's structure, variable names and quirks on purpose: the
// golden test compares the regex source it emits with the one picomatch
// emits, so every deviation shows up as a diff against the real thing.
// Options that dorny never sets (bash, capture, nobrace, …) are dropped.
//
// Strings are handled as sequences of runes because JavaScript indexes
// strings by UTF-16 code unit; patterns outside the BMP are refused before
// they reach this file, so for every accepted pattern a rune is one unit.

import (
	"strings"
	"unicode/utf8"
)

// Posix glob regex pieces (lib/constants.js).
const (
	pmDotLiteral   = `\.`
	pmPlusLiteral  = `\+`
	pmSlashLiteral = `\/`
	pmOneChar      = `(?=.)`
	pmQmark        = `[^/]`
	pmEndAnchor    = `(?:` + pmSlashLiteral + `|$)`
	pmStartAnchor  = `(?:^|` + pmSlashLiteral + `)`
	pmDotsSlash    = pmDotLiteral + `{1,2}` + pmEndAnchor
	pmNoDot        = `(?!` + pmDotLiteral + `)`
	pmNoDots       = `(?!` + pmStartAnchor + pmDotsSlash + `)`
	pmNoDotSlash   = `(?!` + pmDotLiteral + `{0,1}` + pmEndAnchor + `)`
	pmNoDotsSlash  = `(?!` + pmDotsSlash + `)`
	pmStar         = pmQmark + `*?`
	// globstar(opts) with dot: true.
	pmGlobstar = `(?:(?!` + pmStartAnchor + pmDotsSlash + `).)*?`
	pmMaxLen   = 1024 * 64
)

var pmPosixRegexSource = map[string]string{
	"alnum":  "a-zA-Z0-9",
	"alpha":  "a-zA-Z",
	"ascii":  `\x00-\x7F`,
	"blank":  ` \t`,
	"cntrl":  `\x00-\x1F\x7F`,
	"digit":  "0-9",
	"graph":  `\x21-\x7E`,
	"lower":  "a-z",
	"print":  `\x20-\x7E `,
	"punct":  `\-!"#$%&'()\*+,./:;<=>?@[\]^_` + "`" + `{|}~`,
	"space":  ` \t\r\n\v\f`,
	"upper":  "A-Z",
	"word":   "A-Za-z0-9_",
	"xdigit": "A-Fa-f0-9",
}

var pmReplacements = map[string]string{
	"***":      "*",
	"**/**":    "**",
	"**/**/**": "**",
}

type pmExtglobChar struct{ typ, open, close string }

var pmExtglobChars = map[string]pmExtglobChar{
	"!": {"negate", `(?:(?!(?:`, `))` + pmStar + `)`},
	"?": {"qmark", `(?:`, `)?`},
	"+": {"plus", `(?:`, `)+`},
	"*": {"star", `(?:`, `)*`},
	"@": {"at", `(?:`, `)`},
}

// pmToken mirrors the token objects of parse.js. JavaScript distinguishes an
// absent output (undefined) from an empty one, so hasOutput carries that.
type pmToken struct {
	typ, value  string
	output      string
	hasOutput   bool
	prev        *pmToken
	extglob     bool
	star        bool
	posix       bool
	comma, dots bool
	outputIndex int
	tokensIndex int
}

func (t *pmToken) setOutput(s string) { t.output, t.hasOutput = s, true }

// outOrValue is `token.output != null ? token.output : token.value`.
func (t *pmToken) outOrValue() string {
	if t.hasOutput {
		return t.output
	}
	return t.value
}

// extglob bookkeeping (the objects pushed on `extglobs`).
type pmExtglob struct {
	typ, open, close string
	inner            string
	conditions       int
	parens           int
	prev             *pmToken
}

type pmState struct {
	input     []rune
	index     int
	start     int
	output    string
	negated   bool
	brackets  int
	braces    int
	parens    int
	backtrack bool
	quotes    int
	tokens    []*pmToken
}

// jsLen is String.prototype.length for BMP-only strings.
func jsLen(s string) int { return utf8.RuneCountInString(s) }

// jsSlice is s.slice(start, end) with rune indices; negative values count
// from the end as in JavaScript.
func jsSlice(s string, start, end int) string {
	r := []rune(s)
	n := len(r)
	norm := func(i int) int {
		if i < 0 {
			i += n
			if i < 0 {
				i = 0
			}
		}
		if i > n {
			i = n
		}
		return i
	}
	start, end = norm(start), norm(end)
	if start >= end {
		return ""
	}
	return string(r[start:end])
}

// jsTrimEnd is s.slice(0, -n). Note s.slice(0, -0) is "" in JavaScript.
func jsTrimEnd(s string, n int) string {
	if n == 0 {
		return ""
	}
	return jsSlice(s, 0, -n)
}

const pmRegexSpecial = "-*+?.^${}(|)[]"

func pmHasRegexChars(s string) bool { return strings.ContainsAny(s, pmRegexSpecial) }

func pmEscapeRegex(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(pmRegexSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pmEscapeLast is utils.escapeLast.
func pmEscapeLast(input string, ch rune, lastIdx int) string {
	r := []rune(input)
	for {
		idx := -1
		if lastIdx >= len(r) {
			lastIdx = len(r) - 1
		}
		for i := lastIdx; i >= 0; i-- {
			if r[i] == ch {
				idx = i
				break
			}
		}
		if idx == -1 {
			return input
		}
		if idx > 0 && r[idx-1] == '\\' {
			lastIdx = idx - 1
			continue
		}
		return string(r[:idx]) + `\` + string(r[idx:])
	}
}

func isJSWordRune(r rune) bool {
	return r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}

// pmNonSpecialRun is REGEX_NON_SPECIAL_CHARS: /^[^@![\].,$*+?^{}()|\\/]+/.
func pmNonSpecialRun(rest []rune) int {
	n := 0
	for _, r := range rest {
		if strings.ContainsRune(`@![].,$*+?^{}()|\/`, r) {
			break
		}
		n++
	}
	return n
}

// pmExpandRange is expandRange without a user callback: sorted (by UTF-16
// code units, as Array.prototype.sort does) and joined into a class, or
// escaped and joined with ".." when that class is not a valid regex.
func pmExpandRange(args []string) string {
	sortJS(args)
	value := "[" + strings.Join(args, "-") + "]"
	if _, err := parseJSRegex(value); err != nil {
		esc := make([]string, len(args))
		for i, a := range args {
			esc[i] = pmEscapeRegex(a)
		}
		return strings.Join(esc, "..")
	}
	return value
}

func sortJS(a []string) {
	// Insertion sort: ranges have two or three elements. For BMP strings,
	// comparing runes orders like comparing UTF-16 code units.
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && lessRunes(a[j], a[j-1]); j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func lessRunes(x, y string) bool {
	rx, ry := []rune(x), []rune(y)
	for i := 0; i < len(rx) && i < len(ry); i++ {
		if rx[i] != ry[i] {
			return rx[i] < ry[i]
		}
	}
	return len(rx) < len(ry)
}

// pmParse is parse(input, {dot: true, fastpaths}). It returns the regex
// body (state.output) and whether the whole pattern is negated.
func pmParse(in string, fastpaths bool) (pmState, error) {
	if r, ok := pmReplacements[in]; ok {
		in = r
	}
	if jsLen(in) > pmMaxLen {
		return pmState{}, errUnsupported(in)
	}

	bos := &pmToken{typ: "bos", value: ""}
	bos.setOutput("")
	st := pmState{index: -1, tokens: []*pmToken{bos}}

	// utils.removePrefix
	in = strings.TrimPrefix(in, "./")
	input := []rune(in)
	st.input = input
	length := len(input)

	var extglobs []*pmExtglob
	var braces []*pmToken
	var stack []string
	prev := bos
	var value string

	eos := func() bool { return st.index == length-1 }
	peek := func(n int) string {
		i := st.index + n
		if i >= 0 && i < length {
			return string(input[i])
		}
		return ""
	}
	advance := func() string {
		st.index++
		if st.index < length {
			return string(input[st.index])
		}
		return ""
	}
	remaining := func() string {
		if st.index+1 >= length {
			return ""
		}
		return string(input[st.index+1:])
	}
	appendTok := func(t *pmToken) {
		st.output += t.outOrValue()
	}
	negate := func() bool {
		count := 1
		for peek(1) == "!" && (peek(2) != "(" || peek(3) == "?") {
			advance()
			st.start++
			count++
		}
		if count%2 == 0 {
			return false
		}
		st.negated = true
		st.start++
		return true
	}
	increment := func(typ string) {
		switch typ {
		case "parens":
			st.parens++
		case "braces":
			st.braces++
		case "brackets":
			st.brackets++
		}
		stack = append(stack, typ)
	}
	decrement := func(typ string) {
		switch typ {
		case "parens":
			st.parens--
		case "braces":
			st.braces--
		case "brackets":
			st.brackets--
		}
		if len(stack) > 0 {
			stack = stack[:len(stack)-1]
		}
	}
	push := func(tok *pmToken) {
		if prev.typ == "globstar" {
			isBrace := st.braces > 0 && (tok.typ == "comma" || tok.typ == "brace")
			isExtglob := tok.extglob || (len(extglobs) > 0 && (tok.typ == "pipe" || tok.typ == "paren"))
			if tok.typ != "slash" && tok.typ != "paren" && !isBrace && !isExtglob {
				st.output = jsTrimEnd(st.output, jsLen(prev.output))
				prev.typ = "star"
				prev.value = "*"
				prev.setOutput(pmStar)
				st.output += prev.output
			}
		}
		if len(extglobs) > 0 && tok.typ != "paren" {
			extglobs[len(extglobs)-1].inner += tok.value
		}
		if tok.value != "" || (tok.hasOutput && tok.output != "") {
			appendTok(tok)
		}
		if prev != nil && prev.typ == "text" && tok.typ == "text" {
			prev.value += tok.value
			prev.setOutput(prev.output + tok.value)
			return
		}
		tok.prev = prev
		st.tokens = append(st.tokens, tok)
		prev = tok
	}
	extglobOpen := func(typ, v string) {
		c := pmExtglobChars[v]
		tok := &pmExtglob{typ: c.typ, open: c.open, close: c.close, conditions: 1}
		tok.prev = prev
		tok.parens = st.parens
		output := tok.open
		increment("parens")
		t1 := &pmToken{typ: typ, value: v}
		if st.output != "" {
			t1.setOutput("")
		} else {
			t1.setOutput(pmOneChar)
		}
		push(t1)
		t2 := &pmToken{typ: "paren", extglob: true, value: advance()}
		t2.setOutput(output)
		push(t2)
		extglobs = append(extglobs, tok)
	}
	var parseErr error
	extglobClose := func(tok *pmExtglob) {
		output := tok.close
		if tok.typ == "negate" {
			extglobStar := pmStar
			if jsLen(tok.inner) > 1 && strings.Contains(tok.inner, "/") {
				extglobStar = "(?:" + pmGlobstar + ")"
			}
			if extglobStar != pmStar || eos() || isAllCloseParens(remaining()) {
				output = ")$))" + extglobStar
				tok.close = output
			}
			rest := remaining()
			if strings.Contains(tok.inner, "*") && rest != "" && isDotExtTail(rest) {
				sub, err := pmParse(rest, false)
				if err != nil && parseErr == nil {
					parseErr = err
				}
				output = ")" + sub.output + ")" + extglobStar + ")"
				tok.close = output
			}
		}
		t := &pmToken{typ: "paren", extglob: true, value: value}
		t.setOutput(output)
		push(t)
		decrement("parens")
	}

	// The fast path inside parse() for inputs without path or group syntax.
	if fastpaths && !pmFastpathExcluded(in) {
		st.output = pmParseFastpath(in)
		return st, nil
	}

	for !eos() {
		if st.index >= length {
			// A run of backslashes collapsed at the end moves the index
			// past length-1; picomatch's `while (!eos())` then never ends,
			// nor does dorny's step.
			return pmState{}, &UnsupportedError{Pattern: in, Reason: "picomatch 2.3.1 never returns on a trailing run of backslashes", Hangs: true}
		}
		value = advance()
		if value == "\x00" {
			continue
		}

		// Escaped characters
		if value == `\` {
			next := peek(1)
			if next == "/" {
				continue
			}
			if next == "." || next == ";" {
				continue
			}
			if next == "" {
				value += `\`
				push(&pmToken{typ: "text", value: value})
				continue
			}
			// collapse slashes to reduce potential for exploits
			rem := []rune(remaining())
			n := 0
			for n < len(rem) && rem[n] == '\\' {
				n++
			}
			if n > 2 {
				st.index += n
				if n%2 != 0 {
					value += `\`
				}
			}
			value += advance()
			if st.brackets == 0 {
				push(&pmToken{typ: "text", value: value})
				continue
			}
		}

		// Inside a regex character class, continue until the closing bracket.
		if st.brackets > 0 && (value != "]" || prev.value == "[" || prev.value == "[^") {
			if value == ":" {
				inner := jsSlice(prev.value, 1, jsLen(prev.value))
				if strings.Contains(inner, "[") {
					prev.posix = true
					if strings.Contains(inner, ":") {
						pv := []rune(prev.value)
						idx := -1
						for i := len(pv) - 1; i >= 0; i-- {
							if pv[i] == '[' {
								idx = i
								break
							}
						}
						pre := string(pv[:idx])
						rest := ""
						if idx+2 <= len(pv) {
							rest = string(pv[idx+2:])
						}
						if posix, ok := pmPosixRegexSource[rest]; ok {
							prev.value = pre + posix
							st.backtrack = true
							advance()
							if bos.output == "" && len(st.tokens) > 1 && st.tokens[1] == prev {
								bos.setOutput(pmOneChar)
							}
							continue
						}
					}
				}
			}
			if (value == "[" && peek(1) != ":") || (value == "-" && peek(1) == "]") {
				value = `\` + value
			}
			if value == "]" && (prev.value == "[" || prev.value == "[^") {
				value = `\` + value
			}
			prev.value += value
			appendTok(&pmToken{value: value})
			continue
		}

		// Double quotes: dorny never sets keepQuotes, and quoted strings are
		// escaped literally. state.quotes toggles.
		if st.quotes == 1 && value != `"` {
			value = pmEscapeRegex(value)
			prev.value += value
			appendTok(&pmToken{value: value})
			continue
		}
		if value == `"` {
			st.quotes = 1 - st.quotes
			continue
		}

		// Parentheses
		if value == "(" {
			increment("parens")
			push(&pmToken{typ: "paren", value: value})
			continue
		}
		if value == ")" {
			if len(extglobs) > 0 {
				eg := extglobs[len(extglobs)-1]
				if st.parens == eg.parens+1 {
					extglobs = extglobs[:len(extglobs)-1]
					extglobClose(eg)
					continue
				}
			}
			t := &pmToken{typ: "paren", value: value}
			if st.parens != 0 {
				t.setOutput(")")
			} else {
				t.setOutput(`\)`)
			}
			push(t)
			decrement("parens")
			continue
		}

		// Square brackets
		if value == "[" {
			if !strings.Contains(remaining(), "]") {
				value = `\` + value
			} else {
				increment("brackets")
			}
			push(&pmToken{typ: "bracket", value: value})
			continue
		}
		if value == "]" {
			if prev != nil && prev.typ == "bracket" && jsLen(prev.value) == 1 {
				t := &pmToken{typ: "text", value: value}
				t.setOutput(`\` + value)
				push(t)
				continue
			}
			if st.brackets == 0 {
				t := &pmToken{typ: "text", value: value}
				t.setOutput(`\` + value)
				push(t)
				continue
			}
			decrement("brackets")
			prevValue := jsSlice(prev.value, 1, jsLen(prev.value))
			if !prev.posix && strings.HasPrefix(prevValue, "^") && !strings.Contains(prevValue, "/") {
				value = "/" + value
			}
			prev.value += value
			appendTok(&pmToken{value: value})
			if pmHasRegexChars(prevValue) {
				continue
			}
			escaped := pmEscapeRegex(prev.value)
			st.output = jsTrimEnd(st.output, jsLen(prev.value))
			// when the user specifies nothing, try to match both
			prev.value = "(?:" + escaped + "|" + prev.value + ")"
			st.output += prev.value
			continue
		}

		// Braces
		if value == "{" {
			increment("braces")
			open := &pmToken{typ: "brace", value: value, outputIndex: jsLen(st.output), tokensIndex: len(st.tokens)}
			open.setOutput("(")
			braces = append(braces, open)
			push(open)
			continue
		}
		if value == "}" {
			var brace *pmToken
			if len(braces) > 0 {
				brace = braces[len(braces)-1]
			}
			if brace == nil {
				t := &pmToken{typ: "text", value: value}
				t.setOutput(value)
				push(t)
				continue
			}
			output := ")"
			if brace.dots {
				arr := append([]*pmToken(nil), st.tokens...)
				var rng []string
				for i := len(arr) - 1; i >= 0; i-- {
					st.tokens = st.tokens[:len(st.tokens)-1]
					if arr[i].typ == "brace" {
						break
					}
					if arr[i].typ != "dots" {
						rng = append([]string{arr[i].value}, rng...)
					}
				}
				output = pmExpandRange(rng)
				st.backtrack = true
			}
			if !brace.comma && !brace.dots {
				out := jsSlice(st.output, 0, brace.outputIndex)
				var toks []*pmToken
				if brace.tokensIndex < len(st.tokens) {
					toks = st.tokens[brace.tokensIndex:]
				}
				brace.value = `\{`
				brace.setOutput(`\{`)
				value = `\}`
				output = `\}`
				st.output = out
				for _, t := range toks {
					// `t.output || t.value`: an empty output falls back.
					if t.hasOutput && t.output != "" {
						st.output += t.output
					} else {
						st.output += t.value
					}
				}
			}
			t := &pmToken{typ: "brace", value: value}
			t.setOutput(output)
			push(t)
			decrement("braces")
			braces = braces[:len(braces)-1]
			continue
		}

		// Pipes
		if value == "|" {
			if len(extglobs) > 0 {
				extglobs[len(extglobs)-1].conditions++
			}
			push(&pmToken{typ: "text", value: value})
			continue
		}

		// Commas
		if value == "," {
			output := value
			if len(braces) > 0 && len(stack) > 0 && stack[len(stack)-1] == "braces" {
				braces[len(braces)-1].comma = true
				output = "|"
			}
			t := &pmToken{typ: "comma", value: value}
			t.setOutput(output)
			push(t)
			continue
		}

		// Slashes
		if value == "/" {
			if prev.typ == "dot" && st.index == st.start+1 {
				st.start = st.index + 1
				st.output = ""
				st.tokens = st.tokens[:len(st.tokens)-1]
				prev = bos
				continue
			}
			t := &pmToken{typ: "slash", value: value}
			t.setOutput(pmSlashLiteral)
			push(t)
			continue
		}

		// Dots
		if value == "." {
			if st.braces > 0 && prev.typ == "dot" {
				if prev.value == "." {
					prev.setOutput(pmDotLiteral)
				}
				brace := braces[len(braces)-1]
				prev.typ = "dots"
				prev.setOutput(prev.output + value)
				prev.value += value
				brace.dots = true
				continue
			}
			t := &pmToken{value: value}
			t.setOutput(pmDotLiteral)
			if st.braces+st.parens == 0 && prev.typ != "bos" && prev.typ != "slash" {
				t.typ = "text"
			} else {
				t.typ = "dot"
			}
			push(t)
			continue
		}

		// Question marks
		if value == "?" {
			isGroup := prev != nil && prev.value == "("
			if !isGroup && peek(1) == "(" && peek(2) != "?" {
				extglobOpen("qmark", value)
				continue
			}
			if prev != nil && prev.typ == "paren" {
				next := peek(1)
				output := value
				if (prev.value == "(" && !strings.ContainsAny(next, "!=<:")) || (next == "<" && !isLookbehindOrName(remaining())) {
					output = `\` + value
				}
				t := &pmToken{typ: "text", value: value}
				t.setOutput(output)
				push(t)
				continue
			}
			t := &pmToken{typ: "qmark", value: value}
			t.setOutput(pmQmark)
			push(t)
			continue
		}

		// Exclamation
		if value == "!" {
			if peek(1) == "(" {
				if peek(2) != "?" || !strings.ContainsAny(peek(3), "!=<:") {
					extglobOpen("negate", value)
					continue
				}
			}
			if st.index == 0 {
				negate()
				continue
			}
		}

		// Plus
		if value == "+" {
			if peek(1) == "(" && peek(2) != "?" {
				extglobOpen("plus", value)
				continue
			}
			if prev != nil && prev.value == "(" {
				t := &pmToken{typ: "plus", value: value}
				t.setOutput(pmPlusLiteral)
				push(t)
				continue
			}
			if (prev != nil && (prev.typ == "bracket" || prev.typ == "paren" || prev.typ == "brace")) || st.parens > 0 {
				push(&pmToken{typ: "plus", value: value})
				continue
			}
			push(&pmToken{typ: "plus", value: pmPlusLiteral})
			continue
		}

		// Plain text
		if value == "@" {
			if peek(1) == "(" && peek(2) != "?" {
				t := &pmToken{typ: "at", extglob: true, value: value}
				t.setOutput("")
				push(t)
				continue
			}
			push(&pmToken{typ: "text", value: value})
			continue
		}

		if value != "*" {
			if value == "$" || value == "^" {
				value = `\` + value
			}
			rem := []rune(remaining())
			if n := pmNonSpecialRun(rem); n > 0 {
				value += string(rem[:n])
				st.index += n
			}
			push(&pmToken{typ: "text", value: value})
			continue
		}

		// Stars
		if prev != nil && (prev.typ == "globstar" || prev.star) {
			prev.typ = "star"
			prev.star = true
			prev.value += value
			prev.setOutput(pmStar)
			st.backtrack = true
			continue
		}

		rest := remaining()
		if len(rest) >= 2 && rest[0] == '(' && rest[1] != '?' {
			extglobOpen("star", value)
			continue
		}

		if prev.typ == "star" {
			prior := prev.prev
			before := prior.prev
			isStart := prior.typ == "slash" || prior.typ == "bos"
			afterStar := before != nil && (before.typ == "star" || before.typ == "globstar")

			isBrace := st.braces > 0 && (prior.typ == "comma" || prior.typ == "brace")
			isExtglob := len(extglobs) > 0 && (prior.typ == "pipe" || prior.typ == "paren")
			if !isStart && prior.typ != "paren" && !isBrace && !isExtglob {
				t := &pmToken{typ: "star", value: value}
				t.setOutput("")
				push(t)
				continue
			}

			// strip consecutive `/**/`
			for strings.HasPrefix(rest, "/**") {
				after := ""
				if st.index+4 < length {
					after = string(input[st.index+4])
				}
				if after != "" && after != "/" {
					break
				}
				rest = jsSlice(rest, 3, jsLen(rest))
				st.index += 3
			}

			if prior.typ == "bos" && eos() {
				prev.typ = "globstar"
				prev.value += value
				prev.setOutput("(?:" + pmGlobstar + ")")
				st.output = prev.output
				continue
			}

			if prior.typ == "slash" && prior.prev.typ != "bos" && !afterStar && eos() {
				st.output = jsTrimEnd(st.output, jsLen(prior.output+prev.output))
				prior.setOutput("(?:" + prior.output)
				prev.typ = "globstar"
				prev.setOutput("(?:" + pmGlobstar + ")" + "|$)")
				prev.value += value
				st.output += prior.output + prev.output
				continue
			}

			if prior.typ == "slash" && prior.prev.typ != "bos" && strings.HasPrefix(rest, "/") {
				end := ""
				if jsLen(rest) > 1 {
					end = "|$"
				}
				st.output = jsTrimEnd(st.output, jsLen(prior.output+prev.output))
				prior.setOutput("(?:" + prior.output)
				prev.typ = "globstar"
				prev.setOutput("(?:" + pmGlobstar + ")" + pmSlashLiteral + "|" + pmSlashLiteral + end + ")")
				prev.value += value
				st.output += prior.output + prev.output
				advance()
				t := &pmToken{typ: "slash", value: "/"}
				t.setOutput("")
				push(t)
				continue
			}

			if prior.typ == "bos" && strings.HasPrefix(rest, "/") {
				prev.typ = "globstar"
				prev.value += value
				prev.setOutput("(?:^|" + pmSlashLiteral + "|" + "(?:" + pmGlobstar + ")" + pmSlashLiteral + ")")
				st.output = prev.output
				advance()
				t := &pmToken{typ: "slash", value: "/"}
				t.setOutput("")
				push(t)
				continue
			}

			// remove single star from output
			st.output = jsTrimEnd(st.output, jsLen(prev.output))
			prev.typ = "globstar"
			prev.setOutput("(?:" + pmGlobstar + ")")
			prev.value += value
			st.output += prev.output
			continue
		}

		tok := &pmToken{typ: "star", value: value}
		tok.setOutput(pmStar)

		if st.index == st.start || prev.typ == "slash" || prev.typ == "dot" {
			// `prev.output += X` turns an undefined output into "undefined".
			add := pmNoDotsSlash
			if prev.typ == "dot" {
				add = pmNoDotSlash
			}
			st.output += add
			if prev.hasOutput {
				prev.setOutput(prev.output + add)
			} else {
				prev.setOutput("undefined" + add)
			}
			if peek(1) != "*" {
				st.output += pmOneChar
				prev.setOutput(prev.output + pmOneChar)
			}
		}
		push(tok)
	}
	if parseErr != nil {
		return st, parseErr
	}

	for st.brackets > 0 {
		st.output = pmEscapeLast(st.output, '[', jsLen(st.output))
		decrement("brackets")
	}
	for st.parens > 0 {
		st.output = pmEscapeLast(st.output, '(', jsLen(st.output))
		decrement("parens")
	}
	for st.braces > 0 {
		st.output = pmEscapeLast(st.output, '{', jsLen(st.output))
		decrement("braces")
	}

	if prev.typ == "star" || prev.typ == "bracket" {
		t := &pmToken{typ: "maybe_slash", value: ""}
		t.setOutput(pmSlashLiteral + "?")
		push(t)
	}

	// rebuild the output if we had to backtrack at any point
	if st.backtrack {
		var b strings.Builder
		for _, t := range st.tokens {
			b.WriteString(t.outOrValue())
		}
		st.output = b.String()
	}
	return st, nil
}

func isAllCloseParens(s string) bool {
	if s == "" {
		return false
	}
	return strings.Trim(s, ")") == ""
}

// isDotExtTail is /^\.[^\\/.]+$/.
func isDotExtTail(s string) bool {
	if len(s) < 2 || s[0] != '.' {
		return false
	}
	return !strings.ContainsAny(s[1:], `\/.`)
}

// isLookbehindOrName is /<([!=]|\w+>)/ tested anywhere in s.
func isLookbehindOrName(s string) bool {
	r := []rune(s)
	for i := 0; i+1 < len(r); i++ {
		if r[i] != '<' {
			continue
		}
		if r[i+1] == '!' || r[i+1] == '=' {
			return true
		}
		j := i + 1
		for j < len(r) && isJSWordRune(r[j]) {
			j++
		}
		if j > i+1 && j < len(r) && r[j] == '>' {
			return true
		}
	}
	return false
}

// pmFastpathExcluded is /(^[*!]|[/()[\]{}"])/.test(input).
func pmFastpathExcluded(s string) bool {
	if strings.HasPrefix(s, "*") || strings.HasPrefix(s, "!") {
		return true
	}
	return strings.ContainsAny(s, `/()[]{}"`)
}

// pmParseFastpath is the `opts.fastpaths !== false` block of parse(): a
// replace over REGEX_SPECIAL_CHARS_BACKREF = /(\\?)((\W)(\3*))/g, then
// backslash normalisation and utils.wrapOutput.
func pmParseFastpath(input string) string {
	r := []rune(input)
	var out strings.Builder
	backslashes := false
	for i := 0; i < len(r); {
		var esc, first string
		start := i
		var j int
		if r[i] == '\\' && i+1 < len(r) && !isJSWordRune(r[i+1]) {
			esc = `\`
			j = i + 1
		} else if !isJSWordRune(r[i]) {
			j = i
		} else {
			out.WriteRune(r[i])
			i++
			continue
		}
		first = string(r[j])
		k := j + 1
		for k < len(r) && r[k] == r[j] {
			k++
		}
		rest := string(r[j+1 : k])
		chars := string(r[j:k])
		m := string(r[start:k])
		i = k
		switch first {
		case `\`:
			backslashes = true
			out.WriteString(m)
		case "?":
			switch {
			case esc != "":
				out.WriteString(esc + first)
				if rest != "" {
					out.WriteString(strings.Repeat(pmQmark, jsLen(rest)))
				}
			case start == 0:
				out.WriteString(pmQmark)
				if rest != "" {
					out.WriteString(strings.Repeat(pmQmark, jsLen(rest)))
				}
			default:
				out.WriteString(strings.Repeat(pmQmark, jsLen(chars)))
			}
		case ".":
			out.WriteString(strings.Repeat(pmDotLiteral, jsLen(chars)))
		case "*":
			if esc != "" {
				out.WriteString(esc + first)
				if rest != "" {
					out.WriteString(pmStar)
				}
			} else {
				out.WriteString(pmStar)
			}
		default:
			if esc != "" {
				out.WriteString(m)
			} else {
				out.WriteString(`\` + m)
			}
		}
	}
	output := out.String()
	if backslashes {
		var b strings.Builder
		o := []rune(output)
		for i := 0; i < len(o); {
			if o[i] != '\\' {
				b.WriteRune(o[i])
				i++
				continue
			}
			j := i
			for j < len(o) && o[j] == '\\' {
				j++
			}
			if (j-i)%2 == 0 {
				b.WriteString(`\\`)
			} else {
				b.WriteString(`\`)
			}
			i = j
		}
		output = b.String()
	}
	return "^(?:" + output + ")$"
}

// pmFastpaths is parse.fastpaths(input, {dot: true}); ok is false when no
// fast path applies.
func pmFastpaths(input string) (string, bool) {
	if jsLen(input) > pmMaxLen {
		return "", false
	}
	if r, ok := pmReplacements[input]; ok {
		input = r
	}
	const (
		nodot    = pmNoDots
		slashDot = pmNoDotsSlash
		star     = pmStar
		gs       = "(?:" + pmGlobstar + ")"
	)
	var create func(str string) (string, bool)
	create = func(str string) (string, bool) {
		switch str {
		case "*":
			return nodot + pmOneChar + star, true
		case ".*":
			return pmDotLiteral + pmOneChar + star, true
		case "*.*":
			return nodot + star + pmDotLiteral + pmOneChar + star, true
		case "*/*":
			return nodot + star + pmSlashLiteral + pmOneChar + slashDot + star, true
		case "**":
			return nodot + gs, true
		case "**/*":
			return "(?:" + nodot + gs + pmSlashLiteral + ")?" + slashDot + pmOneChar + star, true
		case "**/*.*":
			return "(?:" + nodot + gs + pmSlashLiteral + ")?" + slashDot + star + pmDotLiteral + pmOneChar + star, true
		case "**/.*":
			return "(?:" + nodot + gs + pmSlashLiteral + ")?" + pmDotLiteral + pmOneChar + star, true
		}
		// /^(.*?)\.(\w+)$/: the shortest prefix whose remainder is "." and
		// word characters. `.` excludes line terminators.
		for i := 0; i < len(str); i++ {
			if str[i] == '\n' || str[i] == '\r' || strings.HasPrefix(str[i:], "\u2028") || strings.HasPrefix(str[i:], "\u2029") {
				return "", false
			}
			if str[i] != '.' {
				continue
			}
			word := str[i+1:]
			if word == "" || strings.IndexFunc(word, func(r rune) bool { return !isJSWordRune(r) }) >= 0 {
				continue
			}
			src, ok := create(str[:i])
			if !ok {
				return "", false
			}
			return src + pmDotLiteral + word, true
		}
		return "", false
	}
	input = strings.TrimPrefix(input, "./")
	src, ok := create(input)
	if !ok {
		return "", false
	}
	return src + pmSlashLiteral + "?", true
}

// pmMakeRe is picomatch.makeRe(input, {dot: true}).source, plus the
// negation flag the matcher needs.
func pmMakeRe(input string) (source string, negated bool, err error) {
	output := ""
	fast := false
	if input != "" && (input[0] == '.' || input[0] == '*') {
		output, fast = pmFastpaths(input)
	}
	if !fast {
		st, err := pmParse(input, true)
		if err != nil {
			return "", false, err
		}
		output, negated = st.output, st.negated
	}
	source = "^(?:" + output + ")$"
	if negated {
		source = "^(?!" + source + ").*$"
	}
	return source, negated, nil
}
