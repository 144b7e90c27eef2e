package lint

import (
	"fmt"
	"os"
	"path/filepath"

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
	switch {
	case repo == "":
		return RepoRoot(wd)
	case filepath.IsAbs(repo):
		return repo
	}
	return filepath.Join(wd, repo)
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
	fsys := os.DirFS(dir)
	if exists {
		t.Options.FS = fsys
	}
	if registry {
		r, err := testregistry.Scan(fsys, reg)
		if err != nil {
			return nil, err
		}
		t.Registry, t.Options.HasTest = r, r.HasEnabledTest
		t.RegistryErrors = len(r.ErrorFindings())
	}
	return t, nil
}
