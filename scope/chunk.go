package scope

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/internal/repofs"

	"github.com/cicheck/cicheck/finding"
)

// Status is one commit status as the scope publisher writes it.
type Status struct {
	Context     string `json:"context"`
	Description string `json:"description"`
}

// Chunk splits targets (de-duplicated, first occurrence wins) greedily on
// target boundaries into descriptions of at most limit bytes (spec A6 step
// 2). A target that alone exceeds the limit cannot be split: an error.
func Chunk(targets []string, limit int) ([]string, error) {
	var chunks, tooLong []string
	cur := ""
	for _, t := range dedup(targets) {
		if len(t) > limit {
			tooLong = append(tooLong, t)
			continue
		}
		cand := t
		if cur != "" {
			cand = cur + " " + t
		}
		if len(cand) > limit {
			chunks = append(chunks, cur)
			cand = t
		}
		cur = cand
	}
	if len(tooLong) > 0 {
		return nil, fmt.Errorf("target longer than the %d-character chunk limit and so cannot be split: %s", limit, strings.Join(tooLong, ", "))
	}
	if cur != "" {
		chunks = append(chunks, cur)
	}
	return chunks, nil
}

// PlanStatuses returns the statuses that publish targets under context
// (context-1 ... context-k), followed by blank descriptions for the leftover
// contexts up to prevMax: statuses cannot be deleted, only superseded, so a
// shrinking scope must blank its stale chunks. An empty target list is the
// full suite (k = 0).
func PlanStatuses(targets []string, context string, limit, prevMax int) ([]Status, error) {
	if prevMax > MaxChunkIndex {
		return nil, fmt.Errorf("previous chunk index %d is out of range (at most %d)", prevMax, MaxChunkIndex)
	}
	chunks, err := Chunk(targets, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Status, 0, max(len(chunks), prevMax))
	for i, c := range chunks {
		out = append(out, Status{Context: context + "-" + strconv.Itoa(i+1), Description: c})
	}
	for i := len(chunks) + 1; i <= prevMax; i++ {
		out = append(out, Status{Context: context + "-" + strconv.Itoa(i)})
	}
	return out, nil
}

// ScopeString is the scope as the consumer reassembles it: the distinct
// targets joined by single spaces ("" for the full suite).
func ScopeString(targets []string) string { return strings.Join(dedup(targets), " ") }

// Fingerprint is the snapshot fingerprint of a scope string: the first 16
// hex digits of its SHA-256 (e3b0c44298fc1c14 for the empty, full-suite
// scope).
func Fingerprint(scope string) string {
	sum := sha256.Sum256([]byte(scope))
	return hex.EncodeToString(sum[:])[:16]
}

// Reassembly is the consumer's view of a published scope (spec A7).
type Reassembly struct {
	// Scope is the reassembled string; "" means the full suite.
	Scope string
	// Targets are the distinct targets of Scope, nil when it is rejected.
	Targets []string
	// Fingerprint is Fingerprint(Scope).
	Fingerprint string
	// Previous is the largest chunk index seen: the --previous of the next
	// publication on the same commit.
	Previous int
	// Findings are the reassembly problems; any error rejects the scope.
	Findings []finding.Finding
}

// Accepted reports whether the scope may be used.
func (r Reassembly) Accepted() bool {
	for _, f := range r.Findings {
		if f.Severity == finding.Error {
			return false
		}
	}
	return true
}

// MaxChunkIndex bounds a scope chunk index. A scope of a few dozen
// targets never needs more chunks; a larger index is a forged or broken
// status, and blanking up to it would post (and hold) that many statuses.
const MaxChunkIndex = 10000

// Rule ids of reassembly findings.
const (
	RuleRevalidate     = "scope-revalidation"
	RuleDuplicateIndex = "scope-duplicate-index"
	RuleGap            = "scope-gap"
	RuleMarkerMismatch = "scope-marker-mismatch"
	RuleBadIndex       = "scope-bad-index"
)

