package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/internal/ghschema"
	"github.com/cicheck/cicheck/internal/textdist"
)

// unknownValue is the usage error for a flag value outside its known
// set: the nearest name when one is near, else the whole set.
func unknownValue(what, value, noun string, valid []string) error {
	if m := textdist.Closest(value, valid); m != "" {
		return cli.Usagef("%s %q: %s; did you mean %q?", what, value, noun, m)
	}
	return cli.Usagef("%s %q: %s (valid: %s)", what, value, noun, strings.Join(valid, ", "))
}

// didYouMean is "; did you mean "NAME"?" for the name nearest s, if one
// is near enough to be a typo, else "".
func didYouMean(s string, names []string) string {
	if m := textdist.Closest(s, names); m != "" {
		return fmt.Sprintf("; did you mean %q?", m)
	}
	return ""
}

// checkEvent checks --event: empty (unknown) or an event GitHub can
// trigger a workflow with. A typo would otherwise simulate an event no
// workflow listens to and say "not triggered".
func checkEvent(event string) error {
	if event == "" || slices.Contains(ghschema.Events(), event) {
		return nil
	}
	return unknownValue("invalid --event", event, "not a GitHub event", ghschema.Events())
}

// checkEventAction checks a github.event.action given with --set (the
// last one wins, as it does in the scenario) against the activity types
// of event; when the event is unknown, only a near miss of an activity
// type is refused (a repository_dispatch's action is its own type).
func checkEventAction(event string, sets []string) error {
	action, given := "", false
	for _, kv := range sets {
		if k, v, ok := strings.Cut(kv, "="); ok && k == "github.event.action" {
			action, given = v, true
		}
	}
	if !given {
		return nil
	}
	what := "invalid --set github.event.action=" + action
	if event == "repository_dispatch" {
		return nil // its action is the dispatch's own event_type
	}
	if event == "" {
		// The event is unknown, so the action may be a
		// repository_dispatch's own type: only a near miss is refused.
		if m := textdist.Closest(action, ghschema.AllActivityTypes()); m != "" {
			return cli.Usagef("%s: not an activity type of any event; did you mean %q?", what, m)
		}
		return nil
	}
	valid := ghschema.ActivityTypes(event)
	if len(valid) == 0 {
		return cli.Usagef("%s: %s has no activity types, so github.event.action is never set for it", what, event)
	}
	noun := "not an activity type of " + event
	if slices.Contains(valid, action) {
		return nil
	}
	if m := textdist.Closest(action, valid); m != "" {
		return cli.Usagef("%s: %s; did you mean %q?", what, noun, m)
	}
	return cli.Usagef("%s: %s (valid: %s)", what, noun, strings.Join(valid, ", "))
}

// checkEventFlags checks --event and the github.event.action of --set.
func checkEventFlags(event string, sets []string) error {
	if err := checkEvent(event); err != nil {
		return err
	}
	return checkEventAction(event, sets)
}
