package lessons

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
)

// Stop names a key moment a player stops at, just before its event: a line
// of a step's ```stops block, or the at: line of its question.
//
//	MOMENT [BACKEND] [nth=N|nth=last] [pane=VARIANT]
//
// MOMENT is one of trace.MomentNames (victim, cas-fail, …); BACKEND, when
// given, is the backend whose event it must be; nth picks the N-th such
// event of the step (1, the default, is the first; last is the last);
// pane, in a lesson of several variants side by side, is the variant whose
// events are searched (by its name: spinlock, lookup, banks+hash), the
// first variant's when absent.
type Stop struct {
	// Line and Col are where the stop is written (errors point there).
	Line, Col int
	// Text is the stop as written.
	Text    string
	Moment  trace.Moment
	Backend string
	// Nth is 1 for the first matching event of the step, 2 for the
	// second, …, or Last.
	Nth  int
	Pane string
}

// Last is Stop.Nth for the last matching event of the step.
const Last = -1

// String is the stop in the lesson's syntax.
func (s *Stop) String() string {
	parts := []string{s.Moment.String()}
	if s.Backend != "" {
		parts = append(parts, s.Backend)
	}
	switch {
	case s.Nth == Last:
		parts = append(parts, "nth=last")
	case s.Nth > 1:
		parts = append(parts, fmt.Sprintf("nth=%d", s.Nth))
	}
	if s.Pane != "" {
		parts = append(parts, "pane="+s.Pane)
	}
	return strings.Join(parts, " ")
}

// parseStop reads one stop from text, which starts at file line ln,
// column col (1-based); what names the place in errors ("at:", "stops:").
func (p *parser) parseStop(text string, ln, col int, what string) (*Stop, error) {
	s := &Stop{Line: ln, Col: col, Text: strings.TrimSpace(text), Nth: 1}
	off := 0
	first := true
	for _, w := range strings.Fields(text) {
		i := strings.Index(text[off:], w) + off
		off = i + len(w)
		wcol := col + i
		if first {
			first = false
			m, ok := trace.ParseMoment(w)
			if !ok {
				return nil, p.errf(ln, wcol, "%s expected a moment (%s), found %q", what, trace.MomentNames(), w)
			}
			s.Col, s.Moment = wcol, m
			continue
		}
		k, v, isKey := strings.Cut(w, "=")
		switch {
		case isKey && k == "nth":
			if v == "last" {
				s.Nth = Last
				break
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, p.errf(ln, wcol+len("nth="), "%s nth: expected a number from 1 (the first) or last, found %q", what, v)
			}
			s.Nth = n
		case isKey && k == "pane":
			if v == "" {
				return nil, p.errf(ln, wcol+len("pane="), "%s pane: expected a variant's name, found nothing", what)
			}
			s.Pane = v
		case isKey:
			return nil, p.errf(ln, wcol, "%s expected a backend, nth=N or pane=VARIANT after the moment, found %q", what, w)
		case s.Backend != "":
			return nil, p.errf(ln, wcol, "%s expected one backend (%s is given), found %q as well", what, s.Backend, w)
		default:
			s.Backend = w
		}
	}
	if first {
		return nil, p.errf(ln, col, "%s expected a moment (%s), found nothing", what, trace.MomentNames())
	}
	return s, nil
}

// stops parses a ```stops block: one stop a line; blank lines and lines
// starting with # are skipped.
func (p *parser) stops(open, closing int) ([]Stop, error) {
	var out []Stop
	for ln := open + 1; ln < closing; ln++ {
		raw := p.lines[ln-1]
		t := strings.TrimSpace(raw)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		s, err := p.parseStop(raw, ln, 1, "stops:")
		if err != nil {
			return nil, err
		}
		out = append(out, *s)
	}
	if len(out) == 0 {
		return nil, p.errf(open, 1, "a ```stops block: expected one stop a line (MOMENT [BACKEND] [nth=N|nth=last] [pane=VARIANT]), found none")
	}
	return out, nil
}

// checkPanes reports a stop whose pane= names no variant of the lesson's
// config (after the scenario is parsed).
func (p *parser) checkPanes() error {
	vs := scenario.Variants(p.l.Script)
	var names []string
	for _, v := range vs {
		names = append(names, v.Name())
	}
	check := func(s *Stop, what string) error {
		if s == nil || s.Pane == "" {
			return nil
		}
		if len(vs) < 2 {
			return p.errf(s.Line, s.Col, "%s pane=%s: expected pane= only in a lesson whose config names several variants side by side", what, s.Pane)
		}
		if _, ok := paneIndex(vs, s.Pane); !ok {
			return p.errf(s.Line, s.Col, "%s pane=%s: expected one of the lesson's variants (%s)", what, s.Pane, strings.Join(names, ", "))
		}
		return nil
	}
	for i := range p.l.Steps {
		st := &p.l.Steps[i]
		if q := st.Predict; q != nil {
			if err := check(q.At, "at:"); err != nil {
				return err
			}
		}
		for k := range st.Stops {
			if err := check(&st.Stops[k], "stops:"); err != nil {
				return err
			}
		}
	}
	return nil
}

