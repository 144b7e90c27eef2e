package scope

import (
	"os"
	"testing"
)

// TestFlashinferFixture runs the requester-side checks over the example
// repository in fixtures/scope-flashinfer.
func TestFlashinferFixture(t *testing.T) {
	const dir = "../fixtures/scope-flashinfer"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("fixture absent: %v", err)
	}
	fsys := os.DirFS(dir)
	c := resolved(t, "flashinfer")
	if fs, err := CheckCap(fsys, c); err != nil || len(fs) != 0 {
		t.Fatalf("cap drift in the fixture: %v %v", fs, err)
	}
	o := OptionsFrom(c)
	o.FS = fsys
	res := Validate([]string{"tests/attention/test_batch_prefill.py", "tests/gemm/"}, o)
	if !res.Accepted() {
		t.Fatalf("rejected: %v", res.Reasons)
	}
	res = Validate([]string{"tests/attention/test_batch_prefil.py"}, o)
	if res.Accepted() || res.Reasons[0].ID != ReasonMissing {
		t.Fatalf("a mistyped path must be caught by the requester: %v", res.Reasons)
	}
}

func BenchmarkClassify(b *testing.B) {
	c := resolved(b, "flashinfer")
	o := ClassifyOptions{Config: c, Validate: OptionsFrom(c)}
	body := "Thanks for the review!\n\n> @flashinfer-bot run all\n\n```\n@flashinfer-bot stop\n```\n\n@flashinfer-bot run tests/attention/test_batch_prefill.py tests/gemm/ tests/moe/\n"
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := Classify(body, o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	targets := append([]string{}, specExample...)
	o := Options{Root: "tests/", MaxTargets: 16, ChunkLimit: 140}
	for b.Loop() {
		Validate(targets, o)
	}
}
