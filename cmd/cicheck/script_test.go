package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cicheck": func() { os.Exit(run()) },
	})
}

// TestScripts runs every testdata/*.txtar: CLI behaviour as commands and
// their exact expected output.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata"})
}
