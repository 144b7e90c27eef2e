package testregistry

import (
	"fmt"
	"io/fs"
	"math"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// FilePlan is the resolved /rerun-test plan for one file (spec §12).
type FilePlan struct {
	File           string   `json:"file"`
	Backend        string   `json:"backend"`
	Suite          string   `json:"suite"`
	TimeoutSeconds int      `json:"timeout_seconds"`
	Image          string   `json:"image"`
	RunsOn         []string `json:"runs_on"`
}

// CheckFileRunDiscovery walks the roots like os.walk (no symlinks followed,
// dot-names included) and rejects any symlink on the way, with the
// reference's messages.
func CheckFileRunDiscovery(fsys fs.FS, cfg Config) error {
	for _, root := range cfg.Roots {
		root = path.Clean(root)
		st, err := fs.Lstat(fsys, root)
		if err != nil {
			continue
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("CI discovery path must not be a symlink: %s", root)
		}
		if !st.IsDir() {
			continue
		}
		err = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			if st, err := fs.Stat(fsys, p); err == nil && st.IsDir() {
				return fmt.Errorf("CI test directory must not be a symlink: %s", p)
			}
			if ok, _ := path.Match(cfg.FileGlob, d.Name()); ok {
				return fmt.Errorf("CI test file must not be a symlink: %s", p)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

var imageTagRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`) })

// ResolveFile maps one test file to its /rerun-test plan: exactly one
// enabled CPU or CUDA registration, its suite, runner and timeout. Labels
// and the nightly gate do not apply. tag is the image tag; an empty one is
// invalid, as in the reference (a caller without one passes "dev", the
// reference's default).
func (r *Registry) ResolveFile(file, tag string) (FilePlan, error) {
	pc := r.cfg.Policy
	if !imageTagRe().MatchString(tag) {
		return FilePlan{}, fmt.Errorf("invalid CI image tag: %s", pyRepr(tag))
	}
	var regs, cc []*Registration
	for i := range r.Registrations {
		g := &r.Registrations[i]
		if g.File != file {
			continue
		}
		regs = append(regs, g)
		if g.Backend == "cpu" || g.Backend == "cuda" {
			cc = append(cc, g)
		}
	}
	switch {
	case len(regs) == 0:
		return FilePlan{}, fmt.Errorf("%s has no CI registration; /rerun-test runs only registered test files", file)
	case len(cc) == 0:
		var suites []string
		for _, g := range regs {
			suites = append(suites, g.Suite)
		}
		return FilePlan{}, fmt.Errorf("%s is registered only for ROCm (%s); /rerun-test supports CPU and CUDA", file, strings.Join(suites, ", "))
	case len(cc) > 1:
		var parts []string
		for _, g := range cc {
			parts = append(parts, backendNames[g.Backend]+":"+g.Suite)
		}
		return FilePlan{}, fmt.Errorf("%s has multiple CPU/CUDA registrations (%s); expected exactly one", file, strings.Join(parts, ", "))
	}
	g := cc[0]
	if !g.Enabled() {
		return FilePlan{}, fmt.Errorf("%s is disabled: %s", file, *g.Disabled)
	}
	plan := FilePlan{File: file, Backend: g.Backend, Suite: g.Suite, Image: pc.Image + ":" + tag}
	if g.Backend == "cuda" {
		runs, ok := pc.CUDARunsOn[g.Suite]
		if !ok {
			return FilePlan{}, fmt.Errorf("CUDA suite %s has no runner mapping in CUDA_SUITE_RUNS_ON", g.Suite)
		}
		plan.RunsOn = slices.Clone(runs)
	} else if !slices.Contains(pc.FileRunCPUSuite, g.Suite) {
		return FilePlan{}, fmt.Errorf("CPU suite %s is not allowed for an explicit file run", g.Suite)
	}
	plan.TimeoutSeconds = max(pc.MinTimeout, int(math.Trunc(g.EstTime*pc.TimeoutFactor)))
	return plan, nil
}
