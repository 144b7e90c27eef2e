package main

import (
	"fmt"

	"github.com/cicheck/cicheck/internal/repofs"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/lint"
)

func init() {
	register(&cli.Command{Name: "config", Summary: "show the effective configuration (config print)", Run: runConfig, Verbs: []string{"print"}})
}

func runConfig(e *env, args []string) error {
	fl := e.Flags("cicheck config", "usage: cicheck config print [--config FILE]")
	cfgPath := fl.String("config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	if err := cli.Parse(fl, args); err != nil {
		return err
	}
	if fl.NArg() != 1 || fl.Arg(0) != "print" {
		fl.Usage()
		return cli.Exit(cli.ExitUsage)
	}
	cfg, src, err := lint.LoadConfig(e.WD, *cfgPath)
	if err == nil {
		// The registry profile the repository's layout settles on is part
		// of the effective configuration.
		cfg.Registry, err = cfg.Registry.Resolve(repofs.DirFS(lint.RepoRoot(e.WD)))
	}
	if err != nil {
		return err
	}
	out, err := cfg.Marshal()
	if err != nil {
		return cli.Internal(fmt.Errorf("internal error: %w", err))
	}
	if src == "" {
		src = "built-in defaults (no " + config.FileName + ")"
	}
	fmt.Fprintf(e.Stdout, "# effective configuration from %s\n", src)
	_, err = e.Stdout.Write(out)
	return err
}
