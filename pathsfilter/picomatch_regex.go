package pathsfilter

// A small ECMAScript regular-expression engine for the regexes picomatch
// emits. Go's regexp (RE2) has no lookahead, and picomatch relies on it for
// dot handling and `!(…)` extglobs, so the port compiles its regex source
// with this engine instead.
//
// Scope: the non-unicode ("Annex B") syntax V8 accepts without flags, minus
// constructs picomatch never emits unless a user writes raw regex syntax in a
// glob (lookbehind, named groups, backreferences, \b, \c, octal escapes);
// those are reported as unsupported rather than guessed. Syntax V8 rejects is
// reported as errJSSyntax, because picomatch then falls back to /$^/, a
// regex that never matches a non-empty path.
//
// Matching is a depth-first search over (instruction, position) states with a
// visited set, so it runs in O(len(program) × len(input)) per lookahead
// position regardless of backtracking-prone shapes: only "is there a match"
// is needed, which makes greedy/lazy order and lookahead atomicity
// irrelevant (picomatch regexes have no backreferences).

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

var errJSSyntax = errors.New("invalid regular expression")

type errUnsupportedRegex struct{ what string }

func (e errUnsupportedRegex) Error() string { return "unsupported regex construct " + e.what }

// --- AST ---------------------------------------------------------------

type reKind uint8

const (
	reEmpty reKind = iota
	reChar
	reClass
	reAny
	reBegin
	reEnd
	reLook
	reBoundary // \b; neg: \B
	reConcat
	reAlt
	reRepeat
)

type reNode struct {
	kind     reKind
	r        rune
	cls      *runeClass
	neg      bool // reLook: negative lookahead; reBoundary: \B
	min, max int  // reRepeat; max < 0 means unbounded
	subs     []*reNode
}

// runeClass is a sorted set of UTF-16 code-unit ranges.
type runeClass struct {
	ranges []rng // sorted, non-overlapping after normalize
	ascii  [2]uint64
}

type rng struct{ lo, hi rune }

