// Command gen writes the glob benchmark corpus as JSON for the Node side.
package main

import (
	"encoding/json"
	"flag"
	"os"

	globbench "github.com/cicheck/cicheck/bench/glob"
)

func main() {
	n := flag.Int("n", 100000, "number of paths")
	flag.Parse()
	patterns, paths := globbench.Corpus(*n)
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(map[string]any{"patterns": patterns, "paths": paths}); err != nil {
		os.Exit(1)
	}
}
