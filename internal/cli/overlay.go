package cli

import "github.com/spf13/pflag"

// Overlay binds flags to the fields of a T whose base value is known only
// after parsing (a configuration file a flag names): Apply copies the
// flags the user set, and only those, onto it.
type Overlay[T any] struct {
	fl   *pflag.FlagSet
	val  T // the flags' values
	copy map[string]func(dst *T)
}

// NewOverlay binds flags of fl; defaults gives each flag's default.
func NewOverlay[T any](fl *pflag.FlagSet, defaults T) *Overlay[T] {
	return &Overlay[T]{fl: fl, val: defaults, copy: map[string]func(*T){}}
}

// String declares flag name for the string field picks.
func (o *Overlay[T]) String(name string, field func(*T) *string, usage string) {
	o.fl.StringVar(field(&o.val), name, *field(&o.val), usage)
	o.copy[name] = func(dst *T) { *field(dst) = *field(&o.val) }
}

// Int declares flag name for the int field picks.
func (o *Overlay[T]) Int(name string, field func(*T) *int, usage string) {
	o.fl.IntVar(field(&o.val), name, *field(&o.val), usage)
	o.copy[name] = func(dst *T) { *field(dst) = *field(&o.val) }
}

// Apply copies the flags set on the command line onto dst.
func (o *Overlay[T]) Apply(dst *T) {
	for name, cp := range o.copy {
		if o.fl.Changed(name) {
			cp(dst)
		}
	}
}
