package workflowgraph

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/cicheck/cicheck/internal/ghschema"
)

// AccelGPU is the kind of a generic accelerator word ("gpu", "8gpu"): no
// vendor named. Other kinds are the catalogue's vendors (nvidia, amd, ...).
const (
	AccelGPU     = "gpu"
	accelNothing = ""
)

// hardwareYAML is the hardware catalogue (hardware.yaml documents it).
//
//go:embed hardware.yaml
var hardwareYAML []byte

// HardwareEntry is one product line of the catalogue.
type HardwareEntry struct {
	Vendor   string   `yaml:"vendor"`
	Kind     string   `yaml:"kind"`
	Strength string   `yaml:"strength"`
	Source   string   `yaml:"source"`
	Models   []string `yaml:"models"`
	Numbered []string `yaml:"numbered"`
	Prefixes []string `yaml:"prefixes"`
	Shapes   []string `yaml:"shapes"`
}

// Strong reports evidence that alone makes a runner an accelerator's.
func (e *HardwareEntry) Strong() bool { return e.Strength == "strong" }

// Catalogue is the parsed hardware catalogue.
type Catalogue struct {
	Generic struct {
		Strong        []string `yaml:"strong"`
		Roles         []string `yaml:"roles"`
		RolesNumbered []string `yaml:"roles_numbered"`
	} `yaml:"generic"`
	Entries []HardwareEntry `yaml:"entries"`

	models map[string][]*HardwareEntry
	strong map[string]bool
	roles  map[string]bool
}

// Hardware is the embedded catalogue, parsed once.
var Hardware = sync.OnceValue(func() *Catalogue {
	c, err := ParseCatalogue(hardwareYAML)
	if err != nil {
		panic("hardware.yaml: " + err.Error()) // TestCatalogue keeps it valid
	}
	return c
})

// ParseCatalogue reads a catalogue in hardware.yaml's format.
func ParseCatalogue(b []byte) (*Catalogue, error) {
	var c Catalogue
	if err := yaml.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	c.models = map[string][]*HardwareEntry{}
	for i := range c.Entries {
		e := &c.Entries[i]
		for _, m := range e.Models {
			c.models[m] = append(c.models[m], e)
		}
	}
	c.strong = set(c.Generic.Strong...)
	c.roles = set(c.Generic.Roles...)
	return &c, nil
}

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// Hit is one token of a label that names hardware.
type Hit struct {
	Token string
	Entry *HardwareEntry // nil for a generic word ("gpu")
}

// Vendor is the hit's vendor, or "gpu" for a generic word.
func (h Hit) Vendor() string {
	if h.Entry == nil {
		return AccelGPU
	}
	return h.Entry.Vendor
}

// Strong reports a hit that alone makes an accelerator.
func (h Hit) Strong() bool { return h.Entry == nil || h.Entry.Strong() }

// Describe is how a reason names the hit.
func (h Hit) Describe() string {
	d := "token " + quote(h.Token) + " names an accelerator"
	if h.Entry == nil {
		return d
	}
	what := h.Entry.Kind
	switch what {
	case "instance":
		what = "accelerator instance family"
	case "stack":
		what = "software stack"
	}
	if !h.Strong() {
		return "token " + quote(h.Token) + " (" + h.Entry.Vendor + " " + what + ", not evidence alone)"
	}
	return d + ": " + h.Entry.Vendor + " " + what
}

// tokens splits a label into its lower-case tokens.
func tokens(label string) []string {
	return strings.FieldsFunc(strings.ToLower(label), func(r rune) bool {
		return r == '-' || r == '.' || r == '_' || r == '/' || r == ':' || r == ' ' || r == '\t' ||
			r == '=' || r == '+' || r == ',' // key=value labels: "family=g6.4xlarge+g5.2xlarge"
	})
}

// tokenHit is what one token names: the catalogue's strongest entry, or
// ok false.
func (c *Catalogue) tokenHit(t string) (Hit, bool) {
	if isGPUWord(t, c.strong) {
		return Hit{Token: t}, true
	}
	var weak *HardwareEntry
	for _, b := range counted(t) {
		for _, e := range c.match(b) {
			if e.Strong() {
				return Hit{Token: t, Entry: e}, true
			}
			if weak == nil {
				weak = e
			}
		}
	}
	if weak != nil {
		return Hit{Token: t, Entry: weak}, true
	}
	return Hit{}, false
}

