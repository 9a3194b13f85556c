package scene

import (
	"fmt"
	"strings"

	"bufferlab/lessons"
	"bufferlab/viz/layout"
)

// Prose lays out rich text: a lesson's blocks (paragraphs, lists, quotes,
// code blocks, headings, rules) and its predict questions.
type Prose struct {
	Size float64 // body size in points
	// MinTarget is the smallest height of a choice's box (0: its text's):
	// 44 px on a touch screen.
	MinTarget float64
	// Class: answers are held for a teacher's reveal (the hint says so).
	Class bool
}

func (p Prose) font(th *layout.Theme, st lessons.Style, code bool) layout.Font {
	switch {
	case code || st&lessons.Code != 0:
		return th.Font(layout.Mono, p.Size*0.92)
	case st&lessons.Strong != 0:
		return th.Font(layout.Bold, p.Size)
	case st&lessons.Emphasis != 0:
		return th.Font(layout.Italic, p.Size)
	}
	return th.Font(layout.Regular, p.Size)
}

// word is one laid-out piece of text.
type word struct {
	text  string
	font  layout.Font
	code  bool
	x, y  float64
	width float64
}

// layoutSpans wraps spans into width w starting at x0; it returns the words
// placed (y relative to 0) and the height used. A word wider than w by
// itself goes on lines of its own, broken where layout.BreakWord breaks it.
func (p Prose) layoutSpans(spans []lessons.Span, th *layout.Theme, x0, w float64) ([]word, float64) {
	var out []word
	body := th.Font(layout.Regular, p.Size)
	lh := layout.LineHeight(body)
	x, y := x0, 0.0
	space := layout.Width(" ", body)
	for _, sp := range spans {
		f := p.font(th, sp.Style, false)
		code := sp.Style&lessons.Code != 0
		lines := strings.Split(sp.Text, "\n")
		for li, line := range lines {
			if li > 0 {
				x, y = x0, y+lh
			}
			parts := strings.Split(line, " ")
			for pi, part := range parts {
				if pi > 0 {
					x += space
				}
				if part == "" {
					continue
				}
				ww := layout.Width(part, f)
				if ww > w { // an identifier wider than the column: in pieces, one a line
					if x > x0 {
						x, y = x0, y+lh
					}
					pieces := layout.BreakWord(part, f, w)
					for k, piece := range pieces {
						pw := layout.Width(piece, f)
						out = append(out, word{text: piece, font: f, code: code, x: x, y: y, width: pw})
						if x += pw; k < len(pieces)-1 {
							x, y = x0, y+lh
						}
					}
					continue
				}
				if x+ww > x0+w && x > x0 {
					x, y = x0, y+lh
				}
				out = append(out, word{text: part, font: f, code: code, x: x, y: y, width: ww})
				x += ww
			}
		}
	}
	return out, y + lh
}

// words adds the laid-out words at y, each within the line's right edge
// right (a word that cannot fit even alone on its line is recorded).
func words(l *layout.List, role string, ws []word, y, right float64, th *layout.Theme) {
	for _, w := range ws {
		if w.code {
			l.Fill(role+" code", layout.Rect{X: w.x - 1, Y: y + w.y + 1, W: w.width + 2, H: layout.LineHeight(w.font) - 1}, th.Background)
		}
		l.Text(role, w.text, w.font, w.x, y+w.y, max(0, right-w.x), th.Text, layout.Left)
	}
}

