package ghschema

import (
	"slices"
	"testing"
)

func TestEvents(t *testing.T) {
	for _, e := range []string{"pull_request", "pull_request_target", "push", "schedule", "workflow_dispatch", "workflow_call", "merge_group", "repository_dispatch"} {
		if !slices.Contains(Events(), e) {
			t.Errorf("Events() lacks %s", e)
		}
	}
	if slices.Contains(Events(), "pull_reqest") || !slices.IsSorted(Events()) {
		t.Errorf("Events() = %v: want sorted event names only", Events())
	}
	if got := ActivityTypes("pull_request"); !slices.Contains(got, "opened") || !slices.Contains(got, "synchronize") || !slices.IsSorted(got) {
		t.Errorf("ActivityTypes(pull_request) = %v", got)
	}
	if got := ActivityTypes("push"); len(got) != 0 {
		t.Errorf("ActivityTypes(push) = %v, want none", got)
	}
	if all := AllActivityTypes(); !slices.Contains(all, "opened") || !slices.Contains(all, "completed") || !slices.IsSorted(all) || len(slices.Compact(slices.Clone(all))) != len(all) {
		t.Errorf("AllActivityTypes() = %v", all)
	}
}
