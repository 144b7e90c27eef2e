package testregistry

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cicheck/cicheck/finding"
)

var (
	suiteArgRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`--suite(?:=|[ \t]+)["']?([A-Za-z0-9_.-]+)`) })
	quotedLabelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`['"]([A-Za-z0-9_.-]+)['"]`) })
)

// checkWorkflows reads the workflow files as text (spec §13): a configured
// suite that no workflow passes as --suite is never run (reg-suite-no-consumer,
// external suites allow-listed), and a quoted run-ci-<x> whose <x> is not a
// known label selects nothing (policy-unknown-request).
func (r *Registry) checkWorkflows(fsys fs.FS, spos suitePos) []finding.Finding {
	cfg := r.cfg
	if cfg.Workflows == "" {
		return nil
	}
	entries, err := fs.ReadDir(fsys, cfg.Workflows)
	if err != nil {
		return nil
	}
	consumed := map[string]bool{}
	read := 0
	var out []finding.Finding
	prefix := cfg.Policy.LabelPrefix
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".yml") && !strings.HasSuffix(name, ".yaml") {
			continue
		}
		file := path.Join(cfg.Workflows, name)
		b, err := fs.ReadFile(fsys, file)
		if err != nil {
			continue
		}
		src := string(b)
		read++
		for _, m := range suiteArgRe().FindAllStringSubmatch(src, -1) {
			consumed[m[1]] = true
		}
		if !r.KnownOK || prefix == "" {
			continue
		}
		for _, m := range quotedLabelRe().FindAllStringSubmatchIndex(src, -1) {
			label := src[m[2]:m[3]]
			x, ok := strings.CutPrefix(label, prefix)
			if !ok || x == "all" || x == "image" || slices.Contains(r.Known, x) ||
				strings.HasSuffix(x, ".yml") || strings.HasSuffix(x, ".yaml") {
				continue
			}
			line, col := lineCol(src, m[2])
			out = append(out, newFinding(RuleUnknownRequest, file, line, col,
				fmt.Sprintf("%s is not %s<label> for a known label, so it selects nothing (known: %s, plus %sall and %simage)",
					pyRepr(label), prefix, strings.Join(r.Known, ", "), prefix, prefix)))
		}
	}
	if r.Suites == nil || read == 0 {
		return out // no workflow read: no evidence either way
	}
	for _, backend := range sortedKeys(r.Suites) {
		for _, s := range r.Suites[backend] {
			if consumed[s] || matchesAny(cfg.ExternalSuites, s) {
				continue
			}
			line, col := 1, 1
			if p, ok := spos[s]; ok {
				line, col = p[0], p[1]
			}
			out = append(out, newFinding(RuleSuiteNoConsumer, cfg.Suites.File, line, col,
				fmt.Sprintf("suite %s (%s) is passed as --suite by no workflow in %s, so its tests never run; add it to registry.external-suites if it runs elsewhere",
					pyRepr(s), strings.ToUpper(backend), cfg.Workflows)))
		}
	}
	return out
}

func matchesAny(globs []string, s string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, s); ok {
			return true
		}
	}
	return false
}
