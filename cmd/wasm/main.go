//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"bufferlab/engine/scenario"
	"bufferlab/internal/permalink"
	"bufferlab/viz/a11y"
	"bufferlab/viz/app"
	"bufferlab/viz/layout"
)

var api = js.Global().Get("bufferlab")

func fail(msg string) {
	if api.Truthy() && api.Get("_fail").Truthy() {
		api.Call("_fail", msg)
	} else {
		js.Global().Get("console").Call("error", msg)
	}
}

func notice(msg string) {
	if api.Truthy() && api.Get("_notice").Truthy() {
		api.Call("_notice", msg)
	}
}

func main() {
	defer func() {
		if r := recover(); r != nil {
			fail(fmt.Sprintf("internal error: %v", r))
			panic(r)
		}
	}()
	if !api.Truthy() {
		js.Global().Get("console").Call("error", "window.bufferlab is missing: load boot.js first")
		return
	}
	api.Call("_mark", "goStart")
	scenario.DefaultBudget = browserBudget // budget.go: a tab's memory and thread
	scenario.PlayerBudget = browserBudget  // the runs the player opens from text too
	// The screen-reader mirror (mirror_js.go) is made once the app is:
	// until then its hooks have nothing to write to.
	var mirror *domMirror
	motion := newMotionPref() // motion_js.go
	a, err := app.New(app.Options{
		Theme:        preferredTheme(),
		OnFirstFrame: func() { api.Call("_ready") },
		OnError:      func(msg string) { notice(msg) },
		OnNotice:     func(msg string) { notice(msg) },
		Fullscreen:   toggleFullscreen,
		Progress:     newLocalStore(notice), // progress_js.go
		A11y: &app.A11y{
			Mirror: func(d *a11y.Doc) {
				if mirror != nil {
					mirror.Show(d)
				}
			},
			Announce: func(text string) {
				if mirror != nil {
					mirror.Announce(text)
				}
			},
		},
		ReducedMotion: motion.Reduced(),
		Embed:         startedEmbedded(),
		Sandbox:       func(text string) { api.Call("_sandbox", text) },
		CopyLink: func(frag string) {
			api.Call("_copyLink", frag, permalink.Advice(len(js.Global().Get("location").Get("origin").String())+len(js.Global().Get("location").Get("pathname").String())+1+len(frag)))
		},
		Look:  func(theme string, presentation bool) { api.Call("_look", theme, presentation) },
		Yield: gate.yield, // runs from text: progress, the page's turns, Cancel
		Follow: &app.Follow{
			Moved: func(at permalink.Link, newStep bool) {
				api.Call("_follow", permalink.Encode(at), newStep, toJS(map[string]any{
					"lesson": at.Lesson, "scenario": at.Scenario != "", "step": max(at.Step, 1), "event": at.Event}))
			},
			Answered: func(lesson string, step, choice int, right bool) {
				api.Call("_emit", "answer", toJS(map[string]any{"lesson": lesson, "step": step, "choice": choice, "right": right}))
			},
		},
	})
	if err != nil {
		fail(err.Error())
		return
	}
	api.Call("_mark", "appReady")
	mirror = newDOMMirror(a)
	motion.attach(a)
	register(a, motion)
	openFromHash(a)
	js.Global().Get("window").Call("addEventListener", "hashchange", js.FuncOf(func(js.Value, []js.Value) any {
		go openFromHash(a) // it may run a scenario: never in the handler (busy_js.go)
		return nil
	}))
	ebiten.SetWindowTitle("BufferLab")
	if err := ebiten.RunGame(a); err != nil {
		fail(err.Error())
	}
}

// preferredTheme is the theme the reader's system asks for at start: dark
// when the page's prefers-color-scheme media query says so (window.matchMedia),
// else light. The D key and window.bufferlab.theme(name) switch it later.
func preferredTheme() string {
	mm := js.Global().Get("matchMedia")
	if mm.Type() == js.TypeFunction && js.Global().Call("matchMedia", "(prefers-color-scheme: dark)").Get("matches").Truthy() {
		return "dark"
	}
	return "light"
}