// LayoutBlocks lays out blocks from (r.X, y) down and returns the y after
// the last block. Blocks that start below r are left out (the app scrolls
// the narration): they are recorded as one overflow, with the height that
// was laid out and the height r has.
func (p Prose) LayoutBlocks(l *layout.List, r layout.Rect, y float64, blocks []lessons.Block, th *layout.Theme) float64 {
	for bi, b := range blocks {
		if y > r.Y+r.H {
			left := fmt.Sprintf("%d blocks", len(blocks)-bi)
			if len(blocks)-bi == 1 {
				left = "1 block"
			}
			l.Overflows = append(l.Overflows, layout.Overflow{Role: "prose", Text: fmt.Sprintf("%s below the pane, from %q", left, clipText(b.Text(), 40)), Axis: layout.Scrolls, Need: y - r.Y, Have: r.H})
			break
		}
		indent := float64(b.Indent+b.Quote) * 16
		x := r.X + indent
		switch b.Kind {
		case lessons.Rule:
			l.Line("prose rule", x, y+6, r.X+r.W, y+6, 1, th.PanelEdge)
			y += 14
			continue
		case lessons.CodeBlock:
			f := th.Font(layout.Mono, p.Size*0.9)
			// A line wider than the pane wraps (wrapCode), its
			// continuation indented two characters.
			var lines []string
			chars := max(8, int((r.W-indent-8)/layout.Width("m", f)))
			for _, ln := range strings.Split(b.Text(), "\n") {
				for k, part := range wrapCode(ln, chars-2) {
					if k > 0 {
						part = "  " + part
					}
					lines = append(lines, part)
				}
			}
			lh := layout.LineHeight(f)
			box := layout.Rect{X: x, Y: y, W: r.W - indent, H: lh*float64(len(lines)) + 8}
			l.Fill("prose code", box, th.Background)
			for i, ln := range lines {
				l.Text("prose code", ln, f, x+6, y+4+float64(i)*lh, box.W-6, th.Text, layout.Left)
			}
			y += box.H + 6
			continue
		case lessons.Heading:
			f := th.Font(layout.Bold, p.Size*1.05)
			l.Text("prose heading", b.Text(), f, x, y, r.X+r.W-x, th.Text, layout.Left)
			y += layout.LineHeight(f) + 2
			continue
		case lessons.ListItem:
			l.Text("prose marker", b.Marker, th.Font(layout.Regular, p.Size), x, y, 0, th.Muted, layout.Left)
			x += 18
		}
		if b.Quote > 0 {
			l.Fill("prose quote", layout.Rect{X: r.X + indent - 8, Y: y, W: 3, H: layout.LineHeight(th.Font(layout.Regular, p.Size))}, th.PanelEdge)
		}
		ws, h := p.layoutSpans(b.Spans, th, x, r.X+r.W-x)
		words(l, "prose", ws, y, r.X+r.W, th)
		y += h + p.Size*0.5
	}
	return y
}

// clipText is s cut to n runes with "…", for overflow records.
func clipText(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if rs := []rune(s); len(rs) > n {
		return string(rs[:n]) + "…"
	}
	return s
}

// QuestionUI is what LayoutQuestion laid out: the choice buttons to
// hit-test.
type QuestionUI struct {
	Choices []layout.Rect
}

