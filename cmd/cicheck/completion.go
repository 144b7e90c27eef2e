package main

import "github.com/cicheck/cicheck/internal/cli"

func init() {
	register(&cli.Command{Name: "completion", Summary: "print a shell completion script (bash, zsh or fish)", Verbs: []string{"bash", "zsh", "fish"},
		Run: func(e *env, args []string) error {
			switch {
			case len(args) == 1 && (args[0] == "-h" || args[0] == "--help"):
				_, err := e.Stdout.Write([]byte(usage("completion") + "\n"))
				return err
			case len(args) != 1:
				return cli.Raw(cli.ExitUsage, usage("completion"))
			}
			return app.Completion(e, args[0])
		}})
}
