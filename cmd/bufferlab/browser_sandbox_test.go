//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestBrowserSandbox: the scenario sandbox, a teacher's own files, the
// address that follows the student (Back and Forward), and an embed on a
// page of another site that hears the student's answers, in headless
// Chromium.
func TestBrowserSandbox(t *testing.T) {
	bs := newBrowserSession(t, 12*time.Minute, nil)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, embedHost)
	})) // another port: another origin
	defer host.Close()
	bs.allow(host.URL)
	open := func(hash string) { bs.open("/#" + hash) }
	open("lesson=pinning")
	sandboxChecks(t, bs.ctx, bs.ctx, bs.srv.URL, open, bs.eval)
	bs.check("the sandbox")
	longRunChecks(t, bs.ctx, bs.eval)
	bs.check("a long run, cancelled")
	whatIfChecks(t, bs.eval)
	bs.check("the what-if controls")
	linkButtonChecks(t, bs.ctx, bs.eval)
	bs.check("the Link button")
	lessonDropChecks(t, bs.eval)
	bs.check("a teacher's file dropped")
	historyChecks(t, bs.ctx, open, bs.eval)
	bs.check("Back and Forward")
	embedChecks(t, bs.ctx, host.URL, bs.srv.URL, bs.eval)
	bs.check("an embed on another site")
}

