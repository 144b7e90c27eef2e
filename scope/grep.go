package scope

import (
	"regexp"
	"strings"
	"unicode"
)

// GrepReading is how the reference handler (flashinfer PR #4880) reads a
// comment (spec A2, "reference divergence"): it greps the whole body
// case-insensitively with the precedence rerun failed > rerun > stop > run,
// then takes run arguments from the first line matching
// `@[Ff]lashinfer-bot<ws>run<ws>(.*)$` to the end of that line. Fences,
// quotes and inline code are not excluded, and a lower-case "run" is
// required for arguments.
type GrepReading struct {
	Name string   // run, rerun, rerun-failed, stop, or "" (command=unknown)
	Args []string // run arguments, whitespace-split
}

// ReadLikeGrep applies the reference handler's grep interpretation.
func ReadLikeGrep(body, bot string) GrepReading {
	if bot == "" {
		return GrepReading{}
	}
	l := strings.ToLower(body)
	m := "@" + strings.ToLower(bot) + " "
	switch {
	case strings.Contains(l, m+"rerun failed"):
		return GrepReading{Name: CmdRerunFailed}
	case strings.Contains(l, m+"rerun"):
		return GrepReading{Name: CmdRerun}
	case strings.Contains(l, m+"stop"):
		return GrepReading{Name: CmdStop}
	case !strings.Contains(l, m+"run"):
		return GrepReading{}
	}
	// [Ff] on the first letter only: the rest of the login is
	// case-sensitive in the reference's sed expression.
	first, rest := []rune(bot)[0], string([]rune(bot)[1:])
	class := regexp.QuoteMeta(string(first))
	if up, lo := unicode.ToUpper(first), unicode.ToLower(first); up != lo {
		class = "[" + regexp.QuoteMeta(string(up)+string(lo)) + "]"
	}
	re := regexp.MustCompile(`^.*@` + class + regexp.QuoteMeta(rest) + `[ \t\v\f]+run[ \t\v\f]+(.*)$`)
	for _, line := range strings.Split(strings.ReplaceAll(body, "\r", ""), "\n") {
		if sm := re.FindStringSubmatch(line); sm != nil {
			return GrepReading{Name: CmdRun, Args: SplitArgs(sm[1])}
		}
	}
	return GrepReading{Name: CmdRun}
}

// grepDivergence compares cicheck's reading with the reference's and
// describes the difference ("" when they agree).
func grepDivergence(cmd Command, g GrepReading) string {
	name, args := cmd.Name, cmd.Args
	switch name {
	case CmdRunAll:
		name, args = CmdRun, []string{"all"}
	case CmdAddLabel, CmdClearLabels, CmdRerunFailedCI, CmdRerunTest:
		return "" // the label gateway is not the bot's handler
	}
	if cmd.Outcome == Unrecognized {
		name, args = "", nil
	}
	if name == g.Name && strings.Join(args, " ") == strings.Join(g.Args, " ") {
		return ""
	}
	return "grep-divergence: the reference handler's whole-body grep reads this comment as " + describeGrep(g)
}

func describeGrep(g GrepReading) string {
	switch {
	case g.Name == "":
		return "no command (command=unknown)"
	case g.Name == CmdRun && len(g.Args) == 0:
		return `"run" with no arguments (the full suite)`
	case g.Name == CmdRun:
		return `"run ` + strings.Join(g.Args, " ") + `"`
	}
	return `"` + strings.ReplaceAll(g.Name, "-", " ") + `"`
}

// classifyGrep is Classify under --compat=grep: the command and arguments
// the reference handler would act on, with cicheck's scope validation.
func classifyGrep(g GrepReading, o ClassifyOptions) Command {
	switch g.Name {
	case "":
		return Command{Outcome: Unrecognized, Reason: "no command (the reference's grep finds none)"}
	case CmdRun:
		if len(g.Args) == 0 {
			return Command{Outcome: Accepted, Name: CmdRunAll, Targets: []string{}, Reason: "the reference handler runs the full suite when it parses no arguments"}
		}
		cmd := classifyRun(g.Args, o)
		cmd.Args = g.Args
		return cmd
	}
	// rerun-failed is spelled "rerun failed" on the command line.
	return classifyBotLine(append([]string{"@" + o.Config.Bot}, strings.Split(strings.ReplaceAll(g.Name, "-", " "), " ")...), o)
}
