package scene

import (
	"fmt"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"bufferlab/lessons"
	"bufferlab/viz/render"
)

// Prose lays out and draws rich text.
type Prose struct {
	Size float64 // body size in points
}

func (p Prose) face(th *render.Theme, st lessons.Style, code bool) *text.GoTextFace {
	switch {
	case code || st&lessons.Code != 0:
		return th.Face(render.Mono, p.Size*0.92)
	case st&lessons.Strong != 0:
		return th.Face(render.Bold, p.Size)
	case st&lessons.Emphasis != 0:
		return th.Face(render.Italic, p.Size)
	}
	return th.Face(render.Regular, p.Size)
}

// word is one laid-out piece of text.
type word struct {
	text  string
	face  *text.GoTextFace
	code  bool
	x, y  float64
	width float64
}

// layoutSpans wraps spans into width w starting at x0; it returns the words
// placed (y relative to 0) and the height used.
func (p Prose) layoutSpans(spans []lessons.Span, th *render.Theme, x0, w float64) ([]word, float64) {
	var out []word
	lh := render.LineHeight(th.Face(render.Regular, p.Size))
	x, y := x0, 0.0
	space := render.TextWidth(" ", th.Face(render.Regular, p.Size))
	for _, sp := range spans {
		face := p.face(th, sp.Style, false)
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
				ww := render.TextWidth(part, face)
				if x+ww > x0+w && x > x0 {
					x, y = x0, y+lh
				}
				out = append(out, word{text: part, face: face, code: code, x: x, y: y, width: ww})
				x += ww
			}
		}
	}
	return out, y + lh
}

// DrawBlocks draws blocks from (r.X, y) down, clipped to r; it returns the y
// after the last block.
func (p Prose) DrawBlocks(dst *ebiten.Image, r render.Rect, y float64, blocks []lessons.Block, th *render.Theme) float64 {
	for _, b := range blocks {
		if y > r.Y+r.H {
			break
		}
		indent := float64(b.Indent+b.Quote) * 16
		x := r.X + indent
		switch b.Kind {
		case lessons.Rule:
			render.Line(dst, x, y+6, r.X+r.W, y+6, 1, th.PanelEdge)
			y += 14
			continue
		case lessons.CodeBlock:
			face := th.Face(render.Mono, p.Size*0.9)
			lines := strings.Split(b.Text(), "\n")
			lh := render.LineHeight(face)
			box := render.Rect{X: x, Y: y, W: r.W - indent, H: lh*float64(len(lines)) + 8}
			render.Fill(dst, box, th.Background)
			for i, l := range lines {
				render.Text(dst, l, face, x+6, y+4+float64(i)*lh, th.Text, render.Left)
			}
			y += box.H + 6
			continue
		case lessons.Heading:
			face := th.Face(render.Bold, p.Size*1.05)
			render.Text(dst, b.Text(), face, x, y, th.Text, render.Left)
			y += render.LineHeight(face) + 2
			continue
		case lessons.ListItem:
			m := b.Marker
			render.Text(dst, m, th.Face(render.Regular, p.Size), x, y, th.Muted, render.Left)
			x += 18
		}
		if b.Quote > 0 {
			render.Fill(dst, render.Rect{X: r.X + indent - 8, Y: y, W: 3, H: render.LineHeight(th.Face(render.Regular, p.Size))}, th.PanelEdge)
		}
		ws, h := p.layoutSpans(b.Spans, th, x, r.X+r.W-x)
		for _, w := range ws {
			if w.code {
				render.Fill(dst, render.Rect{X: w.x - 1, Y: y + w.y + 1, W: w.width + 2, H: render.LineHeight(w.face) - 1}, th.Background)
			}
			render.Text(dst, w.text, w.face, w.x, y+w.y, th.Text, render.Left)
		}
		y += h + p.Size*0.5
	}
	return y
}

// QuestionUI is what DrawQuestion laid out: the choice buttons to hit-test.
type QuestionUI struct {
	Choices []render.Rect
}

// DrawQuestion draws a predict question from y: the prompt, one button per
// choice (numbered for the keyboard), and, once revealed, which choice was
// right (marked with a check and "right", never by colour alone) and the
// explanation.
func (p Prose) DrawQuestion(dst *ebiten.Image, r render.Rect, y float64, q *lessons.Question, chosen int, revealed bool, th *render.Theme, hover func(render.Rect) bool) (float64, QuestionUI) {
	var ui QuestionUI
	title := th.Face(render.Bold, p.Size)
	render.Fill(dst, render.Rect{X: r.X - 4, Y: y - 2, W: r.W + 8, H: render.LineHeight(title) + 4}, highlightFill)
	render.Text(dst, "Predict before you run it", title, r.X, y, th.Text, render.Left)
	y += render.LineHeight(title) + 4
	ws, h := p.layoutSpans(q.PromptSpans, th, r.X, r.W)
	for _, w := range ws {
		render.Text(dst, w.text, w.face, w.x, y+w.y, th.Text, render.Left)
	}
	y += h + 4
	face := th.Face(render.Regular, p.Size*0.95)
	for i := range q.Choices {
		label := fmt.Sprintf("%d  ", i+1)
		spans := append([]lessons.Span{{Text: label, Style: lessons.Strong}}, q.ChoiceSpans[i]...)
		cws, ch := p.layoutSpans(spans, th, r.X+10, r.W-20-70)
		box := render.Rect{X: r.X, Y: y, W: r.W - 4, H: ch + 8}
		fill := th.Panel
		if hover != nil && hover(box) && !revealed {
			fill = hoverFill
		}
		render.Fill(dst, box, fill)
		edge, width := th.PanelEdge, 1.0
		mark := ""
		if revealed {
			switch {
			case i == q.Answer:
				edge, width, mark = th.Good, 3, "RIGHT"
			case i == chosen:
				edge, width, mark = th.Error, 3, "YOUR GUESS"
			}
		}
		render.Stroke(dst, box, width, edge)
		for _, w := range cws {
			render.Text(dst, w.text, w.face, w.x, y+4+w.y, th.Text, render.Left)
		}
		if mark != "" {
			render.Text(dst, mark, th.Face(render.Bold, p.Size*0.9), box.X+box.W-6, y+4, edge, render.Right)
		}
		ui.Choices = append(ui.Choices, box)
		y += box.H + 4
	}
	if revealed {
		y = p.DrawBlocks(dst, r, y+4, q.Explain, th)
	} else {
		render.Text(dst, fmt.Sprintf("Press 1–%d or click a choice; Enter skips.", len(q.Choices)), th.Face(render.Italic, p.Size*0.9), r.X, y+2, th.Muted, render.Left)
		y += render.LineHeight(face) + 4
	}
	return y, ui
}
