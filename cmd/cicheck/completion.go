package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
)

func init() {
	register(command{name: "completion", summary: "print a shell completion script (bash, zsh or fish)", run: runCompletion,
		verbs: []string{"bash", "zsh", "fish"}})
}

const completionUsage = `usage: cicheck completion bash|zsh|fish

Prints a completion script for commands, verbs and flags:
  bash: source <(cicheck completion bash)
  zsh:  source <(cicheck completion zsh)
  fish: cicheck completion fish | source`

// completionWords is what follows one command: its verbs and, per verb
// (or for the command itself, verb ""), its flags.
type completionWords struct {
	name  string
	verbs []string
	flags map[string][]string
}

var flagLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z0-9][a-z0-9-]*)`) })

// completionTable reads each command's flags from its own --help output,
// so completion cannot drift from the flags the commands define.
func completionTable(e *env) []completionWords {
	help := func(name string, args ...string) []string {
		var b bytes.Buffer
		h := &env{stdin: strings.NewReader(""), stdout: &b, stderr: &b, getenv: e.getenv, wd: e.wd}
		dispatch(h, append([]string{name}, append(args, "--help")...))
		var out []string
		for _, m := range flagLineRE().FindAllStringSubmatch(b.String(), -1) {
			if m[1] != "help" && !slices.Contains(out, "--"+m[1]) {
				out = append(out, "--"+m[1])
			}
		}
		return out
	}
	var table []completionWords
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range commands {
			if !yield(n) {
				return
			}
		}
	}) {
		c := commands[name]
		w := completionWords{name: name, flags: map[string][]string{}}
		for _, s := range c.subs {
			w.verbs = append(w.verbs, s.name)
			w.flags[s.name] = help(name, s.name)
		}
		w.verbs = append(w.verbs, c.verbs...)
		if len(c.subs) == 0 {
			w.flags[""] = help(name, c.verbs...)
		}
		table = append(table, w)
	}
	return table
}

func runCompletion(e *env, args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintln(e.stdout, completionUsage)
		return exitOK
	}
	if len(args) != 1 {
		fmt.Fprintln(e.stderr, completionUsage)
		return exitUsage
	}
	table := completionTable(e)
	switch args[0] {
	case "bash":
		writeBash(e.stdout, table)
	case "zsh":
		// zsh runs bash completion functions through bashcompinit.
		fmt.Fprintln(e.stdout, "# zsh completion for cicheck: source <(cicheck completion zsh)")
		fmt.Fprintln(e.stdout, "autoload -U +X bashcompinit && bashcompinit")
		writeBash(e.stdout, table)
	case "fish":
		writeFish(e.stdout, table)
	default:
		fmt.Fprintf(e.stderr, "cicheck: unknown shell %q (valid: bash, zsh, fish)\n", args[0])
		return exitUsage
	}
	return exitOK
}

func writeBash(w io.Writer, table []completionWords) {
	var names []string
	for _, c := range table {
		names = append(names, c.name)
	}
	fmt.Fprintln(w, "# bash completion for cicheck: source <(cicheck completion bash)")
	fmt.Fprintln(w, "_cicheck() {")
	fmt.Fprintln(w, `  local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} verb=${COMP_WORDS[2]} words=""`)
	fmt.Fprintf(w, "  if [ \"$COMP_CWORD\" -eq 1 ]; then COMPREPLY=($(compgen -W %q -- \"$cur\")); return; fi\n", strings.Join(names, " "))
	fmt.Fprintln(w, `  case "$cmd" in`)
	for _, c := range table {
		fmt.Fprintf(w, "  %s)\n", c.name)
		if len(c.verbs) > 0 {
			fmt.Fprintf(w, "    if [ \"$COMP_CWORD\" -eq 2 ]; then words=%q; else case \"$verb\" in\n", strings.Join(c.verbs, " "))
			for _, v := range c.verbs {
				if fl := c.flags[v]; len(fl) > 0 {
					fmt.Fprintf(w, "      %s) words=%q;;\n", v, strings.Join(fl, " "))
				}
			}
			if fl := c.flags[""]; len(fl) > 0 {
				fmt.Fprintf(w, "      *) words=%q;;\n", strings.Join(fl, " "))
			}
			fmt.Fprintln(w, "    esac; fi;;")
			continue
		}
		fmt.Fprintf(w, "    words=%q;;\n", strings.Join(c.flags[""], " "))
	}
	fmt.Fprintln(w, "  esac")
	fmt.Fprintln(w, `  if [[ $cur == -* || $COMP_CWORD -eq 2 && -n $words && $words != -* ]]; then COMPREPLY=($(compgen -W "$words" -- "$cur")); fi`)
	fmt.Fprintln(w, `  [ ${#COMPREPLY[@]} -eq 0 ] && COMPREPLY=($(compgen -f -- "$cur"))`)
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, "complete -F _cicheck cicheck")
}

func writeFish(w io.Writer, table []completionWords) {
	fmt.Fprintln(w, "# fish completion for cicheck: cicheck completion fish | source")
	fmt.Fprintln(w, "complete -c cicheck -f")
	for _, c := range table {
		fmt.Fprintf(w, "complete -c cicheck -n __fish_use_subcommand -a %s -d %q\n", c.name, strings.TrimSpace(commands[c.name].summary))
		for _, v := range c.verbs {
			fmt.Fprintf(w, "complete -c cicheck -n '__fish_seen_subcommand_from %s' -a %s\n", c.name, v)
		}
		for v, flags := range sortedFlags(c.flags) {
			cond := "__fish_seen_subcommand_from " + c.name
			if v != "" {
				cond += "; and __fish_seen_subcommand_from " + v
			}
			for _, f := range flags {
				fmt.Fprintf(w, "complete -c cicheck -n '%s' -l %s\n", cond, strings.TrimPrefix(f, "--"))
			}
		}
	}
}

// sortedFlags iterates flags by verb in order, for deterministic output.
func sortedFlags(m map[string][]string) func(yield func(string, []string) bool) {
	return func(yield func(string, []string) bool) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}
