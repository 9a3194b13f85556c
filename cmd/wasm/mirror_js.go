//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"bufferlab/viz/a11y"
	"bufferlab/viz/app"
)

// The screen-reader mirror: the lesson as text and buttons beside the
// canvas (web/index.html's #mirror, clipped out of sight until one of its
// controls has the focus), and its live region (#mirror-live). The app
// hands it a viz/a11y Doc when what it shows may have changed
// (app.A11y.Mirror) and what the live region is to say (app.A11y.Announce),
// both from Update; Show compares the Doc with the last one section by
// section (a11y.Changed) and rewrites only the sections that differ.
//
// Cost: nothing at a tick where the app's mirror key is unchanged (the
// app compares a few words). A new step rewrites the heading, the text
// (a few dozen elements) and the question; an answer relabels the choice
// buttons in place and adds the explanation; a step of one event
// rewrites two lines of text (the status and the captions), and the
// controls' attributes when what they can do changed. While the player
// plays the app rebuilds the Doc at most twice a second, so the page is
// touched at most twice a second, not at every frame.
//
// The buttons are ordinary <button>s, so Enter and Space press them; one
// click listener on the mirror sends each press to app.Press, which does
// what the canvas's own button or choice does.

// domMirror writes a11y Docs into the page.
type domMirror struct {
	a    *app.App
	doc  js.Value
	root js.Value
	el   map[string]js.Value // the mirror's parts, by their id without "mirror-"
	// controls are the player's buttons, by action.
	controls map[string]js.Value
	choices  []js.Value
	last     *a11y.Doc
	live     string
	click    js.Func
}

// controlButtons are the player's buttons in the mirror, named for what
// they do (app.Press's actions).
var controlButtons = []struct{ action, label string }{
	{"prev-step", "Previous step"},
	{"back", "Back one event"},
	{"play", "Play"},
	{"forward", "Forward one event"},
	{"next-step", "Next step"},
	{"menu", "Lesson list"},
}

// newDOMMirror finds the mirror's elements in the page and makes the
// player's buttons; nil when the page has no mirror.
func newDOMMirror(a *app.App) *domMirror {
	doc := js.Global().Get("document")
	root := doc.Call("getElementById", "mirror")
	if !root.Truthy() {
		return nil
	}
	m := &domMirror{a: a, doc: doc, root: root, el: map[string]js.Value{}, controls: map[string]js.Value{}}
	for _, id := range []string{"title", "heading", "menu", "prose", "question", "question-title", "question-prompt",
		"choices", "explain", "after", "end", "score", "end-buttons", "controls", "status", "captions", "live"} {
		e := doc.Call("getElementById", "mirror-"+id)
		if !e.Truthy() {
			js.Global().Get("console").Call("warn", "the page's mirror lacks #mirror-"+id+": no screen-reader mirror")
			return nil
		}
		m.el[id] = e
	}
	for _, c := range controlButtons {
		b := m.button(c.label, c.action, 0)
		m.el["controls"].Call("appendChild", b)
		m.controls[c.action] = b
	}
	m.controls["play"].Call("setAttribute", "aria-pressed", "false")
	m.click = js.FuncOf(m.onClick)
	root.Call("addEventListener", "click", m.click)
	labelCanvas(doc)
	return m
}

// labelCanvas names the canvas for assistive technology: a picture, whose
// text and controls are the mirror's. It keeps the focus it has (Ebitengine
// makes it focusable and takes its keys), so it is not hidden.
func labelCanvas(doc js.Value) {
	c := doc.Call("querySelector", "canvas")
	if !c.Truthy() {
		return
	}
	c.Call("setAttribute", "role", "img")
	c.Call("setAttribute", "aria-label", "The simulation, drawn: the buffer pool, the backends and the code as they change. "+
		"Its keys: Space plays or pauses, the arrows step, 1 to 9 answer, question mark lists them all. "+
		"The same lesson as text, its question and its controls are in the text view: press Tab.")
}

