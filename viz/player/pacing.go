package player

import (
	"fmt"
	"math"

	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/timeline"
)

// Pacing names how the panes of a side-by-side scene are lined up: by
// events ("events": one event per pane per position, a pane that finishes
// a step early idles) or by time ("time": each event placed at the time
// its pane would have reached it, from a cost per event such as the
// native times fast mode measured; positions are then quanta of time).
func (p *Player) Pacing() string {
	if p.pacing == "" {
		return "events"
	}
	return p.pacing
}

// PaceByEvents lines the panes up event by event (the default).
func (p *Player) PaceByEvents() {
	if len(p.sources) == 0 {
		return
	}
	padded, start, end := AlignN(p.sources)
	p.realign(padded, start, end)
	p.pacing = "events"
}

// MaxTimeSlots bounds the positions of a time-paced scene: the quantum
// grows until the slowest pane fits.
const MaxTimeSlots = 1 << 20

// PaceByCost lines the panes up by time: cost(pane, e) is how long event
// e of that pane takes (any unit, > 0), and every position is quantum of
// it. The quantum is raised if the scene would exceed MaxTimeSlots.
func (p *Player) PaceByCost(cost func(pane int, e trace.Event) float64, quantum float64) error {
	if len(p.sources) == 0 {
		return fmt.Errorf("pacing by time needs several panes")
	}
	if !(quantum > 0) || math.IsInf(quantum, 0) {
		return fmt.Errorf("pacing by time: quantum %v must be positive", quantum)
	}
	padded, start, end, err := AlignCost(p.sources, cost, quantum)
	if err != nil {
		return err
	}
	p.realign(padded, start, end)
	p.pacing = "time"
	return nil
}

// realign installs new padded logs for the panes, keeping the step, the
// answers and the relative position within the step.
func (p *Player) realign(padded [][]trace.Event, start, end []int) {
	k := p.step
	frac := 0.0
	if n := p.StepEnd[k] - p.StepStart[k]; n > 0 {
		frac = float64(p.TL.Pos()-p.StepStart[k]) / float64(n)
	}
	mk := func(evs []trace.Event, v *view.Pool) *timeline.Timeline {
		return timeline.New(trace.Slice(evs), v, timeline.DefaultKeyframeEvery)
	}
	p.TL = mk(padded[0], p.TL.Initial())
	p.TL.SetMarks(start)
	for i := range p.Alts {
		p.Alts[i].TL = mk(padded[i+1], p.Alts[i].TL.Initial())
	}
	p.StepStart, p.StepEnd = start, end
	p.placeStops()
	p.TL.Seek(start[k] + int(frac*float64(end[k]-start[k])))
	p.pause()
}

// AlignCost pads runs of the same steps so that each event sits at the
// time its run reaches it: in every segment (the part before the first
// step, then each step), event j of run i is placed at position
// floor(T/quantum), T being the cost of the run's events before it in the
// segment (and after the previous event's position); idle events
// (trace.KNone, system actor) fill the gaps and the segment ends when its
// slowest run does. Events are renumbered as by AlignN.
func AlignCost(runs []run, cost func(pane int, e trace.Event) float64, quantum float64) (padded [][]trace.Event, start, end []int, err error) {
	total := 0.0
	for i, r := range runs {
		t := 0.0
		for _, e := range r.events {
			c := cost(i, e)
			if !(c >= 0) || math.IsInf(c, 0) {
				return nil, nil, nil, fmt.Errorf("pacing by time: event cost %v is not a finite non-negative number", c)
			}
			t += c
		}
		total = max(total, t)
	}
	for total/quantum+float64(maxLen(runs)) > MaxTimeSlots {
		quantum *= 2
	}
	padded = make([][]trace.Event, len(runs))
	seg := func(lo, hi func(r run) int) {
		// Each run's events at their slots, relative to the segment start.
		slots := make([][]int, len(runs))
		n := 0
		for i, r := range runs {
			t, last := 0.0, -1
			for _, e := range r.events[lo(r):hi(r)] {
				s := max(last+1, int(t/quantum))
				slots[i] = append(slots[i], s)
				last = s
				t += cost(i, e)
			}
			n = max(n, last+1, int(math.Ceil(t/quantum)))
		}
		for i, r := range runs {
			evs := r.events[lo(r):hi(r)]
			out := padded[i]
			next := 0
			for j, e := range evs {
				for ; next < slots[i][j]; next++ {
					out = append(out, trace.Event{Actor: trace.System, Kind: trace.KNone})
				}
				out = append(out, e)
				next++
			}
			for ; next < n; next++ {
				out = append(out, trace.Event{Actor: trace.System, Kind: trace.KNone})
			}
			padded[i] = out
		}
	}
	start, end = eachSegment(runs, padded, seg)
	return padded, start, end, nil
}

func maxLen(runs []run) int {
	n := 0
	for _, r := range runs {
		n = max(n, len(r.events))
	}
	return n
}
