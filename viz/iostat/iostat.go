package iostat

import (
	"fmt"
	"slices"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/mech"
	"bufferlab/viz/timeline"
)

// Name is the mechanism's name and config key (io_stats=on).
const Name = "io_stats"

func init() {
	scenario.Register(scenario.Mechanism{
		Name: Name, Title: "pg_stat_io's counters", Owner: trace.MPool,
		Keys: []scenario.Key{{Name: Name, Values: "on|off", Doc: "show a pg_stat_io-like panel of the run's shared-buffer I/O (PostgreSQL 16+)",
			Parse: func(v string) (any, error) { return scenario.ParseOnOff(v) }}},
	})
	mech.Add(mech.Def[*View]{
		Name: Name,
		Open: func(r mech.Run) *timeline.Of[*View] {
			if on, _ := r.Runner.Config().Ext[Name].(bool); !on {
				return nil
			}
			return mech.NewTimeline(r, New(), 0)
		},
		Title:       func(*View) string { return "pg_stat_io (PG 16+): shared buffers by context" },
		Panel:       Layout,
		PanelHeight: Height,
	})
}

// Context is an I/O context of pg_stat_io.
type Context uint8

// The contexts a run here can have.
const (
	Normal   Context = iota // IOCONTEXT_NORMAL
	BulkRead                // IOCONTEXT_BULKREAD: a scan's ring
	numContexts
)

var contextNames = [numContexts]string{"normal", "bulkread"}

func (c Context) String() string { return contextNames[c] }

// Row is one context's counters.
type Row struct {
	Reads, Hits, Writes, Evictions, Reuses uint64
}

// View is the panel's state: a row per context, and each backend's
// strategy state (whether its operation uses a ring, whether its last
// victim came from the ring).
type View struct {
	rows    [numContexts]Row
	actors  []actorState // by actor
	applied int
	hist    []undo
}

type actorState struct {
	inRing   bool // the operation has used a BULKREAD ring
	fromRing bool // its last victim was the ring's (GetVictimBuffer's from_ring)
}

// undo restores what one event changed.
type undo struct {
	ctx   Context
	row   Row
	actor trace.Actor
	was   actorState
}

// New is the view before any event.
func New() *View { return &View{} }

// Rows returns the counters by context.
func (v *View) Rows() [numContexts]Row { return v.rows }

// Applied is the number of events applied.
func (v *View) Applied() int { return v.applied }

func (v *View) actor(a trace.Actor) *actorState {
	for int(a) >= len(v.actors) {
		v.actors = append(v.actors, actorState{})
	}
	return &v.actors[a]
}

// Apply counts one event.
func (v *View) Apply(e trace.Event) {
	as := v.actor(e.Actor)
	ctx := Normal
	if as.inRing {
		ctx = BulkRead
	}
	u := undo{ctx: ctx, row: v.rows[ctx], actor: e.Actor, was: *as}
	r := &v.rows[ctx]
	switch {
	case e.Kind == trace.KOp || e.Kind == trace.KOpDone:
		*as = actorState{} // a new operation chooses its strategy anew
	case e.Class == trace.OBuffer && e.Kind == trace.KRingAdd:
		as.inRing = true
	case e.Class == trace.OBuffer && e.Kind == trace.KVictim:
		as.fromRing = e.Arg == bufmgr.VictimRing
		as.inRing = as.inRing || as.fromRing
	case e.Class == trace.OBuffer && e.Kind == trace.KIORead:
		r.Reads++
	case e.Class == trace.OBuffer && e.Kind == trace.KHit:
		r.Hits++
	case e.Class == trace.OBuffer && e.Kind == trace.KIOWrite:
		r.Writes++
	case e.Class == trace.OBuffer && e.Kind == trace.KRetag && e.Before != ^uint64(0) && e.After != ^uint64(0):
		// A victim that held a page: GetVictimBuffer's IOOP_REUSE when
		// it came from the ring, IOOP_EVICT otherwise, also when a scan
		// claims it for its ring (a drop's retag to no tag is neither).
		if as.fromRing {
			r.Reuses++
		} else {
			r.Evictions++
		}
	}
	v.hist = append(v.hist, u)
	v.applied++
}

