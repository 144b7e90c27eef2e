// Package project says where cicheck lives, in one place. The project has
// no published home yet, so Home is empty and nothing cicheck prints (SARIF
// helpUri, rule pages, install lines) points at a URL or a namespace the
// project does not control. Publishing it is a change to this file (and,
// for the module path, go.mod's module line and its imports).
package project

// Home is the project's published home page ("https://…/cicheck"), or ""
// while it has none.
const Home = ""

// RuleDocURL is the published page of a rule's documentation, "" while the
// project has no home; docs/rules/<id>.md in the repository is the page.
func RuleDocURL(id string) string {
	if Home == "" {
		return ""
	}
	return Home + "/blob/main/docs/rules/" + id + ".md"
}
