package scene

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/render"
)

var (
	highlightFill = color.RGBA{0xfd, 0xf0, 0xd5, 0xff}
	hoverFill     = color.RGBA{0xea, 0xf2, 0xf8, 0xff}
)

// Panel draws a titled panel frame and returns the rect inside it (see
// LayoutPanel).
func Panel(dst *ebiten.Image, r render.Rect, title string, th *render.Theme) render.Rect {
	var l layout.List
	inner := LayoutPanel(&l, r, title, th.Theme)
	render.Paint(dst, &l)
	return inner
}

// DrawPartitions draws the 128 mapping partitions as a grid: each cell shows
// the number of entries and who holds its lock, "X" and a filled border for
// an exclusive holder, "S" and an outline for shared holders.
func DrawPartitions(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	cols := 16
	rows := view.NumPartitions / cols
	cw, ch := r.W/float64(cols), r.H/float64(rows)
	face := th.Face(render.Regular, 9)
	changed := p.Changed().Partition
	for i := 0; i < view.NumPartitions; i++ {
		c := render.Rect{X: r.X + float64(i%cols)*cw, Y: r.Y + float64(i/cols)*ch, W: cw, H: ch}.Inset(1)
		n := p.PartitionLen(i)
		fill := th.Free
		if n > 0 {
			fill = th.UsageRamp[min(1+n/4, 3)]
		}
		render.Fill(dst, c, fill)
		w := p.PartitionHolders(i)
		label := ""
		if n > 0 {
			label = fmt.Sprint(n)
		}
		if x := view.HolderExclusive(w); x != 0 {
			render.Stroke(dst, c, 3, th.Locked)
			label = "X:" + p.Lane(x).Name
		} else if sh := view.HolderShared(w); len(sh) > 0 {
			render.Stroke(dst, c, 2, th.Accent)
			var names []string
			for _, a := range sh {
				names = append(names, p.Lane(a).Name)
			}
			label = "S:" + strings.Join(names, "")
		} else {
			render.Stroke(dst, c, 1, th.PanelEdge)
		}
		if i == changed {
			render.Stroke(dst, c.Inset(-1), 2, th.Highlight)
		}
		if label != "" && c.W > 14 {
			render.Text(dst, label, face, c.X+c.W/2, c.Y+(c.H-render.LineHeight(face))/2, render.TextOn(fill), render.Center)
		}
	}
}

// DrawLanes draws one row per backend: its name, what it is doing, whether
// it waits, its pins and its last error.
func DrawLanes(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	n := p.NumLanes()
	if n <= 1 {
		render.Text(dst, "no backends yet", th.Face(render.Regular, 12), r.X, r.Y, th.Muted, render.Left)
		return
	}
	face := th.Face(render.Regular, 12)
	bold := th.Face(render.Bold, 12)
	lh := render.LineHeight(face)
	rowH := min(r.H/float64(n-1), lh*3.4)
	cur := p.Changed().Lane
	for a := 1; a < n; a++ {
		l := p.Lane(trace.Actor(a))
		row := render.Rect{X: r.X, Y: r.Y + float64(a-1)*rowH, W: r.W, H: rowH - 2}
		if trace.Actor(a) == cur {
			render.Fill(dst, row, highlightFill)
		}
		render.Text(dst, l.Name, bold, row.X+4, row.Y+1, th.Text, render.Left)
		x := row.X + 4 + max(28, render.TextWidth(l.Name, bold)+10)
		status := p.OpLabel(trace.Actor(a))
		if status == "" {
			status = "idle"
		}
		switch {
		case l.Spinning:
			status += "   [SPINNING: BM_LOCKED is set]"
		case l.Waiting:
			status += "   [WAITING]"
		}
		render.Text(dst, status, face, x, row.Y+1, th.Text, render.Left)
		var pins []string
		for _, pin := range l.Pins {
			s := fmt.Sprintf("#%d", pin.Buf)
			if pin.Count > 1 {
				s += fmt.Sprintf("×%d", pin.Count)
			}
			pins = append(pins, s)
		}
		second := "pins: none"
		if len(pins) > 0 {
			if len(pins) > 12 {
				pins = append(pins[:12], fmt.Sprintf("… %d more", len(pins)-12))
			}
			second = "pins: " + strings.Join(pins, " ")
		}
		if l.CASes+l.CASFailures+l.Spins > 0 {
			second += fmt.Sprintf("   ·   CAS %d, failed %d, spins %d", l.CASes, l.CASFailures, l.Spins)
		}
		if l.HasErr && l.Failed() {
			second += "   ERROR: " + errText(l.ErrCode())
		}
		if rowH > lh*1.8 {
			c := th.Muted
			if l.HasErr && l.Failed() {
				c = th.Error
			}
			render.Text(dst, second, face, x, row.Y+1+lh, c, render.Left)
		}
		if rowH > lh*2.8 {
			drawLaneWord(dst, render.Rect{X: x, Y: row.Y + 1 + 2*lh, W: row.X + row.W - x, H: lh}, l, th)
		}
		if l.Spinning {
			drawSpinner(dst, row.X+4+render.TextWidth(l.Name, bold)/2, row.Y+1+lh*1.6, lh*0.45, l.Spins, th)
		}
	}
}

