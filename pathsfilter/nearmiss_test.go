package pathsfilter

import "testing"

// Near misses of some-with-excludes (dorny/paths-filter's
// predicate-quantifier): a file counts when it matches an include pattern
// and no `!` pattern. A status-keyed list without `!` is an ordinary
// include; with a `!` the release's classification of it is unknown, so
// the result is Unknown, never a guess.
func TestSomeWithExcludesNearMiss(t *testing.T) {
	for _, tt := range []struct {
		name, filters string
		file, status  string
		want          Tri
	}{
		{"included", "app: ['src/**', '!src/gen/**']", "src/main.go", "modified", True},
		{"excluded", "app: ['src/**', '!src/gen/**']", "src/gen/x.go", "modified", False},
		{"outside", "app: ['src/**', '!src/gen/**']", "docs/x.md", "modified", False},
		{"status-keyed include", "app:\n  - added: 'src/**'", "src/new.go", "added", True},
		{"status-keyed, other status", "app:\n  - added: 'src/**'", "src/old.go", "modified", False},
		{"status-keyed with !", "app:\n  - added: '!src/gen/**'", "src/new.go", "added", Unknown},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := ParseFilters([]byte(tt.filters), Origin{File: "f.yml"})
			if err != nil {
				t.Fatal(err)
			}
			rs := fs.Evaluate([]ChangedFile{{tt.file, tt.status}}, QuantSomeWithExcludes)
			if len(rs) != 1 || rs[0].Match != tt.want {
				t.Fatalf("%+v, want %v", rs, tt.want)
			}
		})
	}
}

// IsNegated is picomatch's whole-pattern negation: an odd number of
// leading `!`, not counting one that opens an extglob `!(`.
func TestIsNegatedNearMiss(t *testing.T) {
	for p, want := range map[string]bool{
		"!": true, "!!": false, "!!!x": true, "!x/**": true, "x/!y": false,
		"!(gen)/**": false, "!!(gen)/**": true, "./!x": true, "": false,
	} {
		if got := IsNegated(p); got != want {
			t.Errorf("IsNegated(%q) = %v, want %v", p, got, want)
		}
	}
}

// A result that cannot be decided says why: a status-keyed rule needs the
// files' statuses, which a plain file list does not give.
func TestUnknownSaysWhy(t *testing.T) {
	fs, err := ParseFilters([]byte("app:\n  - added: 'src/**'"), Origin{File: "f.yml"})
	if err != nil {
		t.Fatal(err)
	}
	rs := fs.Evaluate([]ChangedFile{{"src/new.go", ""}, {"src/other.go", ""}}, QuantSome)
	if len(rs) != 1 || rs[0].Match != Unknown || rs[0].Reason != "status-keyed rules need file statuses (--name-status)" {
		t.Fatalf("%+v", rs)
	}
}
