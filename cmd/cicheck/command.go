package main

import (
	"fmt"
	"strings"

	"github.com/cicheck/cicheck/internal/cli"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/scope"
)

func init() {
	register(&cli.Command{Name: "command", Summary: "classify a PR comment as a CI command, or check the access policy (parse|policy)", Usage: commandUsage,
		Subs: []*cli.Command{{Name: "parse", Run: runCommandParse}, {Name: "sanitize", Run: runCommandSanitize}, {Name: "policy", Run: runCommandPolicy}}})
}

const commandUsage = "usage: cicheck command parse [flags] < comment.md\n       cicheck command sanitize [--bot NAME] [--check] < reply.md\n       cicheck command policy [--profile NAME] [FILE]"

func runCommandParse(e *env, args []string) error {
	f := newScopeFlags(e, "command parse")
	f.targetFlags()
	f.treeFlags()
	f.flagged.String("bot", func(c *scope.Config) *string { return &c.Bot }, "bot login addressed as @NAME (the /bot trigger always works)")
	f.flagged.String("policy", func(c *scope.Config) *string { return &c.PolicyFile }, "label-command access policy (JSON)")
	f.flagged.String("prose-mentions", func(c *scope.Config) *string { return &c.ProseMentions }, "a command marker in prose: ignore or fail (default: each vocabulary's own rule)")
	compat := f.fs.String("compat", "", "read bot commands as the reference handler does: grep")
	author := f.fs.String("author", "", "comment author's login (the bot's own comments are ignored)")
	permission := f.fs.String("permission", "", "comment author's repository permission (admin, maintain, write, triage, read)")
	userID := f.fs.Int64("user-id", 0, "comment author's numeric user id")
	rest, err := f.parse(e, args)
	if err != nil {
		return err
	}
	if *compat != "" && *compat != "grep" {
		return cli.Usagef("unknown --compat %q (valid: grep)", *compat)
	}
	switch strings.ToLower(*permission) {
	case "", "admin", "maintain", "write", "triage", "read", "none":
	default:
		// A typo would otherwise read as "not authorized".
		return cli.Usagef("unknown --permission %q (valid: admin, maintain, write, triage, read, none)", *permission)
	}
	if len(rest) > 0 {
		return cli.Usagef("command parse reads the comment on stdin and takes no arguments")
	}
	body, err := e.ReadStdin("comment")
	if err != nil {
		return err
	}
	tree, err := f.tree(e)
	if err != nil {
		return err
	}
	o := scope.ClassifyOptions{
		Config:     f.cfg,
		Author:     *author,
		Permission: strings.ToLower(*permission),
		UserID:     *userID,
		Compat:     *compat,
		Validate:   tree.Options,
		// /rerun-test resolves its file against the registry.
		ResolveTestFile: tree.ResolveTestFile(),
	}
	if f.cfg.PolicyFile != "" {
		// Loaded only for a recognised gateway command, as the reference
		// does: an unrelated comment never reads the policy.
		// --policy is relative to the working directory; the configured or
		// profile path is repository-relative, like every path in
		// .cicheck.yaml, so it is found from any subdirectory.
		base := e.WD
		if !f.fs.Changed("policy") {
			base = lint.RepoDir(e.WD, f.repo)
		}
		o.Policy = func() (*scope.Policy, error) { return lint.LoadPolicy(base, f.cfg.PolicyFile) }
	}
	cmd, err := scope.Classify(string(body), o)
	if err != nil {
		return err
	}
	return cli.Wrote(scope.WriteCommand(e.Stdout, f.format, cmd), cmd.Outcome == scope.Rejected)
}

func runCommandPolicy(e *env, args []string) error {
	fs := e.Flags("cicheck command policy", usage("command policy"))
	profile := fs.String("profile", "", "repository profile naming the default policy file: "+strings.Join(scope.Profiles(), ", "))
	cfgPath := fs.String("config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	full, _, err := lint.LoadConfig(e.WD, *cfgPath)
	if err != nil {
		return err
	}
	cfg := full.Scope
	if fs.Changed("profile") {
		cfg.Profile = *profile
	}
	cfg, err = cfg.Resolve()
	if err != nil {
		return err
	}
	file, base := cfg.PolicyFile, lint.RepoRoot(e.WD) // configured: repository-relative
	switch fs.NArg() {
	case 0:
	case 1:
		file, base = fs.Arg(0), e.WD
	default:
		return cli.Raw(cli.ExitUsage, commandUsage)
	}
	if file == "" {
		return cli.Usagef("no policy file given (pass FILE, or --profile miles)")
	}
	data, err := lint.ReadPolicy(base, file)
	if err != nil {
		return err
	}
	p, err := scope.ParsePolicy(data, file)
	if err != nil {
		// An invalid policy is a finding about that file, not bad usage.
		return cli.Failf("%v", err)
	}
	say(e.Stdout, "%s: valid access policy, %d exposed labels\n", file, len(p.Commands[scope.PolicyAddLabel].AllowedLabels))
	return nil
}

// runCommandSanitize prepares text the bot will post: command triggers
// outside code are neutralised so the reply can never re-trigger the bot. --check
// only reports (exit 1) a reply that would (self-trigger).
func runCommandSanitize(e *env, args []string) error {
	f := newScopeFlags(e, "command sanitize")
	f.flagged.String("bot", func(c *scope.Config) *string { return &c.Bot }, "bot login whose mentions are removed")
	check := f.fs.Bool("check", false, "do not rewrite; exit 1 if the text would address the bot")
	rest, err := f.parse(e, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return cli.Usagef("command sanitize reads the text on stdin and takes no arguments")
	}
	if f.cfg.Bot == "" {
		return cli.Usagef("command sanitize needs --bot NAME (or --profile flashinfer)")
	}
	body, err := e.ReadStdin("text")
	if err != nil {
		return err
	}
	text := string(body)
	if !*check {
		fmt.Fprint(e.Stdout, scope.Sanitize(text, f.cfg.Bot))
		return nil
	}
	n := scope.SelfTriggers(text, f.cfg.Bot)
	if n == 0 {
		return nil
	}
	fmt.Fprintf(e.Stdout, "self-trigger: %d command trigger(s) outside code (mentions of @%s, /bot, a label command); run 'cicheck command sanitize' on the reply\n", n, f.cfg.Bot)
	return cli.Exit(cli.ExitFindings)
}
