package lint

import (
	"fmt"
	"os"

	"github.com/cicheck/cicheck/internal/repofs"

	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/scope"
	"github.com/cicheck/cicheck/testregistry"
)

// ScopeTree is what scope's tree checks need from the repository: its
// files and, when asked for, its test registry.
type ScopeTree struct {
	Options  scope.Options
	Registry *testregistry.Registry // with registry: the scanned registry
	// RegistryErrors counts the registrations with an error: each counts
	// as no registration, which a caller should say.
	RegistryErrors int
}

// RepoDir is the repository a scoped run's targets are relative to: repo
// (relative to wd), else the git top level above wd.
func RepoDir(wd, repo string) string {
	if repo == "" {
		return RepoRoot(wd)
	}
	return abs(wd, repo)
}

// OpenScopeTree prepares the checks of cfg against the repository at dir:
// with exists, every target must exist there; with registry, every target
// must hold a registered, enabled test of reg's registry.
func OpenScopeTree(dir string, cfg scope.Config, reg testregistry.Config, exists, registry bool) (*ScopeTree, error) {
	t := &ScopeTree{Options: scope.OptionsFrom(cfg)}
	if !exists && !registry {
		return t, nil
	}
	// Every target of a repository that is not there would "not exist",
	// blaming the targets for a wrong --repo.
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	fsys := repofs.DirFS(dir)
	if exists {
		t.Options.FS = fsys
	}
	if registry {
		r, err := testregistry.Scan(testregistry.DirFS(dir), reg) // settles the profile the layout calls for; confined to the repository
		if err != nil {
			return nil, err
		}
		t.Registry, t.Options.HasTest = r, r.HasEnabledTest
		t.RegistryErrors = len(r.ErrorFindings())
	}
	return t, nil
}

// ResolveTestFile is /rerun-test's check of its file against the registry
// (exactly one enabled CPU/CUDA registration), as the reference's resolve
// job does; nil without a registry.
func (t *ScopeTree) ResolveTestFile() func(path string) error {
	if t.Registry == nil {
		return nil
	}
	return func(path string) error {
		_, err := t.Registry.ResolveFile(path, "dev")
		return err
	}
}

// ReadPolicy reads the access-policy file file, relative to dir.
func ReadPolicy(dir, file string) ([]byte, error) {
	data, err := repofs.ReadPath(abs(dir, file), repofs.ConfigLimit, "access policy")
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read JSON from %s: %w", file, file, Unwrap(err))
	}
	return data, nil
}

// LoadPolicy reads and validates the access-policy file file, relative to
// dir.
func LoadPolicy(dir, file string) (*scope.Policy, error) {
	data, err := ReadPolicy(dir, file)
	if err != nil {
		return nil, err
	}
	return scope.ParsePolicy(data, file)
}

// CheckScope validates targets or, when body is not nil, the scope the PR
// body declares in cfg's block (a missing, doubled or empty block is a
// rejected declaration), and reports the drift of the repository's own
// chunk cap from cfg's at dir: drift turns an accepted scope into a late
// failure, so every check says it.
func (t *ScopeTree) CheckScope(dir string, cfg scope.Config, targets []string, body *string) (scope.Result, []finding.Finding, error) {
	var res scope.Result
	if body != nil {
		var err error
		if targets, err = scope.BodyTargets(*body, cfg.BodyBlock, cfg.Root); err != nil {
			res.Reasons = []scope.Reason{{ID: scope.ReasonMalformed, Message: err.Error()}}
		}
	}
	if res.Reasons == nil {
		res = scope.Validate(targets, t.Options)
	}
	drift, err := scope.CheckCap(repofs.DirFS(dir), cfg)
	return res, drift, err
}