// drawLaneWord writes the backend's local copy of a state word (what its
// last load, CAS or header lock saw: PinBuffer's buf_state).
func drawLaneWord(dst *ebiten.Image, r render.Rect, l view.Lane, th *render.Theme) {
	face := th.Face(render.Mono, 10.5)
	if !l.HasWord {
		render.Text(dst, "word: -", face, r.X, r.Y, th.Muted, render.Left)
		return
	}
	w := l.Word
	verb := "sees"
	switch l.WordEvent.Kind {
	case trace.KCASFail:
		verb = "found"
	case trace.KCAS, trace.KUnlockHdr, trace.KDirty:
		verb = "wrote"
	case trace.KLockHdr:
		verb = "locked"
	}
	text := fmt.Sprintf("%s #%d: rc %d u %d %s", verb, l.WordEvent.Obj, bufmgr.StateRefcount(w), bufmgr.StateUsagecount(w), shortFlags(w))
	c := th.Text
	if l.WordEvent.Kind == trace.KCASFail {
		c = th.Error
	}
	render.Text(dst, text, face, r.X, r.Y, c, render.Left)
}

// shortFlags names the set flags of a state word with the labels of the
// state-word strip, high bit first ("-" for none).
func shortFlags(w uint32) string {
	var fs []string
	for _, f := range flagLabels {
		if w&f.bit != 0 {
			fs = append(fs, f.label)
		}
	}
	if len(fs) == 0 {
		return "-"
	}
	return strings.Join(fs, "|")
}

// drawSpinner draws eight dots in a circle, the one at spins mod 8 filled:
// a backend in the spin-delay loop on BM_LOCKED. It turns with each spin
// event (not with wall time), so a frame depends only on the position.
func drawSpinner(dst *ebiten.Image, cx, cy, rad float64, spins int, th *render.Theme) {
	for i := 0; i < 8; i++ {
		a := float64(i) * math.Pi / 4
		x, y := cx+rad*math.Cos(a), cy+rad*math.Sin(a)
		c, d := th.PanelEdge, rad*0.35
		if i == spins%8 {
			c, d = th.Locked, rad*0.55
		}
		render.Fill(dst, render.Rect{X: x - d/2, Y: y - d/2, W: d, H: d}, c)
	}
}

func errText(c bufmgr.ErrCode) string {
	switch c {
	case bufmgr.ErrNoUnpinnedBuffers:
		return "no unpinned buffers available"
	case bufmgr.ErrReadBeyondEOF:
		return "could not read block (beyond the end of the file)"
	case bufmgr.ErrBufferNotPinned:
		return "buffer is not pinned"
	case bufmgr.ErrMultiplePinWaiters:
		return "multiple backends attempting to wait for pincount 1"
	case bufmgr.ErrLocalPinCount:
		return "incorrect local pin count"
	}
	return fmt.Sprintf("error %d", c)
}

// DrawCode draws the pseudo-code of the function the current event comes
// from, the current line highlighted, and the event described below it.
func DrawCode(dst *ebiten.Image, r render.Rect, p *view.Pool, th *render.Theme) {
	e, ok := p.Current()
	desc := ""
	if ok {
		desc = bufmgr.DescribeWith(e, p.RelName, func(a trace.Actor) string { return p.Lane(a).Name })
	}
	DrawCodeFor(dst, r, e, ok, desc, th)
}

