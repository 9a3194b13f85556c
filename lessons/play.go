package lessons

import (
	"bufferlab/engine/bufmgr"
	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// Played is a lesson run headless from start to end: the engine's final
// state, the whole event log and where each step's events are in it. A
// player builds its view (and its timeline) from these.
type Played struct {
	Lesson *Lesson
	// Runner is the scenario runner after the last statement (or after the
	// failing one); its Pool is the engine's final state.
	Runner *scenario.Runner
	// Events is the whole event log; it must not be modified.
	Events []trace.Event
	// NBuffers is the size of the pool.
	NBuffers int
	// RelNames maps a relation number (BufferTag's relNode) to its name in
	// the lesson.
	RelNames map[uint32]string
	// Backends names the actors: index 0 is the system ("sys"), then the
	// backends in the order the lesson declares them (actor 1, 2, …).
	Backends []string
	// StepStart[i] is the index in Events of step i's first event and
	// StepEnd[i] one past its last: step i's events are
	// Events[StepStart[i]:StepEnd[i]], empty for a step without a scenario.
	// Events before StepStart[0] (if any) belong to no step.
	StepStart, StepEnd []int
	// Outputs[i] holds what step i's statements printed, except runs (whose
	// text is the events themselves): the pictures of show statements.
	Outputs [][]scenario.Output
	// Variant is the variant this run used (its pins, or the strategy its
	// drops take).
	Variant scenario.Variant
	// Alts are the same lesson run with each further variant when the
	// lesson's config names several (config: pins=atomic,spinlock or
	// drop=scan,lookup,dlist), for the side-by-side scene; nil otherwise.
	Alts []*Played
	// Stops are the key moments the player stops at, in step order, then
	// in the order of their events in the step: every stop of the steps'
	// ```stops blocks and every question's at: moment, found in the events
	// (of the pane each names). Set on the first variant's Played only.
	Stops []StopAt
}

// StepEvents returns step i's events.
func (p *Played) StepEvents(i int) []trace.Event {
	return p.Events[p.StepStart[i]:p.StepEnd[i]]
}

// Play runs a lesson headless, statement by statement, with a traced
// scenario runner, recording which events each step produced and checking
// every expect statement.
//
// It stops at the first error: a failed expect (a *scenario.Error with Check
// set) or a scenario error at run time (a *scenario.Error, Check unset), both
// positioned in the lesson file. Play then still returns the Played so far:
// the steps after the failing one have empty event ranges at its end.
//
// A lesson whose config names several variants is played once per
// variant; the further runs are Played.Alts. Their errors name the
// variant.
//
// Last it finds every stop and every question's moment in the events (see
// Stop): a moment that does not occur in its step (in its pane), a backend
// the lesson does not declare, a question at: none in a step that runs
// events, are errors positioned at the stop.
func Play(l *Lesson) (*Played, error) {
	p, err := playVariant(l, 0)
	for v := 1; err == nil && v < len(scenario.Variants(l.Script)); v++ {
		var alt *Played
		alt, err = playVariant(l, v)
		p.Alts = append(p.Alts, alt)
	}
	if err == nil {
		p.Stops, err = findStops(l, p)
	}
	return p, err
}

func playVariant(l *Lesson, variant int) (*Played, error) {
	r, err := scenario.NewVariantRunner(l.Script, true, variant)
	if err != nil {
		return nil, errorf(l.File, 1, 1, "%v", err)
	}
	r.SetEventText(false) // a run's events are kept, never printed
	n := len(l.Steps)
	p := &Played{Lesson: l, Runner: r, NBuffers: r.Pool().NBuffers, RelNames: map[uint32]string{}, Variant: r.Variant(),
		StepStart: make([]int, n), StepEnd: make([]int, n), Outputs: make([][]scenario.Output, n)}
	stmts := l.Script.Stmts
	next := 0 // index of the next statement in stmts
	rels := 0
	// exec runs the statements that start before line `before`.
	exec := func(step int, before int) error {
		for next < len(stmts) && stmts[next].At().Line < before {
			st := stmts[next]
			next++
			o, err := r.Step()
			if rs, ok := st.(*scenario.RelationStmt); ok {
				for _, name := range rs.Names() {
					num := uint32(bufmgr.FirstNormalObjectId + rels)
					rels++
					if got := r.RelName(num); got != name {
						return errorf(l.File, rs.Pos.Line, rs.Pos.Col, "internal: relation %s has number %d, but the runner names it %s", name, num, got)
					}
					p.RelNames[num] = name
				}
			}
			if step >= 0 && o.Text != "" {
				if _, isRun := st.(*scenario.RunStmt); !isRun {
					p.Outputs[step] = append(p.Outputs[step], o)
				}
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	var runErr error
	if n > 0 {
		runErr = exec(-1, l.Steps[0].Line)
	}
	for i := 0; i < n; i++ {
		p.StepStart[i] = r.Log().Len()
		if runErr == nil {
			end := int(^uint(0) >> 1)
			if i+1 < n {
				end = l.Steps[i+1].Line
			}
			runErr = exec(i, end)
		}
		p.StepEnd[i] = r.Log().Len()
	}
	p.Events = r.Log().Events()
	p.Backends = r.BackendNames()
	return p, runErr
}
