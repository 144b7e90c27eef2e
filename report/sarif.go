package report

import (
	"bytes"
	"encoding/json"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/project"
)

// The sarif format is a SARIF 2.1.0 log with one run, shaped for GitHub code
// scanning:
//   - tool.driver.rules holds every rule of opts.Rules plus any rule id seen in
//     the findings but missing there (with a generic description), sorted by
//     id; each result's ruleIndex points into that list.
//   - every result has exactly one location: the file as a relative URI with
//     forward slashes against uriBaseId %SRCROOT% (absolute paths become
//     file:// URIs), and a region only for what is known (SARIF requires
//     startLine/startColumn >= 1, so zeros are omitted; a whole-file finding
//     has no region). Columns count Unicode code points (run.columnKind).
//   - partialFingerprints["cicheck/v1"] is Fingerprint(f) plus ":n", n counting
//     findings with the same fingerprint in output order (as CodeQL does for
//     primaryLocationLineHash), so two identical messages in one job stay two
//     alerts while a shift in line numbers changes nothing.
//   - job and fix go to result.properties.
//   - runs[0].invocations[0] says whether the run succeeded: a run that
//     failed (bad usage, bad configuration, a path that does not exist)
//     writes executionSuccessful false with each error as an error-level
//     toolExecutionNotification, so code scanning never reads a failed run
//     as a clean one and closes the alerts of the last good run.
//   - every rule carries shortDescription (its one-line doc),
//     fullDescription (the doc and the first paragraph of its page) and help
//     (the whole page as markdown and as plain text); the driver's version
//     is a semantic version (project.SemVer).

const (
	sarifSchema         = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion        = "2.1.0"
	sarifFingerprintKey = "cicheck/v1"
	defaultToolName     = "cicheck"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
	ColumnKind  string            `json:"columnKind"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	SemVer         string      `json:"semanticVersion,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"` // none until the project has a home
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string           `json:"id"`
	ShortDescription     sarifText        `json:"shortDescription"`
	FullDescription      sarifText        `json:"fullDescription"`
	Help                 sarifText        `json:"help"`
	HelpURI              string           `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleDefault `json:"defaultConfiguration"`
}

type sarifRuleDefault struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          *sarifProperties  `json:"properties,omitempty"`
}

type sarifProperties struct {
	Job string `json:"job,omitempty"`
	Fix string `json:"fix,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine,omitempty"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifLevel maps a severity to a SARIF level; SARIF calls a notice "note".
func sarifLevel(s finding.Severity) string {
	switch s {
	case finding.Error:
		return "error"
	case finding.Notice:
		return "note"
	}
	return "warning"
}

// sarifRules builds tool.driver.rules and the index of each rule id.
func sarifRules(infos []RuleInfo, fs []finding.Finding) ([]sarifRule, map[string]int) {
	byID := map[string]RuleInfo{}
	for _, ri := range infos {
		if _, dup := byID[ri.ID]; !dup { // first description wins
			byID[ri.ID] = ri
		}
	}
	for _, f := range fs {
		if _, ok := byID[f.Rule]; !ok {
			byID[f.Rule] = RuleInfo{ID: f.Rule}
		}
	}
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	rules := make([]sarifRule, 0, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		ri := byID[id]
		short := ri.Short
		if short == "" {
			short = "cicheck rule " + id
		}
		full := ri.Full
		if full == "" {
			full = short
		}
		help := sarifText{Text: plainText(ri.Help), Markdown: ri.Help}
		if ri.Help == "" {
			help = sarifText{Text: plainText(full), Markdown: full}
		}
		level := "warning"
		if ri.Severity != 0 {
			level = sarifLevel(ri.Severity)
		}
		rules = append(rules, sarifRule{
			ID:                   id,
			ShortDescription:     sarifText{Text: plainText(short)},
			FullDescription:      sarifText{Text: plainText(full), Markdown: full},
			Help:                 help,
			HelpURI:              ri.HelpURI,
			DefaultConfiguration: sarifRuleDefault{Level: level},
		})
		index[id] = i
	}
	return rules, index
}

// artifactLocation turns a finding's file into a SARIF artifact location.
func artifactLocation(file string) sarifArtifact {
	p := slashPath(file)
	if p == "" {
		// GitHub rejects a result without an artifact location; the
		// repository root is the honest answer for a finding about no file.
		return sarifArtifact{URI: "./", URIBaseID: "%SRCROOT%"}
	}
	if strings.HasPrefix(p, "/") {
		return sarifArtifact{URI: (&url.URL{Scheme: "file", Path: p}).String()}
	}
	// url.URL escapes spaces, '%', '#', '?' and prefixes "./" when the first
	// segment holds a colon, so the result is a valid relative reference.
	p = strings.TrimPrefix(path.Clean(p), "./")
	return sarifArtifact{URI: (&url.URL{Path: p}).String(), URIBaseID: "%SRCROOT%"}
}

func writeSARIF(buf *bytes.Buffer, fs []finding.Finding, opts Options) error {
	rules, index := sarifRules(opts.Rules, fs)
	name := opts.ToolName
	if name == "" {
		name = defaultToolName
	}
	results := make([]sarifResult, 0, len(fs))
	seen := map[string]int{}
	for _, f := range fs {
		fp := Fingerprint(f)
		seen[fp]++
		loc := sarifPhysical{ArtifactLocation: artifactLocation(f.File)}
		if f.Line > 0 {
			loc.Region = &sarifRegion{StartLine: f.Line}
			if f.Column > 0 {
				loc.Region.StartColumn = f.Column
			}
		}
		var props *sarifProperties
		if f.Job != "" || f.Fix != "" {
			props = &sarifProperties{Job: f.Job, Fix: f.Fix}
		}
		msg := f.Message
		if msg == "" {
			msg = f.Rule // SARIF requires message.text to be non-empty in practice
		}
		results = append(results, sarifResult{
			RuleID:              f.Rule,
			RuleIndex:           index[f.Rule],
			Level:               sarifLevel(f.Severity),
			Message:             sarifText{Text: msg},
			Locations:           []sarifLocation{{PhysicalLocation: loc}},
			PartialFingerprints: map[string]string{sarifFingerprintKey: fp + ":" + strconv.Itoa(seen[fp])},
			Properties:          props,
		})
	}
	inv := sarifInvocation{ExecutionSuccessful: len(opts.Failures) == 0}
	for _, msg := range opts.Failures {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifText{Text: msg}})
	}
	log := sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool: sarifTool{Driver: sarifDriver{
				Name:           name,
				Version:        opts.ToolVersion,
				SemVer:         opts.ToolVersion,
				InformationURI: project.Home,
				Rules:          rules,
			}},
			Invocations: []sarifInvocation{inv},
			Results:     results,
			ColumnKind:  "unicodeCodePoints",
		}},
	}
	enc := json.NewEncoder(buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}
