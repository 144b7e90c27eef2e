package testregistry

import "path"

// StagedFilter decides what a pre-commit run reports: relevant is false
// when no staged file can change the registry; keep is nil when a
// registry-wide file (labels, suites, access policy, configuration) is staged
// and every finding counts.
func StagedFilter(cfg Config, files []string) (keep func(string) bool, relevant bool) {
	wide := map[string]bool{cfg.Labels.File: true, cfg.Suites.File: true, cfg.AccessPolicy: true, ".cicheck.yaml": true}
	set := map[string]bool{}
	for _, f := range files {
		if wide[f] {
			return nil, true
		}
		if ok, _ := path.Match(cfg.FileGlob, path.Base(f)); ok {
			set[f] = true
			relevant = true
		}
	}
	return func(f string) bool { return set[f] }, relevant
}
