package scene

import (
	"fmt"
	"math"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
)

// LayoutPartitions lays out the 128 mapping partitions (the buffer
// mapping table's NUM_BUFFER_PARTITIONS, BufMappingPartitionLock) as a
// 16×8 grid: each cell shows the number of entries and who holds its
// lock, "X" and a thick border for an exclusive holder, "S" and an outline
// for shared holders. A label wider than its cell is recorded.
func LayoutPartitions(l *layout.List, r layout.Rect, p *view.Pool, th *layout.Theme) {
	cols := 16
	rows := view.NumPartitions / cols
	cw, ch := r.W/float64(cols), r.H/float64(rows)
	face := th.Font(layout.Regular, 9)
	changed := p.Changed().Partition
	for i := 0; i < view.NumPartitions; i++ {
		role := fmt.Sprintf("partition %d", i)
		c := layout.Rect{X: r.X + float64(i%cols)*cw, Y: r.Y + float64(i/cols)*ch, W: cw, H: ch}.Inset(1)
		n := p.PartitionLen(i)
		fill := th.Free
		if n > 0 {
			fill = th.UsageRamp[min(1+n/4, 3)]
		}
		l.Fill(role, c, fill)
		w := p.PartitionHolders(i)
		label := ""
		if n > 0 {
			label = fmt.Sprint(n)
		}
		if x := view.HolderExclusive(w); x != 0 {
			l.Stroke(role, c, 3, th.Locked)
			label = "X:" + p.Lane(x).Name
		} else if sh := view.HolderShared(w); len(sh) > 0 {
			l.Stroke(role, c, 2, th.Accent)
			var names []string
			for _, a := range sh {
				names = append(names, p.Lane(a).Name)
			}
			label = "S:" + strings.Join(names, "")
		} else {
			l.Stroke(role, c, 1, th.PanelEdge)
		}
		if i == changed {
			l.Stroke("changed", c.Inset(-1), 2, th.Highlight)
		}
		if label != "" {
			if c.W > 14 {
				l.Text(role, label, face, c.X+c.W/2, c.Y+(c.H-layout.LineHeight(face))/2, c.W, layout.TextOn(fill), layout.Center)
				tallOverflow(l, role, label, face, c.H)
			} else {
				l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: label, Axis: "w", Need: layout.Width(label, face), Have: c.W})
			}
		}
	}
}

// tallOverflow records a run in font f centred in a box h high when the
// run is taller than the box (it is drawn as it is, spilling above and
// below the box).
func tallOverflow(l *layout.List, role, s string, f layout.Font, h float64) {
	if lh := layout.LineHeight(f); lh > h+0.5 {
		l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: s, Axis: "h", Need: lh, Have: h})
	}
}

