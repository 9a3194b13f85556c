package layout

// Balance shares entries of heights hs, gap apart, out to at most cols
// columns in order (down the first column, then the next) as evenly as
// it can: it finds, by bisection, the least column height that greedy
// filling keeps to cols columns, and returns each entry's column. An
// entry for which withNext is true (a section's title) moves to the next
// column with the entry after it rather than end a column (nil: none
// does). The help overlay and the legends use it.
func Balance(hs []float64, gap float64, cols int, withNext func(i int) bool) []int {
	fill := func(limit float64) ([]int, int) {
		at := make([]int, len(hs))
		c, cur := 0, 0.0
		for i, h := range hs {
			need := h
			if withNext != nil && withNext(i) && i+1 < len(hs) {
				need += gap + hs[i+1]
			}
			if cur > 0 && cur+gap+need > limit {
				c, cur = c+1, 0
			}
			at[i] = c
			if cur > 0 {
				cur += gap
			}
			cur += h
		}
		return at, c + 1
	}
	lo, hi := 0.0, 1.0 // hi: one column holds everything (1 px spare for rounding)
	for _, h := range hs {
		lo = max(lo, h)
		hi += h + gap
	}
	for range 40 {
		mid := (lo + hi) / 2
		if _, n := fill(mid); n <= cols {
			hi = mid
		} else {
			lo = mid
		}
	}
	at, _ := fill(hi)
	return at
}
