package workflowgraph

import (
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Classifier decides which jobs are GPU jobs and which run on heavy
// (scarce) runners, from glob patterns on runner labels matched
// case-insensitively plus explicit job ids.
type Classifier struct {
	gpuLabels, heavyLabels []string
	gpuJobs, heavyJobs     map[string]bool

	// Runner labels repeat across a workflow's jobs (and rules ask about
	// the same job several times), so each label's verdict is cached.
	mu               sync.Mutex
	gpuHit, heavyHit map[string]bool
}

// NewClassifier builds a Classifier. Patterns use doublestar glob syntax
// (`*gpu`, `cuda*`, `mi3*`); job ids compare case-insensitively.
func NewClassifier(gpuLabels, gpuJobs, heavyLabels, heavyJobs []string) *Classifier {
	c := &Classifier{gpuJobs: map[string]bool{}, heavyJobs: map[string]bool{}}
	for _, p := range gpuLabels {
		c.gpuLabels = append(c.gpuLabels, strings.ToLower(p))
	}
	for _, p := range heavyLabels {
		c.heavyLabels = append(c.heavyLabels, strings.ToLower(p))
	}
	for _, j := range gpuJobs {
		c.gpuJobs[strings.ToLower(j)] = true
	}
	for _, j := range heavyJobs {
		c.heavyJobs[strings.ToLower(j)] = true
	}
	return c
}

// IsGPU reports whether j runs on a GPU runner (or calls a workflow that
// does), or is listed as a GPU job.
func (c *Classifier) IsGPU(j *Job) bool { return c.GPULabel(j) != "" }

// GPULabel returns why j is a GPU job: the first matching label, or
// "gpu.jobs" when listed by id; "" when it is not one.
func (c *Classifier) GPULabel(j *Job) string {
	if c == nil || j == nil {
		return ""
	}
	if c.gpuJobs[j.ID] {
		return "gpu.jobs"
	}
	return c.match(c.gpuLabels, &c.gpuHit, j.Runner)
}

// IsHeavy reports whether j runs on a runner matching heavy.runner-labels.
func (c *Classifier) IsHeavy(j *Job) bool {
	if c == nil || j == nil {
		return false
	}
	return c.heavyJobs[j.ID] || c.match(c.heavyLabels, &c.heavyHit, j.Runner) != ""
}

// MatchLabel reports whether a single label matches the GPU patterns.
func (c *Classifier) MatchLabel(label string) bool {
	return c != nil && match(c.gpuLabels, []string{label}) != ""
}

// match is the first of r's labels (then its group) matching patterns,
// through the per-label cache.
func (c *Classifier) match(patterns []string, cache *map[string]bool, r Runner) string {
	if len(patterns) == 0 {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if *cache == nil {
		*cache = map[string]bool{}
	}
	hit := func(l string) bool {
		ok, seen := (*cache)[l]
		if !seen {
			ok = match(patterns, []string{l}) != ""
			(*cache)[l] = ok
		}
		return ok
	}
	for _, l := range r.Labels {
		if hit(l) {
			return l
		}
	}
	if r.Group != "" && hit(r.Group) {
		return r.Group
	}
	return ""
}

func match(patterns, labels []string) string {
	for _, l := range labels {
		ll := strings.ToLower(l)
		for _, p := range patterns {
			if ok, err := doublestar.Match(p, ll); err == nil && ok {
				return l
			}
		}
	}
	return ""
}
