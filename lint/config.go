package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cicheck/cicheck/internal/repofs"

	"github.com/cicheck/cicheck/baseline"
	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/internal/safewrite"
	"github.com/cicheck/cicheck/pathsfilter"
)

// LoadConfig reads flagPath (relative to wd) or, when it is "",
// .cicheck.yaml at the repository root above wd; with neither, the
// defaults. The second result names the file used ("" for the defaults).
// Rule ids in rules: are checked against every rule cicheck knows.
func LoadConfig(wd, flagPath string) (*config.Config, string, error) {
	if flagPath != "" {
		p := flagPath
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		// A file the user names may lie anywhere, but is read as one.
		b, err := repofs.ReadPath(p, repofs.ConfigLimit, "configuration file")
		var cfg *config.Config
		if err == nil {
			cfg, err = config.Parse(filepath.Base(p), b)
		} else {
			err = fmt.Errorf("%s: %w", filepath.Base(p), Unwrap(err))
		}
		if err == nil {
			err = cfg.CheckRuleIDs(KnownRuleIDs())
		}
		if err != nil {
			return nil, "", Relabel(err, filepath.Base(p), flagPath)
		}
		return cfg, flagPath, nil
	}
	root := RepoRoot(wd)
	p := filepath.Join(root, config.FileName)
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return config.Default(), "", nil
		}
		return nil, "", fmt.Errorf("%s: %w", Display(wd, p), err)
	}
	cfg, err := config.Load(repofs.DirFS(root), config.FileName)
	if err == nil {
		err = cfg.CheckRuleIDs(KnownRuleIDs())
	}
	if err != nil {
		return nil, "", Relabel(err, config.FileName, Display(wd, p))
	}
	return cfg, Display(wd, p), nil
}

// LoadRepoConfig is LoadConfig for a command pointed at another
// repository (--repo, --root): without --config, that repository's own
// .cicheck.yaml applies when it has one.
func LoadRepoConfig(wd, flagPath, repo string) (*config.Config, string, error) {
	if flagPath == "" && repo != "" {
		if _, err := os.Stat(filepath.Join(RepoDir(wd, repo), config.FileName)); err == nil {
			flagPath = filepath.Join(repo, config.FileName) // as the user named it
		}
	}
	return LoadConfig(wd, flagPath)
}

// LoadConfigFilterVersion is LoadConfig with --paths-filter-version (when
// not empty) as the dorny/paths-filter release every step is simulated as.
func LoadConfigFilterVersion(wd, flagPath, version string) (*config.Config, error) {
	if version != "" {
		if _, full, ok := pathsfilter.ParseVersion(version); !ok || !full {
			return nil, fmt.Errorf("invalid --paths-filter-version %q (want vMAJOR.MINOR.PATCH)", version)
		}
	}
	cfg, _, err := LoadConfig(wd, flagPath)
	if err == nil && version != "" {
		cfg.PathsFilter.Version = version
	}
	return cfg, err
}

// ConfigKeyPos appends the line and column of the deepest key of msg's
// leading dotted path ("registry.roots: ...") in the configuration file
// (relative to wd), so that an error found after loading reads
// file:line:col like every other error. It returns file alone when the key
// cannot be found.
func ConfigKeyPos(wd, file, msg string) string {
	data, err := repofs.ReadPath(abs(wd, file), repofs.ConfigLimit, "configuration file")
	if err != nil {
		return file
	}
	keyPath, _, _ := strings.Cut(msg, ":")
	if line, col := config.KeyPos(data, keyPath); line > 0 {
		return fmt.Sprintf("%s:%d:%d", file, line, col)
	}
	return file
}

// ReadFile reads name relative to wd, a regular file of at most limit
// bytes; an error names the file once, as the user wrote it.
func ReadFile(wd, name string, limit int64, kind string) ([]byte, error) {
	data, err := repofs.ReadPath(abs(wd, name), limit, kind)
	var tl *repofs.TooLargeError
	if errors.As(err, &tl) {
		tl.Name = name
		return nil, tl
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, Unwrap(err))
	}
	return data, nil
}

// ReadBaseline reads and parses the baseline file name (relative to wd).
func ReadBaseline(wd, name string) (*baseline.Baseline, error) {
	data, err := ReadFile(wd, name, repofs.BaselineLimit, "baseline")
	if err != nil {
		return nil, err
	}
	return baseline.Parse(name, data)
}

// abs is name relative to wd, unless it is absolute.
func abs(wd, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(wd, name)
}

// WriteFile writes data to name relative to wd atomically, keeping an
// existing file's permissions; an error names the file once, as the user
// wrote it.
func WriteFile(wd, name string, data []byte) error {
	if err := safewrite.Write(abs(wd, name), data); err != nil {
		return fmt.Errorf("%s: %w", name, Unwrap(err))
	}
	return nil
}
