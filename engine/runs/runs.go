package runs

import "iter"

// Of yields the maximal runs of the indexes 0..n−1, each as its first and
// last index (i ≤ j), in order: index k (k ≥ 1) continues the run before
// it when cont(k). Every index is in exactly one run; n ≤ 0 yields none.
func Of(n int, cont func(k int) bool) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < n; {
			j := i
			for j+1 < n && cont(j+1) {
				j++
			}
			if !yield(i, j) {
				return
			}
			i = j + 1
		}
	}
}
