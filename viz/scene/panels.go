package scene

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/render"
	"bufferlab/viz/view"
)

var (
	highlightFill = color.RGBA{0xfd, 0xf0, 0xd5, 0xff}
	hoverFill     = color.RGBA{0xea, 0xf2, 0xf8, 0xff}
)

// Panel draws a titled panel frame and returns the rect inside it.
func Panel(dst *ebiten.Image, r render.Rect, title string, th *render.Theme) render.Rect {
	render.Fill(dst, r, th.Panel)
	render.Stroke(dst, r, 1, th.PanelEdge)
	face := th.Face(render.Bold, 12)
	render.Text(dst, title, face, r.X+8, r.Y+4, th.Muted, render.Left)
	_, inner := r.SplitTop(render.LineHeight(face) + 8)
	return inner.Inset(6)
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
	rowH := min(r.H/float64(n-1), lh*2.4)
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
		if l.Waiting {
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
	face := th.Face(render.Mono, 11.5)
	bold := th.Face(render.Bold, 12)
	lh := render.LineHeight(face)
	if !ok {
		render.Text(dst, "No event yet: press → or Space.", th.Face(render.Regular, 12), r.X, r.Y, th.Muted, render.Left)
		return
	}
	info := e.Site.Info()
	if info.Func == nil {
		render.Text(dst, e.String(), face, r.X, r.Y, th.Text, render.Left)
		return
	}
	f := info.Func
	render.Text(dst, fmt.Sprintf("%s   (%s, %s)", f.Name, f.File, f.Version), bold, r.X, r.Y, th.Text, render.Left)
	body, foot := r.SplitBottom(lh*2.4 + 4)
	_, body = body.SplitTop(render.LineHeight(bold) + 4)
	visible := max(1, int(body.H/lh))
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
	// The event in words.
	desc := bufmgr.Describe(e, p.RelName)
	if len(desc) > 6 {
		desc = desc[6:]
	}
	who := p.Lane(e.Actor).Name
	if who == "" {
		who = trace.ActorName(e.Actor)
	}
	lines := render.Wrap(fmt.Sprintf("event %d by %s: %s", e.Seq, who, strings.TrimSpace(desc[3:])), th.Face(render.Regular, 11.5), foot.W)
	for i, l := range lines {
		if i == 2 {
			break
		}
		render.Text(dst, l, th.Face(render.Regular, 11.5), foot.X, foot.Y+4+float64(i)*lh, th.Text, render.Left)
	}
}

// DrawCounters draws the counters in a row of labelled boxes.
func DrawCounters(dst *ebiten.Image, r render.Rect, c view.Counters, th *render.Theme) {
	items := []struct {
		label string
		v     uint64
	}{
		{"hits", c.Hits}, {"misses", c.Misses}, {"writes", c.Writes}, {"sweep ticks", c.ClockTicks},
		{"usage decrements", c.UsageDecrements}, {"partition locks", c.PartitionLocks},
		{"lock waits", c.LockWaits}, {"CAS failed", c.CASFailures}, {"spins", c.Spins}, {"errors", c.Errors},
	}
	w := r.W / float64(len(items))
	small := th.Face(render.Regular, 10)
	big := th.Face(render.Bold, 14)
	for i, it := range items {
		b := render.Rect{X: r.X + float64(i)*w, Y: r.Y, W: w - 4, H: r.H}
		render.Fill(dst, b, th.Panel)
		render.Stroke(dst, b, 1, th.PanelEdge)
		render.Text(dst, fmt.Sprint(it.v), big, b.X+b.W/2, b.Y+2, th.Text, render.Center)
		render.Text(dst, it.label, small, b.X+b.W/2, b.Y+b.H-render.LineHeight(small)-2, th.Muted, render.Center)
	}
}
