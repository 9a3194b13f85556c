package app

import (
	"errors"
	"fmt"
	"image"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/fastmode/exp/drop"
	"bufferlab/lessons"
	"bufferlab/lessons/progress"
	"bufferlab/viz/frame"
	"bufferlab/viz/layout"
	"bufferlab/viz/player"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/render"
	"bufferlab/viz/slruview"
)

// Options configure the app.
type Options struct {
	// Follow, when set, hears where the student goes and what they answer
	// (link.go).
	Follow *Follow
	// Sandbox, when set (the browser), opens the scenario sandbox's
	// editor with a text ("" for an empty one): the menu's Sandbox card,
	// S in the menu, and the player's Edit button and E key for a scenario
	// the sandbox ran or a link carried.
	Sandbox func(text string)
	// CopyLink, when set (the browser), copies a link's fragment (the
	// player's Link button and C key).
	CopyLink func(fragment string)
	// Look, when set (the browser), hears the theme's name and whether
	// presentation mode is on, at the start and each time either changes
	// (D, P, SetTheme, SetPresentation): the page around the canvas (the
	// sandbox, its dialogs, notices) takes the same colours and, for a
	// projector, the same large type. It is called with the app's lock
	// held: it must not call the app.
	Look func(theme string, presentation bool)
	// Yield, when set (the browser), is the scenario.Script Yield of
	// what is opened from text (OpenScenario, OpenLessonSource): those
	// run off the app's lock, so Yield may hand the thread to the page.
	Yield func(events int) error
	// Embed shows one lesson or scenario without the menu (an iframe):
	// no Menu button, Esc closes overlays only, the end panel offers no
	// menu, and links keep saying embed.
	Embed         bool
	Width, Height int
	Presentation  bool
	// Theme is the theme's name (layout.ThemeNames; "" is light).
	Theme string
	// OnFirstFrame is called once, after the first frame of a lesson (or
	// of the menu) has been drawn.
	OnFirstFrame func()
	// OnError is called with a message when something the user asked for
	// fails (a lesson that does not play, a bad permalink).
	OnError func(msg string)
	// OnNotice, when set, shows a notice (something the user asked for was
	// done another way: a permalink past the last step, fullscreen refused)
	// and the canvas does not draw it; the app goes on either way.
	OnNotice func(msg string)
	// Fullscreen, when set, toggles fullscreen instead of
	// ebiten.SetFullscreen: the browser's may be refused (a frame that does
	// not allow it). Its error is shown as a notice.
	Fullscreen func() error
	// Progress keeps the student's progress between runs (answers, the
	// furthest step, completed lessons): a file store on the desktop,
	// localStorage in the browser. Nil keeps it in memory only.
	Progress progress.Store
	// NoAutoSlow starts with auto-slow off: playing does not slow down
	// near key moments (A turns it on).
	NoAutoSlow bool
	// A11y, when set, is given the screen-reader mirror of what the app
	// shows and what its live region is to say (a11y.go).
	A11y *A11y
	// ReducedMotion starts the app with reduced motion (a11y.go).
	ReducedMotion bool
}

// App is the player. It implements ebiten.Game.
type App struct {
	mu   sync.Mutex
	opts Options
	th   *render.Theme
	// themeName is th's name (theme.go).
	themeName string
	told      pageLook // what Options.Look was last told
	classHold bool     // class.go: answers wait for the teacher's reveal

	// index is the menu's lessons (lessons.Index: no parsing); lessons
	// are the parsed ones, nil until parsed() first needs them: at once
	// when there is saved progress to fit, else after the first frame or
	// when a lesson opens, whichever comes first. loadErr is the parse's
	// failure.
	index   []lessons.Entry
	lessons []*lessons.Lesson
	loadErr error

	p *player.Player // nil in the menu
	// source is the text of the scenario p plays ("" for a lesson): the
	// sandbox's editor and a link carry it (link.go).
	source string
	// lessonSource is the Markdown of a lesson opened from its text
	// (OpenLessonSource), "" for an embedded one.
	lessonSource string
	// follow is where Options.Follow last heard the student was.
	follow followKey
	fast   *fastState // the fast-mode panel, when shown
	// dropCosts are the native drop costs measured for pacing by time.
	dropCosts *drop.DropCosts

	// The frame: its layout state (scrolls, tabs, zoom), the list the
	// last frame laid out (painted, and hit-tested by the next Update),
	// and the painter that keeps the heat maps' textures.
	fr      frame.State
	showTab *frame.Tab // ShowTab's, for the next frame
	list    layout.List
	painter render.Painter
	plan    frame.Plan

	help         bool
	legend       bool // the pool's legend is open (L)
	presentation bool
	noAutoSlow   bool // auto-slow is off for every lesson opened (A)
	errMsg       string
	notice       string // the last notice (ShowNotice), until a lesson opens or it is closed
	flash        string
	flashTicks   int

	w, h    int
	ui      uiState
	frames  int
	firstOK bool

	measure      *Measure
	canvas       *ebiten.Image
	captureAt    int
	captureFn    func(image.Image) error
	captureErr   error
	captureDone  bool
	drawnIdle    bool // the last frame drawn shows no experiment running
	lastDrawnFPS float64

	prog progressState // the student's progress (progress.go)

	access accessState // the screen-reader mirror and reduced motion (a11y.go)
}

