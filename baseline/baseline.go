// Package baseline lets a repository adopt cicheck with findings it already
// has: a baseline file records them, and later runs report only new ones.
//
// Entries are keyed by report.Fingerprint (rule, file, job and the message
// with positions normalised), never by line, so edits that only shift lines
// keep matching. Identical findings are counted, so a second copy of an
// accepted problem is still reported as new.
package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"path"
	"slices"

	"github.com/cicheck/cicheck/internal/jsonw"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/report"
)

// Version is the baseline file format version.
const Version = 1

// Entry is one accepted finding (or Count identical ones).
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Job         string `json:"job,omitempty"`
	Message     string `json:"message"`
	Count       int    `json:"count"`
}

// Baseline is the decoded baseline file.
type Baseline struct {
	Version int     `json:"version"`
	Entries []Entry `json:"findings"`
}

// Build records every finding in fs. The file it marshals to depends only on
// the findings, not their order or line numbers.
func Build(fs []finding.Finding) *Baseline {
	byFP := map[string]*Entry{}
	for _, f := range fs {
		fp := report.Fingerprint(f)
		if e, ok := byFP[fp]; ok {
			e.Count++
			continue
		}
		byFP[fp] = &Entry{Fingerprint: fp, Rule: f.Rule, File: f.File, Job: f.Job, Message: f.Message, Count: 1}
	}
	b := &Baseline{Version: Version, Entries: make([]Entry, 0, len(byFP))}
	for _, e := range byFP {
		b.Entries = append(b.Entries, *e)
	}
	slices.SortFunc(b.Entries, func(x, y Entry) int {
		return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Rule, y.Rule),
			cmp.Compare(x.Job, y.Job), cmp.Compare(x.Message, y.Message), cmp.Compare(x.Fingerprint, y.Fingerprint))
	})
	return b
}

// Marshal encodes b as indented JSON with a trailing newline.
func (b *Baseline) Marshal() []byte {
	out, err := jsonw.Marshal(b)
	if err != nil { // only plain strings and ints: cannot fail
		panic(err)
	}
	return out
}

// Parse decodes a baseline file; name is used in error messages.
func Parse(name string, data []byte) (*Baseline, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b Baseline
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("%s: not a cicheck baseline: %w", name, err)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("%s: baseline version %d is not supported (want %d); rewrite it with 'cicheck baseline write'", name, b.Version, Version)
	}
	for i, e := range b.Entries {
		if e.Fingerprint == "" || e.Count < 1 {
			return nil, fmt.Errorf("%s: entry %d needs a fingerprint and a count of at least 1", name, i+1)
		}
	}
	return &b, nil
}

// Result is what Apply leaves of a run.
type Result struct {
	// New are the findings the baseline does not accept, in input order.
	New []finding.Finding
	// Baselined counts the findings the baseline accepted.
	Baselined int
	// Stale are entries (with the unused part of their count) that no
	// finding matched any more: fixed problems whose entries can be pruned.
	Stale []Entry
}

// Apply splits fs into accepted and new findings.
func (b *Baseline) Apply(fs []finding.Finding) Result {
	left := map[string]int{}
	for _, e := range b.Entries {
		left[e.Fingerprint] += e.Count
	}
	var r Result
	for _, f := range fs {
		// An entry written by an older cicheck may hold one of the
		// fingerprints it gave f (job ids spelled differently).
		fps := report.Fingerprints(f)
		if i := slices.IndexFunc(fps, func(fp string) bool { return left[fp] > 0 }); i >= 0 {
			left[fps[i]]--
			r.Baselined++
			continue
		}
		r.New = append(r.New, f)
	}
	for _, e := range b.Entries {
		if n := left[e.Fingerprint]; n > 0 {
			e.Count = min(n, e.Count)
			left[e.Fingerprint] -= e.Count
			r.Stale = append(r.Stale, e)
		}
	}
	return r
}

// KeepStaleOf keeps the stale entries of the files linted says were
// linted: when only some files were linted (a pre-commit hook passes the
// staged ones), the other files' entries are not stale.
func (r *Result) KeepStaleOf(linted func(file string) bool) {
	kept := r.Stale[:0]
	for _, e := range r.Stale {
		if linted(path.Clean(e.File)) {
			kept = append(kept, e)
		}
	}
	r.Stale = kept
}

// Summary is the line a run with baseline file name reports.
func (r Result) Summary(name string) string {
	stale := fmt.Sprintf("%d baseline entries no longer occur", len(r.Stale))
	if len(r.Stale) == 1 {
		stale = "1 baseline entry no longer occurs"
	}
	if len(r.Stale) > 0 {
		stale += " (prune with 'cicheck baseline write')"
	}
	s := "s"
	if r.Baselined == 1 {
		s = ""
	}
	return fmt.Sprintf("baseline %s: %d finding%s accepted, %s", name, r.Baselined, s, stale)
}
