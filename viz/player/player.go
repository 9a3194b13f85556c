package player

import (
	"fmt"
	"strings"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/lessons"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/mech"
	_ "bufferlab/viz/mech/all" // every mechanism's registration
	view "bufferlab/viz/poolview"
	"bufferlab/viz/slruview"
	"bufferlab/viz/timeline"
)

// Player plays one lesson or scenario.
type Player struct {
	captions    []lastCaption // CaptionAt's last, by pane
	Name, Title string
	Lesson      *lessons.Lesson // nil for a bare scenario
	// Steps are the lesson's steps (a bare scenario has one).
	Steps              []lessons.Step
	StepStart, StepEnd []int
	TL                 *timeline.Timeline
	Backends           []string
	// Variant is the variant TL shows (its pins, or the strategy its drops
	// take). When the lesson or scenario runs several variants side by
	// side (config pins=atomic,spinlock, drop=scan,lookup,dlist), Alts are
	// the further variants' timelines, in pane order. All timelines are
	// padded per step with idle events (trace.KNone from the system
	// actor) to the same length, so one position means the same step and
	// the same number of events into it in every pane; AltView follows TL.
	Variant scenario.Variant
	Alts    []Alt
	// Config is the scenario's configuration (nil for none).
	Config *scenario.ConfigStmt

	// Tracks are the views of the registered mechanisms the run has
	// (viz/mech), by name, over the same events as TL; Track follows TL.
	// SLRU and FSM are two of them, typed.
	Tracks map[string]mech.Track
	// SLRU, for a scenario with the commit log's SLRU (config slru=…), is
	// the timeline of its view over the same events; SLRUView follows TL.
	SLRU *timeline.Of[*slruview.View]
	// FSM, for a scenario with heaps and their free space map (config
	// fsm=…), is the timeline of the FSM view; FSMView follows TL.
	FSM *timeline.Of[*fsmview.View]

	rels    map[uint32]string // relation names by number (captions)
	sources []run             // every pane's unpadded events and steps (side by side only)
	pacing  string            // "events" or "time" (see pacing.go)

	step     int
	answers  []int // chosen index per step, -1 if none
	revealed []bool
	playing  bool
	budget   int // time owed by Tick, in units of 1/unitsPerSecond s (stops.go)
	opTarget int // -1, or the position ToOpEnd plays to

	// The stops (stops.go): the lesson's, as Play found them, placed on
	// the (padded) timeline; qPos[k] is where step k's question is asked
	// (-1: it has none).
	specs     []lessons.StopAt
	stops     []Stop
	qPos      []int
	autoSlow  bool
	moments   []int // positions of every pane's key moments, sorted (built on first use)
	momentsOK bool
}

// Alt is a further variant's pane: its variant and timeline (and its free
// space map's or its SLRU's, when the scenario has one).
type Alt struct {
	Variant scenario.Variant
	TL      *timeline.Timeline
	Tracks  map[string]mech.Track
	FSM     *timeline.Of[*fsmview.View]
	SLRU    *timeline.Of[*slruview.View]
}

// PaneTrack is pane i's track of mechanism name at the current position
// (nil when the pane's run has none of it).
func (p *Player) PaneTrack(i int, name string) mech.Track {
	if i == 0 {
		return p.Track(name)
	}
	t := p.Alts[i-1].Tracks[name]
	if t != nil {
		t.Seek(p.TL.Pos())
	}
	return t
}

// PaneSLRUView is pane i's SLRU view at the current position (nil without
// one).
func (p *Player) PaneSLRUView(i int) *slruview.View {
	if i == 0 {
		return p.SLRUView()
	}
	return viewAt(p.Alts[i-1].SLRU, p.TL.Pos())
}

// PaneFSMView is pane i's free space map view at the current position (nil
// without one).
func (p *Player) PaneFSMView(i int) *fsmview.View {
	if i == 0 {
		return p.FSMView()
	}
	return viewAt(p.Alts[i-1].FSM, p.TL.Pos())
}

// viewAt is a mechanism timeline's view at event pos (the zero view, nil,
// without the timeline); the seek applies at most a keyframe interval of
// events (timeline.Of.Seek).
func viewAt[S timeline.State[S]](t *timeline.Of[S], pos int) S {
	if t == nil {
		var none S
		return none
	}
	t.Seek(pos)
	return t.Current()
}