// New returns the app showing the menu of the embedded lessons. It
// parses them only when there is saved progress to fit to them: the
// menu needs their index alone, and the first frame comes sooner
// (parsed).
func New(opts Options) (*App, error) {
	if opts.Width <= 0 {
		opts.Width = 1280
	}
	if opts.Height <= 0 {
		opts.Height = 800
	}
	if err := render.FontError(); err != nil {
		return nil, fmt.Errorf("fonts: %w", err)
	}
	a := &App{opts: opts, w: opts.Width, h: opts.Height, presentation: opts.Presentation, noAutoSlow: opts.NoAutoSlow}
	a.access.hooks, a.access.motion.Reduced = opts.A11y, opts.ReducedMotion
	if err := a.useTheme(opts.Theme); err != nil {
		return nil, err
	}
	a.index = lessons.Index()
	if err := a.loadProgress(); err != nil { // progress.go
		return nil, err
	}
	return a, nil
}

// parsed is the embedded lessons, parsed the first time it is called.
// lessons.Index is checked against them (TestIndexMatchesLessons), so the
// menu's entries are these lessons'.
func (a *App) parsed() ([]*lessons.Lesson, error) {
	if a.lessons == nil && a.loadErr == nil {
		a.lessons, a.loadErr = lessons.All()
	}
	return a.lessons, a.loadErr
}

// parsedNamed is the parsed embedded lesson called name (nil, nil when
// there is none).
func (a *App) parsedNamed(name string) (*lessons.Lesson, error) {
	all, err := a.parsed()
	for _, l := range all {
		if l.Name == name {
			return l, nil
		}
	}
	return nil, err
}

// LessonInfo describes a lesson for menus and the JS API.
type LessonInfo struct {
	Name      string `json:"name"`
	Title     string `json:"title"`
	Summary   string `json:"summary"`
	Steps     int    `json:"steps"`
	Questions int    `json:"questions"`
}

// Lessons lists the embedded lessons in order.
func (a *App) Lessons() []LessonInfo {
	var out []LessonInfo
	for _, l := range a.index {
		out = append(out, LessonInfo{Name: l.Name, Title: l.Title, Summary: l.Summary, Steps: l.Steps, Questions: l.Questions})
	}
	return out
}

// ErrNoLesson is returned for an unknown lesson name.
var ErrNoLesson = errors.New("no such lesson")

// OpenLesson plays a lesson and shows it at the start of step (0 when step
// is negative). Step numbers count from 0.
func (a *App) OpenLesson(name string, step int) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	err := a.openLesson(name, step)
	a.trackProgress() // progress.go
	return err
}

func (a *App) openLesson(name string, step int) error {
	l, err := a.parsedNamed(name)
	switch {
	case err != nil:
		return err
	case l == nil:
		var names []string
		for _, e := range a.index {
			names = append(names, e.Name)
		}
		return fmt.Errorf("%w %q (lessons: %v)", ErrNoLesson, name, names)
	case step >= len(l.Steps):
		return fmt.Errorf("lesson %s has steps 0..%d, not %d", name, len(l.Steps)-1, step)
	}
	p, err := player.FromLesson(l)
	if err != nil {
		return fmt.Errorf("lesson %s: %w", name, err)
	}
	a.show(p, step)
	return nil
}

