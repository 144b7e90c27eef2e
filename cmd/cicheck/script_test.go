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
// their exact expected output. UPDATE_SCRIPTS=1 rewrites the expected
// files a `cmp` compares with; review the diff before committing it.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata", UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != ""})
}
