package scope

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Policy is a validated label-command access policy (spec B3): which
// repository permissions (and, for add_label only, which user ids) may run
// each gateway command, and which exact labels /<label> may add.
type Policy struct {
	Groups   map[string]PolicyGroup
	Commands map[string]PolicyCommand
}

// PolicyGroup is one access group.
type PolicyGroup struct {
	RepositoryPermissions []string
	UserIDs               []int64
}

// PolicyCommand binds a gateway command to a group.
type PolicyCommand struct {
	Group         string
	AllowedLabels []string // add_label only
}

// Policy keys of the gateway commands, in the reference registry's order.
const (
	PolicyAddLabel      = "add_label"
	PolicyClearLabels   = "clear_labels"
	PolicyRerunFailedCI = "rerun_failed_ci"
	PolicyRunTestFile   = "run_test_file"
)

var (
	policyCommandKeys = []string{PolicyAddLabel, PolicyClearLabels, PolicyRerunFailedCI, PolicyRunTestFile}
	policyGroupNames  = []string{"add_label_access", "repo_write_access"}
	labelRE           = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:run-ci-[A-Za-z0-9][A-Za-z0-9_.-]*|bypass-fastfail)$`)
	})
)

// Allows reports whether a commenter with the given repository permission
// and user id (0: unknown) may run the command with this policy key.
func (p *Policy) Allows(key, permission string, userID int64) bool {
	cmd, ok := p.Commands[key]
	if !ok {
		return false
	}
	g := p.Groups[cmd.Group]
	return slices.Contains(g.RepositoryPermissions, permission) || userID > 0 && slices.Contains(g.UserIDs, userID)
}

// LabelAllowed reports whether /<label> may add label.
func (p *Policy) LabelAllowed(label string) bool {
	return slices.Contains(p.Commands[PolicyAddLabel].AllowedLabels, label)
}

// ParsePolicy validates a policy file with the reference's rules, in its
// order, and returns the first problem as "file:line:col: message" with
// the reference's message text.
func ParsePolicy(data []byte, file string) (*Policy, error) {
	root, err := parseStrictJSON(data)
	if err != nil {
		var pe *jsonError
		if asJSONError(err, &pe) {
			line, col := lineCol(data, int64(pe.off))
			if pe.readErr {
				return nil, fmt.Errorf("%s:%d:%d: cannot read JSON from %s: %s", file, line, col, file, pe.msg)
			}
			return nil, fmt.Errorf("%s:%d:%d: %s", file, line, col, pe.msg)
		}
		return nil, err
	}
	fail := func(n *jnode, format string, args ...any) (*Policy, error) {
		line, col := lineCol(data, int64(n.off))
		return nil, fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
	}
	if root.kind != jObject || !sameKeys(root, "version", "groups", "commands") {
		return fail(root, "policy must contain only version, groups, and commands")
	}
	if v := root.get("version"); v.kind != jInt || v.text != "2" {
		return fail(v, "policy version must be 2")
	}
	p := &Policy{Groups: map[string]PolicyGroup{}, Commands: map[string]PolicyCommand{}}
	groups := root.get("groups")
	if groups.kind != jObject || !sameKeys(groups, policyGroupNames...) {
		return fail(groups, "policy groups must contain only add_label_access and repo_write_access")
	}
	for i, name := range groups.keys {
		g := groups.vals[i]
		want := []string{"repository_permissions"}
		if name == "add_label_access" {
			want = append(want, "user_ids")
		}
		if g.kind != jObject || !sameKeys(g, want...) {
			return fail(g, "invalid fields for policy group %s", name)
		}
		var pg PolicyGroup
		perms := g.get("repository_permissions")
		pname := "groups." + name + ".repository_permissions"
		if perms.kind != jArray || len(perms.vals) == 0 {
			return fail(perms, "%s must be a non-empty array", pname)
		}
		for _, v := range perms.vals {
			if v.kind != jString || (v.str != "write" && v.str != "admin") {
				return fail(v, "%s must contain only write or admin", pname)
			}
		}
		for _, v := range perms.vals {
			if slices.Contains(pg.RepositoryPermissions, v.str) {
				return fail(v, "%s contains duplicate permissions", pname)
			}
			pg.RepositoryPermissions = append(pg.RepositoryPermissions, v.str)
		}
		if ids := g.get("user_ids"); ids != nil {
			iname := "groups." + name + ".user_ids"
			if ids.kind != jArray {
				return fail(ids, "%s must be an array", iname)
			}
			for _, v := range ids.vals {
				n, err := strconv.ParseInt(v.text, 10, 64)
				if v.kind != jInt || err != nil || n <= 0 {
					return fail(v, "%s must contain only positive integers", iname)
				}
			}
			for _, v := range ids.vals {
				n, _ := strconv.ParseInt(v.text, 10, 64)
				if slices.Contains(pg.UserIDs, n) {
					return fail(v, "%s contains duplicate user IDs", iname)
				}
				pg.UserIDs = append(pg.UserIDs, n)
			}
		}
		p.Groups[name] = pg
	}
	cmds := root.get("commands")
	if cmds.kind != jObject || !sameKeys(cmds, policyCommandKeys...) {
		return fail(cmds, "policy commands do not match the static command registry")
	}
	for _, name := range policyCommandKeys {
		c := cmds.get(name)
		want := []string{"group"}
		if name == PolicyAddLabel {
			want = append(want, "allowed_labels")
		}
		if c.kind != jObject || !sameKeys(c, want...) {
			return fail(c, "invalid fields for policy command %s", name)
		}
		gn := c.get("group")
		g, ok := p.Groups[gn.str]
		if gn.kind != jString || !ok {
			return fail(gn, "policy command %s references an unknown group", name)
		}
		if name != PolicyAddLabel && len(g.UserIDs) > 0 {
			return fail(gn, "policy command %s cannot grant access by user ID", name)
		}
		pc := PolicyCommand{Group: gn.str}
		if name == PolicyAddLabel {
			labels := c.get("allowed_labels")
			lname := "commands.add_label.allowed_labels"
			if labels.kind != jArray || len(labels.vals) == 0 {
				return fail(labels, "%s must be a non-empty array", lname)
			}
			for _, v := range labels.vals {
				if v.kind != jString || !labelRE().MatchString(v.str) {
					return fail(v, "invalid exact CI label: %s", pyRepr(v))
				}
			}
			for _, v := range labels.vals {
				if slices.Contains(pc.AllowedLabels, v.str) {
					return fail(v, "%s contains duplicate labels", lname)
				}
				pc.AllowedLabels = append(pc.AllowedLabels, v.str)
			}
		}
		p.Commands[name] = pc
	}
	return p, nil
}

func sameKeys(n *jnode, want ...string) bool {
	if len(n.keys) != len(want) {
		return false
	}
	for _, w := range want {
		if !slices.Contains(n.keys, w) {
			return false
		}
	}
	return true
}

// pyRepr renders a JSON value roughly as Python's repr, which the
// reference uses in "invalid exact CI label: {label!r}".
func pyRepr(n *jnode) string {
	switch n.kind {
	case jString:
		q := byte('\'')
		if strings.Contains(n.str, "'") && !strings.Contains(n.str, `"`) {
			q = '"'
		}
		var b strings.Builder
		b.WriteByte(q)
		for _, r := range n.str {
			switch {
			case r == '\\':
				b.WriteString(`\\`)
			case r == rune(q):
				b.WriteByte('\\')
				b.WriteRune(r)
			case r == '\n':
				b.WriteString(`\n`)
			case r == '\t':
				b.WriteString(`\t`)
			case r == '\r':
				b.WriteString(`\r`)
			case r < 0x20 || r == 0x7f:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r == utf8.RuneError:
				b.WriteString(`\ufffd`)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte(q)
		return b.String()
	case jNull:
		return "None"
	case jBool:
		if n.text == "true" {
			return "True"
		}
		return "False"
	case jArray:
		parts := make([]string, len(n.vals))
		for i, v := range n.vals {
			parts[i] = pyRepr(v)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case jObject:
		parts := make([]string, len(n.vals))
		for i, v := range n.vals {
			parts[i] = pyRepr(&jnode{kind: jString, str: n.keys[i]}) + ": " + pyRepr(v)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return n.text
}