// OpenScenario plays a scenario file as a one-step lesson, at event step
// (0 when negative).
// It runs the scenario off the app's lock (the app goes on drawing what
// it showed until the run is done).
func (a *App) OpenScenario(name, src string, event int) error {
	s, err := scenario.Parse(name, src)
	if err != nil {
		return err
	}
	s.Yield = a.opts.Yield
	p, err := player.FromScript(name, src, s)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.show(p, 0)
	a.source = src
	if event > 0 {
		p.Seek(event)
	}
	return nil
}

func (a *App) show(p *player.Player, step int) {
	a.p, a.fast, a.source, a.lessonSource = p, nil, "", ""
	p.SetAutoSlow(!a.noAutoSlow)
	a.fr.Reset(p)
	a.errMsg, a.notice = "", ""
	if step > 0 {
		p.GotoStep(step)
	}
}

// Menu returns to the lesson list.
func (a *App) Menu() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.p = nil
	a.help = false
	if a.fast != nil && !a.fast.running {
		a.fast = nil
	}
}

// Step moves n events (negative: back). Like the arrow keys, it stops at an
// unanswered question.
func (a *App) Step(n int) error {
	return a.playing(func(p *player.Player) error {
		if n >= 0 {
			p.Forward(n)
		} else {
			p.Back(-n)
		}
		return nil
	})
}

// Continue goes on from the stop the player is paused at (as the
// Continue button, Space or a tap on the stop do): it applies the key
// moment's event and plays on. It is an error when the player is not at a
// stop, or the stop's question is not answered yet.
func (a *App) Continue() error {
	return a.playing(func(p *player.Player) error {
		if _, ok := p.AtStop(); !ok {
			return errors.New("continue: the player is not stopped at a key moment")
		}
		if p.Gated() {
			return errors.New("continue: answer the question first")
		}
		p.Continue()
		return nil
	})
}

// GotoStop moves to the k-th stop (from 1) of the current step: the
// player paused just before that key moment, its question open if it
// asks one.
func (a *App) GotoStop(k int) error {
	return a.playing(func(p *player.Player) error {
		var in []player.Stop
		for _, s := range p.Stops() {
			if s.Step == p.Step() {
				in = append(in, s)
			}
		}
		if k < 1 || k > len(in) {
			return fmt.Errorf("stop %d: step %d has %d stops", k, p.Step(), len(in))
		}
		p.Seek(in[k-1].Pos)
		return nil
	})
}

// SetAutoSlow turns slowing down near key moments on or off, for the open
// lesson and those opened later.
func (a *App) SetAutoSlow(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.setAutoSlow(on)
}

func (a *App) setAutoSlow(on bool) {
	a.noAutoSlow = !on
	if a.p != nil {
		a.p.SetAutoSlow(on)
	}
}

// Seek moves to event position i.
func (a *App) Seek(i int) error {
	return a.playing(func(p *player.Player) error { p.Seek(i); return nil })
}

// GotoStep moves to the start of lesson step k.
func (a *App) GotoStep(k int) error {
	return a.playing(func(p *player.Player) error {
		if k < 0 || k >= len(p.Steps) {
			return fmt.Errorf("step %d out of range 0..%d", k, len(p.Steps)-1)
		}
		p.GotoStep(k)
		return nil
	})
}

// ShowTab shows a tab of the lesson's frame ("lesson", "scene" or
// "code") as a tap on it would, where the frame has tabs (a phone: all
// three; a tablet or presentation mode: the lesson and the code beside
// the scene); elsewhere the frame shows what it always does.
func (a *App) ShowTab(name string) error {
	t, ok := map[string]frame.Tab{"lesson": frame.TabLesson, "scene": frame.TabScene, "code": frame.TabCode}[name]
	if !ok {
		return fmt.Errorf("no tab %q (lesson, scene or code)", name)
	}
	return a.playing(func(*player.Player) error {
		a.showTab = &t
		return nil
	})
}

// Answer answers the current step's question (choice counts from 1, as on
// screen).
func (a *App) Answer(choice int) (bool, error) {
	var ok bool
	err := a.playing(func(p *player.Player) (err error) {
		ok, err = a.answer(choice - 1) // progress.go: records it
		return err
	})
	return ok, err
}

// playing runs f on the open lesson's player under the lock: what the JS
// API's calls that move a lesson share. In the menu it returns an error
// and f does not run.
func (a *App) playing(f func(p *player.Player) error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.p == nil {
		return errors.New("no lesson is open")
	}
	err := f(a.p)
	a.trackProgress() // progress.go
	return err
}