// match lists the entries a bare token (no count) names.
func (c *Catalogue) match(b string) []*HardwareEntry {
	out := slices.Clone(c.models[b])
	for i := range c.Entries {
		e := &c.Entries[i]
		if slices.Contains(out, e) {
			continue
		}
		if slices.ContainsFunc(e.Numbered, func(p string) bool { return prefixDigits(b, p) }) ||
			slices.ContainsFunc(e.Prefixes, func(p string) bool { return c.prefixed(b, p, e) }) ||
			slices.ContainsFunc(e.Shapes, func(s string) bool { return shape(s, b) }) {
			out = append(out, e)
		}
	}
	return out
}

// prefixed: b is p followed by a model number (digits first: rtx4090,
// arc770) or by a model of the same vendor (rtxa6000, mtts4000). The bare
// prefix is not enough: "arc" starts "archive", "atlas" is a database.
func (c *Catalogue) prefixed(b, p string, e *HardwareEntry) bool {
	rest, ok := strings.CutPrefix(b, p)
	if !ok || rest == "" || !word(rest) {
		return false
	}
	if rest[0] >= '0' && rest[0] <= '9' {
		return true
	}
	return slices.ContainsFunc(c.models[rest], func(m *HardwareEntry) bool { return m.Vendor == e.Vendor })
}

// shape matches the families the catalogue names by shape.
func shape(name, t string) bool {
	switch name {
	case "mi":
		return isMI(t)
	case "gfx":
		return isGFX(t)
	case "tpu":
		return isTPU(t)
	case "gcp-tpu-vm":
		return isTPUVM(t)
	case "azure-gpu":
		return isAzureGPU(t)
	}
	return false
}

// role reports a token that says the runner is a CPU or build machine.
func (c *Catalogue) role(t string) bool {
	return c.roles[t] || slices.ContainsFunc(c.Generic.RolesNumbered, func(p string) bool { return prefixDigits(t, p) })
}

// counted is t and t without a count prefix ("8x"), a count suffix ("x8")
// or both.
func counted(t string) []string {
	out := []string{t}
	pre := func(s string) (string, bool) {
		if i := strings.IndexByte(s, 'x'); i > 0 && allDigits(s[:i]) {
			return s[i+1:], true
		}
		return s, false
	}
	suf := func(s string) (string, bool) {
		if i := strings.LastIndexByte(s, 'x'); i >= 0 && i < len(s)-1 && allDigits(s[i+1:]) {
			return s[:i], true
		}
		return s, false
	}
	p, okp := pre(t)
	if okp {
		out = append(out, p)
		if ps, ok := suf(p); ok {
			out = append(out, ps)
		}
	}
	if s, ok := suf(t); ok {
		out = append(out, s)
	}
	return out
}

// isGPUWord: a generic accelerator word, with a count before or after
// ("1gpu", "gpus", "gpu4", "8npu").
func isGPUWord(t string, words map[string]bool) bool {
	t = strings.TrimLeft(t, "0123456789")
	t = strings.TrimRight(t, "0123456789")
	return words[t]
}

// isTPU: "tpu…" after optional digits and 'x' ("8tpu", "tpuv7x").
func isTPU(t string) bool {
	u := strings.TrimPrefix(strings.TrimLeft(t, "0123456789"), "x")
	return strings.HasPrefix(u, "tpu") && word(u)
}

// isTPUVM: a GCP TPU VM family (ct5lp, ct6e).
func isTPUVM(t string) bool {
	return len(t) >= 3 && t[:2] == "ct" && t[2] >= '4' && t[2] <= '7' && allLetters(t[3:])
}

// isMI: "mi" and 2-3 digits and letters (mi300x, mi35x, mi250).
func isMI(t string) bool {
	if !strings.HasPrefix(t, "mi") {
		return false
	}
	d := leadingDigits(t[2:])
	return d >= 2 && d <= 3 && t[2] >= '1' && t[2] <= '4' && allLetters(t[2+d:])
}

// isGFX: an AMD GPU ISA, gfx9xx or gfx1xxx as LLVM names them (the last
// character may be a letter: gfx90a is MI200's), or a family with x for
// its last digit as AMD's ROCm names them (gfx94x, gfx110x).
func isGFX(t string) bool {
	n, ok := strings.CutPrefix(t, "gfx")
	if !ok {
		return false
	}
	switch {
	case len(n) == 3 && n[0] == '9':
		return allDigits(n[1:2]) && (allDigits(n[2:]) || strings.ContainsRune("acx", rune(n[2])))
	case len(n) == 4 && n[0] == '1':
		return allDigits(n[1:3]) && (allDigits(n[3:]) || n[3] == 'x')
	}
	return false
}

// isAzureGPU: NC/ND/NV sizes (nc24ads, nd96asr, nv12s).
func isAzureGPU(t string) bool {
	if len(t) < 3 || t[0] != 'n' || (t[1] != 'c' && t[1] != 'd' && t[1] != 'v') {
		return false
	}
	d := leadingDigits(t[2:])
	return d > 0 && allLetters(t[2+d:])
}