// openFromHash opens what the page address names (planLink; the forms are
// internal/permalink's): an embedded lesson at a step and event, a
// scenario or a lesson carried in the link, the sandbox, or the menu.
// What the link asks for and cannot have opens the nearest thing with a
// notice; a carried scenario or lesson that does not run opens in the
// sandbox or shows its positioned errors.
func openFromHash(a *app.App) {
	h := strings.TrimPrefix(js.Global().Get("location").Get("hash").String(), "#")
	if h == "" {
		return
	}
	var all []linkLesson
	for _, l := range a.Lessons() {
		all = append(all, linkLesson{l.Name, l.Steps})
	}
	plan := planLink(h, all)
	for _, msg := range plan.Notices {
		notice(msg)
	}
	// Back and Forward, or a link to where the app already is, move
	// within what is open instead of opening it again (which would play
	// the lesson anew and forget its answers).
	if here := a.Link(); here.Step > 0 && !plan.Sandbox && here.Lesson == plan.Lesson && here.Markdown == plan.Markdown && here.Scenario == plan.Scenario {
		if here.Step != plan.Step+1 || here.Event != plan.Event {
			api.Call("_navigated") // the move replaces the entry
			a.GotoStep(plan.Step)
			a.Step(plan.Event)
		}
		return
	}
	api.Call("_navigated") // what opens replaces the entry
	switch {
	case plan.Scenario != "" && plan.Sandbox:
		a.Menu()
		api.Call("_sandbox", plan.Scenario)
		return
	case plan.Scenario != "":
		if err := gated(func() error { return a.OpenScenario(sandboxFile, plan.Scenario, plan.Event) }); err != nil {
			a.Menu()
			api.Call("_sandbox", plan.Scenario) // the editor shows where it fails
			notice("The scenario in the link does not run: " + err.Error())
			return
		}
	case plan.Markdown != "":
		if err := gated(func() error { return a.OpenLessonSource("link.md", []byte(plan.Markdown), plan.Step) }); err != nil {
			a.Menu()
			a.ShowError("The lesson in the link does not play:\n" + err.Error())
			return
		}
		a.Step(plan.Event)
	case plan.Sandbox:
		a.Menu()
		api.Call("_sandbox", "")
		return
	case plan.Lesson != "":
		if err := a.OpenLesson(plan.Lesson, plan.Step); err != nil {
			a.Menu()
			a.ShowError(err.Error())
			return
		}
		a.Step(plan.Event)
	default:
		a.Menu()
	}
}

// startedEmbedded reports whether the page was opened as an embed
// (#embed…): the app then shows no menu for the page's life.
func startedEmbedded() bool {
	h := strings.TrimPrefix(js.Global().Get("location").Get("hash").String(), "#")
	return planLink(h, nil).Embed
}

// toggleFullscreen is the F key in the browser. A frame whose page does not
// allow fullscreen (an iframe without allow="fullscreen") says so before
// anything is asked; a request the browser refuses anyway becomes a notice
// in boot.js (_fullscreen catches the rejected promise), instead of an
// unhandled rejection that stops the page.
func toggleFullscreen() error {
	if doc := js.Global().Get("document"); !doc.Get("fullscreenEnabled").Truthy() && !doc.Get("webkitFullscreenEnabled").Truthy() {
		return errors.New("Fullscreen is not allowed in this frame: the page that embeds BufferLab must allow it (<iframe allow=\"fullscreen\">).")
	}
	api.Call("_fullscreen")
	return nil
}

// toJS converts a Go value to a JavaScript value through JSON.
func toJS(v any) js.Value {
	b, err := json.Marshal(v)
	if err != nil {
		return js.Null()
	}
	return js.Global().Get("JSON").Call("parse", string(b))
}

// intArg reads argument i as an integer, or returns an error message.
func intArg(args []js.Value, i int, what string) (int, string) {
	if len(args) <= i || args[i].Type() != js.TypeNumber {
		return 0, fmt.Sprintf("%s: expected a number", what)
	}
	f := args[i].Float()
	if f != float64(int(f)) {
		return 0, fmt.Sprintf("%s: expected a whole number, found %v", what, f)
	}
	return int(f), ""
}

// result is what a call of the Go half returns: {value: v}, or {error:
// msg} when msg is set.
func result(v any, msg string) js.Value {
	res := js.Global().Get("Object").New()
	if msg != "" {
		res.Set("error", msg)
	} else {
		res.Set("value", toJS(v))
	}
	return res
}

