package runs_test

import (
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/runs"
)

// Consecutive numbers as ranges, and equal words run-length encoded.
func ExampleOf() {
	ns := []int{1, 2, 3, 5, 6, 9}
	var ranges []string
	for i, j := range runs.Of(len(ns), func(k int) bool { return ns[k] == ns[k-1]+1 }) {
		ranges = append(ranges, fmt.Sprintf("%d..%d", ns[i], ns[j]))
	}
	fmt.Println(strings.Join(ranges, " "))
	ws := []string{"A", "A", "B", "A", "A", "A"}
	var counted []string
	for i, j := range runs.Of(len(ws), func(k int) bool { return ws[k] == ws[k-1] }) {
		counted = append(counted, fmt.Sprintf("%s*%d", ws[i], j-i+1))
	}
	fmt.Println(strings.Join(counted, " "))
	for i, j := range runs.Of(0, nil) {
		fmt.Println("a run of nothing:", i, j)
	}
	// Output:
	// 1..3 5..6 9..9
	// A*2 B*1 A*3
}

// A loop that breaks stops the runs.
func TestOfStops(t *testing.T) {
	n := 0
	for range runs.Of(10, func(int) bool { return false }) {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Fatalf("%d runs before the break, want 3", n)
	}
}