// State is a snapshot for the JS API and tests.
type State struct {
	Mode      string `json:"mode"` // "menu" or "lesson"
	Lesson    string `json:"lesson,omitempty"`
	Title     string `json:"title,omitempty"`
	Step      int    `json:"step"`
	Steps     int    `json:"steps"`
	StepTitle string `json:"stepTitle,omitempty"`
	Event     int    `json:"event"`
	Events    int    `json:"events"`
	// StepStart and StepEnd are the step's first and end positions (as
	// Event counts them).
	StepStart int    `json:"stepStart"`
	StepEnd   int    `json:"stepEnd"`
	Playing   bool   `json:"playing"`
	Speed     string `json:"speed,omitempty"`
	Question  bool   `json:"question"`
	Gated     bool   `json:"gated"`
	// Stop, when the player is paused just before a key moment, says
	// which; nil otherwise.
	Stop *StopState `json:"stop,omitempty"`
	// AutoSlow says that playing slows down near key moments.
	AutoSlow   bool       `json:"autoSlow"`
	End        bool       `json:"end"` // at the end of the last step: the end panel shows (progress.go)
	Counters   Counters   `json:"counters"`
	FPS        float64    `json:"fps"`
	Frames     int        `json:"frames"`
	NBuffers   int        `json:"nbuffers,omitempty"`
	ClockHand  int        `json:"clockHand"`
	Error      string     `json:"error,omitempty"`
	Notice     string     `json:"notice,omitempty"`
	Presenting bool       `json:"presentation"`
	Theme      string     `json:"theme"`
	Fast       *FastState `json:"fast,omitempty"`
	// Pins names the pin variant (atomic or spinlock). Panes, in the
	// side-by-side scene, has one entry per variant in pane order.
	Pins  string      `json:"pins,omitempty"`
	Panes []PaneState `json:"panes,omitempty"`
	// Pacing is how the panes line up: events or time.
	Pacing string `json:"pacing,omitempty"`
	// SLRU, in a commit-log lesson, counts what its SLRU did so far.
	SLRU *SLRUState `json:"slru,omitempty"`
	// FSM, in a lesson on heaps, counts what their inserts read so far.
	FSM *FSMState `json:"fsm,omitempty"`
}

// StopState is the key moment the player is paused before: its name
// (cas-fail, victim, …), what it is in words, the pane whose next event it
// is, whether the step's question is asked there, and the moment's
// caption ("" while that question is open: it could give the answer
// away).
type StopState struct {
	Moment   string `json:"moment"`
	Title    string `json:"title"`
	Pane     int    `json:"pane"`
	Question bool   `json:"question"`
	Caption  string `json:"caption,omitempty"`
}

// SLRUState is the commit log's SLRU counters at the current position.
type SLRUState struct {
	Hits         uint64 `json:"hits"`
	Reads        uint64 `json:"reads"`
	Writes       uint64 `json:"writes"`
	SlotsScanned uint64 `json:"slotsScanned"`
	Probes       uint64 `json:"probes"`
	VictimScans  uint64 `json:"victimScans"`
	Victims      uint64 `json:"victims"`
	LockWaits    uint64 `json:"lockWaits"`
}

// slruStateOf is what the SLRU view has counted, for State.
func slruStateOf(c slruview.Counters) *SLRUState {
	st := c.Stats()
	return &SLRUState{Hits: st.Hits, Reads: st.Reads, Writes: st.Writes, SlotsScanned: st.SlotsScanned,
		Probes: st.Probes, VictimScans: st.VictimScans, Victims: st.Victims, LockWaits: st.LockWaits}
}

// FSMState is the free space map model's counters at the current
// position.
type FSMState struct {
	FSMReads  uint64 `json:"fsmReads"`
	HeapReads uint64 `json:"heapReads"`
	Inserts   uint64 `json:"inserts"`
}

// PaneState is one pane of the side-by-side scene.
type PaneState struct {
	Variant  string   `json:"variant"` // pins=atomic, drop=scan, …
	Counters Counters `json:"counters"`
	// SLRU is the pane's SLRU counters (slru= variants).
	SLRU *SLRUState `json:"slru,omitempty"`
}

