package sched

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrExploreLimit is returned by Explore when the scenario has more
// schedules than its bound.
var ErrExploreLimit = errors.New("exhaustive exploration: too many schedules")

// Explore runs a small scenario under every interleaving of its backends:
// a depth-first search over the scheduler's choice points. run must build
// a fresh engine and scheduler with the given policy (sched.New(p)), run it
// to the end and describe the result as an outcome string; Explore calls it
// once per schedule. It returns the distinct outcomes, sorted, and the
// number of runs.
//
// A choice point is a Pick with more than one candidate. The candidates are
// the live backends, less those that are waiting and have already retried
// since the last step that made progress (Proc.stale): resuming such a
// backend again changes nothing shared (it spins once more), so schedules
// that differ only by such useless retries are explored once. That is what
// keeps a spinning backend from making the tree infinite; every wait is
// still retried once after each step that could have released it.
//
// Each run replays the choices of the previous one up to its last choice
// point with an untried alternative, takes the next alternative there, and
// then takes the first candidate at every new choice point. More than
// maxRuns runs is an error wrapping ErrExploreLimit; an error from run is
// returned with the schedule (choice indexes) that produced it.
func Explore(maxRuns int, run func(p Policy) (outcome string, err error)) ([]string, int, error) {
	seen := map[string]bool{}
	var prefix []int
	runs := 0
	for {
		if runs >= maxRuns {
			return sortedKeys(seen), runs, fmt.Errorf("%w (more than %d)", ErrExploreLimit, maxRuns)
		}
		e := &explorer{prefix: prefix}
		out, err := run(e)
		runs++
		if err == nil && e.err != nil {
			err = e.err
		}
		if err != nil {
			return sortedKeys(seen), runs, fmt.Errorf("schedule %s: %w", e.describe(), err)
		}
		seen[out] = true
		// Backtrack: the deepest choice point with an untried alternative.
		i := len(e.choices) - 1
		for i >= 0 && e.choices[i].pick+1 >= e.choices[i].n {
			i--
		}
		if i < 0 {
			return sortedKeys(seen), runs, nil
		}
		prefix = make([]int, i+1)
		for j := 0; j < i; j++ {
			prefix[j] = e.choices[j].pick
		}
		prefix[i] = e.choices[i].pick + 1
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type choice struct{ n, pick int }

// explorer is the policy of one Explore run.
type explorer struct {
	prefix  []int
	choices []choice
	err     error
}

// Name implements Policy.
func (e *explorer) Name() string { return "explore" }

// Pick implements Policy.
func (e *explorer) Pick(live []*Proc, step int) (int, error) {
	var cand []int
	for i, p := range live {
		if !p.stale {
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 { // the scheduler reports the deadlock first
		cand = append(cand, 0)
	}
	if len(cand) == 1 {
		return cand[0], nil
	}
	pick := 0
	if k := len(e.choices); k < len(e.prefix) {
		pick = e.prefix[k]
		if pick >= len(cand) {
			// The replayed prefix met a different tree: the run is
			// not deterministic.
			e.err = fmt.Errorf("explore: replay diverged at choice %d (%d candidates, want %d)", k, len(cand), pick+1)
			return 0, e.err
		}
	}
	e.choices = append(e.choices, choice{n: len(cand), pick: pick})
	return cand[pick], nil
}

func (e *explorer) describe() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, c := range e.choices {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d/%d", c.pick, c.n)
	}
	b.WriteByte(']')
	return b.String()
}
