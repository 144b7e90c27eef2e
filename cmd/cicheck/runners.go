package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/cicheck/cicheck/config"
	"github.com/cicheck/cicheck/lint"
	"github.com/cicheck/cicheck/workflowgraph"
)

func init() {
	register(command{
		name:    "runners",
		summary: "list every runner the workflows use with its class (accelerator, self-hosted, GitHub-hosted, unknown) and why",
		run:     runRunners,
	})
}

const runnersUsage = `usage: cicheck runners [flags] [WORKFLOW...]

Lists every runner the workflows' jobs use (labels, group, or the runs-on
expression that stays symbolic) with its class, accelerator, self-hosted,
github-hosted or unknown, the reason, and the jobs that use it. A job is
an accelerator job by the rules README's "Which jobs are GPU jobs" gives.
With no WORKFLOW, the workflows of the repository's .github/workflows.

flags:`

// runnerRow is one runner and the jobs on it.
type runnerRow struct {
	Runner string `json:"runner"`
	workflowgraph.JobClass
	Jobs []string `json:"jobs"`
}

func runRunners(e *env, args []string) int {
	fl := pflag.NewFlagSet("cicheck runners", pflag.ContinueOnError)
	fl.SetOutput(e.stderr)
	format := fl.String("format", "text", "output format: text, json")
	cfgPath := fl.String("config", "", "configuration file (default: .cicheck.yaml at the repository root)")
	fl.Usage = func() {
		fmt.Fprintln(e.stderr, runnersUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return flagError(e, fl, err)
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(e.stderr, "cicheck: invalid --format %q (valid: text, json)\n", *format)
		return exitUsage
	}
	cfg, targets, ok := configAndTargets(e, *cfgPath, fl.Args())
	if !ok {
		return exitUsage
	}
	cl := cfg.Classifier()
	rows := map[string]*runnerRow{}
	code := exitOK
	callees := workflowgraph.NewCallees()
	for _, t := range targets {
		w, _, err := workflowgraph.LoadShared(callees, t.Root, os.DirFS(t.Root), t.Rel)
		if err != nil {
			fmt.Fprintf(e.stderr, "cicheck: %v\n", lint.Relabel(err, t.Rel, t.Display))
			code = exitUsage
			continue
		}
		if w == nil {
			continue
		}
		for _, j := range w.Jobs {
			c := cl.Classify(j)
			key := runnerKey(j.Runner) + "\x00" + c.Class + "\x00" + c.Reason
			r := rows[key]
			if r == nil {
				r = &runnerRow{Runner: runnerKey(j.Runner), JobClass: c}
				rows[key] = r
			}
			r.Jobs = append(r.Jobs, t.Display+":"+j.ID)
		}
	}
	out := make([]*runnerRow, 0, len(rows))
	for _, r := range rows {
		sort.Strings(r.Jobs)
		out = append(out, r)
	}
	rank := map[string]int{workflowgraph.ClassAccelerator: 0, workflowgraph.ClassSelfHosted: 1, workflowgraph.ClassUnknown: 2, workflowgraph.ClassGitHubHosted: 3}
	sort.Slice(out, func(a, b int) bool {
		if rank[out[a].Class] != rank[out[b].Class] {
			return rank[out[a].Class] < rank[out[b].Class]
		}
		if out[a].Runner != out[b].Runner {
			return out[a].Runner < out[b].Runner
		}
		return out[a].Reason < out[b].Reason
	})
	if *format == "json" {
		b, _ := json.MarshalIndent(struct {
			Version int          `json:"version"`
			Runners []*runnerRow `json:"runners"`
		}{1, out}, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
		return code
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, r := range out {
		class := r.Class
		if r.Kind != "" {
			class += " (" + r.Kind + ")"
		}
		if r.Weak {
			class += ", weak"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Runner, class, r.Reason, strings.Join(r.Jobs, " "))
	}
	_ = tw.Flush()
	return code
}

// runnerKey renders a runner as written: labels, group, symbolic parts.
func runnerKey(r workflowgraph.Runner) string {
	var parts []string
	if len(r.Labels) > 0 {
		parts = append(parts, strings.Join(r.Labels, ", "))
	}
	if r.Group != "" {
		parts = append(parts, "group: "+r.Group)
	}
	parts = append(parts, r.Symbolic...)
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, "; ")
}

// configAndTargets loads the configuration and finds the workflow files
// named by paths (the repository's .github/workflows when none), printing
// a one-line error and returning false on bad input.
func configAndTargets(e *env, cfgPath string, paths []string) (*config.Config, []lint.Target, bool) {
	cfg, _, err := loadConfig(e, cfgPath)
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return nil, nil, false
	}
	targets, err := lint.Discover(e.wd, paths, func(string, ...any) {})
	if err != nil {
		fmt.Fprintf(e.stderr, "cicheck: %v\n", err)
		return nil, nil, false
	}
	return cfg, targets, true
}
