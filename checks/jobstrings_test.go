package checks

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rhysd/actionlint"
)

type visited struct {
	s      *actionlint.String
	bareIf bool
}

// reflectStrings is the oracle of jobStrings: every *actionlint.String
// reachable from the job by reflection, whatever actionlint's version
// adds, with bare if: marked by the field's name.
func reflectStrings(j *actionlint.Job) []visited {
	var out []visited
	var walk func(v reflect.Value, field string, depth int)
	walk = func(v reflect.Value, field string, depth int) {
		if depth > 30 || !v.IsValid() {
			return
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if s, ok := v.Interface().(*actionlint.String); ok {
				out = append(out, visited{s, field == "If"})
				return
			}
			walk(v.Elem(), field, depth+1)
		case reflect.Struct:
			t := v.Type()
			for i := 0; i < v.NumField(); i++ {
				if t.Field(i).IsExported() {
					walk(v.Field(i), t.Field(i).Name, depth+1)
				}
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), field, depth+1)
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(v.MapIndex(k), field, depth+1)
			}
		}
	}
	walk(reflect.ValueOf(*j), "", 0)
	return out
}

// TestJobStringsCoverAST: jobStrings visits exactly the strings a
// reflective walk finds, on every job of the test workflows, the fixtures
// and (when present) the shared corpus of real workflows, so an
// actionlint upgrade that adds a string field fails here rather than
// hiding expressions from the rules.
func TestJobStringsCoverAST(t *testing.T) {
	var files []string
	for _, g := range []string{"testdata/*.yml", "testdata/*/*.yml", "../fixtures/*/.github/workflows/*.yml", "../../shared/corpus/*/*.yml", "../../shared/corpus/*.yml"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	jobs := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := actionlint.Parse(src)
		if w == nil {
			continue
		}
		for _, j := range w.Jobs {
			if j == nil {
				continue
			}
			jobs++
			cp := *j
			cp.If = nil
			want := map[visited]bool{}
			for _, v := range reflectStrings(&cp) {
				want[v] = true
			}
			got := map[visited]bool{}
			jobStrings(&cp, func(s *actionlint.String, bareIf bool) { got[visited{s, bareIf}] = true })
			for v := range want {
				if !got[v] {
					t.Errorf("%s: job %s: jobStrings misses %q at %v (bare if %t)", f, cp.ID.Value, v.s.Value, v.s.Pos, v.bareIf)
				}
			}
			for v := range got {
				if !want[v] {
					t.Errorf("%s: job %s: jobStrings visits %q at %v that the tree does not hold", f, cp.ID.Value, v.s.Value, v.s.Pos)
				}
			}
		}
	}
	if jobs < 50 {
		t.Fatalf("only %d jobs compared", jobs)
	}
	t.Logf("%d jobs in %d files", jobs, len(files))
}
