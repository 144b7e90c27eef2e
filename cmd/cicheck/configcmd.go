package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/internal/textdist"
	"github.com/cicheck/cicheck/lint"
)

func init() {
	register(command{
		name:    "config",
		summary: "show the effective configuration (config print)",
		run:     runConfig,
		verbs:   []string{"print"},
	})
}

func runConfig(e *env, args []string) int {
	fl := pflag.NewFlagSet("cicheck config", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	cfgPath := fl.String("config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: cicheck config print [--config FILE]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, fl, err)
	}
	if fl.NArg() != 1 || fl.Arg(0) != "print" {
		fl.Usage()
		return exitUsage
	}
	cfg, src, err := loadConfig(e, *cfgPath)
	if err == nil {
		// The registry profile the repository's layout settles on is part
		// of the effective configuration.
		cfg.Registry, err = cfg.Registry.Resolve(os.DirFS(lint.RepoRoot(e.wd)))
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return exitUsage
	}
	out, err := cfg.Marshal()
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: internal error: %v\n", err)
		return exitInternal
	}
	if src == "" {
		src = "built-in defaults (no " + config.FileName + ")"
	}
	fmt.Fprintf(e.stdout, "# effective configuration from %s\n", src)
	e.stdout.Write(out)
	return exitOK
}

// loadConfig reads --config (relative to the working directory) or
// .cicheck.yaml at the repository root; with neither, the defaults. The
// second result names the file used ("" for the defaults).
func loadConfig(e *env, flagPath string) (*config.Config, string, error) {
	if flagPath != "" {
		p := flagPath
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.wd, p)
		}
		cfg, err := config.Load(os.DirFS(filepath.Dir(p)), filepath.Base(p))
		if err == nil {
			err = cfg.CheckRuleIDs(lint.KnownRuleIDs())
		}
		if err != nil {
			return nil, "", lint.Relabel(err, filepath.Base(p), flagPath)
		}
		return cfg, flagPath, nil
	}
	root := lint.RepoRoot(e.wd)
	p := filepath.Join(root, config.FileName)
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return config.Default(), "", nil
		}
		return nil, "", fmt.Errorf("%s: %w", lint.Display(e.wd, p), err)
	}
	cfg, err := config.Load(os.DirFS(root), config.FileName)
	if err == nil {
		err = cfg.CheckRuleIDs(lint.KnownRuleIDs())
	}
	if err != nil {
		return nil, "", lint.Relabel(err, config.FileName, lint.Display(e.wd, p))
	}
	return cfg, lint.Display(e.wd, p), nil
}

// flagError reports a flag parse error in one line (pflag does not print
// it when ErrorHandling is ContinueOnError), with the flag the user most
// likely meant; -h/--help is not an error.
func flagError(e *env, fl *pflag.FlagSet, err error) int {
	if errors.Is(err, pflag.ErrHelp) {
		return exitOK
	}
	fmt.Fprintf(e.stderr, "cicheck: %v%s\n", err, flagHint(fl, err))
	return exitUsage
}

// flagHint is "; did you mean --NAME?" for an unknown long flag near a
// flag of fl.
func flagHint(fl *pflag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || fl == nil {
		return ""
	}
	var names []string
	fl.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if m := textdist.Closest(name, names); m != "" {
		return "; did you mean --" + m + "?"
	}
	return ""
}

// configKeyPos appends the line and column of the deepest key of msg's
// leading dotted path ("registry.roots: ...") found in the configuration
// file, so that a registry configuration error reads file:line:col like
// every other error. It returns file alone when the key cannot be found.
func configKeyPos(e *env, file, msg string) string {
	p := file
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.wd, p)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return file
	}
	keyPath, _, _ := strings.Cut(msg, ":")
	if line, col := config.KeyPos(data, keyPath); line > 0 {
		return fmt.Sprintf("%s:%d:%d", file, line, col)
	}
	return file
}