// Counters are the counters shown on screen.
type Counters struct {
	Hits            uint64 `json:"hits"`
	Misses          uint64 `json:"misses"`
	Writes          uint64 `json:"writes"`
	ClockTicks      uint64 `json:"clockTicks"`
	UsageDecrements uint64 `json:"usageDecrements"`
	PartitionLocks  uint64 `json:"partitionLocks"`
	LockWaits       uint64 `json:"lockWaits"`
	CASFailures     uint64 `json:"casFailures"`
	Spins           uint64 `json:"spins"`
	Errors          uint64 `json:"errors"`
	CAS             uint64 `json:"cas"`
	HeaderLocks     uint64 `json:"headerLocks"`
	// Dropping relations.
	DescsTouched uint64 `json:"descsTouched"`
	MapLookups   uint64 `json:"dropLookups"`
	ListHops     uint64 `json:"listHops"`
	Invalidated  uint64 `json:"invalidated"`
}

func countersOf(c view.Counters) Counters {
	return Counters{Hits: c.Hits, Misses: c.Misses, Writes: c.Writes, ClockTicks: c.ClockTicks,
		UsageDecrements: c.UsageDecrements, PartitionLocks: c.PartitionLocks, LockWaits: c.LockWaits,
		CASFailures: c.CASFailures, Spins: c.Spins, Errors: c.Errors, CAS: c.CASAttempts, HeaderLocks: c.HeaderLocks,
		DescsTouched: c.DropDescsTouched, MapLookups: c.DropLookups, ListHops: c.DropListHops, Invalidated: c.DropInvalidated}
}

// State returns the current state.
func (a *App) State() State {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := State{Mode: "menu", FPS: ebiten.ActualFPS(), Frames: a.frames, Error: a.errMsg, Notice: a.notice, Presenting: a.presentation, Theme: a.themeName}
	if a.fast != nil {
		s.Mode, s.Fast = "fast", a.fastState()
		return s
	}
	if a.p == nil {
		return s
	}
	p := a.p
	s.Mode, s.Lesson, s.Title = "lesson", p.Name, p.Title
	s.Step, s.Steps, s.StepTitle = p.Step(), len(p.Steps), p.Steps[p.Step()].Title
	s.Event, s.Events, s.Playing, s.Speed = p.Pos(), p.Len(), p.Playing(), p.SpeedLabel()
	s.StepStart, s.StepEnd = p.StepStart[p.Step()], p.StepEnd[p.Step()]
	s.Question, s.Gated, s.AutoSlow = p.Question() != nil, p.Gated(), p.AutoSlow()
	if st, ok := p.AtStop(); ok {
		s.Stop = &StopState{Moment: st.Moment.String(), Title: player.MomentTitle(st.Moment), Pane: st.Pane, Question: st.Question}
		if !s.Gated {
			s.Stop.Caption = p.StopCaption()
		}
	}
	s.End = a.atLessonEnd()
	s.NBuffers, s.ClockHand = p.View().NBuffers(), p.View().Hand()
	s.Counters = countersOf(p.Counters())
	s.Pins = p.Variant.Pins().String()
	if v := p.FSMView(); v != nil {
		st := v.Counters().Stats()
		s.FSM = &FSMState{FSMReads: st.Reads[bufmgr.FSMForkNum], HeapReads: st.Reads[bufmgr.MainForkNum], Inserts: st.Inserts}
	}
	if v := p.SLRUView(); v != nil {
		s.SLRU = slruStateOf(v.Counters())
	}
	if p.Panes() > 1 {
		s.Pacing = p.Pacing()
		for i := 0; i < p.Panes(); i++ {
			ps := PaneState{Variant: p.PaneVariant(i).String(), Counters: countersOf(p.PaneView(i).Counters())}
			if v := p.PaneSLRUView(i); v != nil {
				ps.SLRU = slruStateOf(v.Counters())
			}
			s.Panes = append(s.Panes, ps)
		}
	}
	return s
}

// ShowError puts a message on screen (and reports it through OnError).
func (a *App) ShowError(msg string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.showError(msg)
}

// ShowNotice shows a notice: the app goes on. It goes to OnNotice when
// set, else on the canvas (closed by a click or Esc).
func (a *App) ShowNotice(msg string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.showNotice(msg)
}

func (a *App) showError(msg string)  { report(&a.errMsg, a.opts.OnError, msg) }
func (a *App) showNotice(msg string) { report(&a.notice, a.opts.OnNotice, msg) }

// report keeps msg in *held (the error or the notice the app holds until
// it is closed or a lesson opens) and hands it to hook when set (OnError,
// OnNotice).
func report(held *string, hook func(msg string), msg string) {
	*held = msg
	if hook != nil {
		hook(msg)
	}
}

