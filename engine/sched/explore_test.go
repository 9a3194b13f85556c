package sched

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/trace"
)

// yieldOrder runs, under p, one backend per name (actors 1, 2, ...), each
// yielding n times (body), and returns the order in which they resumed.
func yieldOrder(p Policy, names []string, n int) (string, error) {
	var order []string
	s := New(p)
	for i, name := range names {
		s.Spawn(trace.Actor(i+1), name, body(name, n, &order))
	}
	if err := s.Run(); err != nil {
		return "", err
	}
	return strings.Join(order, ""), nil
}

func TestExploreTwoByTwo(t *testing.T) {
	outs, runs, err := Explore(100, func(p Policy) (string, error) { return yieldOrder(p, []string{"A", "B"}, 2) })
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"AABB", "ABAB", "ABBA", "BAAB", "BABA", "BBAA"}
	if runs != 6 || fmt.Sprint(outs) != fmt.Sprint(want) {
		t.Fatalf("runs %d outcomes %v, want 6 runs %v", runs, outs, want)
	}
}

func TestExploreThreeBackends(t *testing.T) {
	// 3 backends × 2 yields: 6!/(2!2!2!) = 90 schedules, all distinct.
	outs, runs, err := Explore(1000, func(p Policy) (string, error) { return yieldOrder(p, []string{"A", "B", "C"}, 2) })
	if err != nil || runs != 90 || len(outs) != 90 {
		t.Fatalf("runs %d outcomes %d err %v, want 90 and 90", runs, len(outs), err)
	}
}

func TestExploreLimit(t *testing.T) {
	_, runs, err := Explore(5, func(p Policy) (string, error) { return yieldOrder(p, []string{"A", "B"}, 2) })
	if !errors.Is(err, ErrExploreLimit) || runs != 5 {
		t.Fatalf("runs %d err %v, want 5 and ErrExploreLimit", runs, err)
	}
}

// A spinning backend is explored once per step of the holder, not forever.
func TestExploreSpinIsBounded(t *testing.T) {
	outs, runs, err := Explore(1000, func(p Policy) (string, error) {
		locked := false
		var order []string
		s := New(p)
		s.Spawn(1, "A", func(y Yield) error {
			y(Point{})
			locked = true
			order = append(order, "A+")
			y(Point{})
			locked = false
			order = append(order, "A-")
			return nil
		})
		s.Spawn(2, "B", func(y Yield) error {
			y(Point{})
			for locked {
				order = append(order, "spin")
				y(Point{Wait: true})
			}
			order = append(order, "B")
			return nil
		})
		if err := s.Run(); err != nil {
			return "", err
		}
		return strings.Join(order, " "), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "[A+ A- B A+ spin A- B A+ spin spin A- B B A+ A-]"
	if fmt.Sprint(outs) != want {
		t.Fatalf("outcomes %v (runs %d), want %s", outs, runs, want)
	}
}