// Panes is the number of side-by-side panes (1 without variants).
func (p *Player) Panes() int { return 1 + len(p.Alts) }

// PaneVariant is pane i's variant (0 is TL's).
func (p *Player) PaneVariant(i int) scenario.Variant {
	if i == 0 {
		return p.Variant
	}
	return p.Alts[i-1].Variant
}

// PaneTimeline is pane i's timeline (0 is TL), synchronised with TL.
func (p *Player) PaneTimeline(i int) *timeline.Timeline {
	if i == 0 {
		return p.TL
	}
	t := p.Alts[i-1].TL
	t.Seek(p.TL.Pos())
	return t
}

// PaneView is pane i's view at the current position.
func (p *Player) PaneView(i int) *view.Pool { return p.PaneTimeline(i).Current() }

// FromLessonName is FromLesson of the embedded lesson called name
// (lessons.Named's).
func FromLessonName(name string) (*Player, error) {
	l, err := lessons.Named(name)
	if err != nil {
		return nil, err
	}
	return FromLesson(l)
}

// FromLesson plays a lesson headless and prepares its player.
func FromLesson(l *lessons.Lesson) (*Player, error) {
	pl, err := lessons.Play(l)
	if err != nil {
		return nil, err
	}
	p := &Player{Name: l.Name, Title: l.Title, Lesson: l, Steps: l.Steps,
		StepStart: pl.StepStart, StepEnd: pl.StepEnd, Backends: pl.Backends, specs: pl.Stops}
	if len(p.Steps) == 0 {
		p.Steps = []lessons.Step{{Title: l.Title}}
		p.StepStart, p.StepEnd = []int{0}, []int{len(pl.Events)}
	}
	p.Variant, p.Config = pl.Variant, pl.Runner.Config()
	var events trace.Events = trace.Slice(pl.Events)
	if len(pl.Alts) > 0 {
		runs := []run{{pl.Events, p.StepStart, p.StepEnd}}
		for _, a := range pl.Alts {
			st, en := a.StepStart, a.StepEnd
			if len(l.Steps) == 0 {
				st, en = []int{0}, []int{len(a.Events)}
			}
			runs = append(runs, run{a.Events, st, en})
		}
		p.sources = runs
		padded, start, end := AlignN(runs)
		events, p.StepStart, p.StepEnd = trace.Slice(padded[0]), start, end
		for i, a := range pl.Alts {
			pane := trace.Slice(padded[i+1])
			p.Alts = append(p.Alts, newAlt(a.Variant, timeline.New(pane, view.New(a.NBuffers, a.RelNames, a.Backends), timeline.DefaultKeyframeEvery),
				mech.Run{Runner: a.Runner, Events: pane, Backends: a.Backends}))
		}
	}
	p.init(events, pl.NBuffers, pl.RelNames)
	p.openTracks(mech.Run{Runner: pl.Runner, Events: events, Backends: p.Backends})
	return p, nil
}

// openTracks opens the track of every registered mechanism the run has
// (viz/mech): the SLRU's and the free space map's views among them.
func (p *Player) openTracks(r mech.Run) {
	p.Tracks = mech.Open(r)
	p.SLRU = mech.Timeline[*slruview.View](p.Tracks["slru"])
	p.FSM = mech.Timeline[*fsmview.View](p.Tracks["fsm"])
}

// newAlt is a side-by-side pane: its variant, its pool timeline and the
// tracks of the other mechanisms its run has.
func newAlt(v scenario.Variant, tl *timeline.Timeline, r mech.Run) Alt {
	tracks := mech.Open(r)
	return Alt{Variant: v, TL: tl, Tracks: tracks,
		SLRU: mech.Timeline[*slruview.View](tracks["slru"]), FSM: mech.Timeline[*fsmview.View](tracks["fsm"])}
}

// Track is mechanism name's track positioned at the current event (nil
// when the run has none of it).
func (p *Player) Track(name string) mech.Track {
	t := p.Tracks[name]
	if t != nil {
		t.Seek(p.TL.Pos())
	}
	return t
}