// button makes a mirror button that does action (with its number n).
func (m *domMirror) button(label, action string, n int) js.Value {
	b := m.doc.Call("createElement", "button")
	b.Set("type", "button")
	b.Set("textContent", label)
	ds := b.Get("dataset")
	ds.Set("action", action)
	ds.Set("n", strconv.Itoa(n))
	return b
}

// onClick presses the mirror button that was clicked (or pressed with
// Enter or Space). A choice of a question already answered does
// nothing, as on the canvas.
func (m *domMirror) onClick(_ js.Value, args []js.Value) any {
	b := args[0].Get("target").Call("closest", "button[data-action]")
	if !b.Truthy() {
		return nil
	}
	action := b.Get("dataset").Get("action").String()
	if action == "answer" && b.Call("getAttribute", "aria-disabled").String() == "true" {
		return nil
	}
	n, _ := strconv.Atoi(b.Get("dataset").Get("n").String())
	if err := m.a.Press(action, n); err != nil {
		js.Global().Get("console").Call("warn", "mirror: "+err.Error())
	}
	return nil
}

// Show writes d where it differs from the last Doc shown. When the focus
// was on an element that is gone (a lesson opened from the menu's list),
// it moves to the heading, so that the keyboard stays in the mirror.
func (m *domMirror) Show(d *a11y.Doc) {
	ch := a11y.Changed(m.last, d)
	m.last = d
	if ch == 0 {
		return
	}
	hadFocus := m.root.Call("contains", m.doc.Get("activeElement")).Bool()
	if ch&a11y.SecHead != 0 {
		m.el["title"].Set("textContent", d.Title)
		m.el["heading"].Set("textContent", d.Heading)
		m.root.Get("dataset").Set("mode", d.Mode)
	}
	if ch&a11y.SecMenu != 0 {
		m.menu(d.Menu)
	}
	if ch&a11y.SecProse != 0 {
		m.nodes(m.el["prose"], d.Prose)
	}
	if ch&a11y.SecQuestion != 0 {
		m.question(d.Question)
	}
	if ch&(a11y.SecQuestion|a11y.SecAnswer) != 0 {
		m.answer(d.Question)
	}
	if ch&a11y.SecAfter != 0 {
		m.nodes(m.el["after"], d.After)
	}
	if ch&a11y.SecEnd != 0 {
		m.end(d.End)
	}
	if ch&a11y.SecControls != 0 {
		m.controlState(d.Controls)
	}
	if ch&a11y.SecStatus != 0 {
		m.el["status"].Set("textContent", d.Status)
		m.captions(d.Captions)
	}
	if hadFocus && !m.root.Call("contains", m.doc.Get("activeElement")).Bool() {
		m.el["heading"].Call("focus")
	}
}

// Announce puts text in the live region. The same text twice in a row
// gets a no-break space, so that the region changes and it is said again.
func (m *domMirror) Announce(text string) {
	if text == m.live {
		text += "\u00a0"
	}
	m.live = text
	m.el["live"].Set("textContent", text)
}

// elem makes an element with a text.
func (m *domMirror) elem(tag, text string) js.Value {
	e := m.doc.Call("createElement", tag)
	if text != "" {
		e.Call("appendChild", m.doc.Call("createTextNode", text))
	}
	return e
}

// nodes replaces parent's children with the elements of ns.
func (m *domMirror) nodes(parent js.Value, ns []a11y.Node) {
	parent.Call("replaceChildren")
	for _, n := range ns {
		parent.Call("appendChild", m.node(n))
	}
}

func (m *domMirror) node(n a11y.Node) js.Value {
	if n.Tag == "pre" {
		pre := m.elem("pre", "")
		pre.Call("appendChild", m.elem("code", n.Text))
		return pre
	}
	e := m.elem(n.Tag, n.Text)
	for _, c := range n.Children {
		e.Call("appendChild", m.node(c))
	}
	return e
}