// prefixDigits: t is p followed by digits only (possibly none).
func prefixDigits(t, p string) bool { return strings.HasPrefix(t, p) && allDigits(t[len(p):]) }

func leadingDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func allDigits(s string) bool { return leadingDigits(s) == len(s) }

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// word: letters, digits and '_' only (what the tokenizer leaves).
func word(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Accelerator returns the vendor (or "gpu") of the first token of a runner
// label or group name that alone names an accelerator, and that token; ""
// when none does. A GitHub-hosted image label names none.
func Accelerator(label string) (kind, token string) {
	if githubHosted(label) {
		return accelNothing, ""
	}
	for _, h := range labelHits(label) {
		if h.Strong() {
			return h.Vendor(), h.Token
		}
	}
	if h, ok := macChip(tokens(label)); ok && !hasRole(label) {
		return h.Vendor(), h.Token
	}
	return accelNothing, ""
}

// macTokens name a Mac: macOS runs on Apple's hardware only, so beside one
// an M-series token is Apple's chip, not AWS's m1..m5 instance family.
var macTokens = map[string]bool{"macos": true, "mac": true, "osx": true, "darwin": true, "macmini": true, "macstudio": true}

// intelMacTokens say a Mac is an Intel one (X64 is the label GitHub gives it).
var intelMacTokens = map[string]bool{"x64": true, "x86": true, "amd64": true, "intel": true}

// macChip is the Apple token among toks, a chip (m1, m4pro) or its GPU's
// framework (metal, mps, mlx: a Mac labelled for GPU work), when they also
// name a Mac and not an Intel one. Alone, beside no Mac, these tokens are
// weak: m5 is an AWS family, metal a bare-metal machine.
func macChip(toks []string) (Hit, bool) {
	mac := false
	var chip Hit
	found := false
	for _, t := range toks {
		switch {
		case macTokens[t]:
			mac = true
		case intelMacTokens[t]:
			return Hit{}, false
		}
		if h, ok := Hardware().tokenHit(t); ok && !found && h.Entry != nil && h.Entry.Vendor == "apple" {
			chip, found = h, true
		}
	}
	return chip, mac && found
}

// appleSilicon says why a runner's labels are a Mac with Apple silicon
// (whose GPU is what MPS, MLX and Metal tests need): a Mac and an
// M-series chip among the labels, or a self-hosted runner labelled macOS
// and not X64 (every Mac Apple has sold since 2023 is Apple silicon; an
// Intel Mac's runner gets the X64 label). GitHub-hosted macOS images are
// not: they are hosted virtual machines. A CPU or build role beside it
// makes it none.
func appleSilicon(labels []string) (why string, ok bool) {
	var toks []string
	selfHosted, macos := false, false
	for _, l := range labels {
		if l == "" || githubHosted(l) {
			continue
		}
		if hasRole(l) {
			return "", false
		}
		switch strings.ToLower(l) {
		case "self-hosted":
			selfHosted = true
		case "macos":
			macos = true
		}
		toks = append(toks, tokens(l)...)
	}
	if h, ok := macChip(toks); ok {
		if h.Entry.Kind == "stack" {
			return "a Mac with token " + quote(h.Token) + ": a Mac labelled for its GPU", true
		}
		return "a Mac with token " + quote(h.Token) + ": Apple silicon (an M-series GPU)", true
	}
	if selfHosted && macos && !slices.ContainsFunc(toks, func(t string) bool { return intelMacTokens[t] }) {
		return "a self-hosted Mac not labelled X64: Apple silicon (an M-series GPU)", true
	}
	return "", false
}

// labelHits lists every token of label that names hardware, strong or
// weak, in order.
func labelHits(label string) []Hit {
	c := Hardware()
	var out []Hit
	for _, t := range tokens(label) {
		if h, ok := c.tokenHit(t); ok {
			out = append(out, h)
		}
	}
	return out
}

// hasRole reports a token of label that says CPU or build machine.
func hasRole(label string) bool {
	c := Hardware()
	return slices.ContainsFunc(tokens(label), c.role)
}

// githubHosted reports a label of a GitHub-hosted runner image, standard
// or larger, by exact name from GitHub's published list (internal/ghschema,
// retired images included): never an accelerator. Any other label is a
// self-hosted runner or a custom larger runner, classified by its name and
// the job's evidence ("windows-2022-gpu-t4" is one).
func githubHosted(label string) bool {
	l := strings.ToLower(label)
	if slices.Contains(ghschema.HostedLabels, l) {
		return true
	}
	_, retired := ghschema.Retired(l)
	return retired
}