// noticeOnCanvas reports whether the canvas shows a notice.
func (a *App) noticeOnCanvas() bool { return a.notice != "" && a.opts.OnNotice == nil }

// toggleFullscreen is the F key: through Options.Fullscreen when set (a
// refusal becomes a notice), else ebiten.SetFullscreen.
func (a *App) toggleFullscreen() {
	if a.opts.Fullscreen == nil {
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
		return
	}
	if err := a.opts.Fullscreen(); err != nil {
		a.showNotice(err.Error())
	}
}

// CaptureAfterFrames arranges for the frame drawn n frames from now to be
// passed to fn, after which the game ends (ebiten.Termination).
func (a *App) CaptureAfterFrames(n int, fn func(image.Image) error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.captureAt = a.frames + n
	a.captureFn = fn
}

// CaptureErr is the error of the capture callback, if any.
func (a *App) CaptureErr() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.captureErr
}

// Measure records frame costs for `desktop --measure`: the time spent
// laying out and painting the frame (viz/frame's Build and the painter:
// for large pools the heat map's texture refresh plus one batched draw)
// and the interval between frames, while the player advances Step events
// per frame so that the pool changes every frame.
type Measure struct {
	Frames    int
	Step      int
	FrameDraw []time.Duration
	Interval  []time.Duration
	last      time.Time
	Done      func(*Measure)
}

// StartMeasure begins a measurement; m.Done is called from Update when it
// is over, after which the game ends.
func (a *App) StartMeasure(m *Measure) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.measure = m
}

// The smallest window the frame lays out for: a small phone held either
// way (a smaller window is drawn at this size and scaled down).
const minW, minH = 320, 320

// Layout implements ebiten.Game: the logical screen is the window size.
func (a *App) Layout(outsideWidth, outsideHeight int) (int, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.w, a.h = max(minW, outsideWidth), max(minH, outsideHeight)
	return a.w, a.h
}

// Update implements ebiten.Game.
func (a *App) Update() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.captureFn != nil && a.captureDone {
		return ebiten.Termination
	}
	// Capture once the frame count is reached and no experiment is running.
	if a.captureFn != nil && a.canvas != nil && a.frames >= a.captureAt && a.drawnIdle {
		a.captureErr = a.captureFn(readImage(a.canvas))
		a.captureDone = true
		return ebiten.Termination
	}
	if m := a.measure; m != nil {
		if len(m.FrameDraw) >= m.Frames {
			m.Done(m)
			return ebiten.Termination
		}
		if a.p != nil {
			a.p.Seek(a.p.Pos() + m.Step)
		}
	}
	if a.firstOK {
		// Once the first frame is up, the lessons are parsed (once), so
		// that opening one from the menu does not wait for it.
		a.parsed()
	}
	a.handleInput()
	if a.p != nil {
		a.p.Tick()
	}
	a.trackProgress() // progress.go
	a.a11yTick()      // a11y.go
	a.followTick()    // link.go
	if a.flashTicks > 0 {
		a.flashTicks--
	}
	return nil
}

func readImage(img *ebiten.Image) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(b)
	img.ReadPixels(out.Pix)
	return out
}

// Draw implements ebiten.Game. Everything is drawn to an offscreen canvas
// (so a frame can be captured), then to the screen.
func (a *App) Draw(screen *ebiten.Image) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.canvas == nil || a.canvas.Bounds().Dx() != a.w || a.canvas.Bounds().Dy() != a.h {
		a.canvas = ebiten.NewImage(a.w, a.h)
	}
	a.canvas.Fill(a.th.Background)
	a.ui.reset()
	if a.fast != nil {
		a.drawFast(a.canvas)
		if a.errMsg != "" {
			a.drawError(a.canvas)
		}
	} else {
		a.drawFrame(a.canvas)
	}
	screen.DrawImage(a.canvas, nil)
	a.drawnIdle = a.fast == nil || !a.fast.running
	if m := a.measure; m != nil {
		now := time.Now()
		if !m.last.IsZero() {
			m.Interval = append(m.Interval, now.Sub(m.last))
		}
		m.last = now
	}
	a.frames++
	if !a.firstOK {
		a.firstOK = true
		if a.opts.OnFirstFrame != nil {
			go a.opts.OnFirstFrame()
		}
	}
}
