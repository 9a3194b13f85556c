//go:build !js

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"bufferlab/engine/trace"
	"bufferlab/lessons"
	"bufferlab/viz/a11y"
	"bufferlab/viz/player"
)

// axNode is a node of Chromium's accessibility tree, its values as text.
type axNode struct {
	Role, Name string
	Ignored    bool
	Props      map[string]string
}

func (n axNode) String() string { return fmt.Sprintf("%s %q %v", n.Role, n.Name, n.Props) }

// axTree is the page's whole accessibility tree (Accessibility.getFullAXTree),
// as a screen reader gets it.
func axTree(t *testing.T, bs *browserSession) []axNode {
	t.Helper()
	res, err := chromedp.Call(bs.ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatal(err)
	}
	text := func(v *accessibility.Value) string {
		if v == nil || len(v.Value) == 0 {
			return ""
		}
		var x any
		if err := json.Unmarshal([]byte(v.Value), &x); err != nil {
			return string(v.Value)
		}
		return fmt.Sprint(x)
	}
	var out []axNode
	for _, n := range res.Nodes {
		a := axNode{Role: text(n.Role), Name: text(n.Name), Ignored: n.Ignored, Props: map[string]string{}}
		for _, p := range n.Properties {
			a.Props[string(p.Name)] = text(p.Value)
		}
		out = append(out, a)
	}
	return out
}

// axFind is the first node of role whose name is name (with prefix set:
// starts with it), not ignored.
func axFind(nodes []axNode, role, name string, prefix bool) (axNode, bool) {
	for _, n := range nodes {
		if n.Ignored || n.Role != role {
			continue
		}
		if n.Name == name || prefix && strings.HasPrefix(n.Name, name) {
			return n, true
		}
	}
	return axNode{}, false
}