// sandboxChecks drives the scenario sandbox (web/sandbox.js, cmd/wasm's
// sandbox calls) as a student would: #sandbox opens the editor; a scenario
// typed with a mistake shows the parser's error at its line and column,
// in the gutter, under the line and in the status line; fixed and Run, the
// player plays it; link() of where the player is, opened in a fresh
// browser context (no shared storage), gives an equal state(). open is the
// page's openPermalink; bctx the browser's context, for a fresh one.
func sandboxChecks(t *testing.T, ctx, bctx context.Context, base string, open func(hash string), eval func(string, any)) {
	t.Helper()
	open("sandbox")
	// A link that changes only the fragment is a hashchange in the same
	// page: wait for the app to act on it.
	var visible bool
	for range 100 {
		eval(`!document.getElementById("sandbox").hidden && document.activeElement === document.getElementById("sb-text")`, &visible)
		if visible {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !visible {
		var why any
		eval(`({hidden: document.getElementById("sandbox").hidden, active: document.activeElement && (document.activeElement.id || document.activeElement.tagName), hash: location.hash})`, &why)
		t.Fatalf("#sandbox: the editor is not open with the text focused: %v", why)
	}
	// Type it: "tuch" is not an operation (line 2, column 12).
	typed := "relation t blocks=4\nbackend A: tuch t 0..3\nbackend B: touch t 0..3\nrun\n"
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("sb-text"), typed)); err != nil {
		t.Fatal(err)
	}
	type marker struct {
		Hidden     bool
		Line, Col  string
		Text       string
		Status     string
		BadGutter  []string
		MarkerTop  float64
		LineTop    float64
		LineHeight float64
	}
	var m marker
	const readMarker = `(() => {
			const mk = document.getElementById("sb-marker"), ta = document.getElementById("sb-text");
			const cs = getComputedStyle(ta), lh = parseFloat(cs.lineHeight);
			const top = ta.getBoundingClientRect().top + parseFloat(cs.paddingTop);
			return {Hidden: mk.hidden, Line: mk.dataset.line || "", Col: mk.dataset.col || "", Text: mk.textContent,
				Status: document.getElementById("sb-status").textContent,
				BadGutter: [...document.querySelectorAll(".sb-gutter .bad")].map(e => e.textContent),
				MarkerTop: mk.getBoundingClientRect().top, LineTop: top + lh, LineHeight: lh};
		})()`
	for range 100 {
		eval(readMarker, &m)
		if !m.Hidden && m.Line != "" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if m.Hidden || m.Line != "2" || m.Col != "12" || !strings.HasPrefix(m.Text, "Line 2, column 12: expected an operation") ||
		!strings.Contains(m.Status, "Line 2, column 12") || len(m.BadGutter) != 1 || m.BadGutter[0] != "2" {
		t.Fatalf("after typing a mistake: %+v", m)
	}
	// The message sits just under line 2 (between its bottom and the next
	// line's).
	if m.MarkerTop < m.LineTop+m.LineHeight-2 || m.MarkerTop > m.LineTop+2*m.LineHeight+2 {
		t.Errorf("the error's message is at y=%.0f, not under line 2 (which ends at y=%.0f)", m.MarkerTop, m.LineTop+m.LineHeight)
	}
	// In presentation mode (P) the editor's type grows for a projector,
	// and the message moves with its line.
	eval(`window.bufferlab.presentation(true)`, nil)
	var big marker
	for range 100 {
		if eval(readMarker, &big); big.LineHeight > m.LineHeight && big.MarkerTop >= big.LineTop+big.LineHeight-2 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if big.LineHeight < 1.4*m.LineHeight || big.MarkerTop < big.LineTop+big.LineHeight-2 || big.MarkerTop > big.LineTop+2*big.LineHeight+2 {
		t.Errorf("in presentation mode: lines %.0f px high (%.0f before), the message at y=%.0f, line 2 ends at y=%.0f", big.LineHeight, m.LineHeight, big.MarkerTop, big.LineTop+big.LineHeight)
	}
	eval(`window.bufferlab.presentation(false)`, nil)
	// Fix it and Run.
	eval(`window.bufferlab.sandbox.setText(document.getElementById("sb-text").value.replace("tuch", "touch"))`, nil)
	var diags []any
	for range 100 {
		eval(`window.bufferlab.sandbox.diagnostics()`, &diags)
		if len(diags) == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("sb-run"))); err != nil {
		t.Fatal(err)
	}
	var st struct {
		Mode   string
		Events int
		Event  int
	}
	var editor bool
	for range 100 { // Run's run is a Promise: the editor closes when it is done
		eval(`window.bufferlab.state()`, &st)
		if eval(`!document.getElementById("sandbox").hidden`, &editor); !editor {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st.Mode != "lesson" || st.Events == 0 || editor {
		t.Fatalf("after Run: state %+v, editor shown %v", st, editor)
	}
	// The player's Edit button brings the text back: a click on it.
	clickTarget(t, ctx, eval, "button Edit")
	for range 100 {
		if eval(`!document.getElementById("sandbox").hidden && document.getElementById("sb-text").value.includes("touch t 0..3")`, &editor); editor {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !editor {
		var why any
		eval(`({state: window.bufferlab.state(), hidden: document.getElementById("sandbox").hidden, text: document.getElementById("sb-text").value, targets: window.bufferlab.targets().map(t => t.role)})`, &why)
		t.Fatalf("the Edit button did not open the editor with the scenario's text: %v", why)
	}
	eval(`window.bufferlab.sandbox.hide()`, nil)
	eval(`window.bufferlab.step(25)`, nil)
	var scn string
	eval(`window.bufferlab.scenario()`, &scn)
	if !strings.Contains(scn, "backend A: touch t 0..3") {
		t.Fatalf("scenario() = %q, want the text that was run", scn)
	}
	// The link of this state, in a fresh browser context, is this state.
	var link string
	eval(`window.bufferlab.link()`, &link)
	if !strings.Contains(link, "scenario=") || !strings.Contains(link, "event=25") {
		t.Fatalf("link() = %q", link)
	}
	var here json.RawMessage
	eval(`(({mode, lesson, title, step, steps, event, events, counters, panes}) => ({mode, lesson, title, step, steps, event, events, counters, panes}))(window.bufferlab.state())`, &here)
	fctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	defer cancel()
	fctx, cancel2 := context.WithTimeout(fctx, 3*time.Minute)
	defer cancel2()
	if err := chromedp.Do(fctx, chromedp.Navigate(base+"/#"+link)); err != nil {
		t.Fatal(err)
	}
	there, err := chromedp.Run(fctx, chromedp.Evaluate[json.RawMessage](`window.bufferlab.ready.then(() => {
		const s = window.bufferlab.state();
		return (({mode, lesson, title, step, steps, event, events, counters, panes}) => ({mode, lesson, title, step, steps, event, events, counters, panes}))(s);
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if string(here) != string(there) {
		t.Fatalf("the link's state differs in a fresh browser:\n here  %s\n there %s", here, there)
	}
}

// longRunChecks: a scenario that runs for a long time (a million events,
// the browser's cap) never freezes the tab. While it runs the page answers
// (an eval is the page's event loop at work: it can only run in one of
// the run's pauses), the progress bar shows how far it is, the app's
// state() answers, and Cancel stops the run: its error shows in the
// editor at the run statement, with the events it got to. The eval that
// sees the run going clicks Cancel itself, so the run cannot end first
// on a slow machine.
func longRunChecks(t *testing.T, ctx context.Context, eval func(string, any)) {
	t.Helper()
	eval(`window.bufferlab.sandbox.show("# Long\nconfig shared_buffers=128MB\nrelation t blocks=100000\nbackend A: touch t 0..99999\nrun\n")`, nil)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("sb-run"))); err != nil {
		t.Fatal(err)
	}
	var seen struct {
		Shown      bool
		Text       string
		Value, Max float64
		RunOff     bool
		Mode       string
	}
	for range 800 {
		eval(`(() => {
			const shown = !document.getElementById("busy").hidden, bar = document.getElementById("busy-bar");
			const seen = {Shown: shown, Text: document.getElementById("busy-text").textContent, Value: bar.value, Max: bar.max,
				RunOff: document.getElementById("sb-run").disabled, Mode: window.bufferlab.state().mode};
			if (shown && bar.value > 0) document.getElementById("busy-cancel").click();
			return seen;
		})()`, &seen)
		if seen.Shown && seen.Value > 0 {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	if !seen.Shown || !strings.HasPrefix(seen.Text, "Running: ") || seen.Max != 1048576 || !seen.RunOff || seen.Mode == "" {
		t.Fatalf("a long run: no progress shown, or the page or app not answering: %+v", seen)
	}
	var end struct {
		Busy, RunOff, Hidden bool
		Line, Text           string
	}
	for range 400 {
		eval(`({Busy: !document.getElementById("busy").hidden, RunOff: document.getElementById("sb-run").disabled,
			Hidden: document.getElementById("sb-marker").hidden, Line: document.getElementById("sb-marker").dataset.line || "",
			Text: document.getElementById("sb-marker").textContent})`, &end)
		if !end.Busy && !end.Hidden {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	var events float64
	if _, err := fmt.Sscanf(end.Text[strings.Index(end.Text, " steps (")+1:], "steps (%g events): cancelled", &events); err != nil ||
		end.Busy || end.RunOff || end.Hidden || end.Line != "5" || !strings.HasPrefix(end.Text, "Line 5, column 1: run stopped after ") ||
		!strings.HasSuffix(end.Text, " events): cancelled") || events < seen.Value || events >= seen.Max {
		t.Fatalf("after Cancel at %.0f events: %+v (%v)", seen.Value, end, err)
	}
	eval(`window.bufferlab.sandbox.hide()`, nil)
}

// clickTarget clicks the canvas's target role (one of targets()), holding
// the button down over two frames: the app reads the mouse once a tick,
// and a loaded machine draws a few frames a second.
func clickTarget(t *testing.T, ctx context.Context, eval func(string, any), role string) {
	t.Helper()
	var tg struct{ X, Y, W, H float64 }
	for range 100 {
		eval(fmt.Sprintf(`(window.bufferlab.targets().find(t => t.role === %q) || {})`, role), &tg)
		if tg.W > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if tg.W == 0 {
		t.Fatalf("no %q on the canvas", role)
	}
	var frames struct{ Frames int }
	eval(`window.bufferlab.state()`, &frames)
	before := frames.Frames
	x, y := tg.X+tg.W/2, tg.Y+tg.H/2
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, y, chromedp.ButtonLeft)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 400 && frames.Frames < before+2; i++ {
		time.Sleep(20 * time.Millisecond)
		eval(`window.bufferlab.state()`, &frames)
	}
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x, y, chromedp.ButtonLeft)); err != nil {
		t.Fatal(err)
	}
}

// whatIfChecks: a what-if control rewrites its one key in the text and
// runs it again: pins=atomic,spinlock plays two panes side by side, and
// shared_buffers=1MB a pool of 128 buffers.
func whatIfChecks(t *testing.T, eval func(string, any)) {
	t.Helper()
	eval(`window.bufferlab.sandbox.show("relation t blocks=4\nbackend A: touch t 0..3\nbackend B: touch t 0..3\nrun\n")`, nil)
	for _, c := range []struct {
		id, value, line string
		check           string // a JS expression on s, the state, true when it holds
	}{
		{"sb-w-pins", "atomic,spinlock", "config pins=atomic,spinlock", `s.panes && s.panes.length === 2`},
		{"sb-w-shared_buffers", "1MB", "shared_buffers=1MB", `s.nbuffers === 128`},
	} {
		eval(fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event("change")); })()`, c.id, c.value), nil)
		var got struct {
			Text   string
			Editor bool
			Holds  bool
			State  any
		}
		for range 200 {
			eval(fmt.Sprintf(`(() => { const s = window.bufferlab.state(); return {Text: document.getElementById("sb-text").value,
				Editor: !document.getElementById("sandbox").hidden, Holds: !!(%s), State: s}; })()`, c.check), &got)
			if !got.Editor && got.Holds {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if got.Editor || !got.Holds || !strings.Contains(got.Text, c.line) {
			t.Fatalf("what if %s=%s: the text %q, the editor shown %v, %s %v: state %v", c.id, c.value, got.Text, got.Editor, c.check, got.Holds, got.State)
		}
		eval(`window.bufferlab.sandbox.show()`, nil)
	}
	eval(`window.bufferlab.sandbox.hide()`, nil)
}

// linkButtonChecks: the Link button copies the address of where the
// student is. Where the page may write the clipboard, the clipboard holds
// it and a notice says so; where it may not, the notice shows the link in
// a field, selected, to copy by hand (the field holds the link alone).
func linkButtonChecks(t *testing.T, ctx context.Context, eval func(string, any)) {
	t.Helper()
	var want string
	eval(`location.href.split("#")[0] + "#" + window.bufferlab.link()`, &want)
	for _, allowed := range []bool{true, false} {
		setting := browser.PermissionSettingGranted
		if !allowed {
			setting = browser.PermissionSettingDenied
		}
		for _, name := range []string{"clipboard-write", "clipboard-read"} {
			if _, err := chromedp.Call(ctx, browser.SetPermission, browser.SetPermissionParams{Permission: &browser.PermissionDescriptor{Name: name}, Setting: setting}); err != nil {
				t.Fatal(err)
			}
		}
		eval(`document.getElementById("notice").hidden = true`, nil)
		clickTarget(t, ctx, eval, "button Link")
		var got struct {
			Shown             bool
			Text, Field       string
			Selected, Focused bool
		}
		for range 200 {
			eval(`(() => { const f = document.getElementById("notice-link");
				return {Shown: !document.getElementById("notice").hidden, Text: document.getElementById("notice-text").textContent,
					Field: f ? f.value : "", Focused: !!f && document.activeElement === f,
					Selected: !!f && f.selectionStart === 0 && f.selectionEnd === f.value.length}; })()`, &got)
			if got.Shown {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if allowed {
			clip, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
			if err != nil || clip != want || !strings.HasPrefix(got.Text, fmt.Sprintf("Link copied: %d characters.", len(want))) {
				t.Fatalf("Link with the clipboard allowed: clipboard %q (%v), notice %+v; want %q", clip, err, got, want)
			}
			continue
		}
		if !got.Shown || !strings.HasSuffix(got.Text, "Copy this link: ") || got.Field != want || !got.Selected || !got.Focused {
			t.Fatalf("Link with the clipboard refused: notice %+v; want the field to hold %q, focused and selected", got, want)
		}
	}
	eval(`document.getElementById("notice").hidden = true`, nil)
}

// teacherLesson is a small lesson of a teacher's own, as a file dropped on
// the page; brokenLesson has a mistake at line 8, column 12 (an operation
// that does not exist, inside its scenario block).
const teacherLesson = `---
title: My own lesson
---

## Two reads

A reads block 0 of t twice: a miss, then a hit.

` + "```scenario" + `
relation t blocks=2
backend A: touch t 0; touch t 0
run
` + "```" + `
`

var brokenLesson = strings.Replace(teacherLesson, "touch t 0; touch", "tuch t 0; touch", 1)

// lessonDropChecks drops a teacher's lesson file on the page (a real drop
// event with a DataTransfer holding the file): it plays. A broken one
// shows its positioned error in a dialog, and the app goes on.
func lessonDropChecks(t *testing.T, eval func(string, any)) {
	t.Helper()
	drop := func(name, body string) {
		eval(fmt.Sprintf(`(() => {
			const dt = new DataTransfer();
			dt.items.add(new File([%q], %q, {type: "text/markdown"}));
			window.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, cancelable: true, bubbles: true}));
			return true;
		})()`, body, name), nil)
	}
	type dropState struct {
		Mode, Title string
		Steps       int
		Dialog      bool
		Errors      string
	}
	read := func() (s dropState) {
		eval(`(() => { const s = window.bufferlab.state(); return {Mode: s.mode, Title: s.title || "", Steps: s.steps,
			Dialog: !document.getElementById("sb-file-error").hidden,
			Errors: document.getElementById("sb-file-errors").textContent}; })()`, &s)
		return s
	}
	eval(`window.bufferlab.menu()`, nil)
	drop("broken.md", brokenLesson)
	var s dropState
	for range 100 {
		if s = read(); s.Dialog {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !s.Dialog || !strings.HasPrefix(s.Errors, "broken.md:11:12: ") || s.Mode != "menu" {
		t.Fatalf("a broken lesson dropped: %+v", s)
	}
	eval(`document.querySelector("#sb-file-error button").click()`, nil)
	drop("mine.md", teacherLesson)
	for range 100 {
		if s = read(); s.Mode == "lesson" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s.Mode != "lesson" || s.Title != "My own lesson" || s.Steps != 1 || s.Dialog {
		t.Fatalf("a teacher's lesson dropped: %+v", s)
	}
	// Its link carries it, compressed.
	var link string
	eval(`window.bufferlab.link()`, &link)
	if !strings.HasPrefix(link, "md=") {
		t.Fatalf("link() of a dropped lesson = %q, want it to carry the Markdown (md=…)", link)
	}
	// Played to its end, it leaves no progress behind: the next start
	// would not know the lesson (and would say it dropped it).
	eval(`window.bufferlab.seek(window.bufferlab.state().events)`, nil)
	var kept bool
	if eval(`(l => "mine" in l || "My own lesson" in l)(window.bufferlab.progress().lessons || {})`, &kept); kept {
		t.Fatal("a dropped lesson's progress was kept")
	}
}

// historyChecks: the address follows the student. Each step pushes a
// history entry with its link (steps from 1, as on screen), so Back and
// Forward move between steps without reopening the lesson.
func historyChecks(t *testing.T, ctx context.Context, open func(hash string), eval func(string, any)) {
	t.Helper()
	open("lesson=pinning")
	waitHash := func(want string) {
		t.Helper()
		var h string
		for range 200 {
			if eval(`location.hash`, &h); h == want {
				return
			}
			time.Sleep(25 * time.Millisecond)
		}
		t.Fatalf("the address is %q, want %q", h, want)
	}
	step := func() int {
		var s struct{ Step int }
		eval(`window.bufferlab.state()`, &s)
		return s.Step
	}
	// The address a link opened is rewritten to the app's own form of
	// where it is (step numbers as on screen), in place: wait for it, or
	// the rewrite, due a moment later, races the first step below.
	waitHash("#lesson=pinning&step=1")
	eval(`window.bufferlab.goto(1)`, nil)
	waitHash("#lesson=pinning&step=2")
	eval(`window.bufferlab.goto(2)`, nil)
	waitHash("#lesson=pinning&step=3")
	eval(`window.bufferlab.step(3)`, nil)
	waitHash("#lesson=pinning&step=3&event=3")
	for _, c := range []struct {
		move func() error
		hash string
		step int
	}{
		{func() error { return chromedp.Do(ctx, chromedp.NavigateBack()) }, "#lesson=pinning&step=2", 1},
		{func() error { return chromedp.Do(ctx, chromedp.NavigateBack()) }, "#lesson=pinning&step=1", 0},
		{func() error { return chromedp.Do(ctx, chromedp.NavigateForward()) }, "#lesson=pinning&step=2", 1},
		{func() error { return chromedp.Do(ctx, chromedp.NavigateForward()) }, "#lesson=pinning&step=3&event=3", 2},
	} {
		if err := c.move(); err != nil {
			t.Fatal(err)
		}
		waitHash(c.hash)
		for i := 0; i < 200 && step() != c.step; i++ {
			time.Sleep(25 * time.Millisecond)
		}
		if s := step(); s != c.step {
			t.Fatalf("at %s the app shows step %d, want %d", c.hash, s+1, c.step+1)
		}
	}
	var link string
	eval(`window.bufferlab.link()`, &link)
	if link != "lesson=pinning&step=3&event=3" {
		t.Fatalf("after Back and Forward, link() = %q", link)
	}
}

// embedHost is a teacher's page on another site that embeds a lesson and
// listens to it: it keeps every message the frame posts in window.got, and
// drives the frame by message (postMessage: the only way across origins).
const embedHost = `<!doctype html><meta charset="utf-8"><title>A course page</title>
<iframe id="f" allow="fullscreen" width="1000" height="700"></iframe>
<script>
window.got = [];
window.addEventListener("message", (ev) => { if (ev.data && ev.data.source === "bufferlab") window.got.push(ev.data); });
window.call = (name, ...args) => document.getElementById("f").contentWindow.postMessage({bufferlab: name, args, id: Math.random()}, "*");
document.getElementById("f").src = new URLSearchParams(location.search).get("app");
</script>`

// embedChecks: an iframe on a page from another origin plays a lesson
// (#embed: no menu), and its answers reach the host as messages.
func embedChecks(t *testing.T, ctx context.Context, hostURL, appURL string, eval func(string, any)) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(hostURL+"/host.html?app="+url.QueryEscape(appURL+"/#embed&lesson=pinning&step=3"))); err != nil {
		t.Fatal(err)
	}
	type msg struct {
		Type   string
		Detail map[string]any
		Value  any
		Error  string
	}
	waitMsg := func(typ string, what string) msg {
		t.Helper()
		var got []msg
		for range 1200 {
			eval(`window.got || []`, &got)
			for _, m := range got {
				if m.Type == typ {
					return m
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("%s: no %q message from the frame (got %+v)", what, typ, got)
		return msg{}
	}
	st := waitMsg("step", "the embedded lesson opening")
	if st.Detail["lesson"] != "pinning" || st.Detail["step"] != float64(3) || !strings.Contains(fmt.Sprint(st.Detail["link"]), "embed&lesson=pinning&step=3") {
		t.Fatalf("the step message: %+v", st)
	}
	eval(`window.call("step", 100000)`, nil) // to the question's stop
	eval(`window.call("answer", 1)`, nil)    // choices count from 1, as answer() takes them
	an := waitMsg("answer", "an answer in the frame")
	if an.Detail["lesson"] != "pinning" || an.Detail["step"] != float64(3) || an.Detail["choice"] != float64(1) {
		t.Fatalf("the answer message: %+v", an)
	}
	// No menu in an embed: the frame's state has a lesson, and its
	// targets no Menu button.
	eval(`(window.got = [], window.call("state"))`, nil)
	rep := waitMsg("reply", "state() by message")
	if s, _ := rep.Value.(map[string]any); s == nil || s["lesson"] != "pinning" {
		t.Fatalf("state() by message: %+v", rep)
	}
	// The embed fits the frames a course page gives it, from a phone's
	// column to a slide: the frame's layout() (by message) has nothing
	// cut, and the app lays out at the frame's size (at least 320 each
	// way, the app's floor: a 560×315 player frame is laid out at 560×320
	// and scaled by the browser).
	for _, sz := range [][2]int{{360, 640}, {560, 315}, {640, 360}, {800, 450}, {1000, 700}} {
		want := [2]int{max(sz[0], 320), max(sz[1], 320)}
		eval(fmt.Sprintf(`(() => { const f = document.getElementById("f"); f.width = %d; f.height = %d; window.got = []; })()`, sz[0], sz[1]), nil)
		var lay pageLayout
		for range 100 {
			eval(`window.call("layout")`, nil)
			rep := waitMsg("reply", "layout() by message")
			b, _ := json.Marshal(rep.Value)
			json.Unmarshal(b, &lay)
			if lay.Viewport == want {
				break
			}
			eval(`window.got = []`, nil)
			time.Sleep(50 * time.Millisecond)
		}
		if lay.Viewport != want || lay.Overflow != 0 || lay.MinTextPx < 13.99 {
			t.Errorf("an embed in a %dx%d frame: layout() = %+v", sz[0], sz[1], lay)
		}
		if dir := os.Getenv("BUFFERLAB_EMBED_SHOTS"); dir != "" { // to look at them
			shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, fmt.Sprintf("embed-%dx%d.png", sz[0], sz[1])), shot, 0o644)
			}
			if err != nil {
				t.Error(err)
			}
		}
	}
}
