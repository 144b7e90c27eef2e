// Command gen writes the filter benchmark corpus as JSON for the Node side:
// the filters as dorny/paths-filter's loader would build them (name, then
// rules of status + patterns), and the changed files.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/cicheck/cicheck/bench/pathsfilter"
	"github.com/cicheck/cicheck/pathsfilter"
)

type rule struct {
	Status   []string `json:"status"`
	Patterns []string `json:"patterns"`
	List     bool     `json:"list"`
}

type filter struct {
	Name  string `json:"name"`
	Rules []rule `json:"rules"`
}

type file struct {
	Filename string `json:"filename"`
	Status   string `json:"status"`
}

func main() {
	n := flag.Int("n", 100000, "number of changed files")
	flag.Parse()
	src, files := pfbench.Corpus(*n)
	fs, err := pathsfilter.ParseFilters([]byte(src), pathsfilter.Origin{File: "corpus"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out := struct {
		Filters []filter `json:"filters"`
		Files   []file   `json:"files"`
	}{}
	for _, f := range fs.List {
		ff := filter{Name: f.Name}
		for _, r := range f.Rules {
			rr := rule{Status: r.Status, List: r.List}
			for _, p := range r.Patterns {
				rr.Patterns = append(rr.Patterns, p.Text)
			}
			ff.Rules = append(ff.Rules, rr)
		}
		out.Filters = append(out.Filters, ff)
	}
	for _, f := range files {
		out.Files = append(out.Files, file{f.Path, f.Status})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