// Unapply undoes the last event applied, which must be e.
func (v *View) Unapply(e trace.Event) {
	if len(v.hist) == 0 {
		panic("iostat: unapply with no history")
	}
	u := v.hist[len(v.hist)-1]
	v.hist = v.hist[:len(v.hist)-1]
	v.rows[u.ctx] = u.row
	*v.actor(u.actor) = u.was
	v.applied--
}

// HistoryLen is the number of events that can be unapplied.
func (v *View) HistoryLen() int { return len(v.hist) }

// TrimHistory keeps the last keep events' undo records.
func (v *View) TrimHistory(keep int) {
	if n := len(v.hist); n > keep {
		v.hist = slices.Clone(v.hist[n-keep:])
	}
}

// Snapshot is a copy without history.
func (v *View) Snapshot() *View {
	return &View{rows: v.rows, actors: slices.Clone(v.actors), applied: v.applied}
}

// Clone is a copy with its own history.
func (v *View) Clone() *View {
	c := v.Snapshot()
	c.hist = slices.Clone(v.hist)
	return c
}

// note says where the numbers come from, under the table.
const note = "Counted from this run's events as bufmgr.c's pgstat_count_io_op counts them (PostgreSQL 16+)."

// panelFonts are the table's header, number and note fonts, and a row's
// height.
func panelFonts(th *layout.Theme) (head, num, small layout.Font, rowH float64) {
	head, num, small = th.Font(layout.Bold, 11), th.Font(layout.Mono, 12), th.Font(layout.Italic, 10)
	return head, num, small, layout.LineHeight(num) + 4
}

// Height is what Layout needs at width w: the header and a row per
// context, then the note.
func Height(th *layout.Theme, w float64) float64 {
	_, _, small, rowH := panelFonts(th)
	return float64(numContexts+1)*rowH + 4 + float64(len(layout.Wrap(note, small, w)))*layout.LineHeight(small)
}

// Layout lays the panel out in r: a table with a row per context and a
// column per counter, the header muted, the numbers in mono, then the
// note. A row or note line below r's bottom is recorded as an overflow.
func Layout(l *layout.List, r layout.Rect, v *View, th *layout.Theme) {
	head, num, small, lh := panelFonts(th)
	cols := []string{"context", "reads", "hits", "writes", "evictions", "reuses"}
	// The context column is as wide as its widest word; the counters share
	// the rest.
	cw := layout.Width(cols[0], head)
	for c := Context(0); c < numContexts; c++ {
		cw = max(cw, layout.Width(c.String(), num))
	}
	cw += 8
	w := (r.W - cw) / float64(len(cols)-1)
	colRight := func(i int) float64 { return r.X + cw + float64(i)*w - 2 } // counter column i's right edge (1-based)
	fits := func(role, text string, y, h float64) bool {
		if y+h <= r.Y+r.H+0.5 {
			return true
		}
		l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: text, Axis: "h", Need: y + h - r.Y, Have: r.H})
		return false
	}
	l.Text("io_stats head", cols[0], head, r.X, r.Y, cw, th.Muted, layout.Left)
	for i, c := range cols[1:] {
		// A column too narrow for its header shows it cut with "…"
		// (recorded) rather than over its neighbour.
		l.FitText("io_stats head", c, head, colRight(i+1), r.Y, w-2, th.Muted, layout.Right)
	}
	for ci := Context(0); ci < numContexts; ci++ {
		row := v.rows[ci]
		y := r.Y + float64(ci+1)*lh
		if !fits("io_stats context", ci.String(), y, lh) {
			continue
		}
		if ci%2 == 0 {
			l.Fill("io_stats row", layout.Rect{X: r.X, Y: y - 2, W: r.W, H: lh}, th.Background)
		}
		vals := []uint64{row.Reads, row.Hits, row.Writes, row.Evictions, row.Reuses}
		l.Text("io_stats context", ci.String(), num, r.X, y, cw, th.Text, layout.Left)
		for i, n := range vals {
			l.Text("io_stats "+cols[i+1], fmt.Sprint(n), num, colRight(i+1), y, w-2, th.Text, layout.Right)
		}
	}
	y := r.Y + float64(numContexts+1)*lh + 4
	for _, line := range layout.Wrap(note, small, r.W) {
		if fits("io_stats note", line, y, layout.LineHeight(small)) {
			l.Text("io_stats note", line, small, r.X, y, r.W, th.Muted, layout.Left)
		}
		y += layout.LineHeight(small)
	}
}
