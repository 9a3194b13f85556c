//go:build !js

package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestBrowserClassroom: a class in one Chromium, each page in a browser
// context of its own (no shared storage), on `bufferlab serve
// --classroom`'s handlers: the teacher's page drives, two students join
// (one with a nickname), follow the teacher to a question, answer on
// their own pages (held: nothing revealed), see the teacher's reveal with
// the distribution on the teacher's panel, answer again when the teacher
// re-asks (both rounds shown); one roams back a step, does not follow
// while roaming, and snaps back to where the class is.
func TestBrowserClassroom(t *testing.T) {
	var cl *class
	bs := newBrowserSessionWith(t, 10*time.Minute, webConfig{CSP: baseCSP + "; img-src 'self'"}, func(mux *http.ServeMux) {
		mux.Handle("/class/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { cl.routes().ServeHTTP(w, r) }))
	})
	var err error
	if cl, err = newClass(&classOpts{on: true, max: 500}, bs.srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.srv.Close() })

	teacher := bs.ctx
	type page struct {
		name string
		ctx  context.Context
	}
	students := []page{{"Ada", nil}, {"", nil}}
	for i := range students {
		ctx, cancel := chromedp.NewContext(bs.ctx, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			t.Fatal(err)
		}
		bs.watch(ctx)
		students[i].ctx = ctx
	}
	eval := func(ctx context.Context, expr string, out any) { t.Helper(); evalIn(t, ctx, expr, out) }
	// until polls expr in ctx until it is true (a page reacts to the
	// class's messages a moment later).
	until := func(ctx context.Context, what, expr string) {
		t.Helper()
		var ok bool
		for range 600 {
			if eval(ctx, expr, &ok); ok {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		var why any
		eval(ctx, `({state: window.bufferlab.state && window.bufferlab.state(), line: (document.getElementById("class-line") || {}).textContent})`, &why)
		t.Fatalf("%s: never %s (%v)", what, expr, why)
	}

	// The teacher opens the link serve printed; the token leaves the
	// address bar at once.
	if err := chromedp.Do(teacher, chromedp.Navigate(bs.srv.URL+"/#teach="+cl.srv.TeacherToken())); err != nil {
		t.Fatal(err)
	}
	eval(teacher, `window.bufferlab.ready.then(() => true)`, nil)
	until(teacher, "the teacher's panel", `!!document.getElementById("class-code") && document.getElementById("class-code").textContent === `+fmt.Sprintf("%q", cl.srv.Code()))
	var addr string
	if eval(teacher, `location.href`, &addr); strings.Contains(addr, cl.srv.TeacherToken()) {
		t.Fatalf("the teacher's token stays in the address: %s", addr)
	}
	eval(teacher, `window.bufferlab.open("pinning")`, nil)

	// Two students join; one gives a nickname.
	for _, s := range students {
		if err := chromedp.Do(s.ctx, chromedp.Navigate(bs.srv.URL+"/#join="+cl.srv.Code())); err != nil {
			t.Fatal(err)
		}
		eval(s.ctx, `window.bufferlab.ready.then(() => true)`, nil)
		until(s.ctx, "the join dialog", `!!document.getElementById("class-name")`)
		eval(s.ctx, fmt.Sprintf(`(() => { document.getElementById("class-name").value = %q; document.getElementById("class-join-go").click(); })()`, s.name), nil)
		until(s.ctx, "following", `window.bufferlab.state().lesson === "pinning"`)
	}
	until(teacher, "two students", `document.getElementById("class-line").textContent.startsWith("2 students")`)

	// The teacher goes to the first step with a question, to its stop.
	var k int
	eval(teacher, `(() => { const b = window.bufferlab; const ls = b.lessons().find(l => l.name === "pinning");
		for (let s = 0; s < ls.steps; s++) { b.goto(s); b.step(100000); if (b.state().question) return s; } return -1; })()`, &k)
	if k < 0 {
		t.Fatal("pinning has no question")
	}
	var tpos int
	eval(teacher, `window.bufferlab.state().event`, &tpos)
	for _, s := range students {
		until(s.ctx, "at the question", fmt.Sprintf(`(s => s.step === %d && s.event === %d && s.question && s.gated)(window.bufferlab.state())`, k, tpos))
	}
	// They answer, 1 and 2. Held: still gated, nothing revealed on their
	// pages.
	var n int
	eval(students[0].ctx, `window.bufferlab.mirror().question.choices.length`, &n)
	if n < 2 {
		t.Fatalf("the question has %d choices", n)
	}
	eval(students[0].ctx, `window.bufferlab.answer(1)`, nil)
	eval(students[1].ctx, `window.bufferlab.answer(2)`, nil)
	for _, s := range students {
		until(s.ctx, "held", `window.bufferlab.state().gated`)
	}
	until(teacher, "two answers", `document.getElementById("class-counts").textContent === "2 of 2 answered"`)

	// The reveal: the students' pages show the explanation (no longer
	// gated), the teacher's panel the distribution.
	eval(teacher, `document.getElementById("class-reveal").click()`, nil)
	for _, s := range students {
		until(s.ctx, "revealed", `!window.bufferlab.state().gated && window.bufferlab.state().question`)
	}
	until(teacher, "the distribution", `document.querySelectorAll("#class-bars .class-row").length === `+fmt.Sprint(n))
	var rows []string
	eval(teacher, `[...document.querySelectorAll("#class-bars .class-n")].map(r => r.textContent)`, &rows)
	total := 0
	for _, r := range rows {
		var count int
		fmt.Sscanf(r, "%d", &count)
		total += count
	}
	if total != 2 || !strings.Contains(strings.Join(rows, "|"), "✓ right") {
		t.Fatalf("the distribution: %q", rows)
	}

	// Peer instruction: after discussion the teacher asks again; the
	// students' questions open again with no answer, they answer, and the
	// reveal shows both rounds side by side.
	eval(teacher, `document.getElementById("class-reask").click()`, nil)
	for _, s := range students {
		until(s.ctx, "asked again", `window.bufferlab.state().gated`)
	}
	until(teacher, "round 2", `document.getElementById("class-line").textContent.includes("(round 2)")`)
	for _, s := range students {
		eval(s.ctx, `window.bufferlab.answer(1)`, nil)
	}
	until(teacher, "two answers in round 2", `document.getElementById("class-counts").textContent === "2 of 2 answered"`)
	eval(teacher, `document.getElementById("class-reveal").click()`, nil)
	until(teacher, "both rounds", `[...document.querySelectorAll("#class-bars .class-round-title")].map(e => e.textContent).join() === "Round 1,Round 2"`)
	var second []string
	eval(teacher, `[...[...document.querySelectorAll("#class-bars .class-round")][1].querySelectorAll(".class-n")].map(e => e.textContent)`, &second)
	if len(second) != n || !strings.HasPrefix(second[0], "2 (100%)") {
		t.Fatalf("round 2's distribution: %q, want both on choice 1", second)
	}

	// Roaming: Ada steps back; the class moves on without her; Back to
	// class takes her to where the class is.
	eval(students[0].ctx, `window.bufferlab.goto(0)`, nil)
	until(students[0].ctx, "roaming", `document.getElementById("class").classList.contains("roaming")`)
	eval(teacher, fmt.Sprintf(`window.bufferlab.goto(%d)`, k+1), nil)
	until(students[1].ctx, "the next step", fmt.Sprintf(`window.bufferlab.state().step === %d`, k+1))
	var aStep int
	if eval(students[0].ctx, `window.bufferlab.state().step`, &aStep); aStep != 0 {
		t.Fatalf("a roaming student was moved to step %d", aStep+1)
	}
	eval(students[0].ctx, `document.getElementById("class-back").click()`, nil)
	until(students[0].ctx, "snapped back", fmt.Sprintf(`window.bufferlab.state().step === %d && !document.getElementById("class").classList.contains("roaming")`, k+1))
	bs.check("the class")
}
