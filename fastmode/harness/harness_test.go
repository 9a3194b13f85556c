package harness

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

func TestSummarise(t *testing.T) {
	s := Summarise([]float64{5, 1, 4, 2, 3, 6, 7, 8, 9, 10, 11})
	if s.Median != 6 || s.P10 != 2 || s.P90 != 10 || s.Samples != 11 {
		t.Fatalf("got %+v", s)
	}
	if !math.IsNaN(Summarise(nil).Median) {
		t.Fatal("empty: want NaN")
	}
}

var sink uint64

func TestMeasure(t *testing.T) {
	cfg := Quick
	cfg.Samples = 5
	s := Measure(cfg, func(n int) {
		x := sink
		for i := 0; i < n; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
		sink = x
	})
	if !(s.Median > 0) || s.P10 > s.Median || s.Median > s.P90 || s.Samples != 5 || s.Batch < 1 {
		t.Fatalf("got %+v", s)
	}
}

// MeasureErr returns the first error f returned, and still measures.
func TestMeasureErr(t *testing.T) {
	cfg := Quick
	cfg.Samples = 3
	calls := 0
	first, second := errors.New("first"), errors.New("second")
	s, err := MeasureErr(cfg, func(n int) error {
		calls++
		switch calls {
		case 2:
			return first
		case 3:
			return second
		}
		return nil
	})
	if err != first || s.Samples != 3 {
		t.Fatalf("MeasureErr = %+v, %v; want 3 samples and the first error", s, err)
	}
	if _, err := MeasureErr(cfg, func(int) error { return nil }); err != nil {
		t.Fatalf("MeasureErr of an f that never fails: %v", err)
	}
}

func TestProgressOffWhenNotTerminal(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b, "x", 3)
	p.Step("a")
	p.Done()
	if b.Len() != 0 || p != nil {
		t.Fatalf("drew %q on a buffer", b.String())
	}
}
