package frame

import (
	"math"

	"bufferlab/lessons"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/scene"
)

// Input is what the frame is laid out for: the viewport in CSS pixels (the
// logical pixels Ebitengine's Layout gets), the mode and the pointer.
type Input struct {
	W, H         float64
	Presentation bool
	// Touch says the pointer is coarse (a finger): targets grow to 44 px
	// even on a Desk-sized screen.
	Touch bool
	Mouse layout.Point
	// Colours makes the theme's colours at a scale (nil: layout.Light).
	Colours func(scale float64) *layout.Theme
}

// Class is the arrangement a viewport gets.
type Class uint8

// Classes, by viewport (see the package comment).
const (
	Phone Class = iota
	Tablet
	Desk
)

var classNames = [...]string{Phone: "phone", Tablet: "tablet", Desk: "desk"}

func (c Class) String() string { return classNames[c] }

// Plan is what a viewport gets: its class, the theme with its scale and
// text floor, and the smallest target.
type Plan struct {
	Class        Class
	Presentation bool
	Theme        *layout.Theme
	MinTarget    float64
	W, H         float64
}

// Mode names the plan for window.bufferlab.layout(): "phone", "tablet",
// "desk", with "-presentation" in presentation mode.
func (p Plan) Mode() string {
	if p.Presentation {
		return p.Class.String() + "-presentation"
	}
	return p.Class.String()
}

// The breakpoints and floors.
const (
	phoneMaxW  = 600  // narrower: Phone
	tabletMaxW = 1000 // narrower (or lower than tabletMaxH): Tablet
	tabletMaxH = 600
	bodyMinPx  = 14 // the smallest text on a phone or a laptop (CSS px)
	showMinPx  = 24 // the smallest text in presentation mode at 1280×720
	touchMinPx = 44 // the smallest target on a touch screen (Apple HIG, WCAG 2.5.5)
	deskMinPx  = 30 // the smallest target with a mouse
)

// PlanFor chooses the class, the scale and the floors for in.
//
//	Desk:          scale = clamp(min(W/1280, H/800), 1, 2.5); floor 14·scale
//	Desk, shown:   k = √clamp(min(W/1280, H/720), 1, 4); scale 1.75·k; floor 24·k
//	Tablet, Phone: scale 1, floor 14, in either mode
func PlanFor(in Input) Plan {
	p := Plan{Presentation: in.Presentation, W: in.W, H: in.H, Class: Desk}
	switch {
	case in.W < phoneMaxW:
		p.Class = Phone
	case in.W < tabletMaxW || in.H < tabletMaxH:
		p.Class = Tablet
	}
	scale, floor := 1.0, float64(bodyMinPx)
	switch {
	case p.Class != Desk:
		// A phone is held close: presentation mode changes nothing
		// there (a projector is Desk-sized).
	case in.Presentation:
		// The type grows more slowly than the screen: a larger projector
		// is also seen from further away, but not in proportion.
		k := math.Sqrt(clamp(min(in.W/1280, in.H/720), 1, 4))
		scale, floor = 1.75*k, showMinPx*k
	default:
		scale = clamp(min(in.W/1280, in.H/800), 1, 2.5)
		floor = bodyMinPx * scale
	}
	colours := in.Colours
	if colours == nil {
		colours = layout.Light
	}
	p.Theme = colours(scale)
	p.Theme.MinPx = floor
	p.MinTarget = deskMinPx * min(scale, 1.5)
	if in.Touch || p.Class != Desk {
		p.MinTarget = max(p.MinTarget, touchMinPx)
	}
	return p
}

func clamp(v, lo, hi float64) float64 { return max(lo, min(hi, v)) }

// Tab is the region a Phone shows, or the right column of a Tablet.
type Tab uint8

// Tabs.
const (
	TabLesson Tab = iota
	TabScene
	TabCode
)