// Reassemble rebuilds the scope from the head commit's combined statuses:
// contexts matching ^<context>-[0-9]+$ sorted by their integer suffix, blank
// descriptions dropped, the rest joined by single spaces. It also
// re-validates the result with o (anyone with statuses: write can publish,
// and the value reaches a shell), and reports duplicate indices, gaps and a
// snapshot marker whose fingerprint disagrees. file names the input in
// findings.
func Reassemble(statuses []Status, context, snapshotContext string, o Options, file string) Reassembly {
	var r Reassembly
	re := regexp.MustCompile(`^` + regexp.QuoteMeta(context) + `-([0-9]+)$`)
	type chunk struct {
		num, ctx, desc string
	}
	var chunks []chunk
	byNum := map[string][]string{}
	var marker *Status
	seen := map[string]bool{}
	for i := range statuses {
		s := statuses[i]
		if seen[s.Context] {
			continue // one latest entry per context; the first is the latest
		}
		seen[s.Context] = true
		if s.Context == snapshotContext {
			marker = &statuses[i]
			continue
		}
		m := re.FindStringSubmatch(s.Context)
		if m == nil {
			continue
		}
		n := strings.TrimLeft(m[1], "0")
		if n == "" {
			n = "0"
		}
		byNum[n] = append(byNum[n], s.Context)
		chunks = append(chunks, chunk{n, s.Context, s.Description})
	}
	// Numeric order without overflow: shorter digit strings are smaller.
	sort.SliceStable(chunks, func(i, j int) bool {
		a, b := chunks[i].num, chunks[j].num
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return a < b
	})
	add := func(rule string, sev finding.Severity, msg string) {
		r.Findings = append(r.Findings, finding.Finding{Rule: rule, Severity: sev, File: file, Message: msg})
	}
	var parts []string
	lastNonEmpty := -1
	for i, c := range chunks {
		if i > 0 && chunks[i-1].num == c.num {
			continue // reported below; the scope is rejected anyway
		}
		if c.desc != "" {
			parts = append(parts, c.desc)
			lastNonEmpty = i
		}
		n, err := strconv.Atoi(c.num)
		if err != nil || n > MaxChunkIndex {
			// Too large for an int: no publisher writes that many chunks,
			// and "previous" could not name it for blanking.
			add(RuleBadIndex, finding.Error, "scope chunk index "+c.num+" of "+c.ctx+" is out of range")
			continue
		}
		r.Previous = max(r.Previous, n)
	}
	nums := make([]string, 0, len(byNum))
	for n := range byNum {
		nums = append(nums, n)
	}
	sort.Strings(nums)
	for _, n := range nums {
		if ctxs := byNum[n]; len(ctxs) > 1 {
			sort.Strings(ctxs)
			add(RuleDuplicateIndex, finding.Error, "duplicate scope chunk index "+n+": "+strings.Join(ctxs, ", "))
		}
	}
	// A gap is a blank or missing index before the last non-empty chunk.
	seenNonEmpty := false
	expect := 1
	for i, c := range chunks {
		if i > lastNonEmpty {
			break
		}
		if i > 0 && chunks[i-1].num == c.num {
			continue
		}
		if n, err := strconv.Atoi(c.num); err == nil && n > expect && seenNonEmpty {
			add(RuleGap, finding.Warning, fmt.Sprintf("scope chunks %s-%d..%s-%d are missing between non-empty chunks", context, expect, context, n-1))
		}
		if n, err := strconv.Atoi(c.num); err == nil {
			expect = n + 1
		}
		if c.desc == "" && seenNonEmpty {
			add(RuleGap, finding.Warning, "scope chunk "+c.ctx+" is empty between non-empty chunks")
		}
		if c.desc != "" {
			seenNonEmpty = true
		}
	}
	r.Scope = strings.Join(parts, " ")
	r.Fingerprint = Fingerprint(r.Scope)
	if r.Scope != "" {
		res := Validate(SplitArgs(r.Scope), o)
		for _, reason := range res.Reasons {
			add(RuleRevalidate, finding.Error, "reassembled scope is not valid: "+reason.Message)
		}
		r.Targets = res.Targets
	}
	if marker != nil {
		// The fingerprint is the marker's last field; a blank marker has
		// been cleared (explicit paths and "run all" clear it).
		fields := strings.Fields(marker.Description)
		if len(fields) > 0 && fields[len(fields)-1] != r.Fingerprint {
			got := fields[len(fields)-1]
			add(RuleMarkerMismatch, finding.Error, fmt.Sprintf("%s fingerprint %s does not match the reassembled scope's fingerprint %s", snapshotContext, got, r.Fingerprint))
		}
	}
	r.Findings = finding.Sort(r.Findings)
	if !r.Accepted() {
		r.Targets = nil
	} else if r.Targets == nil {
		r.Targets = []string{}
	}
	return r
}

