package app

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"bufferlab/viz/render"
)

// hit is a clickable region registered while drawing, tested by the next
// Update.
type hit struct {
	r   render.Rect
	act func()
}

type uiState struct {
	hits    []hit
	pool    render.Rect // where the pool scene is, for the mouse wheel
	narr    render.Rect // the narration panel, which the wheel scrolls
	scrub   render.Rect // the timeline scrub bar
	mx, my  float64     // pointer position
	touched bool
}

func (u *uiState) reset() { u.hits = u.hits[:0] }

func (u *uiState) add(r render.Rect, act func()) { u.hits = append(u.hits, hit{r, act}) }

func (u *uiState) hover(r render.Rect) bool { return r.Contains(u.mx, u.my) }

// repeat reports a key press, repeating while held (after 18 frames, every
// 3 frames) so an arrow can be held down.
func repeat(k ebiten.Key) bool {
	d := inpututil.KeyPressDuration(k)
	return d == 1 || d > 18 && d%3 == 0
}

func shift() bool {
	return ebiten.IsKeyPressed(ebiten.KeyShiftLeft) || ebiten.IsKeyPressed(ebiten.KeyShiftRight)
}

func (a *App) handleInput() {
	mx, my := ebiten.CursorPosition()
	a.ui.mx, a.ui.my = float64(mx), float64(my)
	// Clicks and taps.
	var points [][2]float64
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		points = append(points, [2]float64{float64(mx), float64(my)})
	}
	for _, id := range inpututil.AppendJustPressedTouchIDs(nil) {
		x, y := ebiten.TouchPosition(id)
		points = append(points, [2]float64{float64(x), float64(y)})
		a.ui.mx, a.ui.my = float64(x), float64(y)
	}
	for _, pt := range points {
		a.click(pt[0], pt[1])
	}
	// Global keys.
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyF):
		a.toggleFullscreen()
	case inpututil.IsKeyJustPressed(ebiten.KeyP):
		a.presentation = !a.presentation
		a.setTheme()
	case inpututil.IsKeyJustPressed(ebiten.KeyD):
		a.toggleTheme()
	case inpututil.IsKeyJustPressed(ebiten.KeySlash) && shift(), inpututil.IsKeyJustPressed(ebiten.KeyH):
		a.help = !a.help
	case inpututil.IsKeyJustPressed(ebiten.KeyEscape):
		switch {
		case a.help:
			a.help = false
		case a.errMsg != "":
			a.errMsg = ""
		case a.noticeOnCanvas():
			a.notice = ""
		case a.fast != nil:
			if !a.fast.running {
				a.fast = nil
			}
		default:
			a.p = nil
		}
		return
	}
	if a.fast != nil {
		return
	}
	if a.p == nil {
		a.menuKeys()
		return
	}
	a.playerKeys()
	if _, wy := ebiten.Wheel(); wy != 0 && a.ui.narr.Contains(a.ui.mx, a.ui.my) {
		a.narrScroll = max(0, min(a.narrMax, a.narrScroll-wy*30))
	}
	if _, wy := ebiten.Wheel(); wy != 0 && a.ui.pool.Contains(a.ui.mx, a.ui.my) {
		n := a.p.View().NBuffers()
		centre := a.pool.First + a.pool.Zoom/2
		if b, ok := a.pool.BufferAt(a.ui.mx, a.ui.my); ok {
			centre = b
		}
		if wy > 0 {
			a.pool.ZoomIn(n, centre)
		} else {
			a.pool.ZoomOut(n, centre)
		}
	}
}

func (a *App) click(x, y float64) {
	if a.errMsg != "" {
		a.errMsg = ""
		return
	}
	if a.noticeOnCanvas() {
		a.notice = ""
		return
	}
	for i := len(a.ui.hits) - 1; i >= 0; i-- {
		if a.ui.hits[i].r.Contains(x, y) {
			a.ui.hits[i].act()
			return
		}
	}
	if a.p != nil && a.ui.scrub.Contains(x, y) {
		frac := (x - a.ui.scrub.X) / a.ui.scrub.W
		a.p.Seek(int(frac*float64(a.p.Len()) + 0.5))
	}
}

func (a *App) menuKeys() {
	n := len(a.lessons)
	switch {
	case repeat(ebiten.KeyDown):
		a.menuSel = (a.menuSel + 1) % max(1, n)
	case repeat(ebiten.KeyUp):
		a.menuSel = (a.menuSel + n - 1) % max(1, n)
	case inpututil.IsKeyJustPressed(ebiten.KeyEnter), inpututil.IsKeyJustPressed(ebiten.KeySpace):
		if n > 0 {
			a.openFromMenu(a.menuSel)
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyF2):
		if err := a.startFast("pool"); err != nil {
			a.showError(err.Error())
		}
	}
}

func (a *App) openFromMenu(i int) {
	if err := a.openLesson(a.lessons[i].Name, 0); err != nil {
		a.showError(err.Error())
	}
}

var digitKeys = []ebiten.Key{ebiten.Key1, ebiten.Key2, ebiten.Key3, ebiten.Key4, ebiten.Key5, ebiten.Key6, ebiten.Key7, ebiten.Key8, ebiten.Key9}

func (a *App) playerKeys() {
	p := a.p
	n := 1
	if shift() {
		n = 10
	}
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeySpace):
		a.forwardOr(func() { p.Toggle() })
	case repeat(ebiten.KeyArrowRight):
		a.forwardOr(func() { p.Forward(n) })
	case repeat(ebiten.KeyArrowLeft):
		p.Back(n)
	case inpututil.IsKeyJustPressed(ebiten.KeyEqual), inpututil.IsKeyJustPressed(ebiten.KeyKPAdd):
		p.Faster()
	case inpututil.IsKeyJustPressed(ebiten.KeyMinus), inpututil.IsKeyJustPressed(ebiten.KeyKPSubtract):
		p.Slower()
	case inpututil.IsKeyJustPressed(ebiten.KeyHome):
		p.Start()
	case inpututil.IsKeyJustPressed(ebiten.KeyEnd):
		p.End()
	case inpututil.IsKeyJustPressed(ebiten.KeyPageDown), inpututil.IsKeyJustPressed(ebiten.KeyN):
		p.NextStep()
	case inpututil.IsKeyJustPressed(ebiten.KeyPageUp), inpututil.IsKeyJustPressed(ebiten.KeyB):
		p.PrevStep()
	case repeat(ebiten.KeyArrowUp):
		a.narrScroll = max(0, a.narrScroll-40)
	case repeat(ebiten.KeyArrowDown):
		a.narrScroll = min(a.narrMax, a.narrScroll+40)
	case inpututil.IsKeyJustPressed(ebiten.KeyO):
		a.forwardOr(func() { p.ToOpEnd() })
	case inpututil.IsKeyJustPressed(ebiten.KeyT) && p.Panes() > 1 && p.Variant.Key() == "drop":
		a.togglePacing()
	case inpututil.IsKeyJustPressed(ebiten.KeyEnter):
		if p.Gated() {
			p.Reveal()
		} else {
			p.Forward(1)
		}
	}
	if q := p.Question(); q != nil && p.Gated() {
		for i, k := range digitKeys {
			if i < len(q.Choices) && inpututil.IsKeyJustPressed(k) {
				p.Answer(i)
			}
		}
	}
}

// forwardOr runs a forward move, or says why it cannot run.
func (a *App) forwardOr(f func()) {
	if a.p.Gated() {
		a.flash = "Answer the question first: press 1–9 (or Enter to skip it)."
		a.flashTicks = 150
		return
	}
	f()
}
