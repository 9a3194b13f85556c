package app

import (
	"image/color"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/viz/frame"
	"bufferlab/viz/layout"
	"bufferlab/viz/render"
)

// drawFrame lays out the frame (viz/frame: the menu or the lesson, the
// help, a message on the canvas) and paints it. The list stays for the
// next Update, which hit-tests clicks against its targets.
func (a *App) drawFrame(dst *ebiten.Image) {
	t0 := time.Now()
	if !a.holdFrame() { // a11y.go: reduced motion keeps a playing player's picture a while
		a.layoutFrame()
	}
	a.painter.Paint(dst, &a.list)
	if m := a.measure; m != nil && a.p != nil {
		m.FrameDraw = append(m.FrameDraw, time.Since(t0))
	}
}

// layoutFrame lays out the frame for what the app shows now, into a.list.
func (a *App) layoutFrame() {
	sc := frame.Screen{Lessons: a.index, Player: a.p, Help: a.help, Legend: a.legend, Class: a.classHold}
	if a.p == nil {
		sc.MenuNote, sc.Reset = a.menuProgress() // progress.go
	} else {
		sc.End = a.lessonEnd()
	}
	switch {
	case a.errMsg != "":
		sc.Message, sc.MessageTitle, sc.MessageErr = a.errMsg, "Error", true
	case a.noticeOnCanvas():
		sc.Message, sc.MessageTitle = a.notice, "Note"
	}
	if a.flashTicks > 0 {
		sc.Flash = a.flash
	}
	if a.dropCosts != nil {
		sc.PacingLine = a.dropCosts.String()
	}
	in := frame.Input{W: float64(a.w), H: float64(a.h), Presentation: a.presentation, Touch: a.ui.touched,
		Mouse:   a.pointer(),
		Colours: func(scale float64) *layout.Theme { return a.themeAt(scale) }}
	a.list.Reset()
	a.plan = frame.Build(&a.list, &a.fr, &sc, in, a.hooks())
	if a.showTab != nil {
		// A step's first frame opens on its lesson: the tab ShowTab asked
		// for replaces it, and the frame is laid out again.
		a.fr.Tab, a.showTab = *a.showTab, nil
		a.list.Reset()
		a.plan = frame.Build(&a.list, &a.fr, &sc, in, a.hooks())
	}
	a.th = &render.Theme{Theme: a.plan.Theme}
}

// pointer is where the pointer points, for hover and tooltips: off the
// window until it has moved or pressed.
func (a *App) pointer() layout.Point {
	if !a.ui.moved {
		return layout.Point{X: -1, Y: -1}
	}
	return layout.Point{X: a.ui.mx, Y: a.ui.my}
}

// hooks are what the frame's targets do.
func (a *App) hooks() frame.Hooks {
	h := frame.Hooks{
		OpenLesson: a.openFromMenu,
		Menu:       func() { a.p = nil },
		Help:       func() { a.help = !a.help },
		Legend:     func() { a.legend = !a.legend },
		Fast: func() {
			if err := a.startFast("pool"); err != nil {
				a.showError(err.Error())
			}
		},
		Pacing:  a.togglePacing,
		Forward: a.forwardOr,
		Dismiss: func() { a.errMsg, a.notice = "", "" },
		Answer: func(i int) {
			if _, err := a.answer(i); err != nil { // progress.go: records it
				a.showError(err.Error())
			}
		},
		EndNext: a.endNext, EndReplay: a.endReplay, EndMenu: a.endMenu,
	}
	if a.opts.Embed {
		h.Menu, h.EndMenu = nil, nil
	}
	if a.opts.CopyLink != nil && a.p != nil {
		h.Link = a.copyLink
	}
	if a.opts.Sandbox != nil {
		if a.p != nil && a.source != "" {
			h.Edit = a.editScenario
		}
		if a.p == nil && !a.opts.Embed {
			h.Sandbox = func() { a.opts.Sandbox("") }
		}
	}
	return h
}

// LayoutInfo is what window.bufferlab.layout() reports of the frame on
// screen.
type LayoutInfo struct {
	layout.Metrics
	Viewport [2]int `json:"viewport"`
	Mode     string `json:"mode"`
}

// Layout reports the last frame's metrics (see frame: text runs that did
// not fit, the smallest text, the smallest target), its viewport and its
// mode.
//
// It lays the frame out anew for the app's state now (what the next
// frame paints), so that a call right after one that moves the lesson
// (goto, answer) describes the new state without waiting for a frame; the
// viewport is the one the window last reported (Layout).
func (a *App) LayoutInfo() LayoutInfo {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fast == nil {
		a.layoutFrame()
	}
	return LayoutInfo{Metrics: a.list.Metrics(), Viewport: [2]int{a.w, a.h}, Mode: a.plan.Mode()}
}

// TargetInfo is a clickable region of the frame on screen, for the
// JavaScript API (tests tap them; a screen reader could name them).
type TargetInfo struct {
	Role  string  `json:"role"`
	Label string  `json:"label"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	W     float64 `json:"w"`
	H     float64 `json:"h"`
}

// Targets lists the frame's clickable regions, laid out for the state now
// (as LayoutInfo), the topmost last.
func (a *App) Targets() []TargetInfo {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fast == nil {
		a.layoutFrame()
	}
	out := make([]TargetInfo, 0, len(a.list.Targets))
	for _, t := range a.list.Targets {
		out = append(out, TargetInfo{Role: t.Role, Label: t.Label, X: t.Rect.X, Y: t.Rect.Y, W: t.Rect.W, H: t.Rect.H})
	}
	return out
}

// SetPresentation turns presentation mode on or off.
func (a *App) SetPresentation(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.presentation = on
	a.setTheme()
}

// clip returns the part of dst inside r, so that a panel's text cannot
// spill over its neighbours (coordinates stay those of dst).
func clip(dst *ebiten.Image, r render.Rect) *ebiten.Image {
	return dst.SubImage(r.Image()).(*ebiten.Image)
}

func (a *App) drawError(dst *ebiten.Image) { a.drawMessage(dst, "Error", a.errMsg, a.th.Error, 3) }

func (a *App) drawMessage(dst *ebiten.Image, title, msg string, col color.Color, border float64) {
	th := a.th
	face := th.Face(layout.Regular, 14)
	w := min(float64(a.w)-40, 900)
	lines := render.Wrap(msg, face, w-32)
	h := render.LineHeight(face)*float64(len(lines)+2) + 30
	box := render.Rect{X: (float64(a.w) - w) / 2, Y: float64(a.h)/2 - h/2, W: w, H: h}
	render.Fill(dst, box, th.Panel)
	render.Stroke(dst, box, border, col)
	render.Text(dst, title, th.Face(layout.Bold, 16), box.X+16, box.Y+10, col, render.Left)
	for i, l := range lines {
		render.Text(dst, l, face, box.X+16, box.Y+16+render.LineHeight(face)*float64(i+1), th.Text, render.Left)
	}
	render.Text(dst, "Click or press Esc to close.", th.Face(layout.Italic, 12), box.X+16, box.Y+box.H-24, th.Muted, render.Left)
}