// LayoutLanes lays out one row per backend: its name, what it is doing,
// whether it waits or spins (a spinner for the spin-delay loop), its pins
// and CAS counts and its last error, and the backend's copy of the state
// word. Rows too short for the second or third line leave them out, and
// each line left out is recorded as an overflow.
func LayoutLanes(l *layout.List, r layout.Rect, p *view.Pool, th *layout.Theme) {
	n := p.NumLanes()
	if n <= 1 {
		l.Text("lanes", "no backends yet", th.Font(layout.Regular, 12), r.X, r.Y, r.W, th.Muted, layout.Left)
		return
	}
	face := th.Font(layout.Regular, 12)
	bold := th.Font(layout.Bold, 12)
	lh := layout.LineHeight(face)
	rowH := min(r.H/float64(n-1), lh*3.4)
	cur := p.Changed().Lane
	for a := 1; a < n; a++ {
		ln := p.Lane(trace.Actor(a))
		role := "lane " + ln.Name
		row := layout.Rect{X: r.X, Y: r.Y + float64(a-1)*rowH, W: r.W, H: rowH - 2}
		if trace.Actor(a) == cur {
			l.Fill(role, row, th.HighlightFill)
		}
		l.Text(role, ln.Name, bold, row.X+4, row.Y+1, row.W-4, th.Text, layout.Left)
		x := row.X + 4 + max(28, layout.Width(ln.Name, bold)+10)
		textW := row.X + row.W - x
		status := p.OpLabel(trace.Actor(a))
		if status == "" {
			status = "idle"
		}
		switch {
		case ln.Spinning:
			status += "   [SPINNING: BM_LOCKED is set]"
		case ln.Waiting:
			status += "   [WAITING]"
		}
		l.Text(role, status, face, x, row.Y+1, textW, th.Text, layout.Left)
		var pins []string
		for _, pin := range ln.Pins {
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
		if ln.CASes+ln.CASFailures+ln.Spins > 0 {
			second += fmt.Sprintf("   ·   CAS %d, failed %d, spins %d", ln.CASes, ln.CASFailures, ln.Spins)
		}
		if ln.HasErr && ln.Failed() {
			second += "   ERROR: " + errText(ln.ErrCode())
		}
		if rowH > lh*1.8 {
			c := th.Muted
			if ln.HasErr && ln.Failed() {
				c = th.Error
			}
			l.Text(role, second, face, x, row.Y+1+lh, textW, c, layout.Left)
		} else {
			l.Overflows = append(l.Overflows, layout.Overflow{Role: role, Text: second, Axis: "h", Need: lh * 1.8, Have: rowH})
		}
		word := layout.Rect{X: x, Y: row.Y + 1 + 2*lh, W: textW, H: lh}
		if rowH > lh*2.8 {
			layoutLaneWord(l, role+" word", word, ln, th)
		} else {
			var w layout.List
			layoutLaneWord(&w, role+" word", word, ln, th)
			for _, t := range w.Texts("") {
				l.Overflows = append(l.Overflows, layout.Overflow{Role: t.Role, Text: t.Text, Axis: "h", Need: lh * 2.8, Have: rowH})
			}
		}
		if ln.Spinning {
			layoutSpinner(l, row.X+4+layout.Width(ln.Name, bold)/2, row.Y+1+lh*1.6, lh*0.45, ln.Spins, th)
		}
	}
}

// layoutLaneWord writes the backend's local copy of a state word (what its
// last load, CAS or header lock saw: PinBuffer's buf_state), in the error
// colour after a failed CAS.
func layoutLaneWord(l *layout.List, role string, r layout.Rect, ln view.Lane, th *layout.Theme) {
	face := th.Font(layout.Mono, 10.5)
	if !ln.HasWord {
		l.Text(role, "word: -", face, r.X, r.Y, r.W, th.Muted, layout.Left)
		return
	}
	w := ln.Word
	verb := "sees"
	switch ln.WordEvent.Kind {
	case trace.KCASFail:
		verb = "found"
	case trace.KCAS, trace.KUnlockHdr, trace.KDirty:
		verb = "wrote"
	case trace.KLockHdr:
		verb = "locked"
	}
	text := fmt.Sprintf("%s #%d: rc %d u %d %s", verb, ln.WordEvent.Obj, bufmgr.StateRefcount(w), bufmgr.StateUsagecount(w), shortFlags(w))
	c := th.Text
	if ln.WordEvent.Kind == trace.KCASFail {
		c = th.Error
	}
	l.Text(role, text, face, r.X, r.Y, r.W, c, layout.Left)
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

// layoutSpinner lays out eight dots in a circle, the one at spins mod 8
// filled: a backend in the spin-delay loop on BM_LOCKED (perform_spin_delay).
// It turns with each spin event (not with wall time), so a frame depends
// only on the position.
func layoutSpinner(l *layout.List, cx, cy, rad float64, spins int, th *layout.Theme) {
	for i := 0; i < 8; i++ {
		a := float64(i) * math.Pi / 4
		x, y := cx+rad*math.Cos(a), cy+rad*math.Sin(a)
		c, d := th.PanelEdge, rad*0.35
		if i == spins%8 {
			c, d = th.Locked, rad*0.55
		}
		l.Fill("spinner", layout.Rect{X: x - d/2, Y: y - d/2, W: d, H: d}, c)
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

// LayoutCode lays out the pseudo-code of the function the pool's current
// event comes from (see LayoutCodeFor).
func LayoutCode(l *layout.List, r layout.Rect, p *view.Pool, th *layout.Theme) {
	e, ok := p.Current()
	desc := ""
	if ok {
		desc = bufmgr.DescribeWith(e, p.RelName, func(a trace.Actor) string { return p.Lane(a).Name })
	}
	LayoutCodeFor(l, r, e, ok, desc, th)
}

// LayoutCodeFor lays out the pseudo-code of the function any event comes
// from, the current line highlighted, and the event described below it in
// one or two lines: desc is the event as its subsystem describes it
// (bufmgr.Describe, slru.Describe: "SEQ ACTOR KIND SITE text"). Code
// lines wider than r and lines below it are recorded as overflows (the
// panel clips them); the function's title and the description are
// shortened with "…" to fit.
func LayoutCodeFor(l *layout.List, r layout.Rect, e trace.Event, ok bool, desc string, th *layout.Theme) {
	face := th.Font(layout.Mono, 11.5)
	bold := th.Font(layout.Bold, 12)
	lh := layout.LineHeight(face)
	if !ok {
		l.Text("code", "No event yet: press → or Space.", th.Font(layout.Regular, 12), r.X, r.Y, r.W, th.Muted, layout.Left)
		return
	}
	if e.Kind == trace.KNone && e.Actor == trace.System {
		// Padding of the side-by-side scene: this variant has finished the
		// step and idles while the other one catches up.
		l.Text("code", "This variant has finished the step; the other one is still running.", th.Font(layout.Italic, 12), r.X, r.Y, r.W, th.Muted, layout.Left)
		return
	}
	info := e.Site.Info()
	if info.Func == nil {
		l.Text("code", e.String(), face, r.X, r.Y, r.W, th.Text, layout.Left)
		return
	}
	f := info.Func
	l.FitText("code title", fmt.Sprintf("%s   (%s, %s)", f.Name, f.File, f.Version), bold, r.X, r.Y, r.W, th.Text, layout.Left)
	// Two lines for the event in words below the code, one when the panel
	// is too short for both and a line of code (stacked panes).
	footLines := 2
	if r.H-(layout.LineHeight(bold)+4)-(lh*2.4+4) < lh {
		footLines = 1
	}
	body, foot := r.SplitBottom(lh*(float64(footLines)+0.4) + 4)
	_, body = body.SplitTop(layout.LineHeight(bold) + 4)
	visible := int(body.H / lh)
	first := 0
	if len(f.Lines) > visible {
		first = max(0, min(len(f.Lines)-visible, info.Line-visible/2))
	}
	if first > 0 || first+visible < len(f.Lines) {
		// The code scrolls to keep the current line in view: the lines it
		// leaves out are a fact for the goldens.
		l.Overflows = append(l.Overflows, layout.Overflow{Role: "code lines", Text: fmt.Sprintf("%s: lines %d–%d of %d shown", f.Name, first+1, min(len(f.Lines), first+visible), len(f.Lines)), Axis: "h", Need: lh * float64(len(f.Lines)), Have: body.H})
	}
	for i := first; i < len(f.Lines) && i < first+visible; i++ {
		y := body.Y + float64(i-first)*lh
		line := f.Lines[i]
		if i == info.Line {
			l.Fill("code current", layout.Rect{X: body.X - 2, Y: y, W: body.W + 4, H: lh}, th.HighlightFill)
			l.Text("code current", "►", face, body.X, y, 0, th.Highlight, layout.Left)
		}
		l.Text("code line", line, face, body.X+14, y, body.W-14, th.Text, layout.Left)
	}
	// The event in words: "event N by A: what", from the description's
	// actor column and text after the site.
	who, text := trace.ActorName(e.Actor), strings.TrimSpace(desc)
	if fields := strings.Fields(desc); len(fields) >= 4 {
		who = fields[1]
		text = strings.TrimSpace(desc[strings.Index(desc, fields[3])+len(fields[3]):])
		text = e.Kind.String() + " " + e.Site.String() + " " + text
	}
	small := th.Font(layout.Regular, 11.5)
	lines := layout.Wrap(fmt.Sprintf("event %d by %s: %s", e.Seq, who, text), small, foot.W)
	for i, ln := range lines {
		if i == footLines {
			break
		}
		if i == footLines-1 && len(lines) > footLines {
			// The last line takes the rest, cut with "…" (recorded).
			l.FitText("code event", ln+" "+lines[i+1], small, foot.X, foot.Y+4+float64(i)*lh, foot.W, th.Text, layout.Left)
			continue
		}
		l.Text("code event", ln, small, foot.X, foot.Y+4+float64(i)*lh, foot.W, th.Text, layout.Left)
	}
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
