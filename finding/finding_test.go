package finding

import (
	"encoding/json"
	"testing"
)

func TestSortOrdersAndDedups(t *testing.T) {
	in := []Finding{
		{File: "b.yml", Line: 1, Rule: "x"},
		{File: "a.yml", Line: 9, Column: 2, Rule: "y"},
		{File: "a.yml", Line: 9, Column: 1, Rule: "z"},
		{File: "a.yml", Line: 9, Column: 1, Rule: "a", Message: "m2"},
		{File: "a.yml", Line: 9, Column: 1, Rule: "a", Message: "m1"},
		{File: "b.yml", Line: 1, Rule: "x"},
	}
	got := Sort(in)
	want := []string{"a.yml:9:1:a:m1", "a.yml:9:1:a:m2", "a.yml:9:1:z:", "a.yml:9:2:y:", "b.yml:1:0:x:"}
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d: %+v", len(got), len(want), got)
	}
	for i, f := range got {
		s := f.File + ":" + itoa(f.Line) + ":" + itoa(f.Column) + ":" + f.Rule + ":" + f.Message
		if s != want[i] {
			t.Errorf("[%d] = %s, want %s", i, s, want[i])
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestSeverityJSON(t *testing.T) {
	b, err := json.Marshal(Finding{Rule: "r", Severity: Warning})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"rule":"r","severity":"warning","file":"","line":0,"column":0,"message":"","job":"","fix":""}`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
	var s Severity
	if err := s.UnmarshalText([]byte("bogus")); err == nil {
		t.Fatal("bogus severity accepted")
	}
}
