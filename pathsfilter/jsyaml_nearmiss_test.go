package pathsfilter

import "testing"

// TestFilterNamesNumbersAndDates: more keys as js-yaml 3.14.0 and 4.1.0
// load them (node, TZ=UTC: Object.keys(load(text))), each beside its near
// miss: hex digits in both cases against a non-digit, a sign before a
// base prefix, an explicit !!int zero, float overflow, v3's sexagesimal
// float, timestamps west and east of UTC.
func TestFilterNamesNumbersAndDates(t *testing.T) {
	for _, c := range []struct {
		key    string
		v3, v4 string
	}{
		{"0xaF", "175", "175"},
		{"0xfg", "0xfg", "0xfg"},
		{"0x", "0x", "0x"},
		{"{!!int 0", "0", "0"},
		{"{!!int -0", "0", "0"},
		{"1e400", "Infinity", "Infinity"},
		{"-1e400", "-Infinity", "-Infinity"},
		{"1:30.5", "90.5", "1:30.5"},
		{"0o7", "0o7", "7"},
		// a sign before a base prefix, an octal or sexagesimal number
		{"-0x1F", "-31", "-31"},
		{"+0x1F", "31", "31"},
		{"-0b11", "-3", "-3"},
		{"-017", "-15", "-17"},
		{"-0o17", "-0o17", "-15"},
		{"-1:30", "-90", "-1:30"},
		{"+12", "12", "12"},
		{"2001-12-14t21:59:43.10-05:00", "Sat Dec 15 2001 02:59:43 GMT+0000 (Coordinated Universal Time)", "Sat Dec 15 2001 02:59:43 GMT+0000 (Coordinated Universal Time)"},
		{"2001-12-14t21:59:43.10+05:30", "Fri Dec 14 2001 16:29:43 GMT+0000 (Coordinated Universal Time)", "Fri Dec 14 2001 16:29:43 GMT+0000 (Coordinated Universal Time)"},
	} {
		text := c.key + ": 'src/**'\n"
		if c.key[0] == '{' {
			text = c.key + ": 'src/**'}\n"
		}
		for _, v := range []struct {
			major int
			want  string
		}{{3, c.v3}, {4, c.v4}} {
			fs, err := ParseFilters([]byte(text), Origin{File: "f.yml", JSYAML: v.major})
			if err != nil {
				t.Errorf("js-yaml %d, %q: %v", v.major, text, err)
				continue
			}
			if got := fs.List[0].Name; got != v.want {
				t.Errorf("js-yaml %d, %q: name %q, want %q", v.major, text, got, v.want)
			}
		}
	}
}
