// Package scope validates scoped-run targets and PR-comment commands, and
// splits a scope into commit-status chunks and back, rejecting rather than
// degrading a malformed request (specs/scoped-runs.md).
//
// The parts, each a plain function over values:
//   - Validate: the target rules (charset, root, "..", ::selectors, the
//     distinct-target cap, the chunk limit, and optionally existence in an
//     fs.FS and a test-registry predicate), reporting every failing rule.
//   - Classify: a PR comment to accepted/advisory/rejected/unrecognized for
//     the scoped-run bot (first unfenced command line) and the label-command
//     gateway (the whole comment), with ReadLikeGrep for the reference
//     handler's reading and Sanitize for the bot's own replies.
//   - ParsePolicy: the label-command access-policy file, with the
//     reference's rules and messages.
//   - Chunk, PlanStatuses, Reassemble, Fingerprint, SnapshotMarker: the
//     scope as numbered commit statuses and back.
//
// A rejected scope or command never carries targets, so a caller cannot use
// one by mistake; repository conventions live in named profiles (Config).
package scope
