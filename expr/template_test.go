package expr

import "testing"

func TestEvalTemplate(t *testing.T) {
	env := &Env{Contexts: map[string]Value{
		"github": Object(map[string]Value{"event_name": String("push")}),
		"matrix": Object(map[string]Value{"n": Number(3)}),
	}}
	for _, c := range []struct {
		raw, want string
		known     bool
	}{
		{"plain", "plain", true},
		{"${{ github.event_name }}", "push", true},
		{"on-${{ github.event_name }}-${{ matrix.n }}", "on-push-3", true},
		{"${{ matrix.missing }}", "", true}, // null renders as ''
		{"${{ steps.s.outputs.x }}", "", false},
		{"a-${{ steps.s.outputs.x }}", "", false},
		{"${{ github.event_name", "", false}, // unterminated
		{"${{ ( }}", "", false},
	} {
		v := EvalTemplate(c.raw, env)
		if v.Known() != c.known || (c.known && v.Text() != c.want) {
			t.Errorf("EvalTemplate(%q) = %v, want %q (known %v)", c.raw, v, c.want, c.known)
		}
	}
}

func FuzzEvalTemplate(f *testing.F) {
	for _, s := range []string{"plain", "${{ github.event_name }}", "a-${{ 1 }}-${{ 'x' }}", "${{", "}}${{ }}", "${{ fromJSON('[1]') }}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v := EvalTemplate(raw, nil)
		if v.Known() && v.Kind != KindString && v.Kind != KindNull && v.Kind != KindBool && v.Kind != KindNumber && v.Kind != KindArray && v.Kind != KindObject {
			t.Fatalf("EvalTemplate(%q) = kind %v", raw, v.Kind)
		}
	})
}
