package drop

import (
	"math"
	"slices"
	"sort"
)

// DropCrossover finds where the lookup stops winning. ks and ratio (scan
// time / lookup time, > 1 while the lookup wins) are parallel, in any
// order. The ratio can only fall as the relation grows (k falls): the scan
// costs the same whatever the size, the lookup one probe more per block. So
// the measured ratios are first made monotone (MonotoneRatios), which
// pools a noisy point with its neighbours instead of letting it move the
// crossover on its own; the crossover lies after the last point where the
// lookup still wins on the monotone fit, and is interpolated linearly in
// log k against log ratio between that point and the next. bound is +1 if
// the lookup never wins (the crossover is above the largest k measured;
// twice that is returned), -1 if it wins at every point (at or below the
// smallest k; that k is returned), else 0.
func DropCrossover(ks []int, ratio []float64) (k float64, bound int) {
	n := len(ks)
	if n == 0 || len(ratio) != n {
		return math.NaN(), 0
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ks[idx[a]] > ks[idx[b]] })
	sk := make([]float64, n)
	sr := make([]float64, n)
	for j, i := range idx {
		sk[j], sr[j] = float64(ks[i]), ratio[i]
	}
	fit := MonotoneRatios(sr)
	last := -1
	for j, v := range fit {
		if v >= 1 {
			last = j
		}
	}
	switch {
	case last < 0:
		return 2 * sk[0], 1
	case last == n-1:
		return sk[n-1], -1
	}
	x0, x1 := math.Log(sk[last]), math.Log(sk[last+1])
	y0, y1 := math.Log(fit[last]), math.Log(fit[last+1])
	return math.Exp(x0 + (x1-x0)*y0/(y0-y1)), 0
}

// MonotoneRatios returns the non-increasing sequence closest to ratios (in
// log, least squares: the pool-adjacent-violators algorithm): each run of
// points that rise where they should fall is replaced by its geometric
// mean. ratios are in order of decreasing k (growing relations).
func MonotoneRatios(ratios []float64) []float64 {
	type block struct {
		sum float64 // of the logs
		n   int
	}
	var bs []block
	for _, r := range ratios {
		bs = append(bs, block{math.Log(r), 1})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.sum/float64(a.n) >= b.sum/float64(b.n) {
				break
			}
			bs = append(bs[:len(bs)-2], block{a.sum + b.sum, a.n + b.n})
		}
	}
	out := make([]float64, 0, len(ratios))
	for _, b := range bs {
		v := math.Exp(b.sum / float64(b.n))
		for range b.n {
			out = append(out, v)
		}
	}
	return out
}

// DropFineKs returns the points between two coarse ks (hi > lo) that the
// finder adds near the crossover: three, evenly spaced in log k, rounded,
// without hi, lo or repeats.
func DropFineKs(hi, lo int) []int {
	var out []int
	for j := 1; j <= 3; j++ {
		k := int(math.Round(float64(hi) * math.Pow(float64(lo)/float64(hi), float64(j)/4)))
		if k < hi && k > lo && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func sweepKs(pts []DropSweepPoint) []int {
	ks := make([]int, len(pts))
	for i, pt := range pts {
		ks[i] = pt.K
	}
	return ks
}

func sortSweep(pts []DropSweepPoint) {
	sort.SliceStable(pts, func(a, b int) bool { return pts[a].K > pts[b].K })
}

// SweepCrossover is DropCrossover over a sweep's points, for the scan over
// PostgreSQL's 64-byte layout.
func SweepCrossover(pts []DropSweepPoint) (k float64, bound int) {
	ratio := make([]float64, len(pts))
	for i, pt := range pts {
		ratio[i] = pt.Ratio.Median
	}
	return DropCrossover(sweepKs(pts), ratio)
}

// SweepCrossoverCompact is the same for the scan over the compact layout.
func SweepCrossoverCompact(pts []DropSweepPoint) (k float64, bound int) {
	ratio := make([]float64, len(pts))
	for i, pt := range pts {
		ratio[i] = pt.RatioCompact.Median
	}
	return DropCrossover(sweepKs(pts), ratio)
}