// FSMView is the free space map's view at the current position (nil
// without one).
func (p *Player) FSMView() *fsmview.View {
	return viewAt(p.FSM, p.TL.Pos())
}

// SLRUView is the SLRU's view at the current position (nil without one).
func (p *Player) SLRUView() *slruview.View {
	return viewAt(p.SLRU, p.TL.Pos())
}

// run is one variant's events and step ranges, for AlignN.
type run struct {
	events     []trace.Event
	start, end []int
}

// AlignN pads runs of the same steps so that every step has as many events
// in all of them (see Align).
func AlignN(runs []run) (padded [][]trace.Event, start, end []int) {
	padded = make([][]trace.Event, len(runs))
	add := func(i int, evs []trace.Event, n int) {
		padded[i] = append(padded[i], evs...)
		for k := len(evs); k < n; k++ {
			padded[i] = append(padded[i], trace.Event{Actor: trace.System, Kind: trace.KNone})
		}
	}
	seg := func(lo, hi func(r run) int) {
		n := 0
		for _, r := range runs {
			n = max(n, hi(r)-lo(r))
		}
		for i, r := range runs {
			add(i, r.events[lo(r):hi(r)], n)
		}
	}
	start, end = eachSegment(runs, padded, seg)
	return padded, start, end
}

// eachSegment has seg pad the runs' events of each segment in turn into
// padded (the part before the first step, then each step, given as the
// bounds of a run's events), records where each step starts and ends in
// the padded logs, and renumbers their events (Seq = the index) so that
// "event N" is the same position in all of them. AlignN and AlignCost
// differ only in how seg pads a segment.
func eachSegment(runs []run, padded [][]trace.Event, seg func(lo, hi func(r run) int)) (start, end []int) {
	zero := func(run) int { return 0 }
	seg(zero, func(r run) int {
		if len(r.start) > 0 {
			return r.start[0]
		}
		return len(r.events)
	})
	for k := range runs[0].start {
		start = append(start, len(padded[0]))
		seg(func(r run) int { return r.start[k] }, func(r run) int { return r.end[k] })
		end = append(end, len(padded[0]))
	}
	for _, x := range padded {
		for i := range x {
			x[i].Seq = uint64(i)
		}
	}
	return start, end
}

// Align pads two runs of the same steps (a and b, with their step ranges)
// so that every step has as many events in both: the shorter side of each
// step, and of the part before the first step, gets idle events
// (trace.KNone, system actor) at its end. Events are renumbered (Seq = the
// index) so that "event N" is the same position in both. It returns the
// padded logs and the step ranges they share.
func Align(a []trace.Event, aStart, aEnd []int, b []trace.Event, bStart, bEnd []int) (pa, pb []trace.Event, start, end []int) {
	padded, start, end := AlignN([]run{{a, aStart, aEnd}, {b, bStart, bEnd}})
	return padded[0], padded[1], start, end
}

// AltView is the second pane's view (nil without one).
func (p *Player) AltView() *view.Pool {
	if len(p.Alts) == 0 {
		return nil
	}
	return p.PaneView(1)
}

// FromScenario runs a scenario and prepares a one-step player over it
// (with a second pane when its config names two pin variants).
func FromScenario(name, src string) (*Player, error) {
	s, err := scenario.Parse(name, src)
	if err != nil {
		return nil, err
	}
	return FromScript(name, src, s)
}

