package runs

import (
	"fmt"
	"testing"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		xs   []int
		want string
	}{
		{nil, ""},
		{[]int{7}, "[0 0]"},
		{[]int{1, 2, 3, 5, 6, 9}, "[0 2][3 4][5 5]"},
		{[]int{4, 3, 2}, "[0 0][1 1][2 2]"},
	} {
		got := ""
		for i, j := range Of(len(c.xs), func(k int) bool { return c.xs[k] == c.xs[k-1]+1 }) {
			got += fmt.Sprint([]int{i, j})
		}
		if got != c.want {
			t.Errorf("runs of consecutive numbers in %v: %s, want %s", c.xs, got, c.want)
		}
	}
}

// A loop that breaks stops the runs.
func TestOfStops(t *testing.T) {
	n := 0
	for range Of(10, func(int) bool { return false }) {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Fatalf("%d runs before the break, want 3", n)
	}
}
