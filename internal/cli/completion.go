package cli

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// completionWords is what follows one command: its verbs and, per verb
// (or for the command itself, verb ""), its flags.
type completionWords struct {
	name, summary string
	verbs         []string
	flags         map[string][]string
}

var flagLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z0-9][a-z0-9-]*)`) })

// completionTable reads each command's flags from its own --help output,
// so completion cannot drift from the flags the commands define.
func (a *App) completionTable(e *Env) []completionWords {
	help := func(name string, args ...string) []string {
		var b bytes.Buffer
		h := &Env{Stdin: strings.NewReader(""), Stdout: &b, Stderr: &b, Getenv: e.Getenv, WD: e.WD}
		a.Run(h, append([]string{name}, append(args, "--help")...))
		var out []string
		for _, m := range flagLineRE().FindAllStringSubmatch(b.String(), -1) {
			if m[1] != "help" && !slices.Contains(out, "--"+m[1]) {
				out = append(out, "--"+m[1])
			}
		}
		return out
	}
	var table []completionWords
	for _, name := range a.names() {
		c := a.commands[name]
		w := completionWords{name: name, summary: c.Summary, flags: map[string][]string{}}
		for _, s := range c.Subs {
			w.verbs = append(w.verbs, s.Name)
			w.flags[s.Name] = help(name, s.Name)
		}
		w.verbs = append(w.verbs, c.Verbs...)
		if len(c.Subs) == 0 {
			w.flags[""] = help(name, c.Verbs...)
		}
		table = append(table, w)
	}
	return table
}

// Completion writes the completion script for shell (bash, zsh or fish).
func (a *App) Completion(e *Env, shell string) error {
	switch shell {
	case "bash":
		a.writeBash(e.Stdout, a.completionTable(e))
	case "zsh":
		// zsh runs bash completion functions through bashcompinit.
		fmt.Fprintf(e.Stdout, "# zsh completion for %[1]s: source <(%[1]s completion zsh)\n", a.Name)
		fmt.Fprintln(e.Stdout, "autoload -U +X bashcompinit && bashcompinit")
		a.writeBash(e.Stdout, a.completionTable(e))
	case "fish":
		a.writeFish(e.Stdout, a.completionTable(e))
	default:
		return Usagef("unknown shell %q (valid: bash, zsh, fish)", shell)
	}
	return nil
}

func (a *App) writeBash(w io.Writer, table []completionWords) {
	var names []string
	for _, c := range table {
		names = append(names, c.name)
	}
	fmt.Fprintf(w, "# bash completion for %[1]s: source <(%[1]s completion bash)\n", a.Name)
	fmt.Fprintf(w, "_%s() {\n", a.Name)
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
	fmt.Fprintf(w, "complete -F _%[1]s %[1]s\n", a.Name)
}

func (a *App) writeFish(w io.Writer, table []completionWords) {
	fmt.Fprintf(w, "# fish completion for %[1]s: %[1]s completion fish | source\n", a.Name)
	fmt.Fprintf(w, "complete -c %s -f\n", a.Name)
	for _, c := range table {
		fmt.Fprintf(w, "complete -c %s -n __fish_use_subcommand -a %s -d %q\n", a.Name, c.name, strings.TrimSpace(c.summary))
		for _, v := range c.verbs {
			fmt.Fprintf(w, "complete -c %s -n '__fish_seen_subcommand_from %s' -a %s\n", a.Name, c.name, v)
		}
		for _, v := range slices.Sorted(maps.Keys(c.flags)) {
			cond := "__fish_seen_subcommand_from " + c.name
			if v != "" {
				cond += "; and __fish_seen_subcommand_from " + v
			}
			for _, f := range c.flags[v] {
				fmt.Fprintf(w, "complete -c %s -n '%s' -l %s\n", a.Name, cond, strings.TrimPrefix(f, "--"))
			}
		}
	}
}
