package testregistry

import (
	"errors"
	"testing"
)

func TestSelectRequestCheck(t *testing.T) {
	for _, c := range []struct {
		q           SelectRequest
		wantErr     string
		wantCadence string
		part        string // "id/size" when a partition is read
	}{
		{q: SelectRequest{}, wantCadence: "regular"},
		{q: SelectRequest{Nightly: true}, wantCadence: "nightly"},
		{q: SelectRequest{Cadence: "weekly"}, wantCadence: "weekly"},
		{q: SelectRequest{Cadence: "weekly", Nightly: true}, wantErr: "--nightly and --cadence are mutually exclusive"},
		{q: SelectRequest{HW: "cuda"}, wantErr: "--hw and --suite must be given together"},
		{q: SelectRequest{Suite: "s"}, wantErr: "--hw and --suite must be given together"},
		{q: SelectRequest{HW: "cuda", Suite: "s", Partition: "1/4"}, wantCadence: "regular", part: "1/4"},
		{q: SelectRequest{HW: "cuda", Suite: "s", Partition: "1-4"}, wantErr: `invalid --partition "1-4" (want I/N, e.g. 0/4)`},
		{q: SelectRequest{HW: "cuda", Suite: "s", Partition: "x/4"}, wantErr: `invalid --partition "x/4" (want I/N, e.g. 0/4)`},
		{q: SelectRequest{Partition: "0/2"}, wantErr: "--partition needs --hw and --suite"},
	} {
		q := c.q
		id, size, err := q.Check()
		if c.wantErr != "" {
			var ue *UsageError
			if err == nil || err.Error() != c.wantErr || !errors.As(err, &ue) {
				t.Errorf("%+v: %v, want usage error %q", c.q, err, c.wantErr)
			}
			continue
		}
		if err != nil || q.Cadence != c.wantCadence {
			t.Errorf("%+v: cadence %q (%v), want %q", c.q, q.Cadence, err, c.wantCadence)
		}
		if (c.part != "") != (id != nil) || id != nil && c.part != itoa(*id)+"/"+itoa(*size) {
			t.Errorf("%+v: partition %v/%v, want %s", c.q, id, size, c.part)
		}
		// Check is idempotent: a checked request checks again.
		if _, _, err := q.Check(); err != nil {
			t.Errorf("%+v: second Check: %v", c.q, err)
		}
	}
}

func itoa(n int) string { return string(rune('0' + n)) }
