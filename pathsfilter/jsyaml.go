package pathsfilter

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// js-yaml reads a plain scalar by trying its implicit types in schema
// order (null, bool, int, float, timestamp); yaml.v3 resolves YAML 1.2
// differently (`0o17`, `1:30`, `2001-12-14`, `.5`, `1_000`). This file ports
// the resolve and construct functions of js-yaml 3.14.0 (dorny/paths-filter
// v2) and 4.1.0 (v3, v4), lib/type/{null,bool,int,float,timestamp}.js, so a
// filter name and a filter item read as the release reads them.

type jsKind int

const (
	jsStr jsKind = iota
	jsNull
	jsBool
	jsNumber
	jsDate
	// jsBinary: a !!binary scalar, a Uint8Array (js-yaml 4) or Buffer (3);
	// str is "" when it decodes to no bytes, "bad" when it does not resolve.
	jsBinary
	// jsBadResolve: an explicit core tag whose resolver rejects the text;
	// js-yaml's load throws.
	jsBadResolve
	// jsUnmodelled: an explicit tag whose construction cicheck does not
	// reproduce (!!binary, !!int on a quoted scalar, ...).
	jsUnmodelled
	// jsBadTag: a tag js-yaml's schema does not know; load throws.
	jsBadTag
)

type jsScalar struct {
	kind jsKind
	str  string // the string value, or String(value) for the others
}

func (k jsKind) typeOf() string {
	switch k {
	case jsStr:
		return "string"
	case jsBool:
		return "boolean"
	case jsNumber:
		return "number"
	}
	return "object"
}

// jsKnownTags are the tags js-yaml's default schema constructs. Releases
// on js-yaml 3 call safeLoad, so its !!js/ types are unknown tags there too.
var jsKnownTags = map[string]bool{
	"!!str": true, "!!seq": true, "!!map": true, "!!null": true, "!!bool": true, "!!int": true,
	"!!float": true, "!!timestamp": true, "!!merge": true, "!!binary": true, "!!omap": true,
	"!!pairs": true, "!!set": true,
}

func explicitTag(n *yaml.Node) (string, bool) {
	if n.Style&yaml.TaggedStyle == 0 || n.Tag == "" || n.Tag == "!" {
		return "", false
	}
	return n.ShortTag(), true
}

// scalar reads a scalar node as js-yaml major version v loads it.
func jsReadScalar(n *yaml.Node, v int) jsScalar {
	if tag, ok := explicitTag(n); ok {
		if !jsKnownTags[tag] {
			return jsScalar{kind: jsBadTag, str: tag}
		}
		d := n.Value
		bad := jsScalar{kind: jsBadResolve, str: tag}
		switch tag {
		case "!!str":
			return jsScalar{kind: jsStr, str: d}
		case "!!binary":
			if shape := jsBinaryShape(d); shape != "bad" {
				return jsScalar{kind: jsBinary, str: shape}
			}
			return bad
		case "!!int":
			if jsResolveInt(d, v) {
				return jsScalar{jsNumber, jsNumberString(jsConstructInt(d, v))}
			}
			return bad
		case "!!float":
			if jsResolveFloat(d, v) {
				return jsScalar{jsNumber, jsNumberString(jsConstructFloat(d, v))}
			}
			return bad
		case "!!null", "!!bool", "!!timestamp":
			want := map[string]jsKind{"!!null": jsNull, "!!bool": jsBool, "!!timestamp": jsDate}[tag]
			if sc := jsImplicitScalar(d, v); sc.kind == want {
				return sc
			}
			return bad
		case "!!merge":
			// resolveYamlMerge: data === '<<' || data === null (no content).
			switch {
			case d == "<<":
				return jsScalar{kind: jsStr, str: d}
			case d == "" && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0:
				return jsScalar{kind: jsNull, str: "null"}
			}
			return bad
		case "!!seq", "!!map", "!!set", "!!omap", "!!pairs":
			return bad // a collection tag on a scalar: unacceptable node kind
		}
		return jsScalar{kind: jsUnmodelled, str: tag}
	}
	if n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return jsScalar{kind: jsStr, str: n.Value}
	}
	return jsImplicitScalar(n.Value, v)
}

