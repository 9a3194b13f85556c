package layout

import (
	"reflect"
	"testing"
)

// Balance fills columns in order to the least height that keeps to the
// columns; a title does not end a column.
func TestBalance(t *testing.T) {
	for _, c := range []struct {
		hs    []float64
		gap   float64
		cols  int
		title int // the entry that goes with the next (-1: none)
		want  []int
	}{
		{[]float64{10, 10, 10, 10}, 0, 2, -1, []int{0, 0, 1, 1}},
		{[]float64{10, 10, 10, 10}, 0, 1, -1, []int{0, 0, 0, 0}},
		{[]float64{30, 10, 10, 10}, 0, 2, -1, []int{0, 1, 1, 1}},
		{[]float64{10, 10, 10, 10, 10, 10}, 5, 3, -1, []int{0, 0, 1, 1, 2, 2}},
		// Without the rule the title (entry 2) would end column 0.
		{[]float64{10, 10, 5, 10, 10}, 0, 2, 2, []int{0, 0, 1, 1, 1}},
		{[]float64{10, 10, 5, 10, 10}, 0, 2, -1, []int{0, 0, 0, 1, 1}},
	} {
		var with func(int) bool
		if c.title >= 0 {
			with = func(i int) bool { return i == c.title }
		}
		if got := Balance(c.hs, c.gap, c.cols, with); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Balance(%v, gap %v, %d cols, title %d) = %v, want %v", c.hs, c.gap, c.cols, c.title, got, c.want)
		}
	}
}
