package checks

// All is every cicheck rule, in the order they run. Adding a rule is one
// line here. (actionlint's rules are not listed: they run in the adapter.)
func All() []*Rule {
	return []*Rule{
		UnknownNeeds,
		NeedsCycle,
		GPUGate,
		ClosureBridge,
		AlwaysWithoutCancelled,
		GateReadsUnguardedOutput,
		DeadNeedsResult,
		IfEvalError,
		StatusFnArgs,
		ConcurrencyQueue,
		PermissionScopeValue,
		ParallelSteps,
		RunnerImageRetired,
		JobDisabled,
		MatrixTooLarge,
		JobNeverRuns,
		PathsFilterNegationWidens,
		PathsFilterEveryUnsatisfiable,
		PathsFilterQuantifierUnsupported,
		PathsFilterQuantifierIgnored,
		PathsFilterQuantifierUnverified,
		PathsFilterVersionUnknown,
		PathsFilterUnknownOutput,
		PathsFilterOutputUnknown,
		PathsFilterStatusTypo,
		PathsFilterUnused,
		PathsFilterChangesNameCollision,
		PathsFilterFileNeedsCheckout,
		PathsFilterDeadPattern,
		PathsFilterExtglobNegation,
		PathsFilterInvalid,
		PathsFilterUnsupportedGlob,
		TriggerPathsNegationOnly,
		TriggerPathsIgnoreNegation,
		TriggerPathsPicomatchSyntax,
		WorkflowSelfTrigger,
	}
}

// ByID returns the rule with the given id, or nil.
func ByID(id string) *Rule {
	for _, r := range All() {
		if r.ID == id {
			return r
		}
	}
	return nil
}