// Hooks are what the frame's targets ask of the app.
type Hooks struct {
	OpenLesson func(i int)
	Menu       func()
	Help       func() // toggle the help overlay
	Legend     func() // toggle the pool's legend
	Fast       func() // fast mode from the menu
	Pacing     func() // T: a drop race paced by events or by time
	// Forward runs a move forward, or says why it cannot (an open
	// question).
	Forward func(move func())
	Dismiss func() // close the error or the notice
	// Answer answers the open question with choice (from 0), recording it
	// (nil: the player's Answer).
	Answer func(choice int)
	// The end panel's ways on: the next lesson, the same again, the menu.
	EndNext, EndReplay, EndMenu func()
	// Link copies a link to where the student is (the browser); Edit
	// opens the scenario being played in the sandbox's editor; Sandbox
	// opens the sandbox from the menu. Nil (the desktop, or an embedded
	// page for Menu): their buttons are not drawn. A nil Menu also hides
	// the Menu button (an embedded lesson has no menu).
	Link, Edit, Sandbox func()
}

// Screen is what is on screen: the menu (Player nil) or a lesson, and the
// overlays.
type Screen struct {
	Lessons []lessons.Entry
	Player  *player.Player
	Help    bool
	// Legend shows the legend of the pool scenes (what a cell's words,
	// badges and shades mean, the state word, the mapping table).
	Legend bool
	// Message is an error or a notice drawn on the canvas, titled
	// MessageTitle ("Error", "Note"); MessageErr draws it as an error.
	Message, MessageTitle string
	MessageErr            bool
	Flash                 string
	// Pacing is the drop race's pacing line, when paced by time.
	PacingLine string
	// MenuNote is each lesson's progress line in the menu (by lesson
	// name; absent: none).
	MenuNote map[string]string
	// Reset is the menu's reset-progress button (no label: none).
	Reset Reset
	// End is the end panel of a lesson at its end (nil: not at the end),
	// laid out after the last step's text.
	End *scene.LessonEnd
	// Class says that answers are held for a teacher's reveal (a student
	// in a class): the question's hint says so, not "Enter skips".
	Class bool
}

// Reset is the menu's button that forgets all progress: its label (what a
// press does now), whether it is armed (a second press resets), and what
// a press does.
type Reset struct {
	Label string
	Armed bool
	Act   func()
}

// State is what the frame keeps between frames: scroll positions, the
// tab, the pools' zoom and where things were (for the wheel and the
// scrub bar).
type State struct {
	MenuSel    int
	menuFollow bool // scroll the selection into view on the next frame
	menuScroll float64
	menuMax    float64
	menuRect   layout.Rect

	Tab        Tab
	narrScroll float64
	narrMax    float64
	narrRect   layout.Rect
	step       int  // the step the narration was laid out for (-1: none yet)
	revealed   bool // the step's question was revealed at the last frame
	asked      bool // the step's question was asked (on screen) at the last frame
	toEnd      bool // the end strip was clicked: scroll to the end panel
	autoQ      bool // the step's open question may still scroll into view
	player     *player.Player

	// Pane is the pane shown where stacked panes are shown one at a time.
	Pane int
	// paneStop is 1 + the position of the stop whose pane Pane was set
	// to (0: none): a stop shows its own pane once, then the student may
	// choose another.
	paneStop int
	// Pools are the pool scenes of the panes (zoom, hit testing).
	Pools     []scene.PoolScene
	DropProbe uint64

	poolRect  layout.Rect
	scrubRect layout.Rect
	// The pool's legend overlay scrolls where it is taller than the window.
	legendRect              layout.Rect
	legendScroll, legendMax float64
	plan                    Plan
}

// Plan is the plan of the last frame built.
func (s *State) Plan() Plan { return s.plan }

// Reset forgets what a lesson's frame kept: a new lesson is shown.
func (s *State) Reset(p *player.Player) {
	s.player = p
	s.step, s.asked = -1, false
	s.narrScroll, s.narrMax = 0, 0
	s.Tab = TabLesson
	s.DropProbe = 0
	s.Pools = nil
	if p != nil {
		s.Pools = make([]scene.PoolScene, p.Panes())
		for i := range s.Pools {
			s.Pools[i].Reset(p.View().NBuffers())
		}
	}
}

