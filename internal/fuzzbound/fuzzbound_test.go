package fuzzbound

import "testing"

// The lessons' largest inputs fit; one over any bound is skipped, and
// the reason names the bound.
func TestSkip(t *testing.T) {
	for _, c := range []struct {
		nbuffers, clogPages, shows int
		want                       string
	}{
		{16384, 40, 3, ""},
		{16, 0, 0, ""},
		{16385, 0, 0, "pool larger than 128MB"},
		{16, 1025, 0, "too many clog_pages"},
		{16384, 0, 65, "too many buffers shown"},
		{16384, 0, 64, ""},
	} {
		if got := Skip(c.nbuffers, c.clogPages, c.shows); got != c.want {
			t.Errorf("Skip(%d, %d, %d) = %q, want %q", c.nbuffers, c.clogPages, c.shows, got, c.want)
		}
	}
}
