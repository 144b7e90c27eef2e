package testregistry

// SuiteTables are the suite lists of a run_suite.py in sglang's layout
// (PER_COMMIT_SUITES, NIGHTLY_SUITES and OTHER_SUITES, keyed by HWBackend
// members), as read from the file's literals. Backends are named by their
// --hw value (cpu, cuda, amd, npu, xpu, musa, mlx).
type SuiteTables struct {
	// PerCommit, Nightly and Other map a backend to its suites in source
	// order. filter_tests warns of a suite outside PerCommit (or Nightly
	// with --nightly); validate_all_suites accepts any of the three.
	PerCommit map[string][]string
	Nightly   map[string][]string
	Other     map[string][]string
	// Checked holds the backends validate_all_suites checks
	// (_SUITE_CHECKED_BACKENDS); registrations on others may name any suite.
	Checked map[string]bool
	// HW lists the --hw values run_suite.py accepts (HW_MAPPING's keys).
	HW []string

	// pos is where each suite is first written in the file, by backend
	// and suite ("" when built by hand).
	pos map[[2]string][2]int
}

// Pos is where the tables' file lists suite for backend; 0, 0 when
// unknown.
func (t *SuiteTables) Pos(backend, suite string) (line, col int) {
	p := t.pos[[2]string{backend, suite}]
	return p[0], p[1]
}

// Valid reports whether suite is in any of backend's tables.
func (t *SuiteTables) Valid(backend, suite string) bool {
	for _, m := range []map[string][]string{t.PerCommit, t.Nightly, t.Other} {
		for _, s := range m[backend] {
			if s == suite {
				return true
			}
		}
	}
	return false
}