// paneIndex is the pane that runs the variant called name ("spinlock", or
// as the config writes it, "pins=spinlock").
func paneIndex(vs []scenario.Variant, name string) (int, bool) {
	for i, v := range vs {
		if v.Name() == name || v.String() == name {
			return i, true
		}
	}
	return 0, false
}

// StopAt is a stop found in a played lesson: the player holds the pane's
// position just before Event, the moment's event.
type StopAt struct {
	// Stop is the stop as written.
	Stop *Stop
	// Step is the step it belongs to; Pane the pane whose events hold the
	// moment (0 for the first variant, i for Played.Alts[i-1]).
	Step, Pane int
	// Event is the index of the moment's event in that pane's Events;
	// Offset is its index in the step's events (Event - StepStart).
	Event, Offset int
	// Question says that the step's question is asked here.
	Question bool
}

// findStops resolves every stop and question of the lesson against its
// played panes (p and p.Alts): each must occur in its step's events.
// Questions at: none must be in steps without events.
func findStops(l *Lesson, p *Played) ([]StopAt, error) {
	panes := append([]*Played{p}, p.Alts...)
	vs := scenario.Variants(l.Script)
	var out []StopAt
	for k := range l.Steps {
		st := &l.Steps[k]
		var specs []*Stop
		for i := range st.Stops {
			specs = append(specs, &st.Stops[i])
		}
		q := st.Predict
		if q != nil && q.At == nil {
			for _, pp := range panes {
				if n := pp.StepEnd[k] - pp.StepStart[k]; n > 0 {
					return nil, errorf(l.File, q.AtLine, q.AtCol, "at: none: step %d (%s) runs %d events: expected the moment the question is about (the step's: %s)", k+1, st.Title, n, momentsOf(pp, k))
				}
			}
		}
		if q != nil && q.At != nil {
			specs = append(specs, q.At)
		}
		for _, s := range specs {
			pane := 0
			if s.Pane != "" {
				pane, _ = paneIndex(vs, s.Pane)
			}
			pp := panes[pane]
			where := fmt.Sprintf("step %d (%s)", k+1, st.Title)
			if len(panes) > 1 {
				where += ", pane " + pp.Variant.Name()
			}
			if s.Backend != "" && !hasBackend(pp.Backends, s.Backend) {
				return nil, errorf(l.File, s.Line, s.Col, "%s: expected one of the lesson's backends (%s), found %q", s.Text, strings.Join(backendsOf(pp.Backends), ", "), s.Backend)
			}
			var hits []int
			for j := pp.StepStart[k]; j < pp.StepEnd[k]; j++ {
				e := pp.Events[j]
				if scenario.MomentOf(e) == s.Moment && (s.Backend == "" || pp.backendName(e.Actor) == s.Backend) {
					hits = append(hits, j)
				}
			}
			idx := s.Nth - 1
			if s.Nth == Last {
				idx = len(hits) - 1
			}
			if idx < 0 || idx >= len(hits) {
				found := fmt.Sprintf("%d such events", len(hits))
				if len(hits) == 0 {
					found = "none"
				}
				return nil, errorf(l.File, s.Line, s.Col, "%s: expected the moment in the events of %s, found %s (the step's moments: %s)", s.Text, where, found, momentsOf(pp, k))
			}
			j := hits[idx]
			out = append(out, StopAt{Stop: s, Step: k, Pane: pane, Event: j, Offset: j - pp.StepStart[k], Question: q != nil && s == q.At})
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Step != out[b].Step {
			return out[a].Step < out[b].Step
		}
		return out[a].Offset < out[b].Offset
	})
	return out, nil
}

func hasBackend(names []string, n string) bool {
	for _, b := range backendsOf(names) {
		if b == n {
			return true
		}
	}
	return false
}

// backendsOf is the backends of Played.Backends (without the system, its
// first entry).
func backendsOf(names []string) []string {
	if len(names) == 0 {
		return nil
	}
	return names[1:]
}

// backendName is the name the lesson gives actor a ("" for the system).
func (p *Played) backendName(a trace.Actor) string {
	if a == trace.System || int(a) >= len(p.Backends) {
		return ""
	}
	return p.Backends[a]
}

// momentsOf lists the moments of step k's events in p, with their counts
// ("lookup-miss ×3, victim ×3"), or says there are none.
func momentsOf(p *Played, k int) string {
	count := map[trace.Moment]int{}
	for _, e := range p.StepEvents(k) {
		if m := scenario.MomentOf(e); m != trace.MomentNone {
			count[m]++
		}
	}
	var parts []string
	for m := trace.Moment(1); int(m) < trace.NumMoments; m++ {
		if n := count[m]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s ×%d", m, n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
