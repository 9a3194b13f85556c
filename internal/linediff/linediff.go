package linediff

import (
	"iter"
	"strings"
)

// Differing yields each line where a and b differ: its number from 1 and
// the two sides (a line one text lacks is ""), in order.
func Differing(a, b string) iter.Seq2[int, [2]string] {
	return func(yield func(int, [2]string) bool) {
		al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
		for i := range max(len(al), len(bl)) {
			var x, y string
			if i < len(al) {
				x = al[i]
			}
			if i < len(bl) {
				y = bl[i]
			}
			if x != y && !yield(i+1, [2]string{x, y}) {
				return
			}
		}
	}
}
