package ghschema

import (
	"maps"
	"slices"
	"sync"

	"github.com/rhysd/actionlint"
)

// Events are the names of the events that can trigger a workflow
// (github.event_name), sorted: every webhook event GitHub documents for
// on:, plus schedule, workflow_dispatch, workflow_call and
// repository_dispatch. The table is the embedded actionlint's, which is
// generated from GitHub's documentation.
var Events = sync.OnceValue(func() []string {
	return slices.Sorted(maps.Keys(actionlint.AllWebhookTypes))
})

// ActivityTypes are the activity types of event (github.event.action),
// sorted; none for an event that has none, or one cicheck does not know.
func ActivityTypes(event string) []string {
	return slices.Sorted(slices.Values(actionlint.AllWebhookTypes[event]))
}

// AllActivityTypes is every activity type of any event, sorted, once
// each.
var AllActivityTypes = sync.OnceValue(func() []string {
	var all []string
	for _, ts := range actionlint.AllWebhookTypes {
		all = append(all, ts...)
	}
	slices.Sort(all)
	return slices.Compact(all)
})
