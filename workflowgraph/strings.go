package workflowgraph

import (
	"slices"

	"github.com/rhysd/actionlint"
)

// Strings returns every string value of a parsed workflow that holds free
// text (names, conditions, run scripts, with: and env values, matrix
// values, input defaults and options, …), in source order, each with the
// position actionlint recorded for it. Keys are not included. It reads
// the one AST every command has, so no caller scans the file's text.
func Strings(ast *actionlint.Workflow) []*actionlint.String {
	if ast == nil {
		return nil
	}
	var out []*actionlint.String
	add := func(ss ...*actionlint.String) {
		for _, s := range ss {
			if s != nil {
				out = append(out, s)
			}
		}
	}
	env := func(e *actionlint.Env) {
		if e == nil {
			return
		}
		add(e.Expression)
		for _, v := range e.Vars {
			if v != nil {
				add(v.Value)
			}
		}
	}
	container := func(c *actionlint.Container) {
		if c == nil {
			return
		}
		add(c.Image, c.Options)
		add(c.Ports...)
		add(c.Volumes...)
		env(c.Env)
	}
	add(ast.Name, ast.RunName)
	env(ast.Env)
	if c := ast.Concurrency; c != nil {
		add(c.Group)
	}
	for _, ev := range ast.On {
		switch e := ev.(type) {
		case *actionlint.WorkflowDispatchEvent:
			for _, in := range e.Inputs {
				if in != nil {
					add(in.Description, in.Default)
					add(in.Options...)
				}
			}
		case *actionlint.WorkflowCallEvent:
			for _, in := range e.Inputs {
				if in != nil {
					add(in.Description, in.Default)
				}
			}
			for _, o := range e.Outputs {
				if o != nil {
					add(o.Description, o.Value)
				}
			}
		case *actionlint.RepositoryDispatchEvent:
			add(e.Types...)
		}
	}
	for _, j := range ast.Jobs {
		if j == nil {
			continue
		}
		add(j.Name, j.If)
		env(j.Env)
		if r := j.RunsOn; r != nil {
			add(r.LabelsExpr, r.Group)
			add(r.Labels...)
		}
		if e := j.Environment; e != nil {
			add(e.Name, e.URL)
		}
		if c := j.Concurrency; c != nil {
			add(c.Group)
		}
		for _, o := range j.Outputs {
			if o != nil {
				add(o.Value)
			}
		}
		if s := j.Strategy; s != nil && s.Matrix != nil {
			out = append(out, matrixStrings(s.Matrix)...)
		}
		container(j.Container)
		if s := j.Services; s != nil {
			add(s.Expression)
			for _, svc := range s.Value {
				if svc != nil {
					container(svc.Container)
				}
			}
		}
		if c := j.WorkflowCall; c != nil {
			add(c.Uses)
			for _, in := range c.Inputs {
				if in != nil {
					add(in.Value)
				}
			}
		}
		for _, st := range j.Steps {
			if st == nil {
				continue
			}
			add(st.Name, st.If)
			env(st.Env)
			switch e := st.Exec.(type) {
			case *actionlint.ExecRun:
				add(e.Run, e.Shell, e.WorkingDirectory)
			case *actionlint.ExecAction:
				add(e.Uses, e.Entrypoint, e.Args)
				for _, in := range e.Inputs {
					if in != nil {
						add(in.Value)
					}
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *actionlint.String) int {
		pa, pb := a.Pos, b.Pos
		switch {
		case pa == nil && pb == nil:
			return 0
		case pa == nil:
			return 1
		case pb == nil:
			return -1
		case pa.Line != pb.Line:
			return pa.Line - pb.Line
		}
		return pa.Col - pb.Col
	})
	return out
}

// matrixStrings is every scalar of a matrix (rows, include, exclude) as a
// String; whether it was quoted is not recorded by actionlint for these.
func matrixStrings(m *actionlint.Matrix) []*actionlint.String {
	var out []*actionlint.String
	var raw func(v actionlint.RawYAMLValue)
	raw = func(v actionlint.RawYAMLValue) {
		switch t := v.(type) {
		case *actionlint.RawYAMLString:
			out = append(out, &actionlint.String{Value: t.Value, Pos: t.Pos()})
		case *actionlint.RawYAMLArray:
			for _, el := range t.Elems {
				raw(el)
			}
		case *actionlint.RawYAMLObject:
			for _, p := range t.Props {
				raw(p)
			}
		}
	}
	if m.Expression != nil {
		out = append(out, m.Expression)
	}
	for _, r := range m.Rows {
		if r == nil {
			continue
		}
		if r.Expression != nil {
			out = append(out, r.Expression)
		}
		for _, v := range r.Values {
			raw(v)
		}
	}
	for _, cs := range []*actionlint.MatrixCombinations{m.Include, m.Exclude} {
		if cs == nil {
			continue
		}
		if cs.Expression != nil {
			out = append(out, cs.Expression)
		}
		for _, c := range cs.Combinations {
			if c == nil {
				continue
			}
			if c.Expression != nil {
				out = append(out, c.Expression)
			}
			for _, a := range c.Assigns {
				if a != nil && a.Value != nil {
					raw(a.Value)
				}
			}
		}
	}
	return out
}