// register installs the Go half of window.bufferlab. Each Go function
// returns {value} or {error}; boot.js turns an error into a thrown Error.
func register(a *app.App, motion *motionPref) {
	goAPI := js.Global().Get("Object").New()
	wrap := func(f func(args []js.Value) (any, string)) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) any { return result(f(args)) })
	}
	goAPI.Set("lessons", wrap(func([]js.Value) (any, string) { return a.Lessons(), "" }))
	goAPI.Set("state", wrap(func([]js.Value) (any, string) { return a.State(), "" }))
	goAPI.Set("menu", wrap(func([]js.Value) (any, string) { a.Menu(); return nil, "" }))
	// state answers a call that changes the app: its state, or the error.
	state := func(err error) (any, string) {
		if err != nil {
			return nil, err.Error()
		}
		return a.State(), ""
	}
	goAPI.Set("open", wrap(func(args []js.Value) (any, string) {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return nil, "open: expected a lesson name"
		}
		step := 0
		if len(args) > 1 {
			n, msg := intArg(args, 1, "open: step")
			if msg != "" {
				return nil, msg
			}
			step = n
		}
		return state(a.OpenLesson(args[0].String(), step))
	}))
	for name, f := range map[string]func(int) error{"step": a.Step, "seek": a.Seek, "goto": a.GotoStep} {
		goAPI.Set(name, wrap(func(args []js.Value) (any, string) {
			n, msg := intArg(args, 0, name)
			if msg != "" {
				return nil, msg
			}
			return state(f(n))
		}))
	}
	// The calls that take one string, and what it names.
	for name, c := range map[string]struct {
		f    func(string) error
		what string
	}{"fast": {a.StartFast, "an experiment name (pool or limits)"}, "pace": {a.SetPacing, "events or time"},
		"theme": {a.SetTheme, "a theme name (" + strings.Join(layout.ThemeNames, " or ") + ")"}} {
		goAPI.Set(name, wrap(func(args []js.Value) (any, string) {
			if len(args) < 1 || args[0].Type() != js.TypeString {
				return nil, name + ": expected " + c.what
			}
			return state(c.f(args[0].String()))
		}))
	}
	goAPI.Set("layout", wrap(func([]js.Value) (any, string) { return a.LayoutInfo(), "" }))
	goAPI.Set("targets", wrap(func([]js.Value) (any, string) { return a.Targets(), "" }))
	goAPI.Set("presentation", wrap(func(args []js.Value) (any, string) {
		if len(args) < 1 || args[0].Type() != js.TypeBoolean {
			return nil, "presentation: expected true or false"
		}
		a.SetPresentation(args[0].Bool())
		return a.State(), ""
	}))
	goAPI.Set("continue", wrap(func([]js.Value) (any, string) { return state(a.Continue()) }))
	// A class (web/classroom.js; viz/app/class.go).
	goAPI.Set("classReveal", wrap(func([]js.Value) (any, string) { return state(a.ClassReveal()) }))
	goAPI.Set("classReask", wrap(func([]js.Value) (any, string) { return state(a.ClassReask()) }))
	for name, f := range map[string]func(bool) error{
		"classHold": func(on bool) error { a.SetClassHold(on); return nil },
		"play":      a.Play,
	} {
		goAPI.Set(name, wrap(func(args []js.Value) (any, string) {
			if len(args) < 1 || args[0].Type() != js.TypeBoolean {
				return nil, name + ": expected true or false"
			}
			return state(f(args[0].Bool()))
		}))
	}
	goAPI.Set("autoslow", wrap(func(args []js.Value) (any, string) {
		if len(args) < 1 || args[0].Type() != js.TypeBoolean {
			return nil, "autoslow: expected true or false"
		}
		a.SetAutoSlow(args[0].Bool())
		return a.State(), ""
	}))
	goAPI.Set("answer", wrap(func(args []js.Value) (any, string) {
		n, msg := intArg(args, 0, "answer")
		if msg != "" {
			return nil, msg
		}
		ok, err := a.Answer(n)
		if err != nil {
			return nil, err.Error()
		}
		return ok, ""
	}))
	registerProgress(goAPI, a, wrap) // progress_js.go
	registerSandbox(goAPI, a, wrap)  // sandbox_js.go
	goAPI.Set("mirror", wrap(func([]js.Value) (any, string) { return a.Mirror(), "" }))
	registerMotion(goAPI, motion, wrap) // motion_js.go
	api.Call("_install", goAPI)
}
