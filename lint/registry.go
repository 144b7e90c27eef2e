package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/finding"
	"github.com/cicheck/cicheck/internal/gitdiff"
	"github.com/cicheck/cicheck/testregistry"
)

// Registry is a repository's test registry as the registry commands open
// it: the repository, its files and the configuration that applies.
type Registry struct {
	Root   string
	FS     fs.FS
	Config testregistry.Config
	Full   *config.Config // the whole configuration (rules: settings)
}

// OpenRegistry resolves the repository (root relative to wd; "": the git
// top level above wd) and its configuration (cfgPath; "" with a named root:
// that repository's own .cicheck.yaml, if it has one). A registry
// configuration error names its key's line and column.
func OpenRegistry(wd, root, cfgPath string) (*Registry, error) {
	dir := root
	if dir == "" {
		dir = RepoRoot(wd)
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(wd, dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", root)
	}
	cfg, cfgFile, err := LoadRepoConfig(wd, cfgPath, root)
	if err != nil {
		return nil, err
	}
	fsys := testregistry.DirFS(dir)
	reg, err := cfg.Registry.Resolve(fsys) // the profile the repository's layout calls for
	if err == nil {
		err = testregistry.ValidateConfig(reg)
	}
	if err != nil {
		if cfgFile == "" {
			cfgFile = "configuration"
		} else {
			cfgFile = ConfigKeyPos(wd, cfgFile, err.Error())
		}
		return nil, fmt.Errorf("%s: %w", cfgFile, err)
	}
	return &Registry{Root: dir, FS: fsys, Config: reg, Full: cfg}, nil
}

// Scan scans the registry.
func (r *Registry) Scan() (*testregistry.Registry, error) { return testregistry.Scan(r.FS, r.Config) }

// Check is 'registry check': every finding, with the configuration's rule
// settings applied, and the sources they point into. With staged, only
// the findings of the files git has staged (all of them when a
// registry-wide file is staged); run is false when nothing staged concerns
// the registry.
func (r *Registry) Check(staged bool) (found []finding.Finding, sources map[string][]byte, run bool, err error) {
	var keep func(string) bool // nil: every file
	if staged {
		files, err := gitdiff.Staged(r.Root)
		if err != nil {
			return nil, nil, false, fmt.Errorf("--staged: %w", err)
		}
		var relevant bool
		if keep, relevant = testregistry.StagedFilter(r.Config, files); !relevant {
			return nil, nil, false, nil
		}
	}
	reg, err := r.Scan()
	if err != nil {
		return nil, nil, false, err
	}
	sources = map[string][]byte{}
	for _, f := range ApplyRuleConfig(r.Full, reg.Findings) {
		if keep != nil && !keep(f.File) {
			continue
		}
		found = append(found, f)
		if _, seen := sources[f.File]; !seen {
			// With the scan's own checks: a file it would not read
			// (outside the repository, a FIFO) shows no excerpt.
			sources[f.File] = testregistry.ReadSource(r.FS, f.File)
		}
	}
	return found, sources, true, nil
}
