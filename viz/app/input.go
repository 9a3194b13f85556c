package app

// The keys handled here, the mouse and the buttons drawn elsewhere in
// this package are documented in one table, viz/keymap (keymap.Bindings,
// keymap.Buttons), which the help overlay draws: a key added here goes
// there too. keymap's test reads this file and fails on a key the table
// lacks, or on a switch case whose keys the table says apply elsewhere.

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
	mx, my  float64 // pointer position
	touched bool    // the last press was a touch: targets grow to 44 px
	// seen, x0, y0: where the pointer was first; moved: it has moved
	// since (or pressed), so it points at something.
	seen, moved bool
	x0, y0      int
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

// handleInput reads the pointer, clicks and taps, then the keys: the
// global ones (keymap.Anywhere), then the menu's (menuKeys,
// keymap.Menu) or a lesson's (playerKeys, keymap.Player), and the wheel.
func (a *App) handleInput() {
	mx, my := ebiten.CursorPosition()
	// The pointer counts (hover, tooltips) once it has moved from where
	// the window found it: a cursor resting where the window opened (a
	// screenshot under Xvfb, a projector's idle mouse) shows nothing.
	if !a.ui.seen {
		a.ui.seen, a.ui.x0, a.ui.y0 = true, mx, my
	} else if mx != a.ui.x0 || my != a.ui.y0 {
		a.ui.moved = true
	}
	a.ui.mx, a.ui.my = float64(mx), float64(my)
	// Clicks and taps.
	var points [][2]float64
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		points = append(points, [2]float64{float64(mx), float64(my)})
	}
	if len(points) > 0 {
		a.ui.touched = false
	}
	for _, id := range inpututil.AppendJustPressedTouchIDs(nil) {
		x, y := ebiten.TouchPosition(id)
		points = append(points, [2]float64{float64(x), float64(y)})
		a.ui.mx, a.ui.my = float64(x), float64(y)
		a.ui.touched = true
	}
	if len(points) > 0 {
		a.ui.moved = true
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
		case a.legend:
			a.legend = false
		case a.errMsg != "":
			a.errMsg = ""
		case a.noticeOnCanvas():
			a.notice = ""
		case a.fast != nil:
			if !a.fast.running {
				a.fast = nil
			}
		case a.opts.Embed:
			// An embedded lesson has no menu to go back to.
		default:
			a.p = nil
		}
		return
	}
	if a.fast != nil {
		return
	}
	a.wheel()
	if a.p == nil {
		a.menuKeys()
		return
	}
	a.playerKeys()
}

// wheel scrolls the lesson text or the menu, or zooms the pool, under the
// pointer.
func (a *App) wheel() {
	if _, wy := ebiten.Wheel(); wy != 0 && a.fast == nil {
		a.fr.Wheel(a.ui.mx, a.ui.my, wy)
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
	if a.fast != nil {
		for i := len(a.ui.hits) - 1; i >= 0; i-- {
			if a.ui.hits[i].r.Contains(x, y) {
				a.ui.hits[i].act()
				return
			}
		}
		return
	}
	if t, ok := a.list.Hit(x, y); ok && t.Act != nil {
		t.Act()
		return
	}
	if pos, ok := a.fr.Scrub(x, y); ok && a.p != nil {
		a.p.Seek(pos)
	}
}

// menuKeys are the keys of the lesson menu (keymap.Menu).
func (a *App) menuKeys() {
	if a.progressMenuKeys() { // progress.go: R R resets
		return
	}
	n := len(a.index)
	switch {
	case repeat(ebiten.KeyArrowDown):
		a.fr.SelectMenu(1, n)
	case repeat(ebiten.KeyArrowUp):
		a.fr.SelectMenu(-1, n)
	case inpututil.IsKeyJustPressed(ebiten.KeyEnter), inpututil.IsKeyJustPressed(ebiten.KeySpace):
		if n > 0 {
			a.openFromMenu(a.fr.MenuSel)
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyF2):
		if err := a.startFast("pool"); err != nil {
			a.showError(err.Error())
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyS) && a.opts.Sandbox != nil:
		a.opts.Sandbox("")
	}
}

// openFromMenu opens lesson i where the student left it (progress.go).
func (a *App) openFromMenu(i int) { a.openAndResume(a.index[i].Name) }

var digitKeys = []ebiten.Key{ebiten.Key1, ebiten.Key2, ebiten.Key3, ebiten.Key4, ebiten.Key5, ebiten.Key6, ebiten.Key7, ebiten.Key8, ebiten.Key9}

// playerKeys are the keys of a lesson or scenario (keymap.Player; T only
// in the drop race, keymap.DropRace).
func (a *App) playerKeys() {
	if a.lessonEndKeys() { // progress.go: Enter, R at the end of a lesson
		return
	}
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
		a.fr.Scroll(-40 * a.th.Scale)
	case repeat(ebiten.KeyArrowDown):
		a.fr.Scroll(40 * a.th.Scale)
	case inpututil.IsKeyJustPressed(ebiten.KeyL):
		a.legend = !a.legend
	case inpututil.IsKeyJustPressed(ebiten.KeyC) && a.opts.CopyLink != nil:
		a.copyLink()
	case inpututil.IsKeyJustPressed(ebiten.KeyE) && a.opts.Sandbox != nil && a.source != "":
		a.editScenario()
	case inpututil.IsKeyJustPressed(ebiten.KeyO):
		a.forwardOr(func() { p.ToOpEnd() })
	case inpututil.IsKeyJustPressed(ebiten.KeyA):
		a.setAutoSlow(!p.AutoSlow())
		a.flash = "Auto-slow near key moments: off."
		if p.AutoSlow() {
			a.flash = "Auto-slow near key moments: on."
		}
		a.flashTicks = 120
	case inpututil.IsKeyJustPressed(ebiten.KeyT) && p.Panes() > 1 && p.Variant.Key() == "drop":
		a.togglePacing()
	case inpututil.IsKeyJustPressed(ebiten.KeyEnter):
		if p.Gated() && a.classHold {
			a.flash, a.flashTicks = "In class, the teacher reveals the answer.", 120
		} else if p.Gated() {
			p.Reveal()
		} else {
			p.Forward(1)
		}
	}
	if q := p.Question(); q != nil && p.Gated() {
		for i, k := range digitKeys {
			if i < len(q.Choices) && inpututil.IsKeyJustPressed(k) {
				a.answer(i) // progress.go: records it
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