func (c *runeClass) normalize() {
	sort.Slice(c.ranges, func(i, j int) bool { return c.ranges[i].lo < c.ranges[j].lo })
	var out []rng
	for _, r := range c.ranges {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			if r.hi > out[n-1].hi {
				out[n-1].hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	c.ranges = out
	c.ascii = [2]uint64{}
	for _, r := range out {
		for x := r.lo; x <= r.hi && x < 128; x++ {
			c.ascii[x>>6] |= 1 << (uint(x) & 63)
		}
	}
}

func (c *runeClass) negate() {
	var out []rng
	next := rune(0)
	for _, r := range c.ranges {
		if r.lo > next {
			out = append(out, rng{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= 0xFFFF {
		out = append(out, rng{next, 0xFFFF})
	}
	c.ranges = out
}

func (c *runeClass) has(x rune) bool {
	if x < 128 {
		return c.ascii[x>>6]&(1<<(uint(x)&63)) != 0
	}
	i := sort.Search(len(c.ranges), func(i int) bool { return c.ranges[i].hi >= x })
	return i < len(c.ranges) && c.ranges[i].lo <= x
}

var (
	jsDigit = []rng{{'0', '9'}}
	jsWord  = []rng{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	jsSpace = []rng{{'\t', '\r'}, {' ', ' '}, {0xa0, 0xa0}, {0x1680, 0x1680}, {0x2000, 0x200a},
		{0x2028, 0x2029}, {0x202f, 0x202f}, {0x205f, 0x205f}, {0x3000, 0x3000}, {0xfeff, 0xfeff}}
)

func isLineTerminator(r rune) bool { return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029 }

// --- parser --------------------------------------------------------------

type reParser struct {
	src    []rune
	pos    int
	groups int
	// captures counts every capturing group of the pattern, before and
	// after the parse position: a decimal escape above it is not a
	// backreference but an Annex B octal or identity escape.
	captures int
	backref  bool // a backreference was read
}

// countCaptures counts the capturing groups of a regex source: '(' not
// escaped, not inside a class and not followed by '?'.
func countCaptures(src []rune) int {
	n, inClass := 0, false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(' && (i+1 >= len(src) || src[i+1] != '?'):
			n++
		}
	}
	return n
}

// parseJSRegex parses src as V8 would without flags. It returns errJSSyntax
// for a pattern V8 rejects and errUnsupportedRegex for valid syntax this
// engine does not implement.
func parseJSRegex(src string) (*reNode, error) { return parseJSRegexUnits([]rune(src)) }

// parseJSRegexUnits is parseJSRegex on the source's UTF-16 code units (a
// rune each, surrogates included), as V8 reads a regex without the u flag.
func parseJSRegexUnits(units []rune) (*reNode, error) {
	p := &reParser{src: units}
	p.captures = countCaptures(p.src)
	n, err := p.disjunction(0)
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.src) { // a stray ')'
		return nil, errJSSyntax
	}
	if p.backref {
		return nil, errUnsupportedRegex{"(backreference)"}
	}
	return n, nil
}

func (p *reParser) more() bool { return p.pos < len(p.src) }
func (p *reParser) peekAt(i int) rune {
	if p.pos+i < len(p.src) {
		return p.src[p.pos+i]
	}
	return -1
}

func (p *reParser) disjunction(depth int) (*reNode, error) {
	if depth > 500 {
		return nil, errUnsupportedRegex{"(nesting too deep)"}
	}
	var alts []*reNode
	for {
		alt, err := p.alternative(depth)
		if err != nil {
			return nil, err
		}
		alts = append(alts, alt)
		if p.more() && p.src[p.pos] == '|' {
			p.pos++
			continue
		}
		break
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &reNode{kind: reAlt, subs: alts}, nil
}

func (p *reParser) alternative(depth int) (*reNode, error) {
	seq := &reNode{kind: reConcat}
	for p.more() {
		c := p.src[p.pos]
		if c == '|' || c == ')' {
			break
		}
		atom, quantifiable, err := p.term(depth)
		if err != nil {
			return nil, err
		}
		if min, max, ok, err := p.quantifier(); err != nil {
			return nil, err
		} else if ok {
			if !quantifiable {
				return nil, errJSSyntax // nothing to repeat
			}
			atom = &reNode{kind: reRepeat, min: min, max: max, subs: []*reNode{atom}}
		}
		seq.subs = append(seq.subs, atom)
	}
	return seq, nil
}

// quantifier reads *, +, ?, {n}, {n,}, {n,m} and an optional lazy '?'.
func (p *reParser) quantifier() (min, max int, ok bool, err error) {
	if !p.more() {
		return 0, 0, false, nil
	}
	switch p.src[p.pos] {
	case '*':
		min, max = 0, -1
		p.pos++
	case '+':
		min, max = 1, -1
		p.pos++
	case '?':
		min, max = 0, 1
		p.pos++
	case '{':
		mn, mx, n, ok := p.braced(p.pos)
		if !ok {
			return 0, 0, false, nil // a literal '{' (Annex B)
		}
		if mx >= 0 && mn > mx {
			return 0, 0, false, errJSSyntax // numbers out of order
		}
		min, max = mn, mx
		p.pos += n
	default:
		return 0, 0, false, nil
	}
	if p.more() && p.src[p.pos] == '?' {
		p.pos++
	}
	return min, max, true, nil
}

// braced parses {n}, {n,} or {n,m} at i, returning its length in runes.
func (p *reParser) braced(i int) (min, max, n int, ok bool) {
	j := i + 1
	num := func() (int, bool) {
		start := j
		v := 0
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			if v < 1<<20 {
				v = v*10 + int(p.src[j]-'0')
			}
			j++
		}
		return v, j > start
	}
	min, ok = num()
	if !ok {
		return 0, 0, 0, false
	}
	max = min
	if j < len(p.src) && p.src[j] == ',' {
		j++
		if m, ok2 := num(); ok2 {
			max = m
		} else {
			max = -1
		}
	}
	if j >= len(p.src) || p.src[j] != '}' {
		return 0, 0, 0, false
	}
	return min, max, j + 1 - i, true
}

// term parses one atom or assertion; quantifiable says whether a quantifier
// may follow it.
func (p *reParser) term(depth int) (*reNode, bool, error) {
	c := p.src[p.pos]
	switch c {
	case '^':
		p.pos++
		return &reNode{kind: reBegin}, false, nil
	case '$':
		p.pos++
		return &reNode{kind: reEnd}, false, nil
	case '.':
		p.pos++
		return &reNode{kind: reAny}, true, nil
	case '*', '+', '?':
		return nil, false, errJSSyntax
	case '{':
		if _, _, _, ok := p.braced(p.pos); ok {
			return nil, false, errJSSyntax
		}
		p.pos++
		return &reNode{kind: reChar, r: '{'}, true, nil
	case '[':
		cls, err := p.class()
		if err != nil {
			return nil, false, err
		}
		return &reNode{kind: reClass, cls: cls}, true, nil
	case '\\':
		return p.atomEscape()
	case '(':
		p.pos++
		kind := "capture"
		if p.peekAt(0) == '?' {
			switch p.peekAt(1) {
			case ':':
				kind = "group"
			case '=', '!':
				kind = "look"
			case '<':
				return nil, false, errUnsupportedRegex{"(lookbehind or named group)"}
			default:
				return nil, false, errJSSyntax
			}
			p.pos += 2
		} else {
			p.groups++
		}
		neg := kind == "look" && p.src[p.pos-1] == '!'
		body, err := p.disjunction(depth + 1)
		if err != nil {
			return nil, false, err
		}
		if !p.more() || p.src[p.pos] != ')' {
			return nil, false, errJSSyntax // unterminated group
		}
		p.pos++
		if kind == "look" {
			// Annex B lets a lookahead take a quantifier.
			return &reNode{kind: reLook, neg: neg, subs: []*reNode{body}}, true, nil
		}
		return body, true, nil
	}
	p.pos++
	return &reNode{kind: reChar, r: c}, true, nil
}

func (p *reParser) atomEscape() (*reNode, bool, error) {
	p.pos++ // the backslash
	if !p.more() {
		return nil, false, errJSSyntax // \ at end of pattern
	}
	c := p.src[p.pos]
	switch c {
	case 'b', 'B':
		// picomatch copies a backslash before a letter into the regex
		// source, where \b is a word boundary.
		p.pos++
		return &reNode{kind: reBoundary, neg: c == 'B'}, false, nil
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if n := p.decimalAt(p.pos); n <= p.captures {
			// Unsupported, but only once the whole source is known to be
			// valid: V8 reports a syntax error first.
			for p.more() && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
				p.pos++
			}
			p.backref = true
			return &reNode{kind: reEmpty}, true, nil
		}
	}
	r, cls, err := p.escapeValue(false)
	if err != nil {
		return nil, false, err
	}
	if cls != nil {
		cls.normalize()
		return &reNode{kind: reClass, cls: cls}, true, nil
	}
	return &reNode{kind: reChar, r: r}, true, nil
}

// escapeValue decodes the escape at p.pos (after the backslash) and
// advances past it. Exactly one of the rune and the class is meaningful.
func (p *reParser) escapeValue(inClass bool) (rune, *runeClass, error) {
	c := p.src[p.pos]
	p.pos++
	switch c {
	case 'd', 'D', 's', 'S', 'w', 'W':
		var rs []rng
		switch c {
		case 'd', 'D':
			rs = jsDigit
		case 's', 'S':
			rs = jsSpace
		default:
			rs = jsWord
		}
		cls := &runeClass{ranges: append([]rng(nil), rs...)}
		cls.normalize()
		if c == 'D' || c == 'S' || c == 'W' {
			cls.negate()
		}
		return 0, cls, nil
	case 'f':
		return '\f', nil, nil
	case 'n':
		return '\n', nil, nil
	case 'r':
		return '\r', nil, nil
	case 't':
		return '\t', nil, nil
	case 'v':
		return '\v', nil, nil
	case 'b':
		if inClass {
			return '\b', nil, nil
		}
	case 'c':
		// Annex B: \c and a letter is a control character (inside a class
		// also a digit or '_'); otherwise the backslash is literal and the
		// 'c' is read again as itself.
		d := p.peekAt(0)
		if d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || inClass && (d >= '0' && d <= '9' || d == '_') {
			p.pos++
			return d % 32, nil, nil
		}
		p.pos--
		return '\\', nil, nil
	case '8', '9':
		return c, nil, nil // Annex B identity escape (not a backreference: atomEscape checked)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		// Annex B LegacyOctalEscapeSequence: up to three octal digits, at
		// most \377.
		v := c - '0'
		limit := 2
		if c >= '4' {
			limit = 1
		}
		for i := 0; i < limit; i++ {
			d := p.peekAt(0)
			if d < '0' || d > '7' {
				break
			}
			v = v*8 + d - '0'
			p.pos++
		}
		return v, nil, nil
	case 'x':
		if v, ok := p.hex(2); ok {
			return v, nil, nil
		}
		return 'x', nil, nil
	case 'u':
		if v, ok := p.hex(4); ok {
			return v, nil, nil
		}
		return 'u', nil, nil
	}
	return c, nil, nil // identity escape
}

// decimalAt reads the decimal number starting at i (capped to stay small).
func (p *reParser) decimalAt(i int) int {
	n := 0
	for ; i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9'; i++ {
		if n < 1<<20 {
			n = n*10 + int(p.src[i]-'0')
		}
	}
	return n
}

func (p *reParser) hex(n int) (rune, bool) {
	if p.pos+n > len(p.src) {
		return 0, false
	}
	var v rune
	for i := 0; i < n; i++ {
		d := p.src[p.pos+i]
		switch {
		case d >= '0' && d <= '9':
			v = v*16 + d - '0'
		case d >= 'a' && d <= 'f':
			v = v*16 + d - 'a' + 10
		case d >= 'A' && d <= 'F':
			v = v*16 + d - 'A' + 10
		default:
			return 0, false
		}
	}
	p.pos += n
	return v, true
}

func (p *reParser) class() (*runeClass, error) {
	p.pos++ // '['
	cls := &runeClass{}
	neg := false
	if p.more() && p.src[p.pos] == '^' {
		neg = true
		p.pos++
	}
	// classAtom returns a single rune, or a set for \d-style escapes.
	classAtom := func() (rune, *runeClass, error) {
		c := p.src[p.pos]
		if c == '\\' {
			p.pos++
			if !p.more() {
				return 0, nil, errJSSyntax
			}
			switch p.src[p.pos] {
			case 'B':
				p.pos++
				return 'B', nil, nil
			case '-':
				p.pos++
				return '-', nil, nil
			}
			return p.escapeValue(true)
		}
		p.pos++
		return c, nil, nil
	}
	for {
		if !p.more() {
			return nil, errJSSyntax // unterminated character class
		}
		if p.src[p.pos] == ']' {
			p.pos++
			break
		}
		lo, loSet, err := classAtom()
		if err != nil {
			return nil, err
		}
		if p.more() && p.src[p.pos] == '-' && p.peekAt(1) != ']' && p.peekAt(1) != -1 {
			p.pos++ // '-'
			hi, hiSet, err := classAtom()
			if err != nil {
				return nil, err
			}
			if loSet != nil || hiSet != nil {
				// Annex B: a class escape in a range makes '-' literal.
				for _, s := range []*runeClass{loSet, hiSet} {
					if s != nil {
						cls.ranges = append(cls.ranges, s.ranges...)
					}
				}
				if loSet == nil {
					cls.ranges = append(cls.ranges, rng{lo, lo})
				}
				if hiSet == nil {
					cls.ranges = append(cls.ranges, rng{hi, hi})
				}
				cls.ranges = append(cls.ranges, rng{'-', '-'})
				continue
			}
			if lo > hi {
				return nil, errJSSyntax // range out of order
			}
			cls.ranges = append(cls.ranges, rng{lo, hi})
			continue
		}
		if loSet != nil {
			cls.ranges = append(cls.ranges, loSet.ranges...)
		} else {
			cls.ranges = append(cls.ranges, rng{lo, lo})
		}
	}
	cls.normalize()
	if neg {
		cls.negate()
		cls.normalize()
	}
	return cls, nil
}

// --- compiler ---------------------------------------------------------

type opcode uint8

const (
	opChar opcode = iota
	opClass
	opAny
	opSplit
	opJmp
	opBegin
	opEnd
	opLook
	opNotLook
	opBoundary
	opNotBoundary
	opMatch
)

type inst struct {
	op   opcode
	r    rune
	x, y int // jump targets; x also indexes classes or lookaheads
}

type reProg struct {
	insts    []inst
	classes  []*runeClass
	anchored bool // starts with ^: only position 0 can match
}

// reCompiled is a program plus the lookahead programs it refers to; progs[0]
// is the main program.
type reCompiled struct {
	progs []*reProg
	size  int
	pool  sync.Pool // of *reRun
}

const maxProgSize = 20000

func compileJSRegex(src string) (*reCompiled, error) { return compileJSRegexUnits([]rune(src)) }

func compileJSRegexUnits(units []rune) (*reCompiled, error) {
	n, err := parseJSRegexUnits(units)
	if err != nil {
		return nil, err
	}
	c := &reCompiled{}
	if _, err := c.compileProg(n); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *reCompiled) compileProg(n *reNode) (int, error) {
	idx := len(c.progs)
	p := &reProg{}
	c.progs = append(c.progs, p)
	if n.kind == reConcat && len(n.subs) > 0 && n.subs[0].kind == reBegin {
		p.anchored = true
	} else if n.kind == reBegin {
		p.anchored = true
	}
	if err := c.emit(p, n); err != nil {
		return 0, err
	}
	p.insts = append(p.insts, inst{op: opMatch})
	return idx, nil
}

func (c *reCompiled) add(p *reProg, in inst) (int, error) {
	c.size++
	if c.size > maxProgSize {
		return 0, errUnsupportedRegex{"(program too large)"}
	}
	p.insts = append(p.insts, in)
	return len(p.insts) - 1, nil
}

func (c *reCompiled) emit(p *reProg, n *reNode) error {
	switch n.kind {
	case reEmpty:
		return nil
	case reChar:
		_, err := c.add(p, inst{op: opChar, r: n.r})
		return err
	case reClass:
		p.classes = append(p.classes, n.cls)
		_, err := c.add(p, inst{op: opClass, x: len(p.classes) - 1})
		return err
	case reAny:
		_, err := c.add(p, inst{op: opAny})
		return err
	case reBegin:
		_, err := c.add(p, inst{op: opBegin})
		return err
	case reEnd:
		_, err := c.add(p, inst{op: opEnd})
		return err
	case reBoundary:
		op := opBoundary
		if n.neg {
			op = opNotBoundary
		}
		_, err := c.add(p, inst{op: op})
		return err
	case reLook:
		sub, err := c.compileProg(n.subs[0])
		if err != nil {
			return err
		}
		op := opLook
		if n.neg {
			op = opNotLook
		}
		_, err = c.add(p, inst{op: op, x: sub})
		return err
	case reConcat:
		for _, s := range n.subs {
			if err := c.emit(p, s); err != nil {
				return err
			}
		}
		return nil
	case reAlt:
		// split L1, next; L1: alt0; jmp end; next: split L2, next2; ...
		var jmps []int
		for i, s := range n.subs {
			if i < len(n.subs)-1 {
				sp, err := c.add(p, inst{op: opSplit})
				if err != nil {
					return err
				}
				p.insts[sp].x = sp + 1
				if err := c.emit(p, s); err != nil {
					return err
				}
				j, err := c.add(p, inst{op: opJmp})
				if err != nil {
					return err
				}
				jmps = append(jmps, j)
				p.insts[sp].y = len(p.insts)
				continue
			}
			if err := c.emit(p, s); err != nil {
				return err
			}
		}
		for _, j := range jmps {
			p.insts[j].x = len(p.insts)
		}
		return nil
	case reRepeat:
		body := n.subs[0]
		for i := 0; i < n.min; i++ {
			if err := c.emit(p, body); err != nil {
				return err
			}
		}
		if n.max < 0 {
			sp, err := c.add(p, inst{op: opSplit})
			if err != nil {
				return err
			}
			p.insts[sp].x = sp + 1
			if err := c.emit(p, body); err != nil {
				return err
			}
			if _, err := c.add(p, inst{op: opJmp, x: sp}); err != nil {
				return err
			}
			p.insts[sp].y = len(p.insts)
			return nil
		}
		var splits []int
		for i := n.min; i < n.max; i++ {
			sp, err := c.add(p, inst{op: opSplit})
			if err != nil {
				return err
			}
			p.insts[sp].x = sp + 1
			splits = append(splits, sp)
			if err := c.emit(p, body); err != nil {
				return err
			}
		}
		for _, sp := range splits {
			p.insts[sp].y = len(p.insts)
		}
		return nil
	}
	return fmt.Errorf("internal: unknown regex node %d", n.kind)
}

// --- matcher ------------------------------------------------------------

// reRun holds the per-call scratch state of one match. Runs are pooled per
// compiled regex so steady-state matching does not allocate.
type reRun struct {
	c       *reCompiled
	in      []rune
	width   int
	used    []bool     // per program: scratch initialised for this input
	visited [][]uint64 // per program: bitset over (pc, pos)
	clean   []bool     // per program: visited holds only dead states
	looks   [][]int8   // per program: cached lookahead result per position
	stack   []int32
}

func (c *reCompiled) match(in []rune) bool {
	r, _ := c.pool.Get().(*reRun)
	if r == nil {
		n := len(c.progs)
		r = &reRun{c: c, used: make([]bool, n), visited: make([][]uint64, n), clean: make([]bool, n), looks: make([][]int8, n)}
	}
	r.in, r.width = in, len(in)+1
	clear(r.used)
	ok := false
	if c.progs[0].anchored {
		ok = r.run(0, 0)
	} else {
		for pos := 0; pos <= len(in) && !ok; pos++ {
			ok = r.run(0, pos)
		}
	}
	r.in = nil
	r.stack = r.stack[:0]
	c.pool.Put(r)
	return ok
}

// prepare sizes and clears program pi's scratch for the current input.
func (r *reRun) prepare(pi int) {
	r.used[pi] = true
	need := (len(r.c.progs[pi].insts)*r.width + 63) / 64
	if cap(r.visited[pi]) < need {
		r.visited[pi] = make([]uint64, need)
	} else {
		r.visited[pi] = r.visited[pi][:need]
		clear(r.visited[pi])
	}
	r.clean[pi] = true
	if cap(r.looks[pi]) < r.width {
		r.looks[pi] = make([]int8, r.width)
	} else {
		r.looks[pi] = r.looks[pi][:r.width]
		clear(r.looks[pi])
	}
}

// atBoundary is \b: a word character on exactly one side of pos (the
// ASCII [A-Za-z0-9_] of a regex without the u flag).
func (r *reRun) atBoundary(pos int) bool {
	word := func(i int) bool {
		if i < 0 || i >= len(r.in) {
			return false
		}
		c := r.in[i]
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
	}
	return word(pos-1) != word(pos)
}

func (r *reRun) look(pi, pos int) bool {
	if !r.used[pi] {
		r.prepare(pi)
	}
	switch r.looks[pi][pos] {
	case 1:
		return true
	case 2:
		return false
	}
	ok := r.run(pi, pos)
	if ok {
		r.looks[pi][pos] = 1
	} else {
		r.looks[pi][pos] = 2
	}
	return ok
}

// run reports whether program pi matches starting at pos (a prefix match:
// opMatch anywhere is success, like a lookahead or an unanchored search).
func (r *reRun) run(pi, start int) bool {
	p := r.c.progs[pi]
	width := r.width
	if !r.used[pi] {
		r.prepare(pi)
	} else if !r.clean[pi] {
		clear(r.visited[pi])
		r.clean[pi] = true
	}
	vis := r.visited[pi]
	base := len(r.stack)
	r.stack = append(r.stack, 0, int32(start))
	for len(r.stack) > base {
		n := len(r.stack)
		pc, pos := int(r.stack[n-2]), int(r.stack[n-1])
		r.stack = r.stack[:n-2]
		for {
			k := pc*width + pos
			if vis[k>>6]&(1<<(uint(k)&63)) != 0 {
				break
			}
			vis[k>>6] |= 1 << (uint(k) & 63)
			in := &p.insts[pc]
			ok := false
			switch in.op {
			case opChar:
				ok = pos < len(r.in) && r.in[pos] == in.r
				pos++
				pc++
			case opClass:
				ok = pos < len(r.in) && p.classes[in.x].has(r.in[pos])
				pos++
				pc++
			case opAny:
				ok = pos < len(r.in) && !isLineTerminator(r.in[pos])
				pos++
				pc++
			case opSplit:
				r.stack = append(r.stack, int32(in.y), int32(pos))
				pc = in.x
				ok = true
			case opJmp:
				pc = in.x
				ok = true
			case opBegin:
				ok = pos == 0
				pc++
			case opEnd:
				ok = pos == len(r.in)
				pc++
			case opBoundary, opNotBoundary:
				ok = r.atBoundary(pos) == (in.op == opBoundary)
				pc++
			case opLook:
				ok = r.look(in.x, pos)
				pc++
			case opNotLook:
				ok = !r.look(in.x, pos)
				pc++
			case opMatch:
				r.stack = r.stack[:base]
				r.clean[pi] = false
				return true
			}
			if !ok {
				break
			}
		}
	}
	return false
}

// anchoredLiteralPrefix returns ASCII text every match of the anchored
// regex src must start with ("" when unknown). Zero-width nodes are skipped:
// they consume nothing, so the literal characters after them still sit at
// the same positions. It lets Match reject most paths without the engine.
func anchoredLiteralPrefix(src string) string {
	n, err := parseJSRegex(src)
	if err != nil {
		return ""
	}
	var b []byte
	var walk func(n *reNode) bool // false: stop, the prefix ends here
	walk = func(n *reNode) bool {
		switch n.kind {
		case reChar:
			if n.r >= 0x80 {
				return false
			}
			b = append(b, byte(n.r))
			return true
		case reBegin, reLook, reBoundary, reEmpty:
			return true
		case reConcat:
			for _, s := range n.subs {
				if !walk(s) {
					return false
				}
			}
			return true
		case reRepeat:
			if n.min >= 1 {
				walk(n.subs[0])
			}
			return false
		}
		return false
	}
	if n.kind != reConcat || len(n.subs) == 0 || n.subs[0].kind != reBegin {
		return ""
	}
	walk(n)
	return string(b)
}

// anchoredLiteralSuffix returns ASCII text every match of the anchored
// regex src must end with, allowing for picomatch's optional trailing
// slash (optSlash: the text may instead be followed by one '/').
func anchoredLiteralSuffix(src string) (suffix string, optSlash bool) {
	n, err := parseJSRegex(src)
	if err != nil || n.kind != reConcat || len(n.subs) < 2 || n.subs[len(n.subs)-1].kind != reEnd {
		return "", false
	}
	var rev []byte
	var walk func(n *reNode) bool
	walk = func(n *reNode) bool {
		switch n.kind {
		case reChar:
			if n.r >= 0x80 {
				return false
			}
			rev = append(rev, byte(n.r))
			return true
		case reLook, reBoundary, reEmpty, reEnd:
			return true
		case reConcat:
			for i := len(n.subs) - 1; i >= 0; i-- {
				if !walk(n.subs[i]) {
					return false
				}
			}
			return true
		case reRepeat:
			b := n.subs[0]
			if len(rev) == 0 && !optSlash && n.min == 0 && n.max == 1 && b.kind == reChar && b.r == '/' {
				optSlash = true
				return true
			}
		}
		return false
	}
	walk(n)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return string(rev), optSlash
}

// longestRequiredLiteral returns the longest ASCII text every match of src
// must contain: a run of literal characters on the regex's mandatory path
// (not inside an alternation or an optional repeat). Lookaheads consume
// nothing, so they do not break a run.
func longestRequiredLiteral(src string) string {
	n, err := parseJSRegex(src)
	if err != nil {
		return ""
	}
	best, cur := "", []byte(nil)
	flush := func() {
		if len(cur) > len(best) {
			best = string(cur)
		}
		cur = cur[:0]
	}
	var walk func(n *reNode)
	walk = func(n *reNode) {
		switch n.kind {
		case reChar:
			if n.r >= 0x80 {
				flush()
				return
			}
			cur = append(cur, byte(n.r))
		case reLook, reBoundary, reEmpty:
		case reConcat:
			for _, s := range n.subs {
				walk(s)
			}
		case reRepeat:
			flush()
			if n.min >= 1 {
				walk(n.subs[0])
				flush()
			}
		default:
			flush()
		}
	}
	walk(n)
	flush()
	return best
}
