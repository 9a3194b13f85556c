//go:build js && wasm

package main

import (
	"net/url"
	"strings"
	"syscall/js"

	"bufferlab/viz/a11y"
	"bufferlab/viz/app"
)

// motionPref is where reduced motion comes from in the browser: the
// page's prefers-reduced-motion media query, followed as it changes,
// unless the page's address (?motion=reduce or ?motion=full) or
// window.bufferlab.reducedMotion(on) forces it (reducedMotion(null)
// follows the media query again).
type motionPref struct {
	a      *app.App
	mql    js.Value // the media query list; undefined without matchMedia
	forced *bool
	source string // "media", "link" or "api"
	change js.Func
}

// newMotionPref reads the address and the media query; Reduced is the
// setting to start the app with.
func newMotionPref() *motionPref {
	m := &motionPref{source: "media"}
	if mm := js.Global().Get("matchMedia"); mm.Type() == js.TypeFunction {
		m.mql = js.Global().Call("matchMedia", "(prefers-reduced-motion: reduce)")
	}
	q, _ := url.ParseQuery(strings.TrimPrefix(js.Global().Get("location").Get("search").String(), "?"))
	switch q.Get("motion") {
	case "reduce":
		m.force(true, "link")
	case "full":
		m.force(false, "link")
	}
	return m
}

func (m *motionPref) force(on bool, source string) { m.forced, m.source = &on, source }

// Reduced is the setting the page asks for now.
func (m *motionPref) Reduced() bool {
	if m.forced != nil {
		return *m.forced
	}
	return m.mql.Truthy() && m.mql.Get("matches").Bool()
}

// attach follows the media query's changes in a.
func (m *motionPref) attach(a *app.App) {
	m.a = a
	if !m.mql.Truthy() {
		return
	}
	m.change = js.FuncOf(func(js.Value, []js.Value) any {
		if m.forced == nil {
			a.SetReducedMotion(m.Reduced())
		}
		return nil
	})
	m.mql.Call("addEventListener", "change", m.change)
}

// motionState is what motion() and reducedMotion() return.
type motionState struct {
	app.MotionInfo
	// Source is where the setting comes from: the media query, the
	// page's address, or reducedMotion().
	Source string `json:"source"`
	// HoldTicks is how many ticks a playing player's picture is kept.
	HoldTicks int `json:"holdTicks"`
}

// registerMotion adds motion() and reducedMotion(on) to the Go half of
// window.bufferlab.
func registerMotion(goAPI js.Value, m *motionPref, wrap func(func(args []js.Value) (any, string)) js.Func) {
	state := func() (any, string) {
		return motionState{MotionInfo: m.a.Motion(), Source: m.source, HoldTicks: a11y.HoldTicks}, ""
	}
	goAPI.Set("motion", wrap(func([]js.Value) (any, string) { return state() }))
	goAPI.Set("reducedMotion", wrap(func(args []js.Value) (any, string) {
		switch {
		case len(args) > 0 && args[0].Type() == js.TypeBoolean:
			m.force(args[0].Bool(), "api")
		case len(args) > 0 && args[0].IsNull():
			m.forced, m.source = nil, "media"
		default:
			return nil, "reducedMotion: expected true, false or null (follow prefers-reduced-motion)"
		}
		m.a.SetReducedMotion(m.Reduced())
		return state()
	}))
}