// menu writes the lesson list: a button per lesson, its summary and the
// student's progress its description.
func (m *domMirror) menu(items []a11y.MenuItem) {
	ul := m.el["menu"]
	ul.Call("replaceChildren")
	ul.Set("hidden", len(items) == 0)
	for i, it := range items {
		li := m.elem("li", "")
		b := m.button(it.Title, "open", i)
		id := "mirror-lesson-" + strconv.Itoa(i)
		b.Call("setAttribute", "aria-describedby", id)
		desc := m.elem("p", it.Summary+" ("+it.Progress+")")
		desc.Set("id", id)
		li.Call("appendChild", b)
		li.Call("appendChild", desc)
		ul.Call("appendChild", li)
	}
}

// question writes the question's heading, prompt and a button per
// choice (labelled by answer).
func (m *domMirror) question(q *a11y.Question) {
	m.el["question"].Set("hidden", q == nil)
	m.el["choices"].Call("replaceChildren")
	m.choices = m.choices[:0]
	if q == nil {
		return
	}
	m.el["question-title"].Set("textContent", "Question "+strconv.Itoa(q.Number)+" of "+strconv.Itoa(q.Of))
	m.el["question-prompt"].Set("textContent", q.Prompt)
	for i := range q.Choices {
		b := m.button("", "answer", i)
		m.el["choices"].Call("appendChild", b)
		m.choices = append(m.choices, b)
	}
}

// answer labels the choices for the answer given (each button stays, so
// the one pressed keeps the focus) and writes the explanation once
// revealed.
func (m *domMirror) answer(q *a11y.Question) {
	if q == nil {
		return
	}
	for i, b := range m.choices {
		b.Set("textContent", q.ChoiceLabel(i))
		if q.Revealed {
			b.Call("setAttribute", "aria-disabled", "true")
		} else {
			b.Call("removeAttribute", "aria-disabled")
		}
	}
	var ns []a11y.Node
	if q.Revealed {
		ns = append([]a11y.Node{{Tag: "h4", Text: "Explanation"}}, q.Explain...)
	}
	m.nodes(m.el["explain"], ns)
}

// end writes the end of the lesson: its score and the ways on.
func (m *domMirror) end(e *a11y.End) {
	m.el["end"].Set("hidden", e == nil)
	bs := m.el["end-buttons"]
	bs.Call("replaceChildren")
	if e == nil {
		return
	}
	m.el["score"].Set("textContent", "Your score: "+e.Score+".")
	if e.Next != "" {
		bs.Call("appendChild", m.button("Next lesson: "+e.Next, "end-next", 0))
	}
	bs.Call("appendChild", m.button("Replay this lesson", "end-replay", 0))
	bs.Call("appendChild", m.button("Lesson list", "end-menu", 0))
}

// controlState says what each player button can do now: aria-disabled
// where it would do nothing, aria-pressed on Play while playing.
func (m *domMirror) controlState(c *a11y.Controls) {
	m.el["controls"].Set("hidden", c == nil)
	if c == nil {
		return
	}
	for action, can := range map[string]bool{"prev-step": c.PrevStep, "back": c.Back, "play": c.Play, "forward": c.Forward, "next-step": c.NextStep} {
		if can {
			m.controls[action].Call("removeAttribute", "aria-disabled")
		} else {
			m.controls[action].Call("setAttribute", "aria-disabled", "true")
		}
	}
	m.controls["play"].Call("setAttribute", "aria-pressed", strconv.FormatBool(c.Playing))
}

// captions writes the caption of each pane's last event.
func (m *domMirror) captions(cs []a11y.Caption) {
	box := m.el["captions"]
	box.Call("replaceChildren")
	for _, c := range cs {
		if c.Text == "" {
			continue
		}
		label := "Last event: "
		if c.Pane != "" {
			label = "Last event, " + c.Pane + " pane: "
		}
		box.Call("appendChild", m.elem("p", label+c.Text))
	}
}
