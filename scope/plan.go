package scope

import (
	"fmt"
	"strings"
)

// Rejection is a scope the validator or the planner refuses: the run must
// not start (exit 1), for each of Reasons.
type Rejection struct{ Reasons []string }

func (r *Rejection) Error() string { return "rejected: " + strings.Join(r.Reasons, "; ") }

// PlanChunks plans the commit statuses of a scoped run: the targets (none: the
// full suite) validated by opts and cut into status-sized chunks under
// cfg's context, every chunk up to previous blanked, then the snapshot
// marker: set from snapshot ("BASE,MERGE,TREE", an automatic full-suite
// run only), else cleared. It returns the plan and the scope's fingerprint.
// A *Rejection is a refused scope; other errors are bad arguments.
func PlanChunks(targets []string, cfg Config, opts Options, previous int, snapshot string) ([]Status, string, error) {
	if previous < 0 {
		return nil, "", fmt.Errorf("--previous must not be negative")
	}
	if previous > MaxChunkIndex {
		// Blanking that many contexts used to run out of memory.
		return nil, "", fmt.Errorf("--previous %d is out of range (at most %d); scope join rejects such an index", previous, MaxChunkIndex)
	}
	// No targets is the full suite ("run all"): nothing to validate, and
	// every old chunk is blanked. Anything else must validate first, so a
	// rejected scope never yields a publishable plan.
	if len(targets) > 0 {
		res := Validate(targets, opts)
		if !res.Accepted() {
			rj := &Rejection{}
			for _, r := range res.Reasons {
				rj.Reasons = append(rj.Reasons, r.Message)
			}
			return nil, "", rj
		}
		targets = res.Targets
	}
	plan, err := PlanStatuses(targets, cfg.StatusContext, cfg.ChunkLimit, previous)
	if err != nil {
		return nil, "", &Rejection{Reasons: []string{err.Error()}}
	}
	// Explicit paths and "run all" clear the snapshot marker; only an
	// automatic full-suite run publishes one.
	marker := Status{Context: cfg.SnapshotContext}
	if snapshot != "" {
		shas := strings.Split(snapshot, ",")
		if len(targets) > 0 || len(shas) != 3 {
			return nil, "", fmt.Errorf("--snapshot takes BASE,MERGE,TREE and only an empty (full-suite) scope")
		}
		if marker.Description, err = SnapshotMarker(shas[0], shas[1], shas[2], ""); err != nil {
			return nil, "", err
		}
	}
	return append(plan, marker), Fingerprint(ScopeString(targets)), nil
}