// DrawCodeFor is DrawCode for any event: desc is the event as its
// subsystem describes it (bufmgr.Describe, slru.Describe: "SEQ ACTOR KIND
// SITE text").
func DrawCodeFor(dst *ebiten.Image, r render.Rect, e trace.Event, ok bool, desc string, th *render.Theme) {
	face := th.Face(render.Mono, 11.5)
	bold := th.Face(render.Bold, 12)
	lh := render.LineHeight(face)
	if !ok {
		render.Text(dst, "No event yet: press → or Space.", th.Face(render.Regular, 12), r.X, r.Y, th.Muted, render.Left)
		return
	}
	if e.Kind == trace.KNone && e.Actor == trace.System {
		// Padding of the side-by-side scene: this variant has finished the
		// step and idles while the other one catches up.
		render.Text(dst, "This variant has finished the step; the other one is still running.", th.Face(render.Italic, 12), r.X, r.Y, th.Muted, render.Left)
		return
	}
	info := e.Site.Info()
	if info.Func == nil {
		render.Text(dst, e.String(), face, r.X, r.Y, th.Text, render.Left)
		return
	}
	f := info.Func
	render.Text(dst, render.Fit(fmt.Sprintf("%s   (%s, %s)", f.Name, f.File, f.Version), bold, r.W), bold, r.X, r.Y, th.Text, render.Left)
	// Two lines for the event in words below the code, one when the panel
	// is too short for both and a line of code (stacked panes).
	footLines := 2
	if r.H-(render.LineHeight(bold)+4)-(lh*2.4+4) < lh {
		footLines = 1
	}
	body, foot := r.SplitBottom(lh*(float64(footLines)+0.4) + 4)
	_, body = body.SplitTop(render.LineHeight(bold) + 4)
	visible := int(body.H / lh)
	first := 0
	if len(f.Lines) > visible {
		first = max(0, min(len(f.Lines)-visible, info.Line-visible/2))
	}
	for i := first; i < len(f.Lines) && i < first+visible; i++ {
		y := body.Y + float64(i-first)*lh
		line := f.Lines[i]
		if i == info.Line {
			render.Fill(dst, render.Rect{X: body.X - 2, Y: y, W: body.W + 4, H: lh}, highlightFill)
			render.Text(dst, "►", face, body.X, y, th.Highlight, render.Left)
		}
		render.Text(dst, line, face, body.X+14, y, th.Text, render.Left)
	}
	// The event in words: "event N by A: what", from the description's
	// actor column and text after the site.
	who, text := trace.ActorName(e.Actor), strings.TrimSpace(desc)
	if fields := strings.Fields(desc); len(fields) >= 4 {
		who = fields[1]
		text = strings.TrimSpace(desc[strings.Index(desc, fields[3])+len(fields[3]):])
		text = e.Kind.String() + " " + e.Site.String() + " " + text
	}
	lines := render.Wrap(fmt.Sprintf("event %d by %s: %s", e.Seq, who, text), th.Face(render.Regular, 11.5), foot.W)
	for i, l := range lines {
		if i == footLines {
			break
		}
		if i == footLines-1 && len(lines) > footLines {
			l = render.Fit(l+" "+lines[i+1], th.Face(render.Regular, 11.5), foot.W)
		}
		render.Text(dst, l, th.Face(render.Regular, 11.5), foot.X, foot.Y+4+float64(i)*lh, th.Text, render.Left)
	}
}

// DrawCounterLine draws counters on one line of text (see
// LayoutCounterLine).
func DrawCounterLine(dst *ebiten.Image, r render.Rect, items []Counter, th *render.Theme) {
	var l layout.List
	LayoutCounterLine(&l, r, items, th.Theme)
	render.Paint(dst, &l)
}

// Counter is one labelled number of a counter row.
type Counter struct {
	Label string
	V     uint64
}

// PoolCounters are the counters the pool scene shows.
func PoolCounters(c view.Counters) []Counter {
	return []Counter{
		{"hits", c.Hits}, {"misses", c.Misses}, {"writes", c.Writes}, {"sweep ticks", c.ClockTicks},
		{"usage decrements", c.UsageDecrements}, {"partition locks", c.PartitionLocks},
		{"lock waits", c.LockWaits}, {"CAS failed", c.CASFailures}, {"spins", c.Spins}, {"errors", c.Errors},
	}
}

// PinCounters are the counters of one pane of the side-by-side pin scene:
// what pinning cost in each variant.
func PinCounters(c view.Counters) []Counter {
	return []Counter{
		{"hits", c.Hits}, {"misses", c.Misses}, {"CAS", c.CASAttempts}, {"CAS failed", c.CASFailures},
		{"header locks", c.HeaderLocks}, {"spin delays", c.Spins},
	}
}

// DropCounters are the counters of one pane of the drop race: what
// finding the relation's buffers cost each strategy.
func DropCounters(c view.Counters) []Counter {
	return []Counter{
		{"descriptors", c.DropDescsTouched}, {"lookups", c.DropLookups},
		{"part. locks", c.DropPartitionLocks}, {"list hops", c.DropListHops},
		{"dropped", c.DropInvalidated}, {"list upkeep", c.DListLinks + c.DListUnlinks},
	}
}

// DrawCounters draws the pool scene's counters in a row of labelled boxes.
func DrawCounters(dst *ebiten.Image, r render.Rect, c view.Counters, th *render.Theme) {
	DrawCounterRow(dst, r, PoolCounters(c), th)
}

// DrawCounterRow draws counters in a row of labelled boxes (see
// LayoutCounterRow).
func DrawCounterRow(dst *ebiten.Image, r render.Rect, items []Counter, th *render.Theme) {
	var l layout.List
	LayoutCounterRow(&l, r, items, th.Theme)
	render.Paint(dst, &l)
}
