package player

import (
	"slices"
	"sort"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/viz/timeline"
)

// Stop is a key moment the player stops at, in a lesson: it holds the
// position Pos, where pane Pane's next event is the moment's (every pane
// is at Pos). Question says that the step's question is asked there.
type Stop struct {
	Step, Pos, Pane int
	Moment          trace.Moment
	Question        bool
}

// Stops are the lesson's stops in the order the player reaches them (none
// for a bare scenario).
func (p *Player) Stops() []Stop { return append([]Stop(nil), p.stops...) }

// placeStops puts the stops Play found (each an event of a pane's own run)
// on the timeline's positions, where the panes are padded (a pane's
// Offset-th event of a step is its Offset-th event that is not padding
// from the step's start), and records where each step's question is
// asked: at its stop, or at the step's start for a question at: none.
func (p *Player) placeStops() {
	p.stops = p.stops[:0]
	p.qPos = make([]int, len(p.Steps))
	for k, st := range p.Steps {
		p.qPos[k] = -1
		if st.Predict != nil && st.Predict.At == nil {
			p.qPos[k] = p.StepStart[k]
		}
	}
	for _, sa := range p.specs {
		evs := p.paneEvents(sa.Pane)
		pos, n := -1, 0
		for j := p.StepStart[sa.Step]; j < p.StepEnd[sa.Step]; j++ {
			if idle(evs.At(j)) {
				continue
			}
			if n == sa.Offset {
				pos = j
				break
			}
			n++
		}
		if pos < 0 {
			panic("player: a stop of lesson " + p.Name + " is past its step's events") // Play found it there
		}
		if sa.Question {
			p.qPos[sa.Step] = pos
		}
		if i := len(p.stops) - 1; i >= 0 && p.stops[i].Pos == pos {
			// Two stops at one event (a named stop and the question's):
			// one stop, asking the question.
			p.stops[i].Question = p.stops[i].Question || sa.Question
			continue
		}
		p.stops = append(p.stops, Stop{Step: sa.Step, Pos: pos, Pane: sa.Pane, Moment: sa.Stop.Moment, Question: sa.Question})
	}
	sort.SliceStable(p.stops, func(i, j int) bool { return p.stops[i].Pos < p.stops[j].Pos })
	p.moments, p.momentsOK = nil, false
}

// idle reports a padding event (AlignN's, AlignCost's).
func idle(e trace.Event) bool { return e.Kind == trace.KNone && e.Actor == trace.System }

// stopAt is the current step's stop at position pos, if there is one.
func (p *Player) stopAt(pos int) (Stop, bool) {
	i := sort.Search(len(p.stops), func(i int) bool { return p.stops[i].Pos >= pos })
	for ; i < len(p.stops) && p.stops[i].Pos == pos; i++ {
		if p.stops[i].Step == p.step {
			return p.stops[i], true
		}
	}
	return Stop{}, false
}

// nextStop is the current step's first stop after position pos.
func (p *Player) nextStop(pos int) (Stop, bool) {
	i := sort.Search(len(p.stops), func(i int) bool { return p.stops[i].Pos > pos })
	for ; i < len(p.stops); i++ {
		if s := p.stops[i]; s.Step == p.step {
			return s, true
		}
	}
	return Stop{}, false
}

// AtStop reports whether the player is paused at a stop of the current
// step, just before its moment's event, and which.
func (p *Player) AtStop() (Stop, bool) {
	if p.playing {
		return Stop{}, false
	}
	return p.stopAt(p.TL.Pos())
}

// StopCaption is the caption of the moment the player is stopped before
// (the event next in the stop's pane); "" when not at a stop.
func (p *Player) StopCaption() string {
	s, ok := p.AtStop()
	if !ok {
		return ""
	}
	return p.CaptionAt(s.Pane, s.Pos)
}

// Continue goes on from a stop: it applies the moment's event and plays
// on. It reports false, doing nothing, when the player is not at a stop or
// the stop's question is not answered yet.
func (p *Player) Continue() bool {
	if _, ok := p.AtStop(); !ok || p.Gated() {
		return false
	}
	p.Toggle()
	return true
}

// --- Auto-slow ---

// unitsPerSecond is the unit of Tick's time: every speed (in events a
// second, timeline.Speeds) divides it, so an event costs a whole number of
// units at any speed and playing is exact.
const unitsPerSecond = 3840

// slowLevels is how many speed steps (each about half) auto-slow takes off
// an event d events from a key moment: the moment's own event three (at
// 1×: 8 events a second), its neighbours two (15/s), the events two away
// one (30/s); the others play at the speed.
var slowLevels = [...]int{3, 2, 1}

// speeds are the timeline's speeds, slowest first.
var speeds = timeline.Speeds()

// AutoSlow reports whether playing slows down near key moments (on by
// default).
func (p *Player) AutoSlow() bool { return p.autoSlow }

// SetAutoSlow turns slowing down near key moments on or off.
func (p *Player) SetAutoSlow(on bool) { p.autoSlow = on }

// SpeedAt is the speed, in events a second, at which playing applies the
// event at position pos: the timeline's speed, or with auto-slow a few
// steps slower when a pane's key moment is at most two events away (the
// moment's own event slowest), never below one event a second.
func (p *Player) SpeedAt(pos int) int {
	base := p.TL.EventsPerSecond()
	if !p.autoSlow {
		return base
	}
	d := p.momentDistance(pos, len(slowLevels)-1)
	if d < 0 {
		return base
	}
	i := sort.SearchInts(speeds, base)
	return speeds[max(0, i-slowLevels[d])]
}

// momentDistance is how far position pos is from the nearest key moment
// of any pane (0: the event at pos is one), or -1 when none is within
// limit events.
func (p *Player) momentDistance(pos, limit int) int {
	ms := p.momentPositions()
	i := sort.SearchInts(ms, pos)
	d := -1
	if i < len(ms) && ms[i]-pos <= limit {
		d = ms[i] - pos
	}
	if i > 0 && pos-ms[i-1] <= limit && (d < 0 || pos-ms[i-1] < d) {
		d = pos - ms[i-1]
	}
	return d
}

// momentPositions are the positions of every pane's key moments, sorted,
// found once (every event of every pane is asked its moment).
func (p *Player) momentPositions() []int {
	if p.momentsOK {
		return p.moments
	}
	var ms []int
	for i := 0; i < p.Panes(); i++ {
		evs := p.paneEvents(i)
		for j := range evs.Len() {
			if e := evs.At(j); !idle(e) && scenario.MomentOf(e) != trace.MomentNone {
				ms = append(ms, j)
			}
		}
	}
	sort.Ints(ms)
	p.moments = slices.Compact(ms)
	p.momentsOK = true
	return p.moments
}