// jsImplicitScalar resolves a plain scalar through js-yaml's implicit types.
func jsImplicitScalar(d string, v int) jsScalar {
	switch d {
	case "", "~", "null", "Null", "NULL":
		return jsScalar{jsNull, "null"}
	case "true", "True", "TRUE":
		return jsScalar{jsBool, "true"}
	case "false", "False", "FALSE":
		return jsScalar{jsBool, "false"}
	}
	if jsResolveInt(d, v) {
		return jsScalar{jsNumber, jsNumberString(jsConstructInt(d, v))}
	}
	if jsResolveFloat(d, v) {
		return jsScalar{jsNumber, jsNumberString(jsConstructFloat(d, v))}
	}
	if t, ok := jsTimestamp(d); ok {
		// String(date) in the runner's time zone: UTC on GitHub-hosted runners.
		return jsScalar{jsDate, t.UTC().Format("Mon Jan 02 2006 15:04:05 GMT+0000 (Coordinated Universal Time)")}
	}
	return jsScalar{jsStr, d}
}

func isDigitIn(c byte, base int) bool {
	switch base {
	case 2:
		return c == '0' || c == '1'
	case 8:
		return c >= '0' && c <= '7'
	case 16:
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	return c >= '0' && c <= '9'
}

// jsResolveInt ports resolveYamlInteger.
func jsResolveInt(d string, v int) bool {
	if d == "" {
		return false
	}
	i := 0
	if d[0] == '-' || d[0] == '+' {
		i++
	}
	if i < len(d) && d[i] == '0' {
		if i+1 == len(d) {
			return true
		}
		i++
		base := 0
		switch {
		case d[i] == 'b':
			base, i = 2, i+1
		case d[i] == 'x':
			base, i = 16, i+1
		case d[i] == 'o' && v == 4:
			base, i = 8, i+1
		case v == 3:
			base = 8 // js-yaml 3: a leading 0 is octal
		}
		if base != 0 {
			_, has, last, ok := scanDigits(d, i, base, 0)
			return ok && has && last != '_'
		}
	}
	if i < len(d) && d[i] == '_' {
		return false
	}
	var stop byte
	if v == 3 {
		stop = ':' // js-yaml 3: sexagesimal 1:30
	}
	end, has, last, ok := scanDigits(d, i, 10, stop)
	if !ok || !has || last == '_' {
		return false
	}
	if last != ':' {
		return true
	}
	return sexagesimalTail().MatchString(d[end:])
}

// scanDigits is resolveYamlInteger's digit loop from d[i]: '_' is skipped,
// stop (when not 0) ends the loop, any other non-digit of base rejects
// (ok false). It returns where it ended, whether a digit was read and the
// last character read.
func scanDigits(d string, i, base int, stop byte) (end int, has bool, last byte, ok bool) {
	for ; i < len(d); i++ {
		last = d[i]
		switch {
		case last == '_':
		case stop != 0 && last == stop:
			return i, has, last, true
		case !isDigitIn(last, base):
			return i, has, last, false
		default:
			has = true
		}
	}
	return i, has, last, true
}

var sexagesimalTail = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(:[0-5]?[0-9])+$`) })

// jsParseInt is parseInt(s, base) on digits the resolver accepted.
func jsParseInt(s string, base int) float64 {
	if s == "" {
		return math.NaN()
	}
	if base == 10 {
		f, _ := strconv.ParseFloat(s, 64)
		return f
	}
	x, ok := new(big.Int).SetString(s, base)
	if !ok {
		return math.NaN()
	}
	f, _ := new(big.Float).SetInt(x).Float64()
	return f
}

// jsConstructInt ports constructYamlInteger.
func jsConstructInt(d string, v int) float64 {
	s := strings.ReplaceAll(d, "_", "")
	sign := 1.0
	if s[0] == '-' || s[0] == '+' {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	if s == "0" {
		return 0 * sign
	}
	if s[0] == '0' && len(s) > 1 {
		switch {
		case s[1] == 'b':
			return sign * jsParseInt(s[2:], 2)
		case s[1] == 'x':
			return sign * jsParseInt(s[2:], 16)
		case s[1] == 'o' && v == 4:
			return sign * jsParseInt(s[2:], 8)
		case v == 3:
			return sign * jsParseInt(s, 8)
		}
	}
	if v == 3 && strings.Contains(s, ":") {
		parts := strings.Split(s, ":")
		val, base := 0.0, 1.0
		for i := len(parts) - 1; i >= 0; i-- {
			val += jsParseInt(parts[i], 10) * base
			base *= 60
		}
		return sign * val
	}
	return sign * jsParseInt(s, 10)
}

var (
	jsFloat4 = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	})
	jsFloat3 = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	})
)

func jsResolveFloat(d string, v int) bool {
	re := jsFloat4
	if v == 3 {
		re = jsFloat3
	}
	return re().MatchString(d) && !strings.HasSuffix(d, "_")
}

// jsParseFloat is parseFloat on text the float pattern accepted.
func jsParseFloat(s string) float64 {
	s = strings.TrimSuffix(s, ".") // "1." parses as 1 in both
	s = strings.TrimSuffix(s, "e")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && f == 0 {
		return math.NaN()
	}
	return f
}

func jsConstructFloat(d string, v int) float64 {
	s := strings.ToLower(strings.ReplaceAll(d, "_", ""))
	sign := 1.0
	if s[0] == '-' {
		sign = -1
	}
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	switch {
	case s == ".inf":
		return sign * math.Inf(1)
	case s == ".nan":
		return math.NaN()
	case v == 3 && strings.Contains(s, ":"):
		parts := strings.Split(s, ":")
		val, base := 0.0, 1.0
		for i := len(parts) - 1; i >= 0; i-- {
			val += jsParseFloat(parts[i]) * base
			base *= 60
		}
		return sign * val
	}
	return sign * jsParseFloat(s)
}

var (
	jsDateRE      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]{4})-([0-9]{2})-([0-9]{2})$`) })
	jsTimestampRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9]{2}))?))?$`)
	})
)

// jsTimestamp ports resolve/constructYamlTimestamp.
func jsTimestamp(d string) (time.Time, bool) {
	if m := jsDateRE().FindStringSubmatch(d); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		day, _ := strconv.Atoi(m[3])
		return time.Date(y, time.Month(mo), day, 0, 0, 0, 0, time.UTC), true
	}
	m := jsTimestampRE().FindStringSubmatch(d)
	if m == nil {
		return time.Time{}, false
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	frac := 0
	if m[7] != "" {
		f := (m[7] + "00")[:3]
		frac = atoi(f)
	}
	t := time.Date(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3]), atoi(m[4]), atoi(m[5]), atoi(m[6]), frac*1e6, time.UTC)
	if m[9] != "" {
		delta := time.Duration(atoi(m[10])*60+atoi(m[11])) * time.Minute
		if m[9] == "-" {
			delta = -delta
		}
		t = t.Add(-delta)
	}
	return t, true
}

// jsNumberString is JavaScript's Number.prototype.toString() (ECMA-262
// Number::toString, radix 10).
func jsNumberString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	case f < 0:
		return "-" + jsNumberString(-f)
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX, shortest round trip
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	ex := n - 1
	if ex < 0 {
		ex = -ex
	}
	if k == 1 {
		return digits + "e" + sign + strconv.Itoa(ex)
	}
	return digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(ex)
}

// jsBinaryShape ports resolveYamlBinary and the length of
// constructYamlBinary: "bad" when js-yaml cannot resolve the text, "" when
// it decodes to no bytes, "bytes" otherwise.
func jsBinaryShape(d string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n\r"
	bits, n := 0, 0
	for i := 0; i < len(d); i++ {
		code := strings.IndexByte(alphabet, d[i])
		switch {
		case code > 64:
			continue // CR, LF
		case code < 0:
			return "bad"
		}
		bits += 6
		if d[i] != '=' {
			n++
		}
	}
	if bits%8 != 0 {
		return "bad"
	}
	// constructYamlBinary pushes 3 bytes per 4 characters before the
	// last group, then 3, 2, 1 or 0 for a last group of 4, 3, 2 or 1: an
	// empty text yields 3 zero bytes; only a lone character yields none.
	if n == 1 {
		return ""
	}
	return "bytes"
}
