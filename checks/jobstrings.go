package checks

import (
	"maps"
	"slices"

	"github.com/rhysd/actionlint"
)

// jobStrings calls visit with every string of a job's syntax tree, in the
// order of actionlint's field declarations (map entries by key), and
// whether it is a bare if: (a step's or a snapshot's, written without
// ${{ }}). The job's own if: is left out: callers have it as Job.If.
// Matrix values are raw YAML, not strings, and are not visited.
//
// The fields are listed by hand, as actionlint's own expression rule lists
// them: TestJobStringsCoverAST walks the tree by reflection and fails when
// actionlint gains a string field this walk does not know.
func jobStrings(j *actionlint.Job, visit func(s *actionlint.String, bareIf bool)) {
	str := func(s *actionlint.String) {
		if s != nil {
			visit(s, false)
		}
	}
	strs := func(ss []*actionlint.String) {
		for _, s := range ss {
			str(s)
		}
	}
	boolean := func(b *actionlint.Bool) {
		if b != nil {
			str(b.Expression)
		}
	}
	env := func(e *actionlint.Env) {
		if e == nil {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(e.Vars)) {
			if v := e.Vars[k]; v != nil {
				str(v.Name)
				str(v.Value)
			}
		}
		str(e.Expression)
	}
	container := func(c *actionlint.Container) {
		if c == nil {
			return
		}
		str(c.Image)
		if cr := c.Credentials; cr != nil {
			str(cr.Username)
			str(cr.Password)
			str(cr.Expression)
		}
		env(c.Env)
		strs(c.Ports)
		strs(c.Volumes) // empty in actionlint 1.7.12, which parses volumes: into Ports
		str(c.Options)
	}
	str(j.ID)
	str(j.Name)
	strs(j.Needs)
	if r := j.RunsOn; r != nil {
		strs(r.Labels)
		str(r.LabelsExpr)
		str(r.Group)
	}
	if p := j.Permissions; p != nil {
		str(p.All)
		for _, k := range slices.Sorted(maps.Keys(p.Scopes)) {
			if s := p.Scopes[k]; s != nil {
				str(s.Name)
				str(s.Value)
			}
		}
	}
	if e := j.Environment; e != nil {
		str(e.Name)
		str(e.URL)
		boolean(e.Deployment)
	}
	if c := j.Concurrency; c != nil {
		str(c.Group)
		boolean(c.CancelInProgress)
	}
	for _, k := range slices.Sorted(maps.Keys(j.Outputs)) {
		if o := j.Outputs[k]; o != nil {
			str(o.Name)
			str(o.Value)
		}
	}
	env(j.Env)
	if d := j.Defaults; d != nil && d.Run != nil {
		str(d.Run.Shell)
		str(d.Run.WorkingDirectory)
	}
	for _, s := range j.Steps {
		if s == nil {
			continue
		}
		str(s.ID)
		if s.If != nil {
			visit(s.If, true)
		}
		str(s.Name)
		switch x := s.Exec.(type) {
		case *actionlint.ExecRun:
			str(x.Run)
			str(x.Shell)
			str(x.WorkingDirectory)
		case *actionlint.ExecAction:
			str(x.Uses)
			for _, k := range slices.Sorted(maps.Keys(x.Inputs)) {
				if in := x.Inputs[k]; in != nil {
					str(in.Name)
					str(in.Value)
				}
			}
			str(x.Entrypoint)
			str(x.Args)
		}
		env(s.Env)
		boolean(s.ContinueOnError)
		if s.TimeoutMinutes != nil {
			str(s.TimeoutMinutes.Expression)
		}
	}
	if j.TimeoutMinutes != nil {
		str(j.TimeoutMinutes.Expression)
	}
	if st := j.Strategy; st != nil {
		if m := st.Matrix; m != nil {
			for _, k := range slices.Sorted(maps.Keys(m.Rows)) {
				if r := m.Rows[k]; r != nil {
					str(r.Name)
					str(r.Expression)
				}
			}
			for _, cs := range []*actionlint.MatrixCombinations{m.Include, m.Exclude} {
				if cs == nil {
					continue
				}
				for _, c := range cs.Combinations {
					if c == nil {
						continue
					}
					for _, k := range slices.Sorted(maps.Keys(c.Assigns)) {
						if a := c.Assigns[k]; a != nil {
							str(a.Key)
						}
					}
					str(c.Expression)
				}
				str(cs.Expression)
			}
			str(m.Expression)
		}
		boolean(st.FailFast)
		if st.MaxParallel != nil {
			str(st.MaxParallel.Expression)
		}
	}
	boolean(j.ContinueOnError)
	container(j.Container)
	if sv := j.Services; sv != nil {
		for _, k := range slices.Sorted(maps.Keys(sv.Value)) {
			if s := sv.Value[k]; s != nil {
				str(s.Name)
				container(s.Container)
			}
		}
		str(sv.Expression)
	}
	if wc := j.WorkflowCall; wc != nil {
		str(wc.Uses)
		for _, k := range slices.Sorted(maps.Keys(wc.Inputs)) {
			if in := wc.Inputs[k]; in != nil {
				str(in.Name)
				str(in.Value)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(wc.Secrets)) {
			if s := wc.Secrets[k]; s != nil {
				str(s.Name)
				str(s.Value)
			}
		}
	}
	if sn := j.Snapshot; sn != nil {
		str(sn.ImageName)
		str(sn.Version)
		if sn.If != nil {
			visit(sn.If, true)
		}
	}
}
