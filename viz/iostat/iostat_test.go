package iostat_test

import (
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/viz/iostat"
	"bufferlab/viz/layout"
	"bufferlab/viz/mech"
	_ "bufferlab/viz/mech/all"
	"bufferlab/viz/player"
	"bufferlab/viz/poolview/pooltest"
)

// A scan of a table over NBuffers/4 blocks reads through a BULKREAD ring:
// GetAccessStrategy (freelist.c, PG 15) sizes it 256 kB = 32 buffers,
// capped at NBuffers/8 = 16 for a 1 MB pool. Its 100 reads are in the
// bulkread context; its first 16 victims come from the freelist (no page
// to evict), the other 84 are the ring's own buffers reused (IOOP_REUSE).
// Then touching 20 blocks of another table reads them in the normal
// context; they are evictions only once the freelist is empty.
const src = `config shared_buffers=1MB io_stats=on
relation big blocks=100
relation small blocks=20
backend A: scan big; touch small 0..19; touch small 0..19
run
`

func TestCountsAsPgStatIO(t *testing.T) {
	r := pooltest.Run(t, "io.scn", src)
	v := iostat.New()
	for _, e := range r.Log().Events() {
		v.Apply(e)
	}
	rows := v.Rows()
	bulk, normal := rows[iostat.BulkRead], rows[iostat.Normal]
	if bulk.Reads != 100 || bulk.Reuses != 84 || bulk.Evictions != 0 {
		t.Errorf("bulkread %+v: want 100 reads, 84 reuses, no evictions", bulk)
	}
	if normal.Reads != 20 || normal.Hits != 20 || normal.Reuses != 0 {
		t.Errorf("normal %+v: want 20 reads, 20 hits, no reuses", normal)
	}
	// The totals are the pool's own counters.
	st := r.Pool().Stats()
	if got := bulk.Reads + normal.Reads; got != st.Misses {
		t.Errorf("reads %d, the pool's misses %d", got, st.Misses)
	}
	if got := bulk.Hits + normal.Hits; got != st.Hits {
		t.Errorf("hits %d, the pool's hits %d", got, st.Hits)
	}
	if got := bulk.Writes + normal.Writes; got != st.Writes {
		t.Errorf("writes %d, the pool's writes %d", got, st.Writes)
	}
}

// Through the player: the track exists only with io_stats=on, a seek
// anywhere equals a replay from the start, and the panel lays out every
// context's row.
func TestPanelFollowsThePlayer(t *testing.T) {
	p, err := player.FromScenario("io.scn", src)
	if err != nil {
		t.Fatal(err)
	}
	if p.Track(iostat.Name) == nil {
		t.Fatal("no io_stats track with io_stats=on")
	}
	evs := trace.Collect(p.TL.Events(), 0, p.TL.Len())
	for _, pos := range []int{len(evs), 7, len(evs) / 2, 0, len(evs) - 3, len(evs) / 3} {
		p.TL.Seek(pos)
		got := p.Track(iostat.Name).State().(*iostat.View).Rows()
		fresh := iostat.New()
		for _, e := range evs[:pos] {
			fresh.Apply(e)
		}
		if got != fresh.Rows() {
			t.Fatalf("at %d: seeked %+v, replayed %+v", pos, got, fresh.Rows())
		}
	}
	m, _ := mech.Lookup(iostat.Name)
	var l layout.List
	m.Panel(&l, layout.Rect{X: 0, Y: 0, W: 520, H: 200}, p.Track(iostat.Name).State(), layout.Light(1))
	if n := len(l.Texts("io_stats context")); n != 2 {
		t.Errorf("%d context rows laid out, want 2", n)
	}
	if len(l.Overflows) != 0 {
		t.Errorf("at 520 px wide: %v", l.Overflows)
	}
	q, err := player.FromScenario("q.scn", "relation r blocks=2\nbackend A: touch r 0\nrun\n")
	if err != nil {
		t.Fatal(err)
	}
	if q.Track(iostat.Name) != nil {
		t.Fatal("an io_stats track without io_stats=on")
	}
	if _, err := scenario.Parse("bad.scn", "config io_stats=maybe\n"); err == nil {
		t.Fatal("io_stats=maybe parsed")
	}
}

// Height is what the panel needs: at that height, and at least the width
// the right column has in a 1280-pixel window (460 px, presentation mode
// included), every row and the note are laid out with nothing over; in
// less, what is left out is recorded, never silently cut.
func TestPanelHeight(t *testing.T) {
	v := iostat.New()
	for _, scale := range []float64{1, 1.45} {
		th := layout.Light(scale)
		for _, w := range []float64{460, 760, 900} {
			h := iostat.Height(th, w)
			var l layout.List
			iostat.Layout(&l, layout.Rect{W: w, H: h}, v, th)
			if len(l.Overflows) != 0 {
				t.Errorf("scale %v, %v×%v (its Height): %v", scale, w, h, l.Overflows)
			}
			if n := len(l.Texts("io_stats context")); n != 2 {
				t.Errorf("scale %v, width %v: %d context rows", scale, w, n)
			}
			var short layout.List
			iostat.Layout(&short, layout.Rect{W: w, H: h / 2}, v, th)
			if len(short.Overflows) == 0 || len(short.Texts("io_stats context"))+len(short.Texts("io_stats note")) >= len(l.Texts("io_stats context"))+len(l.Texts("io_stats note")) {
				t.Errorf("scale %v, width %v at half height: %d overflows, nothing left out", scale, w, len(short.Overflows))
			}
			var narrow layout.List
			iostat.Layout(&narrow, layout.Rect{W: 200, H: h}, v, th)
			if len(narrow.Overflows) == 0 {
				t.Errorf("scale %v at 200 px wide: no overflow recorded", scale)
			}
		}
	}
}
