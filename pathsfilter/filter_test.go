package pathsfilter

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

type specCase struct {
	Name        string `json:"name"`
	Quantifier  string `json:"quantifier"`
	FiltersYAML string `json:"filters_yaml"`
	Files       []struct {
		Path   string `json:"path"`
		Status string `json:"status"`
	} `json:"files"`
	Expect      map[string]bool     `json:"expect"`
	ExpectFiles map[string][]string `json:"expect_files"`
	ExpectError string              `json:"expect_error"`
}

// TestSpecExamples runs spec §8's filter-level examples (plus ours).
func TestSpecExamples(t *testing.T) {
	b, err := os.ReadFile("testdata/filters/spec_examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []specCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			fs, err := ParseFilters([]byte(c.FiltersYAML), Origin{File: "f.yml"})
			if c.ExpectError != "" {
				if err == nil || !strings.Contains(err.Error(), c.ExpectError) {
					t.Fatalf("error = %v, want %q", err, c.ExpectError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var files []ChangedFile
			for _, f := range c.Files {
				files = append(files, ChangedFile{f.Path, f.Status})
			}
			for _, r := range fs.Evaluate(files, Quantifier(c.Quantifier)) {
				want, ok := c.Expect[r.Name]
				if !ok {
					continue
				}
				if got := r.Match == True; got != want || r.Match == Unknown {
					t.Errorf("%s = %v, want %v (%s)", r.Name, r.Match, want, r.Reason)
				}
				if wf, ok := c.ExpectFiles[r.Name]; ok && !reflect.DeepEqual(r.Files, wf) {
					t.Errorf("%s files = %v, want %v", r.Name, r.Files, wf)
				}
			}
		})
	}
}

func TestParseErrorsPositioned(t *testing.T) {
	cases := []struct{ src, want string }{
		{"f: 1\n", "f.yml:1:4: Invalid filter YAML format: Unexpected element type 'number'."},
		{"f:\n  - true\n", "f.yml:2:5: Invalid filter YAML format: Unexpected element type 'boolean'."},
		{"just a string\n", "f.yml:1:1: Invalid filter YAML format: Root element is not an object."},
		{"f:\n", "f.yml:1:3: TypeError: Cannot convert undefined or null to object (the step crashes)"},
		{"f:\n  - added: 3\n", "f.yml:2:12: Invalid filter YAML format: Expected [key:string]= pattern:string | string[], but [added:string]= 3:number found."},
		{"f: a\nf: b\n", `f.yml:2:1: invalid filter YAML: duplicated mapping key "f"`},
		{"# nothing\n", "f.yml:1:1: Invalid filter YAML format: Root element is not an object."},
	}
	for _, c := range cases {
		_, err := ParseFilters([]byte(c.src), Origin{File: "f.yml"})
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error = %v, want %s", c.src, err, c.want)
		}
	}
}

func TestBlockOriginPositions(t *testing.T) {
	// `filters: |` at line 10, content indented 12 spaces from line 11.
	o := Origin{File: "ci.yml", Line: 10, Block: true, Indent: 12}
	_, err := ParseFilters([]byte("rust:\n  - 1\n"), o)
	if err == nil || err.Error() != "ci.yml:12:17: Invalid filter YAML format: Unexpected element type 'number'." {
		t.Fatalf("got %v", err)
	}
}