// FromScript is FromScenario of a scenario already parsed (s, from src):
// its runs call s.Yield.
func FromScript(name, src string, s *scenario.Script) (*Player, error) {
	// Every variant runs traced, its events kept and described only when
	// shown (SetEventText off); each checks its expects.
	var runs []*scenario.Runner
	for v := range scenario.Variants(s) {
		r, err := scenario.NewVariantRunner(s, true, v)
		if err == nil {
			// Compact chunks: about 14 bytes an event, not 48 (a 3M-event
			// run keeps 40 MB, not 140); a seek decodes a chunk of 4096
			// events in tens of microseconds.
			r.Log().SetStorage(trace.Storage{Compact: true})
			r.SetBudget(scenario.PlayerBudget)
			r.SetEventText(false)
			_, err = r.RunAll()
		}
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	r, alts := runs[0], runs[1:]
	rels := map[uint32]string{}
	for i := uint32(0); ; i++ {
		n := uint32(16384) + i
		name := r.RelName(n)
		if name == fmt.Sprint(n) {
			break
		}
		rels[n] = name
	}
	// One pane plays the run's log itself (however it keeps its events);
	// side by side, each pane plays a padded copy of its run's.
	var evs trace.Events = r.Log()
	title, prose := scenarioProse(src)
	if title == "" {
		title = name
	}
	p := &Player{Name: name, Title: title, Steps: []lessons.Step{{Title: title, Prose: prose}},
		StepStart: []int{0}, StepEnd: []int{evs.Len()}, Backends: r.BackendNames(), Variant: r.Variant(), Config: r.Config()}
	if len(alts) > 0 {
		main := r.Log().Events()
		runs := []run{{main, []int{0}, []int{len(main)}}}
		for _, a := range alts {
			aev := a.Log().Events()
			runs = append(runs, run{aev, []int{0}, []int{len(aev)}})
		}
		p.sources = runs
		padded, start, end := AlignN(runs)
		evs, p.StepStart, p.StepEnd = trace.Slice(padded[0]), start, end
		for i, a := range alts {
			pane := trace.Slice(padded[i+1])
			p.Alts = append(p.Alts, newAlt(a.Variant(), timeline.New(pane, view.New(a.Pool().NBuffers, rels, a.BackendNames()), timeline.DefaultKeyframeEvery),
				mech.Run{Runner: a, Events: pane, Backends: a.BackendNames()}))
		}
	}
	p.init(evs, r.Pool().NBuffers, rels)
	p.openTracks(mech.Run{Runner: r, Events: evs, Backends: p.Backends})
	return p, nil
}

func (p *Player) init(events trace.Events, nbuffers int, rels map[uint32]string) {
	p.rels = rels
	initial := view.New(nbuffers, rels, p.Backends)
	p.TL = timeline.New(events, initial, timeline.DefaultKeyframeEvery)
	p.TL.SetMarks(p.StepStart)
	p.answers = make([]int, len(p.Steps))
	for i := range p.answers {
		p.answers[i] = -1
	}
	p.revealed = make([]bool, len(p.Steps))
	p.opTarget = -1
	p.autoSlow = true
	p.placeStops()
	p.GotoStep(0)
}

// Step is the current step index.
func (p *Player) Step() int { return p.step }

// Pos is the current event position (events applied).
func (p *Player) Pos() int { return p.TL.Pos() }

// Len is the number of events.
func (p *Player) Len() int { return p.TL.Len() }

// View is the current view of the pool.
func (p *Player) View() *view.Pool { return p.TL.Current() }

// Question returns the current step's question once it is asked: at its
// stop (the moment it is about: its at:) or past it, or once answered;
// nil before, and for a step without one. StepQuestion is the step's
// question wherever the player is.
func (p *Player) Question() *lessons.Question {
	q := p.Steps[p.step].Predict
	if q == nil || !p.revealed[p.step] && (p.qPos[p.step] < 0 || p.TL.Pos() < p.qPos[p.step]) {
		return nil
	}
	return q
}

// StepQuestion is the current step's question (nil without one), asked or
// not yet.
func (p *Player) StepQuestion() *lessons.Question { return p.Steps[p.step].Predict }

// QuestionPos is the position where step k's question is asked, just
// before its moment's event (the step's start for a question at: none);
// ok is false when the step has none.
func (p *Player) QuestionPos(k int) (pos int, ok bool) {
	return p.qPos[k], p.qPos[k] >= 0
}

// Answered returns the choice made for the current step's question (-1 if
// none) and whether its explanation is revealed.
func (p *Player) Answered() (choice int, revealed bool) {
	return p.answers[p.step], p.revealed[p.step]
}

// Gated reports whether forward moves are blocked by an unanswered
// question: the player is at the stop where the current step's question is
// asked.
func (p *Player) Gated() bool {
	return p.Steps[p.step].Predict != nil && !p.revealed[p.step] && p.TL.Pos() == p.qPos[p.step]
}

// Answer records a guess for the current step's question and reveals the
// explanation. It returns whether the guess was right.
func (p *Player) Answer(choice int) (bool, error) {
	q := p.StepQuestion()
	if q == nil {
		return false, fmt.Errorf("step %d has no question", p.step)
	}
	if choice < 0 || choice >= len(q.Choices) {
		return false, fmt.Errorf("choice %d out of range 1..%d", choice+1, len(q.Choices))
	}
	p.answers[p.step] = choice
	p.revealed[p.step] = true
	return choice == q.Answer, nil
}

// Hold records a guess for the current step's question without revealing
// the explanation (a class: the teacher reveals, for everyone at once).
// The question stays open and the player gated; a later Hold replaces the
// guess, Reveal shows the explanation with it.
func (p *Player) Hold(choice int) error {
	q := p.StepQuestion()
	if q == nil {
		return fmt.Errorf("step %d has no question", p.step)
	}
	if choice < 0 || choice >= len(q.Choices) {
		return fmt.Errorf("choice %d out of range 1..%d", choice+1, len(q.Choices))
	}
	p.answers[p.step] = choice
	return nil
}

// Reask forgets the current step's guess and hides its explanation: the
// question is open again (a class's second round, after discussion).
func (p *Player) Reask() {
	if p.StepQuestion() != nil {
		p.answers[p.step], p.revealed[p.step] = -1, false
	}
}

// Reveal shows the explanation without a guess (skips the question).
func (p *Player) Reveal() {
	if p.StepQuestion() != nil {
		p.revealed[p.step] = true
	}
}

// GotoStep moves to the start of step k (clamped).
func (p *Player) GotoStep(k int) {
	k = max(0, min(len(p.Steps)-1, k))
	p.step = k
	p.TL.Seek(p.StepStart[k])
	p.pause()
}

// NextStep moves to the start of the next step (not gated: the question of
// the step left behind stays unanswered).
func (p *Player) NextStep() bool {
	if p.step+1 >= len(p.Steps) {
		if p.TL.Pos() < p.StepEnd[p.step] && !p.Gated() {
			p.TL.Seek(p.StepEnd[p.step])
			return true
		}
		return false
	}
	p.GotoStep(p.step + 1)
	return true
}

// PrevStep moves to the start of the current step, or of the previous one
// when already there.
func (p *Player) PrevStep() {
	if p.TL.Pos() > p.StepStart[p.step] {
		p.GotoStep(p.step)
		return
	}
	p.GotoStep(p.step - 1)
}

// Forward moves n events forward (a user's move: gated), entering the next
// step when the current one's events are done, and stopping at a stop it
// reaches (from a stop, the first move applies the stop's moment). It
// returns how many moves were made.
func (p *Player) Forward(n int) int {
	done := 0
	for done < n {
		if p.Gated() {
			break
		}
		if p.TL.Pos() < p.StepEnd[p.step] {
			p.TL.StepForward()
		} else if p.step+1 < len(p.Steps) {
			p.step++
			p.TL.Seek(p.StepStart[p.step])
		} else {
			break
		}
		done++
		if _, ok := p.stopAt(p.TL.Pos()); ok {
			break
		}
	}
	return done
}

// Back moves n events back, returning to the previous step's end when the
// current step's start is passed.
func (p *Player) Back(n int) int {
	done := 0
	for ; done < n; done++ {
		if p.TL.Pos() > p.StepStart[p.step] {
			p.TL.StepBack()
			continue
		}
		if p.step == 0 {
			break
		}
		p.step--
		p.TL.Seek(p.StepEnd[p.step])
	}
	return done
}

// Seek moves to event position i (clamped), choosing the step that holds
// it (the latest step that starts at or before i and has not ended before
// it). Not gated.
func (p *Player) Seek(i int) {
	i = max(0, min(p.TL.Len(), i))
	k := 0
	for s := range p.Steps {
		if p.StepStart[s] <= i && (i <= p.StepEnd[s] || s == len(p.Steps)-1) {
			k = s
			if i < p.StepEnd[s] {
				break
			}
		}
	}
	p.step = k
	p.TL.Seek(i)
	p.pause()
}

// Start and End jump to the first and last state.
func (p *Player) Start() { p.GotoStep(0) }

// End jumps to the end of the last step (not gated).
func (p *Player) End() {
	p.step = len(p.Steps) - 1
	p.TL.Seek(p.StepEnd[p.step])
	p.pause()
}

// Playing reports whether the player advances on Tick.
func (p *Player) Playing() bool { return p.playing }

// Toggle starts or stops playing. Starting at the end of a step enters the
// next one; starting at a stop applies its moment's event first (going on
// from it), unless its question is still to be answered.
func (p *Player) Toggle() {
	if p.playing {
		p.playing = false
		return
	}
	if p.TL.Pos() >= p.StepEnd[p.step] {
		if p.step+1 >= len(p.Steps) {
			return
		}
		p.Forward(1)
	} else if _, ok := p.stopAt(p.TL.Pos()); ok && !p.Gated() {
		p.TL.StepForward()
	}
	p.playing = true
	p.opTarget = -1
	p.budget = 0
}

// ToOpEnd plays to the end of the current operation (of the backend that
// performed the current event), within the current step.
func (p *Player) ToOpEnd() {
	if p.Gated() {
		return
	}
	if p.TL.Pos() >= p.StepEnd[p.step] {
		p.Forward(1)
	}
	t := p.TL.OpEnd()
	p.opTarget = min(t, p.StepEnd[p.step])
	p.playing, p.budget = true, 0
}

// Faster and Slower change the speed (one event a second to 64×: the
// timeline's speeds).
func (p *Player) Faster() { p.TL.Faster() }

// Slower lowers the speed one step (about half as fast).
func (p *Player) Slower() { p.TL.Slower() }

// SpeedLabel is "1/s" … "30/s", "1×" … "64×".
func (p *Player) SpeedLabel() string { return p.TL.SpeedLabel() }

// Tick advances a playing player by one frame's worth of events, at the
// speed, slower near key moments while auto-slow is on (SpeedAt). Playing
// stops at the end of the step, at a stop (just before its moment's
// event), at a gated question, or at the target of ToOpEnd. It returns the
// number of events applied.
func (p *Player) Tick() int {
	if !p.playing {
		return 0
	}
	pos := p.TL.Pos()
	stop := p.StepEnd[p.step]
	if p.opTarget >= 0 {
		stop = min(stop, p.opTarget)
	}
	if s, ok := p.nextStop(pos); ok {
		stop = min(stop, s.Pos)
	}
	if p.Gated() || pos >= stop {
		p.pause()
		return 0
	}
	p.budget += unitsPerSecond / timeline.TicksPerSecond
	target := pos
	for target < stop {
		cost := unitsPerSecond / p.SpeedAt(target)
		if p.budget < cost {
			break
		}
		p.budget -= cost
		target++
	}
	p.TL.Seek(target)
	if target >= stop {
		p.pause()
	}
	return target - pos
}

// pause stops playing and forgets a ToOpEnd target and the time owed.
func (p *Player) pause() {
	p.playing, p.opTarget, p.budget = false, -1, 0
}

// Counters of the current view.
func (p *Player) Counters() view.Counters { return p.TL.Current().Counters() }

// scenarioProse turns a scenario's leading comment block into a title (its
// first line) and paragraphs (the rest, split at blank comment lines).
func scenarioProse(src string) (string, []lessons.Block) {
	var title string
	var blocks []lessons.Block
	var para []string
	flush := func() {
		if len(para) > 0 {
			blocks = append(blocks, lessons.Block{Kind: lessons.Paragraph, Spans: []lessons.Span{{Text: strings.Join(para, " ")}}})
			para = nil
		}
	}
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "#") {
			break
		}
		text := strings.TrimSpace(strings.TrimPrefix(line, "#"))
		switch {
		case title == "":
			title = text
		case text == "":
			flush()
		default:
			para = append(para, text)
		}
	}
	flush()
	return title, blocks
}

// ActorName names an event's actor as the scenario does (its backends'
// names; PostgreSQL 18's I/O workers and kernel in words, scenario's
// ProcessName), for the engine packages' DescribeWith; other actors (the
// system, an actor past the scenario's backends) get trace.ActorName.
func (p *Player) ActorName(a trace.Actor) string {
	if int(a) < len(p.Backends) && p.Backends[a] != "" {
		return p.Backends[a]
	}
	if name, ok := scenario.ProcessName(a); ok {
		return name
	}
	return trace.ActorName(a)
}