// ParseStatuses reads commit statuses from JSON: a combined-status object
// ({"statuses": [...]}), several of them concatenated or in an array (one
// per page), or a plain array of statuses. A null description is blank.
// file names the input in error messages, which read file:line:col.
func ParseStatuses(r io.Reader, file string) ([]Status, error) {
	data, err := repofs.ReadStream(r, file, repofs.DiffLimit, "list of commit statuses")
	var tl *repofs.TooLargeError
	if errors.As(err, &tl) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %w", file, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// Most likely a failed status fetch: reading it as "no chunks"
		// would silently widen the run to the full suite.
		return nil, fmt.Errorf("%s:1:1: no statuses JSON (an empty input is not an empty scope)", file)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []Status
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			off := dec.InputOffset()
			var se *json.SyntaxError
			if errors.As(err, &se) {
				off = se.Offset
			}
			line, col := lineCol(data, off)
			return nil, fmt.Errorf("%s:%d:%d: invalid JSON: %w", file, line, col, err)
		}
		if err := collectStatuses(v, &out); err != nil {
			line, col := lineCol(data, dec.InputOffset())
			return nil, fmt.Errorf("%s:%d:%d: %w", file, line, col, err)
		}
	}
	return out, nil
}

func collectStatuses(v any, out *[]Status) error {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if err := collectStatuses(e, out); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		if list, ok := x["statuses"]; ok {
			l, ok := list.([]any)
			if !ok {
				return errors.New(`"statuses" is not an array`)
			}
			return collectStatuses(l, out)
		}
		ctx, ok := x["context"].(string)
		if !ok {
			return errors.New(`a status has no string "context"`)
		}
		desc, ok := x["description"].(string)
		if !ok && x["description"] != nil {
			// Blank means "no chunk"; any other value is not a description.
			return fmt.Errorf("status %q has a description that is neither a string nor null", ctx)
		}
		*out = append(*out, Status{Context: ctx, Description: desc})
		return nil
	}
	return errors.New("expected a combined-status object or an array of statuses")
}

// lineCol converts a byte offset into a 1-based line and column.
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

var shaRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}$`) })

// SnapshotMarker is the ci/test-snapshot description of an automatic
// full-suite run (spec A6): the base, diagnostic merge and tree SHAs and
// the scope fingerprint, joined by single spaces (139 characters). The
// field order and separator are [inferred] in the spec.
func SnapshotMarker(base, merge, tree, scope string) (string, error) {
	for _, f := range []struct{ name, sha string }{{"base", base}, {"merge", merge}, {"tree", tree}} {
		if !shaRE().MatchString(f.sha) {
			return "", fmt.Errorf("snapshot %s SHA %q is not 40 lower-case hex digits", f.name, f.sha)
		}
	}
	return base + " " + merge + " " + tree + " " + Fingerprint(scope), nil
}