// Wheel scrolls what is under (x, y) by dy (the wheel's notches, up
// positive): the lesson text or the menu; over the pool it zooms (in for
// up). It reports whether anything took it.
func (s *State) Wheel(x, y, dy float64) bool {
	step := 40 * s.plan.Theme.Scale
	switch {
	case s.legendMax > 0 && s.legendRect.Contains(x, y):
		s.legendScroll = clamp(s.legendScroll-dy*step, 0, s.legendMax)
	case s.player == nil && s.menuRect.Contains(x, y):
		s.menuScroll = clamp(s.menuScroll-dy*step, 0, s.menuMax)
	case s.player != nil && s.narrRect.Contains(x, y):
		s.narrScroll, s.autoQ = clamp(s.narrScroll-dy*step, 0, s.narrMax), false
	case s.player != nil && s.poolRect.Contains(x, y) && len(s.Pools) > 0:
		ps := &s.Pools[0]
		n := s.player.View().NBuffers()
		centre := ps.First + ps.Zoom/2
		if b, ok := ps.BufferAt(x, y); ok {
			centre = b
		}
		if dy > 0 {
			ps.ZoomIn(n, centre)
		} else {
			ps.ZoomOut(n, centre)
		}
	default:
		return false
	}
	return true
}

// Scroll scrolls the lesson text (or the menu) by dy pixels, down
// positive: the arrow keys.
func (s *State) Scroll(dy float64) {
	if s.player == nil {
		s.menuScroll = clamp(s.menuScroll+dy, 0, s.menuMax)
		return
	}
	s.narrScroll, s.autoQ = clamp(s.narrScroll+dy, 0, s.narrMax), false
}

// Scrub returns the event position at x when (x, y) is on the scrub bar.
func (s *State) Scrub(x, y float64) (int, bool) {
	if s.player == nil || !s.scrubRect.Contains(x, y) {
		return 0, false
	}
	frac := (x - s.scrubRect.X) / s.scrubRect.W
	return int(frac*float64(s.player.Len()) + 0.5), true
}

// SelectMenu moves the menu's selection by d (wrapping) and keeps it in
// view.
func (s *State) SelectMenu(d, n int) {
	if n == 0 {
		return
	}
	s.MenuSel = ((s.MenuSel+d)%n + n) % n
	s.menuFollow = true
}

// Build lays out a frame of sc for in, keeping what it must in s.
func Build(l *layout.List, s *State, sc *Screen, in Input, h Hooks) Plan {
	s.plan = PlanFor(in)
	b := &builder{l: l, s: s, sc: sc, in: in, h: h, plan: s.plan, th: s.plan.Theme}
	full := layout.Rect{W: in.W, H: in.H}
	l.Fill("background", full, b.th.Background)
	if sc.Player == nil {
		b.menu(full)
	} else {
		if s.player != sc.Player {
			s.Reset(sc.Player)
		}
		b.lesson(full)
		b.tooltip(full)
	}
	s.legendMax = 0
	if sc.Legend && sc.Player != nil && b.poolLegend() {
		b.legend(full)
	}
	if sc.Help {
		b.help(full)
	}
	if sc.Message != "" {
		b.message(full)
	}
	return s.plan
}

// builder carries one frame's inputs through its parts.
type builder struct {
	l    *layout.List
	s    *State
	sc   *Screen
	in   Input
	h    Hooks
	plan Plan
	th   *layout.Theme
	// hitStates say which view each range of the list's hit regions was
	// laid out from (a tooltip reads that view).
	hitStates []hitState
	pools     []poolAt // the pools laid out, for their cells' tooltips
	// stopWide says that the stop box takes the caption bar's place (a
	// phone's frame), not the foot of the right column.
	stopWide bool
}

// poolAt is pane i's pool view, laid out by s.Pools[i].
type poolAt struct {
	i int
	v *view.Pool
}

// hitState is the view the hit regions lo..hi-1 were laid out from.
type hitState struct {
	lo, hi int
	state  any
}

// from lays out f, noting that the hit regions it records show state.
func (b *builder) from(state any, f func()) {
	lo := len(b.l.Hits)
	f()
	b.hitStates = append(b.hitStates, hitState{lo, len(b.l.Hits), state})
}

func (b *builder) hover(r layout.Rect) bool { return r.Contains(b.in.Mouse.X, b.in.Mouse.Y) }
