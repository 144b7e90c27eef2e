package testregistry

import (
	"path"
	"strings"

	"github.com/rhysd/actionlint"
)

// shellWord is one word of a shell command: its text with quotes removed
// (${{ }} expressions kept as written), where it starts in the script,
// and whether it holds shell expansion cicheck does not follow ($x,
// $(...), `...`) other than a lone $NAME.
type shellWord struct {
	text  string
	off   int
	shell bool
}

// shellCommands splits a script into simple commands (at newlines, ;, &,
// |, && and ||) of words, loosely but safely: quotes group, a backslash
// escapes (a backslash-newline continues the line), # starts a comment
// at a word's start, and ${{ }}, $(...) and `...` stay inside their word.
// Here-documents, functions and control structures are read as words.
func shellCommands(s string) [][]shellWord {
	var cmds [][]shellWord
	var cur []shellWord
	var b strings.Builder
	start, in, dyn := 0, false, false
	flush := func() {
		if in {
			cur = append(cur, shellWord{text: b.String(), off: start, shell: dyn})
		}
		b.Reset()
		in, dyn = false, false
	}
	endCmd := func() {
		flush()
		if len(cur) > 0 {
			cmds = append(cmds, cur)
		}
		cur = nil
	}
	begin := func(i int) {
		if !in {
			in, start = true, i
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			flush()
			i++
		case c == '\\' && i+1 < len(s):
			begin(i)
			b.WriteByte(s[i+1])
			i++
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case c == '\n' || c == ';' || c == '&' || c == '|':
			endCmd()
		case c == '#' && !in:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			endCmd()
		case c == '\'':
			begin(i)
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				b.WriteString(s[i+1:])
				i = len(s)
				break
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			begin(i)
			i++
			for i < len(s) && s[i] != '"' {
				switch {
				case s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0:
					if s[i+1] != '\n' {
						b.WriteByte(s[i+1])
					}
					i += 2
					continue
				case strings.HasPrefix(s[i:], "${{"):
					e := exprEnd(s, i)
					b.WriteString(s[i:e])
					i = e
					continue
				case s[i] == '$' || s[i] == '`':
					dyn = true
				}
				b.WriteByte(s[i])
				i++
			}
		case strings.HasPrefix(s[i:], "${{"):
			begin(i)
			e := exprEnd(s, i)
			b.WriteString(s[i:e])
			i = e - 1
		case c == '$' && i+1 < len(s) && s[i+1] == '(':
			begin(i)
			dyn = true
			depth := 0
			j := i
			for ; j < len(s); j++ {
				if s[j] == '(' {
					depth++
				} else if s[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			b.WriteString(s[i:min(j+1, len(s))])
			i = j
		case c == '`':
			begin(i)
			dyn = true
			j := strings.IndexByte(s[i+1:], '`')
			if j < 0 {
				j = len(s) - i - 1
			}
			b.WriteString(s[i:min(i+j+2, len(s))])
			i += j + 1
		default:
			begin(i)
			if c == '$' {
				dyn = true
			}
			b.WriteByte(c)
		}
	}
	endCmd()
	// A lone $NAME or ${NAME} is not dynamic in the sense of shellWord:
	// resolveWord reads it from env:.
	for _, cmd := range cmds {
		for i := range cmd {
			if _, ok := shellVar(cmd[i].text); ok {
				cmd[i].shell = false
			}
		}
	}
	return cmds
}

// exprEnd is the offset just past the ${{ ... }} starting at i (the end of
// s when it is not closed).
func exprEnd(s string, i int) int {
	k := strings.Index(s[i:], "}}")
	if k < 0 {
		return len(s)
	}
	return i + k + 2
}

// invocation is one run of the script: its --hw and --suite words, where
// the suite's text starts in the script and as written there, whether
// --nightly is given, and the words that could expand to more arguments.
type invocation struct {
	hw, suite shellWord
	suiteOff  int
	suiteRaw  string
	nightly   bool
	dynamic   []shellWord
}

// interpreters may run the script: python3 x.py, uv run x.py, ...
var interpreters = map[string]bool{"python": true, "python3": true, "uv": true, "run": true, "exec": true,
	"timeout": true, "env": true, "sudo": true, "time": true, "nohup": true, "stdbuf": true}

// invocations finds the script's runs in a run: script whose working
// directory is dir ("." for the workspace; dirOK false when unknown).
func (f *callFinder) invocations(script, dir string, dirOK bool) []invocation {
	var out []invocation
	for _, cmd := range shellCommands(script) {
		if len(cmd) >= 1 && cmd[0].text == "cd" {
			switch {
			case len(cmd) < 2 || cmd[1].shell || strings.Contains(cmd[1].text, "$"):
				dirOK = false
			case strings.HasPrefix(cmd[1].text, "/"):
				dirOK = false
			default:
				dir = path.Clean(path.Join(dir, cmd[1].text))
			}
			continue
		}
		at := -1
		for i, w := range cmd {
			if f.isScript(w, dir, dirOK) {
				at = i
				break
			}
			if !(interpreters[path.Base(w.text)] || strings.HasPrefix(w.text, "python3.") || allDigitsStr(w.text) ||
				strings.HasPrefix(w.text, "-") || strings.Contains(w.text, "=") && !strings.HasPrefix(w.text, "-")) {
				break // the command runs something else
			}
		}
		if at < 0 {
			continue
		}
		var inv invocation
		hasHW, hasSuite := false, false
		args := cmd[at+1:]
		for i := 0; i < len(args); i++ {
			w := args[i]
			name, val, eq := strings.Cut(w.text, "=")
			if !strings.HasPrefix(w.text, "--") {
				name, eq = "", false
			}
			next := func() (shellWord, int, bool) {
				if eq {
					return shellWord{text: val, off: w.off + len(name) + 1, shell: w.shell}, w.off + len(name) + 1, true
				}
				if i+1 < len(args) {
					i++
					return args[i], args[i].off, true
				}
				return shellWord{}, 0, false
			}
			switch name {
			case "--hw":
				if v, _, ok := next(); ok {
					inv.hw, hasHW = v, true
				}
			case "--suite":
				if v, off, ok := next(); ok {
					inv.suite, hasSuite = v, true
					inv.suiteOff = off
					inv.suiteRaw = rawWord(script, off)
				}
			case "--nightly":
				inv.nightly = true
			case "--continue-on-error", "--enable-retry":
			default:
				if name != "" && !eq && i+1 < len(args) && !strings.HasPrefix(args[i+1].text, "-") {
					i++ // an option's value: --auto-partition-id ${{ matrix.part }}
					continue
				}
				if _, lone := shellVar(w.text); lone || w.shell || strings.Contains(w.text, "${{") {
					inv.dynamic = append(inv.dynamic, w)
				}
			}
		}
		if hasHW && hasSuite {
			out = append(out, inv)
		}
	}
	return out
}

// rawWord is the script's text of the word at off, up to the next blank.
func rawWord(s string, off int) string {
	e := off
	for e < len(s) && s[e] != ' ' && s[e] != '\t' && s[e] != '\n' && s[e] != '\\' {
		if strings.HasPrefix(s[e:], "${{") {
			e = exprEnd(s, e)
			continue
		}
		e++
	}
	return s[off:e]
}

// isScript reports a word that invokes the finder's script: by its last
// path element when script is a file name, else by its path from the
// repository root; a path through a variable is not seen.
func (f *callFinder) isScript(w shellWord, dir string, dirOK bool) bool {
	t := w.text
	if w.shell || strings.ContainsAny(t, "$*?[") || path.Base(t) != path.Base(f.script) {
		return false
	}
	if !strings.Contains(f.script, "/") {
		return true
	}
	if strings.HasPrefix(t, "/") || !dirOK {
		return false
	}
	return path.Clean(path.Join(dir, t)) == path.Clean(f.script)
}

// scriptPos places offset off of a run: script in the file: exactly for
// a literal block scalar (|) and a one-line scalar, checked against want,
// the text expected there; 0, 0 when it cannot be placed.
func scriptPos(src []byte, lines []int, s *actionlint.String, off int, want string) (int, int) {
	start := offsetOf(src, lines, s.Pos)
	if start < 0 || off > len(s.Value) {
		return 0, 0
	}
	check := func(at int) bool {
		return at >= 0 && at+len(want) <= len(src) && string(src[at:at+len(want)]) == want
	}
	if start < len(src) && src[start] == '|' {
		ln, _ := posOf(lines, start) // the indicator's line; the text starts on the next
		n := strings.Count(s.Value[:off], "\n")
		col := off - (strings.LastIndexByte(s.Value[:off], '\n') + 1)
		indent := -1
		for l := ln; l < len(lines); l++ { // the first non-blank line sets the indentation
			e := len(src)
			if l+1 < len(lines) {
				e = lines[l+1] - 1
			}
			text := string(src[lines[l]:max(e, lines[l])])
			if strings.TrimSpace(text) != "" {
				indent = len(text) - len(strings.TrimLeft(text, " "))
				break
			}
		}
		if indent < 0 || ln+n >= len(lines) {
			return 0, 0
		}
		at := lines[ln+n] + indent + col
		if check(at) {
			return posOf(lines, at)
		}
		return 0, 0
	}
	if strings.Contains(s.Value, "\n") {
		return 0, 0
	}
	if start < len(src) && (src[start] == '\'' || src[start] == '"') {
		start++
	}
	if at := start + off; check(at) {
		return posOf(lines, at)
	}
	return 0, 0
}

func allDigitsStr(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
