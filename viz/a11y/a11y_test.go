package a11y

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"bufferlab/engine/trace"
	"bufferlab/lessons"
	"bufferlab/viz/player"
)

func TestNodes(t *testing.T) {
	para := func(text string, indent int) lessons.Block {
		return lessons.Block{Kind: lessons.Paragraph, Indent: indent, Spans: []lessons.Span{{Text: text}}}
	}
	item := func(marker, text string, indent int) lessons.Block {
		return lessons.Block{Kind: lessons.ListItem, Marker: marker, Indent: indent, Spans: []lessons.Span{{Text: text}}}
	}
	blocks := []lessons.Block{
		para("Intro with ", 0),
		item("•", "one", 1),
		item("•", "two", 1),
		item("1.", "nested first", 2),
		item("2.", "nested second", 2),
		para("more of two", 1),
		{Kind: lessons.CodeBlock, Indent: 1, Spans: []lessons.Span{{Text: "SELECT 1;\nSELECT 2;"}}},
		item("•", "three", 1),
		item("1)", "a numbered list after a bulleted one", 1),
		{Kind: lessons.Heading, Level: 3, Spans: []lessons.Span{{Text: "A "}, {Text: "sub", Style: lessons.Code}, {Text: "heading"}}},
		{Kind: lessons.Heading, Level: 9, Spans: []lessons.Span{{Text: "deep"}}},
		{Kind: lessons.Rule},
		{Kind: lessons.Paragraph, Quote: 1, Spans: []lessons.Span{{Text: "quoted"}}},
		{Kind: lessons.Paragraph, Quote: 2, Spans: []lessons.Span{{Text: "quoted deeper"}}},
		para("after the quote", 0),
	}
	got := Nodes(blocks)
	want := []Node{
		{Tag: "p", Text: "Intro with "},
		{Tag: "ul", Children: []Node{
			{Tag: "li", Text: "one"},
			{Tag: "li", Text: "two", Children: []Node{
				{Tag: "ol", Children: []Node{{Tag: "li", Text: "nested first"}, {Tag: "li", Text: "nested second"}}},
				{Tag: "p", Text: "more of two"},
				{Tag: "pre", Text: "SELECT 1;\nSELECT 2;"},
			}},
			{Tag: "li", Text: "three"},
		}},
		{Tag: "ol", Children: []Node{{Tag: "li", Text: "a numbered list after a bulleted one"}}},
		{Tag: "h3", Text: "A subheading"},
		{Tag: "h6", Text: "deep"},
		{Tag: "hr"},
		{Tag: "blockquote", Children: []Node{{Tag: "p", Text: "quoted"}, {Tag: "p", Text: "quoted deeper"}}},
		{Tag: "p", Text: "after the quote"},
	}
	if g, w := js(t, got), js(t, want); g != w {
		t.Errorf("Nodes:\n got %s\nwant %s", g, w)
	}
}

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pinning is lesson 2's player.
func pinning(t *testing.T) *player.Player {
	t.Helper()
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range all {
		if l.Name == "pinning" {
			p, err := player.FromLesson(l)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatal("no lesson pinning")
	return nil
}

// casFail is the position just after the first failed CAS of the atomic
// pane in step k, found by its moment.
func casFail(t *testing.T, p *player.Player, k int) int {
	t.Helper()
	for i := p.StepStart[k]; i < p.StepEnd[k]; i++ {
		if p.MomentAt(0, i) == trace.MomentCASFail {
			return i + 1
		}
	}
	t.Fatalf("step %d has no failed CAS", k)
	return 0
}

func TestBuildLesson(t *testing.T) {
	p := pinning(t)
	p.GotoStep(2)
	p.Forward(1 << 20) // to the question's stop, just before C's CAS fails
	d := Build(Input{Player: p})
	if d.Mode != "lesson" || d.Title != "Pinning a buffer with one atomic" || d.Heading != "Step 3 of 7: Two backends, one word: the CAS that fails" {
		t.Fatalf("head: %q %q %q", d.Mode, d.Title, d.Heading)
	}
	if len(d.Prose) == 0 || d.Prose[0].Tag != "p" || !strings.HasPrefix(d.Prose[0].Text, "Backends B and C now read the same block") {
		t.Errorf("prose: %+v", d.Prose)
	}
	q := d.Question
	if q == nil || q.Number != 3 || q.Of != 7 || !strings.HasPrefix(q.Prompt, "B and C both load the word") || len(q.Choices) != 4 ||
		q.Chosen != -1 || q.Revealed || q.Answer != -1 || q.Explain != nil {
		t.Fatalf("question before an answer: %+v", q)
	}
	if got := q.ChoiceLabel(1); got != "2. C waits until B releases its pin" {
		t.Errorf("ChoiceLabel(1) = %q", got)
	}
	if q.Verdict() != "" {
		t.Errorf("a verdict before the reveal: %q", q.Verdict())
	}
	if c := *d.Controls; c != (Controls{Gated: true, PrevStep: true, Back: true, NextStep: true}) {
		t.Errorf("controls at the question's stop: %+v", c)
	}
	if want := fmt.Sprintf("Event %d of %d, speed 1×. Answer the question to go on.", p.Pos(), p.Len()); d.Status != want {
		t.Errorf("status: %q", d.Status)
	}
	if len(d.Captions) != 2 || d.Captions[0].Pane != "atomic" || d.Captions[1].Pane != "spinlock" {
		t.Errorf("captions: %+v", d.Captions)
	}

	// Answering changes the answer, the controls and the status: the
	// question's buttons stay.
	if _, err := p.Answer(1); err != nil {
		t.Fatal(err)
	}
	d2 := Build(Input{Player: p})
	if ch := Changed(&d, &d2); ch != SecAnswer|SecControls|SecStatus {
		t.Errorf("Changed after an answer = %b, want the answer, the controls and the status", ch)
	}
	q = d2.Question
	if !q.Revealed || q.Chosen != 1 || q.Answer != 0 || len(q.Explain) == 0 || !strings.HasPrefix(q.Explain[0].Text, "A CAS compares the word") {
		t.Fatalf("question after answer 2: %+v", q)
	}
	if got := q.ChoiceLabel(0); !strings.HasSuffix(got, "(the right answer)") {
		t.Errorf("ChoiceLabel(0) = %q", got)
	}
	if got := q.ChoiceLabel(1); got != "2. C waits until B releases its pin (your answer)" {
		t.Errorf("ChoiceLabel(1) = %q", got)
	}
	if got := q.Verdict(); !strings.HasPrefix(got, "Not quite: the answer is choice 1, C's CAS fails") {
		t.Errorf("Verdict() = %q", got)
	}
	if ch := Changed(&d2, &d2); ch != 0 {
		t.Errorf("Changed of a Doc with itself = %b", ch)
	}

	// At the failed CAS the atomic pane's caption names both backends and
	// says C retries.
	p.Seek(casFail(t, p, 2))
	d3 := Build(Input{Player: p})
	got := d3.Captions[0].Text
	if !strings.HasPrefix(got, "C's CAS fails: B changed buffer 0's state word first") || !strings.Contains(got, "C retries") {
		t.Errorf("caption at the failed CAS: %q", got)
	}
	if txt := CaptionText(d3.Captions); !strings.HasPrefix(txt, "atomic pane: "+got) {
		t.Errorf("CaptionText = %q", txt)
	}
	if c := *d3.Controls; !c.Forward || !c.Play || !c.Back || c.Gated {
		t.Errorf("controls mid-step: %+v", c)
	}

	// The end of the lesson: nothing forward, the closing text shown.
	p.End()
	d4 := Build(Input{Player: p, End: &End{Score: "1 of 7"}})
	if c := *d4.Controls; c.Forward || c.Play || c.NextStep || !c.Back {
		t.Errorf("controls at the end: %+v", c)
	}
	if d4.End == nil || Changed(&d3, &d4)&SecEnd == 0 {
		t.Errorf("the end is not in the mirror: %+v", d4.End)
	}
}

func TestBuildMenu(t *testing.T) {
	all, err := lessons.All()
	if err != nil {
		t.Fatal(err)
	}
	d := Build(Input{Lessons: lessons.Entries(all), Progress: func(lessons.Entry) string { return "not started" }})
	if d.Mode != "menu" || d.Heading != "Lessons" || len(d.Menu) != len(all) || d.Menu[1].Name != "pinning" || d.Menu[1].Progress != "not started" || d.Controls != nil {
		t.Errorf("menu: %+v", d)
	}
	if f := Build(Input{Fast: true, Lessons: lessons.Entries(all)}); f.Mode != "fast" || f.Menu != nil {
		t.Errorf("fast: %+v", f)
	}
}

// ticker drives an Announcer and records what it said at which tick.
type ticker struct {
	an   Announcer
	tick int
	said map[int]string
}

func (k *ticker) run(n int, now Now) {
	for range n {
		if s := k.an.Tick(now); s != "" {
			if k.said == nil {
				k.said = map[int]string{}
			}
			k.said[k.tick] = s
		}
		k.tick++
	}
}

func TestAnnouncer(t *testing.T) {
	capt := func(s string) func() string { return func() string { return s } }
	var k ticker
	// A step opens: its heading, not the caption before it.
	k.run(1, Now{Scope: "pinning/2", Heading: "Step 3 of 7", Pos: 91, Caption: capt("old")})
	if k.said[0] != "Step 3 of 7" {
		t.Fatalf("a new step: %v", k.said)
	}
	// Nothing moves: nothing is said.
	k.run(100, Now{Scope: "pinning/2", Pos: 91, Caption: capt("old")})
	if len(k.said) != 1 {
		t.Fatalf("a still player said %v", k.said)
	}
	// The answer's verdict at once.
	k.run(1, Now{Scope: "pinning/2", Pos: 91, Caption: capt("old"), Feedback: "Right."})
	if k.said[101] != "Right." {
		t.Fatalf("verdict: %v", k.said)
	}
	// A step: its caption at once, since more than Settle ticks passed
	// (the verdict was said less than Settle ticks before: it waits for
	// them); a run of steps in quick succession says the first at once and
	// the latest once Settle has passed.
	k.run(20, Now{Scope: "pinning/2", Pos: 92, Caption: capt("e2"), Feedback: "Right."})
	if k.said[101+SettleTicks] != "e2" {
		t.Fatalf("one step, just after the verdict: %v", k.said)
	}
	k.run(SettleTicks, Now{Scope: "pinning/2", Pos: 92, Caption: capt("e2"), Feedback: "Right."})
	first := k.tick
	for _, pos := range []int{93, 94, 95} {
		k.run(3, Now{Scope: "pinning/2", Pos: pos, Caption: capt(fmt.Sprintf("e%d", pos-90)), Feedback: "Right."})
	}
	k.run(10, Now{Scope: "pinning/2", Pos: 95, Caption: capt("e5"), Feedback: "Right."})
	if s := k.said[first]; s != "e3" {
		t.Errorf("the first of a run of steps: %q (%v)", s, k.said)
	}
	if s := k.said[first+SettleTicks]; s != "e5" || len(k.said) != 5 {
		t.Errorf("the latest of the run, Settle ticks after the first: %q (%v)", s, k.said)
	}
	// A step to an event whose caption is the one said last says it
	// again: the student asked for it.
	k.run(SettleTicks, Now{Scope: "pinning/2", Pos: 95, Caption: capt("e5"), Feedback: "Right."})
	k.run(1, Now{Scope: "pinning/2", Pos: 96, Caption: capt("e5"), Feedback: "Right."})
	if s := k.said[k.tick-1]; s != "e5" || len(k.said) != 6 {
		t.Errorf("a step to the same caption: %v", k.said)
	}
	n := len(k.said)
	// Playing: at most one caption every Every ticks, a key moment first.
	pos := 95
	start := k.tick
	for i := range 300 {
		pos += 64
		now := Now{Scope: "pinning/2", Pos: pos, Playing: true, Caption: capt(fmt.Sprint("event ", i)), Feedback: "Right."}
		if i == 100 {
			now.Moment = "the moment"
		}
		k.run(1, now)
	}
	var during []int
	for tick := range k.said {
		if tick >= start {
			during = append(during, tick)
		}
	}
	if len(during) != 300/EveryTicks {
		t.Errorf("while playing 300 ticks, said %d times: %v", len(during), k.said)
	}
	slices.Sort(during)
	for i := 1; i < len(during); i++ {
		if during[i]-during[i-1] < EveryTicks {
			t.Errorf("two captions %d ticks apart while playing: %v", during[i]-during[i-1], k.said)
		}
	}
	if i, _ := slices.BinarySearch(during, start+100); i == len(during) || k.said[during[i]] != "the moment" {
		t.Errorf("the key moment was not the next caption said: %v", k.said)
	}
	if len(k.said) != n+len(during) {
		t.Fatal("bookkeeping")
	}
	// The player stops: the caption where it stopped, at once.
	k.run(1, Now{Scope: "pinning/2", Pos: pos, Caption: capt("stopped here"), Feedback: "Right."})
	if s := k.said[k.tick-1]; s != "stopped here" {
		t.Errorf("at the stop: %q", s)
	}
	// A new step while playing: its heading.
	k.run(1, Now{Scope: "pinning/3", Heading: "Step 4 of 7", Pos: pos + 1, Playing: true, Caption: capt("x")})
	if s := k.said[k.tick-1]; s != "Step 4 of 7" {
		t.Errorf("a step entered while playing: %q", s)
	}
	// The flash line when it appears.
	k.run(1, Now{Scope: "pinning/3", Pos: pos + 1, Caption: capt("x"), Flash: "Answer the question first"})
	if s := k.said[k.tick-1]; !strings.HasPrefix(s, "Answer the question first") {
		t.Errorf("flash: %q", s)
	}
}

func TestMotion(t *testing.T) {
	var full Motion
	for range 100 {
		if full.Tick(true) {
			t.Fatal("full motion held a frame")
		}
	}
	m := Motion{Reduced: true}
	laid := 0
	for range 3 * HoldTicks {
		if !m.Tick(true) {
			laid++
		}
	}
	if laid != 3 {
		t.Errorf("reduced motion laid out %d pictures in %d ticks of playing, want 3", laid, 3*HoldTicks)
	}
	// A still player is laid out at every tick, and playing starts with a
	// new picture.
	if m.Tick(false) || m.Tick(false) || m.Tick(true) || !m.Tick(true) {
		t.Error("reduced motion held a still player's frame, or the first of playing")
	}
}
