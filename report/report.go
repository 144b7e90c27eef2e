// Package report renders cicheck findings in the four output formats of
// `cicheck lint --format`: text (for people), github (workflow commands that
// become annotations), json (a versioned schema for scripts, see SCHEMA.md)
// and sarif (SARIF 2.1.0 for GitHub code scanning).
//
// Every format is deterministic: the same findings and options produce the
// same bytes. Findings are written in finding.Sort order; Write sorts a copy
// and never mutates the caller's slice. Each call renders into memory and
// makes a single Write, so a render error never leaves half a document.
package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/finding"
)

// Formats lists the accepted values of Write's format argument, default first.
func Formats() []string { return []string{"text", "github", "json", "sarif"} }

// Options carries what a format may need beyond the findings themselves.
// The zero value is valid: no colour, no source snippets, generic rule
// metadata, tool name "cicheck".
type Options struct {
	// Color enables ANSI colour in the text format. The CLI decides it from
	// the terminal, NO_COLOR and --color; the reporter never looks at the
	// environment or at fatih/color's global switch.
	Color bool
	// Sources maps a finding's File to the file content, so the text format
	// can show the offending line with a caret. Missing files are fine.
	Sources map[string][]byte
	// Rules is the rule metadata for SARIF tool.driver.rules.
	Rules []RuleInfo
	// ToolName and ToolVersion identify the producer in SARIF; ToolVersion
	// is a semantic version ("0.3.0", "0.0.0-dev+rev.1a2b3c4d5e6f").
	ToolName, ToolVersion string
	// Failures are the errors that made the run fail (bad usage or
	// configuration, a path that does not exist): SARIF marks the
	// invocation unsuccessful and lists them. The other formats ignore
	// them; the CLI prints them on stderr.
	Failures []string
}

// RuleInfo describes one rule for SARIF output.
type RuleInfo struct {
	ID      string
	Short   string // one line, SARIF shortDescription
	Full    string // a paragraph of markdown, SARIF fullDescription (Short when empty)
	Help    string // long markdown, SARIF help (its text is plainText(Help))
	HelpURI string
	// Severity is the rule's default severity (SARIF
	// defaultConfiguration.level); zero means "warning", SARIF's default.
	Severity finding.Severity
}

// Write renders fs to w in the named format.
func Write(w io.Writer, format string, fs []finding.Finding, opts Options) error {
	var render func(*bytes.Buffer, []finding.Finding, Options) error
	switch format {
	case "text":
		render = writeText
	case "github":
		render = writeGitHub
	case "json":
		render = writeJSON
	case "sarif":
		render = writeSARIF
	default:
		return fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(Formats(), ", "))
	}
	var buf bytes.Buffer
	if err := render(&buf, sorted(fs), opts); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// sorted returns a sorted, de-duplicated copy of fs.
func sorted(fs []finding.Finding) []finding.Finding {
	return finding.Sort(slices.Clone(fs))
}

// positionRE matches line/column numbers inside messages ("line 12",
// "lines 3-5", "col: 7", "ci.yml:12:3") so that Fingerprint ignores them:
// a finding must keep its identity when an edit above it shifts it.
var positionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(lines?|col(?:umn)?s?)(\s*[:=#]?\s*)\d+(?:\s*(?:-|–|,|:|to)\s*\d+)*|(\.[a-z0-9]+):\d+(?::\d+)?\b`)
})

// normalizeMessage replaces position numbers in a message with "N".
func normalizeMessage(msg string) string {
	return positionRE().ReplaceAllStringFunc(msg, func(m string) string {
		sub := positionRE().FindStringSubmatch(m)
		if sub[3] != "" { // file.ext:L[:C]
			if strings.Count(m[len(sub[3]):], ":") == 2 {
				return sub[3] + ":N:N"
			}
			return sub[3] + ":N"
		}
		return sub[1] + sub[2] + "N"
	})
}

// slashPath is the forward-slash, cleaned form of a finding's file, so that
// "./a.yml", "a.yml" and (on Windows) "a\\b.yml" name the same artifact.
func slashPath(p string) string {
	if p == "" {
		return ""
	}
	return path.Clean(filepath.ToSlash(p))
}

// Fingerprint identifies a finding independently of where it sits in the
// file: a hex SHA-256 prefix (32 characters) over the rule, the file, the job
// and the message with line/column numbers normalised away. Severity and fix
// are left out too, so reconfiguring a rule's severity keeps its findings'
// identity. Job ids are folded to lower case (the job, and in the message the
// ids f.IDs lists), as GitHub compares them and as cicheck once printed
// them, so re-casing a job's key or upgrading cicheck keeps the identity.
// It backs SARIF partialFingerprints and baselines.
func Fingerprint(f finding.Finding) string {
	return fingerprint(f.Rule, f.File, strings.ToLower(f.Job), foldIDs(f.Message, f.IDs))
}

// Fingerprints are Fingerprint(f) and then the fingerprints an older
// cicheck gave f, for baselines written by it: ids folded in the job only
// (messages it did not write, such as actionlint's), and nothing folded (a
// job it showed as written). Distinct, in that order.
func Fingerprints(f finding.Finding) []string {
	out := []string{Fingerprint(f)}
	for _, fp := range []string{
		fingerprint(f.Rule, f.File, strings.ToLower(f.Job), f.Message),
		fingerprint(f.Rule, f.File, f.Job, f.Message),
	} {
		if !slices.Contains(out, fp) {
			out = append(out, fp)
		}
	}
	return out
}

func fingerprint(rule, file, job, msg string) string {
	h := sha256.New()
	for _, s := range []string{rule, slashPath(file), job, normalizeMessage(msg)} {
		h.Write([]byte(s))
		h.Write([]byte{0}) // separator: ("ab","c") and ("a","bc") must differ
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// foldIDs lower-cases each id of ids (one per line) in msg, longest first
// so that "Build" does not fold part of "Build-Docs".
func foldIDs(msg, ids string) string {
	if ids == "" {
		return msg
	}
	list := strings.Split(ids, "\n")
	slices.SortFunc(list, func(a, b string) int { return len(b) - len(a) })
	for _, id := range list {
		if id != "" {
			msg = strings.ReplaceAll(msg, id, strings.ToLower(id))
		}
	}
	return msg
}
