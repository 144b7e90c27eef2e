package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// testApp has a default command that echoes its arguments, a command with
// verbs and one that fails in each way a command can.
func testApp() *App {
	a := &App{Name: "prog", Default: "echo", Footer: "footer\n"}
	a.Register(&Command{Name: "echo", Summary: "print args", Run: func(e *Env, args []string) error {
		fl := e.Flags("prog echo", "usage: prog echo [--loud] ARGS")
		loud := fl.Bool("loud", false, "shout")
		if err := Parse(fl, args); err != nil {
			return err
		}
		out := strings.Join(fl.Args(), " ")
		if *loud {
			out = strings.ToUpper(out)
		}
		_, err := e.Stdout.Write([]byte(out + "\n"))
		return err
	}})
	a.Register(&Command{Name: "warn", Summary: "warn on stderr", Run: func(e *Env, args []string) error {
		fmt.Fprintln(e.Stderr, "warning")
		fmt.Fprintln(e.Stdout, strings.Join(args, " "))
		return nil
	}})
	a.Register(&Command{Name: "fail", Summary: "fail", Run: func(e *Env, args []string) error {
		switch args[0] {
		case "usage":
			return Usagef("bad %s", "usage")
		case "plain":
			return errors.New("plain error")
		case "findings":
			return Failf("rejected")
		case "silent":
			return Exit(ExitFindings)
		case "internal":
			return Internal(errors.New("writer broke"))
		case "raw":
			return Raw(ExitFindings, "::error::raw")
		case "panic":
			panic("boom")
		}
		return nil
	}})
	a.Register(&Command{Name: "reg", Summary: "verbs", Usage: "usage: prog reg check|select",
		Subs: []*Command{{Name: "check", Run: func(e *Env, args []string) error {
			fl := e.Flags("prog reg check", "usage: prog reg check [--strict]")
			fl.Bool("strict", false, "fail on warnings")
			if err := Parse(fl, args); err != nil {
				return err
			}
			_, err := e.Stdout.Write([]byte("checked\n"))
			return err
		}}, {Name: "select"}}})
	return a
}

func TestRun(t *testing.T) {
	for _, c := range []struct {
		args             []string
		code             int
		stdout, stderr   string // substrings; "" for empty
		exactErr, exactO bool
	}{
		{args: nil, code: 0, stdout: "usage: prog [command]"},
		{args: []string{"--help"}, code: 0, stdout: "footer"},
		{args: []string{"help"}, code: 0, stdout: "  echo           print args"},
		{args: []string{"echo", "a", "b"}, code: 0, stdout: "a b\n", exactO: true},
		// Flags without a command are the default command's.
		{args: []string{"--loud", "x"}, code: 0, stdout: "X\n", exactO: true},
		{args: []string{"ech"}, code: 2, stderr: `prog: unknown command "ech"; did you mean "echo"? (run 'prog help' for the list)` + "\n", exactErr: true},
		{args: []string{"zzzzzz"}, code: 2, stderr: `prog: unknown command "zzzzzz" (run 'prog help' for the list)` + "\n", exactErr: true},
		{args: []string{"echo", "--lound"}, code: 2, stderr: "prog: unknown flag: --lound; did you mean --loud?\n", exactErr: true},
		{args: []string{"echo", "--zzzzzzzz"}, code: 2, stderr: "prog: unknown flag: --zzzzzzzz\n", exactErr: true},
		// Help someone asked for is output: stdout, exit 0.
		{args: []string{"echo", "-h"}, code: 0, stdout: "usage: prog echo [--loud] ARGS", stderr: ""},
		{args: []string{"help", "echo"}, code: 0, stdout: "--loud"},
		// Near miss: -h after -- is an argument.
		{args: []string{"echo", "--", "-h"}, code: 0, stdout: "-h\n", exactO: true},
		// A diagnostic stays on stderr unless help was asked for.
		{args: []string{"warn", "--", "-h"}, code: 0, stdout: "-- -h\n", stderr: "warning\n", exactO: true, exactErr: true},
		{args: []string{"warn", "x"}, code: 0, stdout: "x\n", stderr: "warning\n", exactO: true, exactErr: true},
		{args: []string{"warn", "-h"}, code: 0, stdout: "warning\n-h\n", exactO: true, exactErr: true},
		{args: []string{"fail", "usage"}, code: 2, stderr: "prog: bad usage\n", exactErr: true},
		{args: []string{"fail", "plain"}, code: 2, stderr: "prog: plain error\n", exactErr: true},
		{args: []string{"fail", "findings"}, code: 1, stderr: "prog: rejected\n", exactErr: true},
		{args: []string{"fail", "silent"}, code: 1, stderr: "", exactErr: true},
		{args: []string{"fail", "internal"}, code: 3, stderr: "prog: writer broke\n", exactErr: true},
		{args: []string{"fail", "raw"}, code: 1, stderr: "::error::raw\n", exactErr: true},
		{args: []string{"fail", "panic"}, code: 3, stderr: "prog: internal error: boom (please report this)\n", exactErr: true},
		{args: []string{"reg"}, code: 2, stderr: "usage: prog reg check|select\n", exactErr: true},
		{args: []string{"reg", "help"}, code: 0, stdout: "usage: prog reg check|select\n", exactO: true},
		{args: []string{"reg", "check"}, code: 0, stdout: "checked\n", exactO: true},
		{args: []string{"reg", "chek"}, code: 2, stderr: `prog: unknown reg subcommand "chek"; did you mean "check"? (valid: check, select)` + "\n", exactErr: true},
	} {
		var out, errb bytes.Buffer
		code := testApp().Run(&Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}, c.args)
		if code != c.code {
			t.Errorf("%q: exit %d, want %d (stderr %q)", c.args, code, c.code, errb.String())
		}
		check := func(what, got, want string, exact bool) {
			if exact && got != want || !exact && want != "" && !strings.Contains(got, want) || !exact && want == "" && what == "stderr" && got != "" {
				t.Errorf("%q: %s %q, want %q", c.args, what, got, want)
			}
		}
		check("stdout", out.String(), c.stdout, c.exactO)
		check("stderr", errb.String(), c.stderr, c.exactErr)
	}
}

func TestDuplicateCommandPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a second command of the same name was accepted")
		}
	}()
	a := testApp()
	a.Register(&Command{Name: "echo"})
}

func TestSplitNargs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"--labels a b --x", "--labels=a --labels=b --x"},
		{"--labels --x", "--labels= --x"},
		{"--labels", "--labels="},
		{"a --labels b", "a --labels=b"},
		// Near miss: only the exact flag takes several values.
		{"--labels-x a b", "--labels-x a b"},
		{"--labels=a b", "--labels=a b"},
	} {
		if got := strings.Join(SplitNargs(strings.Fields(c.in), "--labels"), " "); got != c.want {
			t.Errorf("SplitNargs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestOneOf(t *testing.T) {
	if err := OneOf("format", "json", "text", "json"); err != nil {
		t.Errorf("valid value refused: %v", err)
	}
	err := OneOf("format", "yaml", "text", "json")
	if err == nil || err.Error() != `invalid --format "yaml" (valid: text, json)` {
		t.Errorf("got %v", err)
	}
}

func TestCompletion(t *testing.T) {
	var out bytes.Buffer
	e := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
	if err := testApp().Completion(e, "bash"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`compgen -W "echo fail reg warn"`, `words="--loud"`, `words="check select"`, "complete -F _prog prog"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("bash completion lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := testApp().Completion(e, "fish"); err != nil || !strings.Contains(out.String(), "complete -c prog -n '__fish_seen_subcommand_from echo' -l loud") {
		t.Errorf("fish: %v\n%s", err, out.String())
	}
	if err := testApp().Completion(e, "tcsh"); err == nil {
		t.Error("tcsh accepted")
	}
}

func TestOverlay(t *testing.T) {
	type conf struct {
		Name string
		Max  int
	}
	fl := pflag.NewFlagSet("t", pflag.ContinueOnError)
	o := NewOverlay(fl, conf{Name: "default", Max: 5})
	o.String("name", func(c *conf) *string { return &c.Name }, "")
	o.Int("max", func(c *conf) *int { return &c.Max }, "")
	if err := fl.Parse([]string{"--max", "5", "--name", "flag"}); err != nil {
		t.Fatal(err)
	}
	// The file says name=file, max=9; the user set --max (to its default
	// value, which still overrides) and --name.
	got := conf{Name: "file", Max: 9}
	o.Apply(&got)
	if want := (conf{Name: "flag", Max: 5}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// Near miss: a flag not given leaves the loaded value.
	fl2 := pflag.NewFlagSet("t", pflag.ContinueOnError)
	o2 := NewOverlay(fl2, conf{Name: "default", Max: 5})
	o2.String("name", func(c *conf) *string { return &c.Name }, "")
	o2.Int("max", func(c *conf) *int { return &c.Max }, "")
	if err := fl2.Parse(nil); err != nil {
		t.Fatal(err)
	}
	got = conf{Name: "file", Max: 9}
	o2.Apply(&got)
	if want := (conf{Name: "file", Max: 9}); got != want {
		t.Errorf("nothing set: got %+v, want %+v", got, want)
	}
}

type codedErr struct{}

func (codedErr) Error() string { return "coded" }
func (codedErr) ExitCode() int { return ExitInternal }

// TestExitCodeMethod: an error that knows its exit code keeps it; a plain
// one (the near miss) is bad input.
func TestExitCodeMethod(t *testing.T) {
	var b bytes.Buffer
	a := &App{Name: "p"}
	if code := a.Report(&Env{Stderr: &b}, fmt.Errorf("wrapped: %w", codedErr{})); code != ExitInternal || b.String() != "p: wrapped: coded\n" {
		t.Errorf("coded: %d %q", code, b.String())
	}
	if code := a.Report(&Env{Stderr: &b}, errors.New("plain")); code != ExitUsage {
		t.Errorf("plain: %d", code)
	}
}

// TestBashCompletionRuns sources the generated script in bash and asks it
// to complete: commands, verbs, a verb's flags, a command's flags, files
// otherwise. (zsh runs the same functions through bashcompinit.)
func TestBashCompletionRuns(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, shell := range []string{"bash", "zsh"} {
		var out bytes.Buffer
		e := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
		if err := testApp().Completion(e, shell); err != nil {
			t.Fatal(err)
		}
		script := out.String()
		if shell == "zsh" {
			if !strings.HasPrefix(script, "# zsh completion for prog") || !strings.Contains(script, "bashcompinit") {
				t.Errorf("zsh script head:\n%s", script[:min(len(script), 200)])
			}
			continue
		}
		for _, c := range []struct{ words, want string }{
			{"prog e", "echo"},
			{"prog ", "echo fail reg warn"},
			{"prog reg ", "check select"},
			{"prog reg s", "select"},
			{"prog reg check --s", "--strict"},
			{"prog echo --l", "--loud"},
			{"prog echo x", ""}, // no flag, no file named x*: nothing
		} {
			words := strings.Fields(c.words)
			cword := len(words) - 1
			if strings.HasSuffix(c.words, " ") {
				words = append(words, "")
				cword++
			}
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = "'" + w + "'"
			}
			sh := script + "\ncd \"$(mktemp -d)\"; COMP_WORDS=(" + strings.Join(quoted, " ") + "); COMP_CWORD=" + fmt.Sprint(cword) + "; _prog; echo \"${COMPREPLY[*]}\""
			got, err := exec.Command(bash, "-c", sh).CombinedOutput()
			if err != nil || strings.TrimSpace(string(got)) != c.want {
				t.Errorf("%q: got %q (%v), want %q", c.words, strings.TrimSpace(string(got)), err, c.want)
			}
		}
		if !strings.Contains(script, "complete -F _prog prog\n") {
			t.Error("the function is not registered for prog")
		}
	}
}

// TestFishCompletion: the fish script, reviewed line by line.
func TestFishCompletion(t *testing.T) {
	var out bytes.Buffer
	e := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
	if err := testApp().Completion(e, "fish"); err != nil {
		t.Fatal(err)
	}
	want := `# fish completion for prog: prog completion fish | source
complete -c prog -f
complete -c prog -n __fish_use_subcommand -a echo -d "print args"
complete -c prog -n '__fish_seen_subcommand_from echo' -l loud
complete -c prog -n __fish_use_subcommand -a fail -d "fail"
complete -c prog -n __fish_use_subcommand -a reg -d "verbs"
complete -c prog -n '__fish_seen_subcommand_from reg' -a check
complete -c prog -n '__fish_seen_subcommand_from reg' -a select
complete -c prog -n '__fish_seen_subcommand_from reg; and __fish_seen_subcommand_from check' -l strict
complete -c prog -n __fish_use_subcommand -a warn -d "warn on stderr"
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
