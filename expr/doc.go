// Package expr evaluates GitHub Actions expressions three-valued: every
// result is a concrete value, an evaluation error, or unknown.
//
// It works on actionlint's expression AST (actionlint.ExprNode) and follows
// the runner's semantics (see specs/gha-job-status.md §2): loose equality
// with number coercion, case-insensitive string comparison, && and ||
// returning an operand, null for missing properties. A fact the caller did
// not supply (an open context such as vars, an output of a job that runs) is
// unknown and stays unknown: Kleene logic decides && / || / ! where it can,
// and nothing is ever guessed.
//
// An unknown value may carry the values it can stand for (Value.Alts): a
// comparison or test function over unknown operands is one of true and
// false, an undecided guard of && or || is one of its sides, and property
// access maps over one of several objects. workflowgraph evaluates a job's
// runs-on once per matrix leg this way and collects the labels.
//
// Job-level status functions (success, failure, cancelled) take their values
// from the Env, which the simulator fills from a scenario of job results.
package expr
