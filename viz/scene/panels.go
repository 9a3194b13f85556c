package scene

import (
	"fmt"
	"image/color"
	"math"
	"sort"
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
//
// The trail shown marks the partitions its operation probed (a yellow
// frame inside the cell, layoutPartitionTrail) and those whose entries it
// inserted or deleted (a corner at the bottom right, in Trail.Gone): the
// per-block lookup's handful of hops.
//
// Each cell is recorded as a hit region of kind "partition" (its number
// the ID) for PartitionTooltip.
func LayoutPartitions(l *layout.List, r layout.Rect, p *view.Pool, th *layout.Theme) {
	cols := partitionCols
	rows := view.NumPartitions / cols
	cw, ch := r.W/float64(cols), r.H/float64(rows)
	face := th.Font(layout.Regular, 9)
	changed := p.Changed().Partition
	tr := p.Trails()
	for i := 0; i < view.NumPartitions; i++ {
		role := fmt.Sprintf("partition %d", i)
		c := layout.Rect{X: r.X + float64(i%cols)*cw, Y: r.Y + float64(i/cols)*ch, W: cw, H: ch}.Inset(1)
		n := p.PartitionLen(i)
		fill := partitionFill(n, th)
		l.Fill(role, c, fill)
		l.AddHit(HitPartition, i, [2]uint32{}, c)
		w := p.PartitionHolders(i)
		// The label's forms, longest first: the holder with its mode, or
		// the number of entries; then the holder alone (the outline says
		// the mode); then nothing: the shade says how full, the outline
		// who holds it, and the tooltip the rest.
		var forms []string
		if n > 0 {
			forms = []string{fmt.Sprint(n), ""}
		}
		if x := view.HolderExclusive(w); x != 0 {
			l.Stroke(role, c, 3, th.Locked)
			forms = []string{"X:" + p.Lane(x).Name, p.Lane(x).Name, ""}
		} else if sh := view.HolderShared(w); len(sh) > 0 {
			l.Stroke(role, c, 2, th.Accent)
			var names []string
			for _, a := range sh {
				names = append(names, p.Lane(a).Name)
			}
			forms = []string{"S:" + strings.Join(names, ""), strings.Join(names, ""), ""}
		} else {
			l.Stroke(role, c, 1, th.PanelEdge)
		}
		if i == changed {
			l.Stroke("changed", c.Inset(-1), 2, th.Highlight)
		}
		l.TextForms(role, forms, face, c, layout.TextOn(fill), layout.Center)
		layoutPartitionTrail(l, role+" trail", c, tr.Partition(i), th)
	}
}

// layoutPartitionTrail lays out a partition's part in the trail shown
// over its cell c: probed, a thick yellow frame inside the cell (inside
// a lock holder's outline, which is drawn on its edge) with a thin line in
// Trail.Edge, as the pool's cells show a descriptor examined; an entry
// inserted or deleted, a triangle in the bottom right corner in
// Trail.Gone on a halo of the panel's colour, half the cell's smaller
// side. Cost: at most four items.
func layoutPartitionTrail(l *layout.List, role string, c layout.Rect, m view.TrailMark, th *layout.Theme) {
	if m.Marks&view.MarkProbed != 0 {
		w := min(max(2, min(c.W, c.H)/5), trailFrame)
		in := c.Inset(1.5)
		l.Stroke(role, in, 1, th.Trail.Edge)
		l.Stroke(role, in.Inset(w/2+0.5), w, th.Trail.Mark)
	}
	if m.Marks&view.MarkChanged != 0 {
		d := min(c.W, c.H) * 0.5
		x1, y1 := c.X+c.W, c.Y+c.H
		l.Triangle(role, layout.Point{X: x1, Y: y1}, layout.Point{X: x1 - d - 1.5, Y: y1}, layout.Point{X: x1, Y: y1 - d - 1.5}, th.Panel)
		l.Triangle(role, layout.Point{X: x1, Y: y1}, layout.Point{X: x1 - d, Y: y1}, layout.Point{X: x1, Y: y1 - d}, th.Trail.Gone)
	}
}

// partitionCols is the number of columns of LayoutPartitions' grid.
const partitionCols = 16

// partitionShade is the step of the blue ramp a partition of n entries
// is filled with (-1: the free colour, for none).
func partitionShade(n int) int {
	if n == 0 {
		return -1
	}
	return min(1+n/4, 3)
}

// partitionFill is the fill of a partition of n entries: darker with more.
func partitionFill(n int, th *layout.Theme) color.RGBA {
	if s := partitionShade(n); s >= 0 {
		return th.UsageRamp[s]
	}
	return th.Free
}

// shadeStep is the counts lo.. that share one shade, and their label.
type shadeStep struct {
	lo    int
	label string
}

// partitionShades lists partitionFill's steps, read off partitionShade
// (so the legend says what the panel does): "0", "1–3", "4–7", "8+".
func partitionShades() []shadeStep {
	var out []shadeStep
	const far = 1 << 10
	for n := 0; n <= far; {
		hi := n
		for hi+1 <= far && partitionShade(hi+1) == partitionShade(n) {
			hi++
		}
		switch {
		case hi == far:
			out = append(out, shadeStep{n, fmt.Sprintf("%d+", n)})
		case hi == n:
			out = append(out, shadeStep{n, fmt.Sprint(n)})
		default:
			out = append(out, shadeStep{n, fmt.Sprintf("%d–%d", n, hi)})
		}
		n = hi + 1
	}
	return out
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
	layoutLanes(l, r, p, th)
}

// join3 joins a line and an error three spaces apart (either may be
// empty).
func join3(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "   " + b
}

// LanesHeight is the height LayoutLanes needs to show every backend's
// three lines (its operation, its pins, its copy of the state word).
func LanesHeight(p *view.Pool, th *layout.Theme) float64 {
	return float64(max(1, len(p.LaneActors()))) * (3*layout.LineHeight(th.Font(layout.Regular, 12)) + 3)
}

func layoutLanes(l *layout.List, r layout.Rect, p *view.Pool, th *layout.Theme) {
	actors := p.LaneActors()
	n := len(actors) + 1
	if n <= 1 {
		l.Text("lanes", "no backends yet", th.Font(layout.Regular, 12), r.X, r.Y, r.W, th.Muted, layout.Left)
		return
	}
	face := th.Font(layout.Regular, 12)
	bold := th.Font(layout.Bold, 12)
	lh := layout.LineHeight(face)
	rowH := min(r.H/float64(n-1), lh*3.4)
	cur := p.Changed().Lane
	// Too low for a line a backend: the current backend and the busy
	// ones first, the idle ones named on the last line.
	if rowH < lh+2 {
		fit := int(r.H / (lh + 2))
		if fit == 0 {
			return // no room for a line: the frame gave the lanes none
		}
		busy := func(a trace.Actor) int {
			switch {
			case a == cur:
				return 0
			case p.OpLabel(a) != "" && !strings.HasSuffix(p.OpLabel(a), "(done)"):
				return 1
			}
			return 2
		}
		sort.SliceStable(actors, func(i, j int) bool { return busy(actors[i]) < busy(actors[j]) })
		if len(actors) > fit && fit == 1 {
			actors = actors[:1] // the one that matters most
		} else if len(actors) > fit {
			var rest []string
			for _, a := range actors[fit-1:] {
				rest = append(rest, p.Lane(a).Name)
			}
			actors = actors[:fit-1]
			y := r.Y + float64(fit-1)*(lh+2)
			l.TextForms("lanes more", []string{"also " + strings.Join(rest, ", "), fmt.Sprintf("+%d more", len(rest)), ""}, face,
				layout.Rect{X: r.X + 4, Y: y, W: r.W - 4, H: lh}, th.Muted, layout.Left)
		}
		rowH = lh + 2
	}
	for k, a := range actors {
		ln := p.Lane(a)
		role := "lane " + ln.Name
		row := layout.Rect{X: r.X, Y: r.Y + float64(k)*rowH, W: r.W, H: rowH - 2}
		if a == cur {
			l.Fill(role, row, th.HighlightFill)
		}
		l.Text(role, ln.Name, bold, row.X+4, row.Y+1, row.W-4, th.Text, layout.Left)
		x := row.X + 4 + max(28, layout.Width(ln.Name, bold)+10)
		textW := row.X + row.W - x
		status := p.OpLabel(a)
		if status == "" {
			status = "idle"
		}
		// The status line's forms: the operation with what the backend is
		// doing in words, then with a word, then the operation alone.
		// Last, the operation without its parenthesised details.
		bare := status
		if i := strings.Index(status, " ("); i > 0 {
			bare = status[:i]
		}
		forms := []string{status, bare}
		switch {
		case ln.Spinning:
			forms = []string{status + "   [SPINNING: BM_LOCKED is set]", status + "   [SPINNING]", status + " [spin]", status, bare + " [spin]", bare}
		case ln.Waiting:
			forms = []string{status + "   [WAITING]", status + " [wait]", status, bare + " [wait]", bare}
		}
		l.TextForms(role, forms, face, layout.Rect{X: x, Y: row.Y + 1, W: textW, H: lh}, th.Text, layout.Left)
		var pins []string
		for _, pin := range ln.Pins {
			s := fmt.Sprintf("#%d", pin.Buf)
			if pin.Count > 1 {
				s += fmt.Sprintf("×%d", pin.Count)
			}
			pins = append(pins, s)
		}
		// The second line's forms: the pins, the backend's CAS counts and
		// its last error; then the pins and the error; then the error, or
		// the pins, alone.
		pinsText := "pins: none"
		if len(pins) > 0 {
			if len(pins) > 12 {
				pins = append(pins[:12], fmt.Sprintf("… %d more", len(pins)-12))
			}
			pinsText = "pins: " + strings.Join(pins, " ")
		}
		stats, errPart := "", ""
		if ln.CASes+ln.CASFailures+ln.Spins > 0 {
			stats = fmt.Sprintf("   ·   CAS %d, failed %d, spins %d", ln.CASes, ln.CASFailures, ln.Spins)
		}
		if ln.HasErr && ln.Failed() {
			errPart = "ERROR: " + errText(ln.ErrCode())
		}
		seconds := []string{join3(pinsText+stats, errPart), join3(pinsText, errPart)}
		if ws, ok := p.StreamWindowForms(a); ok {
			// A PostgreSQL 17 or 18 scan's pins are its read stream's
			// window, in the longest form that fits.
			seconds = nil
			for _, w := range ws {
				seconds = append(seconds, join3(w+stats, errPart), join3(w, errPart))
			}
		}
		if errPart != "" {
			seconds = append(seconds, errPart, "ERROR")
		} else {
			seconds = append(seconds, fmt.Sprintf("pins: %d", len(ln.Pins)))
		}
		// A lane's forms by its height: the status, the pins and the
		// word; the status and the word (its copy of the state word is
		// what the pin race is about; the pins are in the cells'
		// tooltips); the status alone.
		switch {
		case rowH >= 3*lh+2:
			c := th.Muted
			if errPart != "" {
				c = th.Error
			}
			l.TextForms(role, seconds, face, layout.Rect{X: x, Y: row.Y + 1 + lh, W: textW, H: lh}, c, layout.Left)
			layoutLaneWord(l, role+" word", layout.Rect{X: x, Y: row.Y + 1 + 2*lh, W: textW, H: lh}, ln, th)
		case rowH >= 2*lh+2:
			if errPart != "" {
				l.TextForms(role, seconds[2:], face, layout.Rect{X: x, Y: row.Y + 1 + lh, W: textW, H: lh}, th.Error, layout.Left)
			} else {
				layoutLaneWord(l, role+" word", layout.Rect{X: x, Y: row.Y + 1 + lh, W: textW, H: lh}, ln, th)
			}
		}
		if ln.Spinning && rowH >= 2*lh+2 {
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
		l.TextForms(role, []string{"word: -", ""}, face, r, th.Muted, layout.Left)
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
	c := th.Text
	if ln.WordEvent.Kind == trace.KCASFail {
		c = th.Error
	}
	// The word's forms: with its flags' names, then its counts alone.
	rc, u := bufmgr.StateRefcount(w), bufmgr.StateUsagecount(w)
	l.TextForms(role, []string{fmt.Sprintf("%s #%d: rc %d u %d %s", verb, ln.WordEvent.Obj, rc, u, shortFlags(w)),
		fmt.Sprintf("%s #%d: rc %d u %d", verb, ln.WordEvent.Obj, rc, u), fmt.Sprintf("#%d: rc %d u %d", ln.WordEvent.Obj, rc, u),
		fmt.Sprintf("#%d rc%d u%d", ln.WordEvent.Obj, rc, u)}, face, r, c, layout.Left)
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
// only on the position. Under reduced motion (th.ReducedMotion) it does
// not turn: all eight dots are filled alike, a still ring that says the
// backend spins (the lane's text says how often).
func layoutSpinner(l *layout.List, cx, cy, rad float64, spins int, th *layout.Theme) {
	for i := 0; i < 8; i++ {
		a := float64(i) * math.Pi / 4
		x, y := cx+rad*math.Cos(a), cy+rad*math.Sin(a)
		c, d := th.PanelEdge, rad*0.35
		switch {
		case th.ReducedMotion:
			c, d = th.Locked, rad*0.45
		case i == spins%8:
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

// wrapFlags wraps s to lines no wider than w, as layout.Wrap does, and
// breaks a word that is still wider after one of its '|' (a state word's
// flags: LOCKED|DIRTY|VALID|…), where one fits.
func wrapFlags(s string, f layout.Font, w float64) []string {
	var out []string
	for _, ln := range layout.Wrap(s, f, w) {
		for layout.Width(ln, f) > w {
			cut := 0
			for i := 0; i < len(ln); i++ {
				if ln[i] == '|' && layout.Width(ln[:i+1], f) <= w {
					cut = i + 1
				}
			}
			if cut == 0 {
				break
			}
			out = append(out, ln[:cut])
			ln = ln[cut:]
		}
		out = append(out, ln)
	}
	return out
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
	line := layout.Rect{X: r.X, Y: r.Y, W: r.W, H: layout.LineHeight(th.Font(layout.Regular, 12))}
	if !ok {
		l.TextForms("code", []string{"No event yet: press → or Space.", "No event yet."}, th.Font(layout.Regular, 12), line, th.Muted, layout.Left)
		return
	}
	if e.Kind == trace.KNone && e.Actor == trace.System {
		// Padding of the side-by-side scene: this variant has finished the
		// step and idles while another pane's event is played (of one pane
		// or two others, in the drop race: "another", not "the other").
		l.TextForms("code", []string{"This variant has finished the step; another pane is still running.",
			"Finished the step; another pane runs.", "Finished the step.", ""}, th.Font(layout.Italic, 12), line, th.Muted, layout.Left)
		return
	}
	info := e.Site.Info()
	if info.Func == nil {
		l.Text("code", e.String(), face, r.X, r.Y, r.W, th.Text, layout.Left)
		return
	}
	f := info.Func
	// A panel lower than the title's line (stacked panes' code, on a low
	// screen) leaves it out: the panel's own title names the pane.
	// The forms, longest first: the function's name with the file and the
	// whole version note; with the versions alone; the name (the panel's
	// title names the pane, and so the version).
	l.TextForms("code title", []string{fmt.Sprintf("%s   (%s, %s)", f.BaseName(), f.File, f.Version), fmt.Sprintf("%s (%s)", f.BaseName(), f.ShortVersion()), f.BaseName(), ""},
		bold, layout.Rect{X: r.X, Y: r.Y, W: r.W, H: min(r.H, layout.LineHeight(bold))}, th.Text, layout.Left)
	_, rest := r.SplitTop(layout.LineHeight(bold) + 4)

	// The event in words under the code: "event N by A: what", from the
	// description's actor column and text after the site, in as many lines
	// as it needs, up to 40% of the panel (at least one).
	who, text := trace.ActorName(e.Actor), strings.TrimSpace(desc)
	if fields := strings.Fields(desc); len(fields) >= 4 {
		who = fields[1]
		text = strings.TrimSpace(desc[strings.Index(desc, fields[3])+len(fields[3]):])
		text = e.Kind.String() + " " + e.Site.String() + " " + text
	}
	small := th.Font(layout.Regular, 11.5)
	slh := layout.LineHeight(small)
	room := max(1, int(rest.H*0.4/slh))
	if rest.H < slh+6+lh {
		room = 0 // a panel with room for its code only
	}
	// The forms of the event line, longest first: what it did in full,
	// then its kind and site, then who and when.
	forms := []string{fmt.Sprintf("event %d by %s: %s", e.Seq, who, text),
		fmt.Sprintf("event %d by %s: %s %s", e.Seq, who, e.Kind, e.Site), fmt.Sprintf("event %d by %s", e.Seq, who)}
	var lines []string
	for _, form := range forms {
		if lines = wrapFlags(form, small, rest.W); len(lines) <= room {
			break
		}
	}
	footLines := min(len(lines), room)
	body, foot := rest, layout.Rect{}
	if footLines > 0 {
		body, foot = rest.SplitBottom(slh*float64(footLines) + 6)
	}
	for i := 0; i < footLines; i++ {
		ln := lines[i]
		if i == footLines-1 && len(lines) > footLines {
			// The last line takes the rest, cut with "…" (recorded).
			l.FitText("code event", strings.Join(lines[i:], " "), small, foot.X, foot.Y+4+float64(i)*slh, foot.W, th.Text, layout.Left)
			continue
		}
		l.Text("code event", ln, small, foot.X, foot.Y+4+float64(i)*slh, foot.W, th.Text, layout.Left)
	}

	// The code: each line wrapped to the panel at its spaces, a
	// continuation indented two more characters than the line.
	const mark = 14 // room for the ► at the left
	type vline struct {
		text string
		src  int // the source line
		x    float64
	}
	var vis []vline
	for i, src := range f.Lines {
		indent := len(src) - len(strings.TrimLeft(src, " "))
		x0 := body.X + mark
		cw := layout.Width("m", face) // the font is monospaced
		if layout.Width(src, face) <= body.W-mark {
			vis = append(vis, vline{src, i, x0})
			continue
		}
		// Keep the indentation on the first part, and indent the
		// continuations two characters past it.
		pad := layout.Width(strings.Repeat(" ", indent), face)
		cont := layout.Width(strings.Repeat(" ", indent+2), face)
		parts := wrapCode(strings.TrimLeft(src, " "), max(8, int((body.W-mark-cont)/cw)))
		for k, p := range parts {
			x := x0 + pad
			if k > 0 {
				x = x0 + cont
			}
			vis = append(vis, vline{p, i, x})
		}
	}
	visible := int(body.H / lh)
	first := 0
	cur, curEnd := 0, -1 // the current line's first and last parts
	for k, v := range vis {
		if v.src == info.Line {
			if curEnd < 0 {
				cur = k
			}
			curEnd = k
		}
	}
	curEnd = max(curEnd, cur)
	if len(vis) > visible {
		// The current line whole, centred in the window where it fits.
		span := curEnd - cur + 1
		first = max(0, min(len(vis)-visible, cur-max(0, visible-span)/2))
		if span > visible {
			first = cur
		}
	}
	if first > 0 || first+visible < len(vis) {
		// The code scrolls to keep the current line in view: what it
		// leaves out is out of view by design, a fact for the goldens.
		l.Overflows = append(l.Overflows, layout.Overflow{Role: "code lines", Text: fmt.Sprintf("%s: lines %d–%d of %d shown", f.Name, vis[first].src+1, vis[min(len(vis), first+visible)-1].src+1, len(f.Lines)), Axis: layout.Scrolls, Need: lh * float64(len(vis)), Have: body.H})
	}
	for k := first; k < len(vis) && k < first+visible; k++ {
		v := vis[k]
		y := body.Y + float64(k-first)*lh
		if v.src == info.Line {
			l.Fill("code current", layout.Rect{X: body.X - 2, Y: y, W: body.W + 4, H: lh}, th.HighlightFill)
			if k == 0 || vis[k-1].src != v.src {
				l.Text("code current", "►", face, body.X, y, 0, th.Highlight, layout.Left)
			}
		}
		l.Text("code line", v.text, face, v.x, y, body.X+body.W-v.x, th.Text, layout.Left)
	}
}

// wrapCode breaks a line of code into parts of at most n characters: at
// the last space in the second half of the part; without one, after the
// last punctuation there ("(", ",", "&", an operator), so names stay
// whole; else at the limit itself (one long name).
func wrapCode(s string, n int) []string {
	var out []string
	rs := []rune(s)
	for len(rs) > n {
		cut := n
	search:
		for i := n; i > n/2; i-- {
			if rs[i] == ' ' {
				cut = i
				break search
			}
		}
		if cut == n {
			// No space: after the last punctuation that ends a piece of
			// an expression, so that a name stays whole.
			for i := n - 1; i > n/2; i-- {
				if strings.ContainsRune("(,&|=+*/[:;", rs[i]) {
					cut = i + 1
					break
				}
			}
		}
		out = append(out, strings.TrimRight(string(rs[:cut]), " "))
		rs = []rune(strings.TrimLeft(string(rs[cut:]), " "))
	}
	return append(out, string(rs))
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

// ReadCounters are the counters of one pane of the versions side by side
// (config pg=15,17): how many read calls brought how many blocks in.
func ReadCounters(c view.Counters) []Counter {
	return []Counter{
		{"read calls", c.ReadCalls}, {"blocks read", c.Reads}, {"hits", c.Hits}, {"misses", c.Misses},
		{"partition locks", c.PartitionLocks}, {"header locks", c.HeaderLocks},
	}
}

// DropCounters are the counters of one pane of the drop race: what
// finding the relation's buffers cost each strategy.
func DropCounters(c view.Counters) []Counter {
	return []Counter{
		// Each strategy's own cost first: the scan's descriptors, the
		// lookup's probes, the list's hops (FitCounters keeps a prefix).
		{"descriptors", c.DropDescsTouched}, {"lookups", c.DropLookups}, {"list hops", c.DropListHops},
		{"dropped", c.DropInvalidated}, {"part. locks", c.DropPartitionLocks},
		{"list upkeep", c.DListLinks + c.DListUnlinks},
	}
}
