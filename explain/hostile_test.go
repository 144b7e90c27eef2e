package explain

import (
	"bytes"
	"strings"
	"testing"
	"unicode"

	"github.com/cicheck/cicheck/pathsfilter"
)

// hostileNames are changed files named by a pull request (issue 27): a
// workflow command on its own line, terminal escapes and bidi controls, a
// markdown link, an image and HTML.
var hostileNames = []string{
	"inj\n::warning file=x::INJECTED\nz.rs",
	"src/lib/mlx-cpp/turbo/\x1b[2J\x1b]8;;https://evil\x07k.cpp",
	"src/lib/mlx-cpp/turbo/\u202eppc.k",
	"src/lib/mlx-cpp/turbo/[click](https://evil).cpp",
	"src/lib/mlx-cpp/turbo/![img](https://evil/x.png).cpp",
	"src/lib/mlx-cpp/turbo/<img src=x onerror=alert(1)>.cpp",
}

// TestHostileNamesEveryFormat: names from the repository never issue a
// workflow command, never print a terminal escape, and never reach
// markdown as a link, an image or HTML, in text, github and markdown.
func TestHostileNamesEveryFormat(t *testing.T) {
	wfs, cfg := load(t, "paths-mlx")
	for _, name := range hostileNames {
		files := []pathsfilter.ChangedFile{{Path: name, Status: pathsfilter.StatusModified}}
		r := Explain(files, wfs, nil, Options{Classifier: cfg.Classifier(), PathsFilter: cfg.PathsFilter, Set: map[string]string{"github.repository": "lablup/mlxcel"}})
		r.Workflows[0].File = name // a workflow file of that name, too
		r.Workflows[0].Jobs[0].ID = name
		adv := []Advisory{{File: name, Label: name, Message: "heavy job changed in " + name}}
		for _, format := range []string{"text", "github", "markdown"} {
			var buf bytes.Buffer
			if err := Write(&buf, format, r, 1, adv); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if !strings.Contains(out, "turbo") && !strings.Contains(out, "inj") {
				t.Fatalf("%s: the name is not shown at all:\n%s", format, out)
			}
			if strings.ContainsAny(out, "\x1b\x07\u202e\r") {
				t.Errorf("%s of %q: raw control character:\n%s", format, name, out)
			}
			for _, l := range strings.Split(out, "\n") {
				l = strings.TrimLeftFunc(l, unicode.IsSpace)
				if !strings.HasPrefix(l, "::") {
					continue
				}
				// Only the github format's own annotations start a line
				// with "::", and each is one notice or warning.
				if format != "github" || !(strings.HasPrefix(l, "::notice file=") || strings.HasPrefix(l, "::warning file=")) || strings.HasPrefix(l, "::warning file=x") {
					t.Errorf("%s of %q: a line runs as a workflow command: %q", format, name, l)
				}
			}
			if format == "markdown" {
				// A code span's content is literal; everything else is parsed.
				parsed := withoutCodeSpans(out)
				for _, bad := range []string{"[click](", "![img](", "<img", "](https://evil"} {
					if strings.Contains(parsed, bad) {
						t.Errorf("markdown of %q holds %q verbatim:\n%s", name, bad, out)
					}
				}
			}
		}
	}
}

// withoutCodeSpans drops every fenced block and code span (a backtick run
// up to the next run of the same length on its line), leaving what
// markdown parses.
func withoutCodeSpans(md string) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced // a fenced block's content is literal too
			continue
		}
		if fenced {
			continue
		}
		for i := 0; i < len(line); {
			if line[i] != '`' {
				b.WriteByte(line[i])
				i++
				continue
			}
			n := 0
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			fence := strings.Repeat("`", n)
			end := -1
			for j := i + n; j < len(line); {
				k := strings.Index(line[j:], fence)
				if k < 0 {
					break
				}
				k += j
				m := 0
				for k+m < len(line) && line[k+m] == '`' {
					m++
				}
				if m == n {
					end = k + n
					break
				}
				j = k + m
			}
			if end < 0 {
				b.WriteString(fence)
				i += n
				continue
			}
			i = end
		}
		b.WriteByte('\n')
	}
	return b.String()
}
