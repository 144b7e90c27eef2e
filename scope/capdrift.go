package scope

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"

	"github.com/cicheck/cicheck/finding"
)

// RuleCapDrift is the rule id of CheckCap's finding.
const RuleCapDrift = "scope-cap-drift"

// CheckCap compares c.MaxTargets with the runner's own cap: the integer
// literal assigned to c.MaxTargetsSymbol at module level in
// c.MaxTargetsSource (spec A4 rule 5: the two must be equal, or a scope
// accepted here fails only after the lanes have started). A missing file
// or unset source is not a finding; a file without the literal is.
func CheckCap(fsys fs.FS, c Config) ([]finding.Finding, error) {
	if c.MaxTargetsSource == "" || c.MaxTargetsSymbol == "" {
		return nil, nil
	}
	data, err := fs.ReadFile(fsys, c.MaxTargetsSource)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.MaxTargetsSource, err)
	}
	re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(c.MaxTargetsSymbol) + `[ \t]*(?::[ \t]*[A-Za-z_][A-Za-z0-9_.]*[ \t]*)?=[ \t]*([0-9][0-9_]*)[ \t]*(?:#.*)?$`)
	loc := re.FindSubmatchIndex(data)
	f := finding.Finding{Rule: RuleCapDrift, Severity: finding.Warning, File: c.MaxTargetsSource}
	if loc == nil {
		f.Message = fmt.Sprintf("no module-level integer %s found; cannot check scope.max-targets (%d) against the runner's cap", c.MaxTargetsSymbol, c.MaxTargets)
		return []finding.Finding{f}, nil
	}
	f.Line, f.Column = lineCol(data, int64(loc[2]))
	n, err := strconv.Atoi(string(regexp.MustCompile(`_`).ReplaceAll(data[loc[2]:loc[3]], nil)))
	if err != nil || n != c.MaxTargets {
		f.Message = fmt.Sprintf("%s is %s but scope.max-targets is %d; the two caps must be equal", c.MaxTargetsSymbol, data[loc[2]:loc[3]], c.MaxTargets)
		return []finding.Finding{f}, nil
	}
	return nil, nil
}