func TestKeyOrderAndRootSequence(t *testing.T) {
	fs, err := ParseFilters([]byte("b: x\n10: y\na: z\n2: w\n"), Origin{File: "f"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range fs.List {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, ","); got != "2,10,b,a" {
		t.Errorf("order = %s", got)
	}
	fs, err = ParseFilters([]byte("- 'a/**'\n- 'b/**'\n"), Origin{File: "f"})
	if err != nil || len(fs.List) != 2 || fs.List[1].Name != "1" {
		t.Fatalf("root sequence: %v %v", fs, err)
	}
}

func TestOutputs(t *testing.T) {
	fs, _ := ParseFilters([]byte("src: 'src/**'\ndocs: 'docs/**'\n"), Origin{File: "f"})
	res := fs.Evaluate([]ChangedFile{{"src/a b.go", "modified"}, {"src/c.go", "added"}}, QuantSome)
	out := Outputs(res, ListJSON)
	want := map[string]Output{
		"src": {"true", true}, "src_count": {"2", true}, "src_files": {`["src/a b.go","src/c.go"]`, true},
		"docs": {"false", true}, "docs_count": {"0", true}, "docs_files": {"[]", true},
		"changes": {`["src"]`, true},
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("outputs = %v", out)
	}
	if got := formatFiles([]string{"a b", "c"}, ListShell); got != "'a b' c" {
		t.Errorf("shell = %q", got)
	}
	if got := formatFiles([]string{"a b", "c"}, ListEscape); got != `a\ b c` {
		t.Errorf("escape = %q", got)
	}
	// A filter named changes suppresses the changes output.
	fs, _ = ParseFilters([]byte("changes: '**'\n"), Origin{File: "f"})
	out = Outputs(fs.Evaluate([]ChangedFile{{"a", "added"}}, QuantSome), ListNone)
	if out["changes"].Value != "true" || len(out) != 2 {
		t.Errorf("collision outputs = %v", out)
	}
}

func TestWitnessAndUnknownStatus(t *testing.T) {
	fs, _ := ParseFilters([]byte("f:\n  - 'docs/**'\n  - added: 'src/**'\n"), Origin{File: "f"})
	r := fs.List[0].Evaluate([]ChangedFile{{"README.md", ""}, {"src/a.go", ""}}, QuantSome)
	if r.Match != Unknown || r.CountKnown {
		t.Errorf("no statuses: %+v", r)
	}
	r = fs.List[0].Evaluate([]ChangedFile{{"src/a.go", ""}, {"docs/x.md", ""}}, QuantSome)
	if r.Match != True || r.Witness == nil || *r.Witness != (Witness{"docs/x.md", "docs/**"}) {
		t.Errorf("witness: %+v", r)
	}
}

func FuzzParseFilters(f *testing.F) {
	for _, s := range []string{
		"a: 'src/**'\n", "a: &x\n  - b/**\nc:\n  - *x\n  - added|modified: ['!x', 'y']\n",
		"- a\n- b\n", "f: 1\n", "<<: {a: b}\n", "f:\n  - {added: [1]}\n", "",
		"&a {<<: *a, x: y}\n", "&a {x: p, b: {<<: *a}}\n", "a: &l [x, *l]\n", "a0: &a0 [x, y]\na1: &a1 [*a0, *a0]\na2: [*a1, *a1]\n", "b: 1\n0: ']\\\\\\\\'\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fs, err := ParseFilters([]byte(src), Origin{File: "f.yml", Line: 3, Block: true, Indent: 4})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yml:") {
				t.Fatalf("unpositioned error %q", err)
			}
			return
		}
		files := []ChangedFile{{"src/a.go", "added"}, {"README.md", ""}, {"src/", "modified"}, {"a*b", "deleted"}}
		for _, q := range []Quantifier{QuantSome, QuantEvery, QuantSomeWithExcludes} {
			batch := fs.Evaluate(files, q)
			_ = Outputs(batch, ListCSV)
			// The indexed batch path must agree with a plain scan.
			for i, f := range fs.List {
				if !batch[i].CountKnown {
					continue // some membership is unknown: nothing to compare
				}
				for _, cf := range files {
					one, _ := f.scan(cf, q)
					inBatch := false
					for _, p := range batch[i].Files {
						inBatch = inBatch || p == cf.Path
					}
					if (one == True) != inBatch {
						t.Fatalf("filter %q %s file %q: scan %v, batch %v", f.Name, q, cf.Path, one, batch[i].Files)
					}
				}
			}
		}
	})
}
