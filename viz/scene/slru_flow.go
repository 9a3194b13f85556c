package scene

import (
	"image/color"

	"bufferlab/viz/layout"
)

// A flow lays out runs of text left to right in lines, wrapping between
// runs, each run in one of its forms (layout.List.TextForms): the SLRU
// scene's header, bank labels, legend and lookup lines are flows, so that
// they wrap where there are lines to spare and shorten where there are
// not, whatever the type size the frame sets.

// slruRun is one run of a flow.
type slruRun struct {
	role string
	// forms are the run's deliberate forms, longest first; a last ""
	// says the run may be left out (a legend, the lookup lines or a
	// tooltip says it). No forms: the run is its mark alone.
	forms []string
	font  layout.Font
	col   color.RGBA
	// fill, when set, draws the text on a box of that colour (a
	// backend's chip).
	fill color.RGBA
	// mark, when set, is drawn markW wide at the run's left, on the line
	// (a legend's swatch, a padlock), with the run or not at all.
	markW float64
	mark  func(l *layout.List, r layout.Rect)
	// newLine starts the run on a line of its own.
	newLine bool
}

// slruFlow is a flow's runs, the gap between runs on a line and the
// height of a line.
type slruFlow struct {
	runs []slruRun
	gap  float64
	lh   float64
}

// chipPad is the padding of a filled run's text (a chip).
func chipPad(f layout.Font) float64 { return f.Size * 0.3 }

// width is run r's width in form k ("" with no mark: 0).
func (r slruRun) width(k int) float64 {
	if len(r.forms) == 0 {
		return r.markW
	}
	s := r.forms[k]
	if s == "" {
		return 0
	}
	w := layout.Width(s, r.font)
	if r.fill.A != 0 {
		w += 2 * chipPad(r.font)
	}
	if r.mark != nil {
		w += r.markW + r.font.Size*0.3
	}
	return w
}

// flowPos is where a run goes: its line, x from the line's start, width;
// skip for a run left out.
type flowPos struct {
	line int
	x, w float64
	skip bool
}

// place lays the runs out at levels lv (run i in form lv[i]) in lines w
// wide: their positions, the lines they take, and whether every run fits
// the width.
func (f *slruFlow) place(lv []int, w float64, breaks bool) ([]flowPos, int, bool) {
	pos := make([]flowPos, len(f.runs))
	line, x, ok, any := 0, 0.0, true, false
	for i, r := range f.runs {
		rw := r.width(lv[i])
		if len(r.forms) > 0 && r.forms[lv[i]] == "" {
			pos[i] = flowPos{skip: true}
			continue
		}
		switch {
		case !any:
		case breaks && r.newLine || x+f.gap+rw > w+0.5:
			line, x = line+1, 0
		default:
			x += f.gap
		}
		pos[i] = flowPos{line: line, x: x, w: rw}
		x += rw
		any = true
		ok = ok && rw <= w+0.5
	}
	if !any {
		return pos, 0, true
	}
	return pos, line + 1, ok
}

// fit chooses each run's form for lines w wide, at most maxLines of them:
// every run in its longest form, starting the lines its runs ask for,
// when that fits; else with runs sharing lines as they fit; else the
// widest run that has a shorter non-empty form is shortened, one form at
// a time; then the runs that may be left out are: one wider than a line
// first, then from the last (the runs come in order of importance). It
// returns the levels, the lines they take and whether the runs' own line
// breaks are kept.
func (f *slruFlow) fit(w float64, maxLines int) (lv []int, lines int, breaks bool) {
	lv = make([]int, len(f.runs))
	if _, lines, ok := f.place(lv, w, true); ok && lines <= maxLines {
		return lv, lines, true
	}
	for {
		_, lines, ok := f.place(lv, w, false)
		if ok && lines <= maxLines {
			return lv, lines, false
		}
		best, bw := -1, 0.0
		for i, r := range f.runs {
			if k := lv[i]; k+1 < len(r.forms) && r.forms[k+1] != "" {
				if rw := r.width(k); best < 0 || rw > bw {
					best, bw = i, rw
				}
			}
		}
		if best < 0 {
			// A run wider than a line that may be left out goes first.
			for i, r := range f.runs {
				if k := lv[i]; k+1 < len(r.forms) && r.forms[k] != "" && r.width(k) > w+0.5 {
					best = i
					break
				}
			}
		}
		if best < 0 {
			for i := len(f.runs) - 1; i >= 0; i-- {
				r := f.runs[i]
				if k := lv[i]; k+1 < len(r.forms) && r.forms[k] != "" {
					best = i
					break
				}
			}
		}
		if best < 0 {
			return lv, lines, false
		}
		lv[best]++
	}
}

// lines is the number of lines the flow takes in width w with no limit
// on lines (every run in its longest form, unless one is wider than w).
func (f *slruFlow) lines(w float64) int {
	_, n, _ := f.fit(w, 1<<20)
	return n
}

// layout lays the flow out in r: as many lines as r holds (at least one
// is tried), each run in the form fit chooses. A run that does not fit
// even so is recorded: too wide by TextForms; on a line below r's bottom
// (too tall), here, and not drawn. It returns the height the flow took.
func (f *slruFlow) layout(l *layout.List, r layout.Rect) float64 {
	maxLines := max(1, int((r.H+0.5)/f.lh))
	lv, lines, breaks := f.fit(r.W, maxLines)
	pos, _, _ := f.place(lv, r.W, breaks)
	for i, run := range f.runs {
		p := pos[i]
		if p.skip {
			continue // left out: its form is its last, ""
		}
		x, y := r.X+p.x, r.Y+float64(p.line)*f.lh
		if y+f.lh > r.Y+r.H+0.5 {
			if len(run.forms) > 0 {
				l.Overflows = append(l.Overflows, layout.Overflow{Role: run.role, Text: run.forms[lv[i]], Axis: "h", Need: y + f.lh - r.Y, Have: r.H})
			}
			continue
		}
		box := layout.Rect{X: x, Y: y, W: r.X + r.W - x, H: f.lh}
		if run.mark != nil {
			run.mark(l, layout.Rect{X: x, Y: y, W: run.markW, H: f.lh})
			if len(run.forms) == 0 {
				continue
			}
			d := run.markW + run.font.Size*0.3
			box.X, box.W = box.X+d, box.W-d
		}
		if len(run.forms) == 0 {
			continue
		}
		if run.fill.A != 0 {
			pad := chipPad(run.font)
			chip := layout.Rect{X: box.X, Y: y + (f.lh-layout.LineHeight(run.font))/2, W: min(p.w, box.W), H: layout.LineHeight(run.font)}
			l.Fill(run.role, chip, run.fill)
			box.X, box.W = box.X+pad, box.W-2*pad
		}
		l.TextForms(run.role, run.forms[lv[i]:], run.font, box, run.col, layout.Left)
	}
	return float64(lines) * f.lh
}