// TestBrowserA11y checks the screen-reader mirror and reduced motion in
// headless Chromium: on lesson 2's third step ("Two backends, one word:
// the CAS that fails"; #lesson=pinning&step=3, steps counting from 1)
// the accessibility tree has the step's heading, the question and each
// choice as a button, the player's controls and a polite live region; a
// Tab from the canvas reaches the mirror, which shows with its focus
// ringed; Enter on a choice answers the question as a tap on the canvas
// does; a step to the failed CAS puts its caption in the live region; the
// canvas's own keys still work; prefers-reduced-motion, emulated, holds
// a playing player's picture (and ?motion= and reducedMotion() force it).
// BUFFERLAB_A11Y_SHOTS=DIR keeps the screenshots of the focused mirror
// (390x844 and 1280x800).
func TestBrowserA11y(t *testing.T) {
	start := time.Now()
	bs := newBrowserSession(t, 8*time.Minute, nil)
	eval, ctx := bs.eval, bs.ctx
	phase := func(what string) { t.Logf("%5.1f s: %s", time.Since(start).Seconds(), what) }
	phase("the wasm built, Chromium started")

	// What the page should say, from the lesson file and the player
	// natively: the step's words, its question, the failed CAS's
	// position and caption.
	const k = 2
	lesson, err := lessons.Named("pinning")
	if err != nil {
		t.Fatal(err)
	}
	if lesson.Steps[k].Predict == nil {
		t.Fatal("lesson pinning or its third step's question is missing")
	}
	q := lesson.Steps[k].Predict
	heading := fmt.Sprintf("Step %d of %d: %s", k+1, len(lesson.Steps), lesson.Steps[k].Title)
	p, err := player.FromLesson(lesson)
	if err != nil {
		t.Fatal(err)
	}
	casAt := -1
	for i := p.StepStart[k]; i < p.StepEnd[k] && casAt < 0; i++ {
		if p.MomentAt(0, i) == trace.MomentCASFail {
			casAt = i + 1
		}
	}
	if casAt < 0 {
		t.Fatalf("step %d of pinning has no failed CAS", k)
	}
	p.Seek(casAt)
	wantLive := a11y.CaptionText(a11y.Build(a11y.Input{Player: p}).Captions)
	if !strings.HasPrefix(wantLive, "atomic pane: C's CAS fails: B changed buffer 0's state word first") || !strings.Contains(wantLive, "C retries") {
		t.Fatalf("the failed CAS's caption (natively): %q", wantLive)
	}

	// waitFor polls a JavaScript condition until it holds: the mirror is
	// written at the app's next update, and a loaded machine runs a few a
	// second.
	waitFor := func(cond, what, show string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			var ok bool
			eval("!!("+cond+")", &ok)
			if ok {
				return
			}
			if time.Now().After(deadline) {
				var got any
				eval(show, &got)
				t.Fatalf("%s: not after 60 s (%s = %v)", what, show, got)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	const live = "document.getElementById('mirror-live').textContent.trim()"
	const active = "(document.activeElement && (document.activeElement.id || document.activeElement.tagName + ' ' + document.activeElement.textContent))"
	press := func(key string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatal(err)
		}
	}
	// A headless page has no focus unless emulated: without it, focus
	// and :focus styles do not follow.
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}

	bs.open("/#lesson=pinning&step=3")
	waitFor(fmt.Sprintf("document.getElementById('mirror-heading').textContent === %q", heading), "the mirror's heading", "document.getElementById('mirror-heading').textContent")
	bs.check("the mirror")
	// The step's question is asked at its stop, just before C's CAS fails
	// (at: cas-fail C): play up to it.
	eval("window.bufferlab.step(100000)", nil)
	waitFor("window.bufferlab.state().gated", "the step's question at its stop", "window.bufferlab.state()")
	waitFor(fmt.Sprintf("!!document.querySelector('#mirror button[data-action=answer]') && document.getElementById('mirror-heading').textContent === %q", heading),
		"the question's choices in the mirror", "document.getElementById('mirror').textContent")
	phase("lesson 2 step 3 open and played to its question's stop, its mirror written")

	// What a screen reader gets.
	ax := axTree(t, bs)
	for _, want := range []struct{ role, name, level string }{
		{"heading", lesson.Title, "1"},
		{"heading", heading, "2"},
		{"heading", fmt.Sprintf("Question 3 of %d", lesson.Questions()), "3"},
	} {
		if n, ok := axFind(ax, want.role, want.name, false); !ok || n.Props["level"] != want.level {
			t.Errorf("no %s %q at level %s in the accessibility tree (found %v)", want.role, want.name, want.level, n)
		}
	}
	if _, ok := axFind(ax, "StaticText", q.Prompt, false); !ok {
		t.Errorf("the question's prompt %q is not in the accessibility tree", q.Prompt)
	}
	for i, c := range q.Choices {
		n, ok := axFind(ax, "button", fmt.Sprintf("%d. %s", i+1, c), false)
		if !ok || n.Props["focusable"] != "true" || n.Props["disabled"] == "true" {
			t.Errorf("choice %d is not a focusable button named by its words: %v", i+1, n)
		}
	}
	for _, c := range []struct {
		name     string
		disabled bool
	}{{"Previous step", false}, {"Back one event", false}, {"Play", true}, {"Forward one event", true}, {"Next step", false}, {"Lesson list", false}} {
		n, ok := axFind(ax, "button", c.name, false)
		if !ok || (n.Props["disabled"] == "true") != c.disabled {
			t.Errorf("control %q (disabled %v at an open question): %v", c.name, c.disabled, n)
		}
	}
	if n, _ := axFind(ax, "button", "Play", false); n.Props["pressed"] != "false" {
		t.Errorf("Play is not a toggle button, not pressed: %v", n)
	}
	var liveRegions, canvases []axNode
	for _, n := range ax {
		if n.Props["live"] == "polite" && n.Props["atomic"] == "true" {
			liveRegions = append(liveRegions, n)
		}
		if n.Role == "image" || n.Role == "img" {
			canvases = append(canvases, n)
		}
	}
	if len(liveRegions) == 0 {
		t.Errorf("no polite, atomic live region in the accessibility tree")
	}
	if len(canvases) != 1 || !strings.HasPrefix(canvases[0].Name, "The simulation, drawn") {
		t.Errorf("the canvas is not one named picture: %v", canvases)
	}
	if t.Failed() {
		for _, n := range ax {
			if !n.Ignored && n.Role != "none" && n.Role != "InlineTextBox" {
				t.Log(n)
			}
		}
		t.FailNow()
	}

	// Tab from the canvas reaches the mirror's first control, the first
	// choice; the mirror then shows, its focus ringed.
	eval("document.querySelector('canvas').focus()", nil)
	press(kb.Tab)
	waitFor("document.activeElement && document.activeElement.dataset.action === 'answer' && document.activeElement.dataset.n === '0'",
		"Tab from the canvas to the first choice", active)
	var shown struct {
		Position, Outline string
		Top, Bottom, H    float64
		ViewH             float64
	}
	eval(`(() => { const m = document.getElementById('mirror'), r = m.getBoundingClientRect(), s = getComputedStyle(document.activeElement);
		return {Position: getComputedStyle(m).position, Outline: s.outlineStyle + ' ' + s.outlineWidth, Top: r.top, Bottom: r.bottom, H: r.height, ViewH: innerHeight} })()`, &shown)
	if shown.Position != "fixed" || shown.Outline != "solid 3px" || shown.H < 100 || shown.Top < 0 || shown.Bottom > shown.ViewH {
		t.Errorf("the mirror with its focus: %+v, want a fixed panel in view and a 3px ring", shown)
	}
	shots := os.Getenv("BUFFERLAB_A11Y_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	// shoot takes a screenshot with the mirror shown and keeps it as
	// name. The canvas above the panel must still be drawn: a scrolling
	// panel over the WebGL canvas once came out as a black box there
	// (style.css).
	shoot := func(name string) {
		t.Helper()
		time.Sleep(300 * time.Millisecond)
		var top float64
		eval("document.getElementById('mirror').getBoundingClientRect().top", &top)
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, name), shot, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := checkNotBlank(shot); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatal(err)
		}
		black, all := 0, 0
		for y := img.Bounds().Min.Y; y < int(top); y += 2 {
			for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 2 {
				if r, g, b, _ := img.At(x, y).RGBA(); r == 0 && g == 0 && b == 0 {
					black++
				}
				all++
			}
		}
		if all == 0 || black*10 > all {
			t.Errorf("%s: %d of %d pixels above the mirror's panel (top %.0f) are black", name, black, all, top)
		}
	}
	shoot("a11y-1280x800.png")

	// Enter answers, as a tap on the choice does: the app's state and the
	// progress have the answer, the focus stays on the button, the choices
	// say which was given and which is right, and the live region the
	// verdict.
	press(kb.Enter)
	waitFor("!window.bufferlab.state().gated", "Enter on choice 1 answers the question", "window.bufferlab.state()")
	var answers []struct{ Step, Choice int }
	eval("window.bufferlab.progress().lessons.pinning.answers", &answers)
	if len(answers) != 1 || answers[0].Step != k || answers[0].Choice != 1 {
		t.Errorf("progress after Enter on choice 1: %+v", answers)
	}
	waitFor(live+".startsWith('Right: choice 1')", "the live region says the verdict", live)
	right := fmt.Sprintf("1. %s (your answer, the right answer)", q.Choices[0])
	waitFor(fmt.Sprintf("document.activeElement.textContent === %q && document.activeElement.getAttribute('aria-disabled') === 'true'", right),
		"the answered choice keeps the focus and says so", active)
	ax = axTree(t, bs)
	if n, ok := axFind(ax, "button", right, false); !ok || n.Props["disabled"] != "true" {
		t.Errorf("the answered choice in the accessibility tree: %v", n)
	}
	if _, ok := axFind(ax, "heading", "Explanation", false); !ok {
		t.Error("no explanation in the accessibility tree after the answer")
	}
	if n, _ := axFind(ax, "button", "Forward one event", false); n.Props["disabled"] == "true" {
		t.Errorf("Forward is still disabled after the answer: %v", n)
	}

	// A step to the failed CAS: the mirror's Forward button, pressed with
	// Enter, from the event before it. The live region says its caption,
	// which names both backends and says the loser retries.
	eval(fmt.Sprintf("window.bufferlab.seek(%d)", casAt-1), nil)
	eval("document.querySelector('#mirror-controls [data-action=forward]').focus()", nil)
	press(kb.Enter)
	waitFor(fmt.Sprintf("window.bufferlab.state().event === %d && %s === %q", casAt, live, wantLive), "the failed CAS's caption in the live region",
		"[window.bufferlab.state().event, "+live+"]")
	var captions string
	eval("document.getElementById('mirror-captions').textContent", &captions)
	if !strings.Contains(captions, "Last event, atomic pane: C's CAS fails: B changed") {
		t.Errorf("the mirror's captions at the failed CAS: %q", captions)
	}
	shoot("a11y-1280x800-cas.png")
	// Shift+Tab to Back one event; Space presses it.
	if _, err := chromedp.Run(ctx, chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift))); err != nil {
		t.Fatal(err)
	}
	waitFor("document.activeElement.dataset.action === 'play'", "Shift+Tab from Forward to Play", active)
	if _, err := chromedp.Run(ctx, chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift))); err != nil {
		t.Fatal(err)
	}
	waitFor("document.activeElement.dataset.action === 'back'", "Shift+Tab from Play to Back", active)
	press(" ")
	waitFor(fmt.Sprintf("window.bufferlab.state().event === %d", casAt-1), "Space on Back one event steps back", "window.bufferlab.state().event")
	phase("answered by Enter, stepped to the failed CAS")

	// Escape gives the focus back to the canvas, whose keys still work: a
	// held → steps, and the focus stays.
	press(kb.Escape)
	waitFor("document.activeElement.tagName === 'CANVAS'", "Escape from the mirror to the canvas", active)
	var before pageState
	eval("window.bufferlab.state()", &before)
	keyEvent(t, ctx, input.DispatchKeyEventTypeRawKeyDown, "ArrowRight", "ArrowRight", 39)
	waitFor(fmt.Sprintf("window.bufferlab.state().event > %d", before.Event), "→ on the canvas steps", "window.bufferlab.state().event")
	keyEvent(t, ctx, input.DispatchKeyEventTypeKeyUp, "ArrowRight", "ArrowRight", 39)
	var focused string
	eval(active, &focused)
	if focused != "CANVAS " {
		t.Errorf("after → the focus is on %q, not the canvas", focused)
	}
	bs.check("keyboard")
	phase("the canvas's keys")

	// Reduced motion. This Chromium does not ask for it: playing (the
	// mirror's Play, pressed with Enter) lays every frame out.
	type motionInfo struct {
		Reduced bool
		Held    int
		Source  string
	}
	motion := func() (m motionInfo) { eval("window.bufferlab.motion()", &m); return m }
	const ring = 5 // pinning's long step, a ring scan of 422 events
	// playFor plays pinning's ring step from the mirror's Play (pressed
	// with Enter) until until holds or frames frames are drawn, then
	// pauses it (Space).
	playFor := func(frames int, until string) {
		t.Helper()
		eval(fmt.Sprintf("(() => { const b = window.bufferlab; b.goto(%d); b.answer(1); return true })()", ring), nil)
		eval("document.querySelector('#mirror-controls [data-action=play]').focus()", nil)
		press(kb.Enter)
		waitFor("window.bufferlab.state().playing", "Play starts playing", "window.bufferlab.state()")
		waitFor("document.querySelector('#mirror-controls [data-action=play]').getAttribute('aria-pressed') === 'true'", "Play is pressed while playing",
			"document.querySelector('#mirror-controls [data-action=play]').outerHTML")
		var f0 int
		eval("window.bufferlab.state().frames", &f0)
		waitFor(fmt.Sprintf("window.bufferlab.state().frames >= %d || !window.bufferlab.state().playing || (%s)", f0+frames, until), "frames drawn while playing", "window.bufferlab.state()")
		press(" ")
		waitFor("!window.bufferlab.state().playing", "Space on Play pauses", "window.bufferlab.state()")
	}
	if m := motion(); m.Reduced || m.Source != "media" {
		t.Fatalf("motion() at start, no preference: %+v", m)
	}
	playFor(10, "false")
	if m := motion(); m.Held != 0 {
		t.Errorf("full motion held %d frames while playing", m.Held)
	}
	reduce := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, reduce); err != nil {
		t.Fatal(err)
	}
	waitFor("window.bufferlab.motion().reduced", "prefers-reduced-motion: reduce, emulated, is followed", "window.bufferlab.motion()")
	playFor(60, "window.bufferlab.motion().held > 0")
	if m := motion(); !m.Reduced || m.Held == 0 || m.Source != "media" {
		t.Errorf("reduced motion while playing: %+v, want frames that kept the last picture", m)
	}
	// Asked for at the start, by the media query or the address; and
	// forced by reducedMotion().
	bs.open("/")
	if m := motion(); !m.Reduced || m.Source != "media" {
		t.Errorf("a page opened under prefers-reduced-motion: %+v", m)
	}
	bs.open("/?motion=full")
	if m := motion(); m.Reduced || m.Source != "link" {
		t.Errorf("?motion=full under prefers-reduced-motion: %+v", m)
	}
	var forced motionInfo
	eval("window.bufferlab.reducedMotion(true)", &forced)
	if !forced.Reduced || forced.Source != "api" {
		t.Errorf("reducedMotion(true): %+v", forced)
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatal(err)
	}
	eval("window.bufferlab.reducedMotion(null)", &forced)
	if forced.Reduced || forced.Source != "media" {
		t.Errorf("reducedMotion(null) with no preference: %+v", forced)
	}
	var threw bool
	eval("(() => { try { window.bufferlab.reducedMotion('yes'); return false } catch (e) { return /expected true, false or null/.test(e.message) } })()", &threw)
	if !threw {
		t.Error("reducedMotion('yes') did not throw a clear error")
	}
	bs.check("reduced motion")
	phase("reduced motion")

	// The menu in the mirror: a button per lesson; Enter on one opens
	// it, and the focus moves to its heading.
	waitFor("document.querySelectorAll('#mirror-menu button').length === window.bufferlab.lessons().length", "the menu's lessons as buttons",
		"document.getElementById('mirror-menu').outerHTML")
	eval("document.querySelector('#mirror-menu [data-n=\"1\"]').focus()", nil)
	press(kb.Enter)
	waitFor("window.bufferlab.state().lesson === 'pinning' && document.activeElement.id === 'mirror-heading'", "a lesson opened from the mirror's menu", active)

	// The phone: the focused mirror on a 390x844 page.
	setViewport(t, ctx, eval, 390, 844)
	eval("window.bufferlab.goto(2)", nil)
	eval("window.bufferlab.step(100000)", nil) // to the question's stop
	waitFor(fmt.Sprintf("document.getElementById('mirror-heading').textContent === %q && !!document.querySelector('#mirror-choices button')", heading),
		"the mirror at step 3's question on a phone", "document.getElementById('mirror').textContent")
	eval("document.querySelector('#mirror-choices button').focus()", nil)
	shoot("a11y-390x844.png")
	if _, err := chromedp.Call(ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	bs.check("the end")
	t.Logf("screenshots in %s", shots)
}