// LayoutQuestion lays out a predict question from y: the prompt, one
// button per choice (numbered for the keyboard), and, once revealed, which
// choice was right (marked with a check and "right", never by colour alone)
// and the explanation. hover (nil for none) says whether the pointer is
// over a box. It returns the y after the question and the choice boxes.
func (p Prose) LayoutQuestion(l *layout.List, r layout.Rect, y float64, q *lessons.Question, chosen int, revealed bool, th *layout.Theme, hover func(layout.Rect) bool) (float64, QuestionUI) {
	var ui QuestionUI
	title := th.Font(layout.Bold, p.Size)
	l.Fill("question", layout.Rect{X: r.X - 4, Y: y - 2, W: r.W + 8, H: layout.LineHeight(title) + 4}, th.HighlightFill)
	l.Text("question", "Predict what happens next", title, r.X, y, r.W, th.Text, layout.Left)
	y += layout.LineHeight(title) + 4
	ws, h := p.layoutSpans(q.PromptSpans, th, r.X, r.W)
	for _, w := range ws {
		l.Text("question prompt", w.text, w.font, w.x, y+w.y, max(0, r.X+r.W-w.x), th.Text, layout.Left)
	}
	y += h + 4
	face := th.Font(layout.Regular, p.Size*0.95)
	markF := th.Font(layout.Bold, p.Size*0.9)
	// Once revealed, the words keep room at the right for the mark.
	// A guess held for the teacher's reveal (a class: chosen but not
	// revealed) is marked SENT.
	held := !revealed && chosen >= 0
	markW := 0.0
	if revealed || held {
		markW = layout.Width("YOUR GUESS", markF) + 10
	}
	// Choices side by side, two a row, where the panel is wide enough
	// for two choices of about 36 characters each.
	cols := 1
	if r.W >= 2*layout.Width(strings.Repeat("m", 24), face) && len(q.Choices) > 1 {
		cols = 2
	}
	const gap = 4.0
	colW := (r.W - 4 - gap*float64(cols-1)) / float64(cols)
	for row := 0; row < len(q.Choices); row += cols {
		type laid struct {
			ws []word
			h  float64
		}
		var cs []laid
		rowH := p.MinTarget
		for i := row; i < min(row+cols, len(q.Choices)); i++ {
			x := r.X + float64(i-row)*(colW+gap)
			label := fmt.Sprintf("%d  ", i+1)
			spans := append([]lessons.Span{{Text: label, Style: lessons.Strong}}, q.ChoiceSpans[i]...)
			cws, ch := p.layoutSpans(spans, th, x+10, colW-20-markW)
			cs = append(cs, laid{cws, ch})
			rowH = max(rowH, ch+8)
		}
		for k, c := range cs {
			i := row + k
			role := fmt.Sprintf("choice %d", i+1)
			box := layout.Rect{X: r.X + float64(k)*(colW+gap), Y: y, W: colW, H: rowH}
			dy := (box.H - c.h - 8) / 2 // the text centred in a taller box
			fill := th.Panel
			if hover != nil && hover(box) && !revealed {
				fill = th.Hover
			}
			l.Fill(role, box, fill)
			edge, width := th.PanelEdge, 1.0
			mark := ""
			switch {
			case revealed && i == q.Answer:
				edge, width, mark = th.Good, 3, "RIGHT"
			case revealed && i == chosen:
				edge, width, mark = th.Error, 3, "YOUR GUESS"
			case held && i == chosen:
				edge, width, mark = th.Accent, 3, "SENT"
			}
			l.Stroke(role, box, width, edge)
			for _, w := range c.ws {
				l.Text(role, w.text, w.font, w.x, y+4+dy+w.y, max(0, box.X+box.W-10-markW-w.x), th.Text, layout.Left)
			}
			if mark != "" {
				l.Text(role+" mark", mark, markF, box.X+box.W-6, y+4+dy, markW, edge, layout.Right)
			}
			ui.Choices = append(ui.Choices, box)
		}
		y += rowH + gap
	}
	if revealed {
		y = p.LayoutBlocks(l, r, y+4, q.Explain, th)
	} else {
		hf := th.Font(layout.Italic, p.Size*0.9)
		hintText := fmt.Sprintf("Press 1–%d or click a choice; Enter skips.", len(q.Choices))
		if p.Class {
			hintText = fmt.Sprintf("Press 1–%d or click a choice: it goes to the teacher, who reveals the answer.", len(q.Choices))
		}
		if held {
			hintText = "Sent. The teacher reveals the answer; until then you may change yours."
		}
		hint := layout.Wrap(hintText, hf, r.W)
		for k, ln := range hint { // one line, but two in a narrow column
			l.Text("question hint", ln, hf, r.X, y+2, r.W, th.Muted, layout.Left)
			if k < len(hint)-1 {
				y += layout.LineHeight(hf)
			}
		}
		y += layout.LineHeight(face) + 4
	}
	return y, ui
}
