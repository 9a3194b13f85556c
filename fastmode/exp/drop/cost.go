package drop

import (
	"fmt"
	"sort"

	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/timer"
)

// DropCosts are native times of the drop strategies' unit steps on this
// machine, measured on the engine's fast path (no trace, no scheduler)
// with the hardware timer, for pacing the drop race by time: what one
// descriptor of the full scan costs, one per-block lookup
// (FindAndDropRelFileNodeBuffers for a one-block relation, invalidation
// included) and one hop of the dlist walk (the walk of a one-block
// relation, invalidation included, halved: head and one buffer).
type DropCosts struct {
	NBuffers     int
	DescriptorNs float64 // full scan time / NBuffers
	ScanNs       float64 // one full scan (one-block relation)
	LookupNs     float64 // one lookup drop of a one-block relation
	DListNs      float64 // one dlist drop of a one-block relation
	HopNs        float64 // DListNs / 2
	Timer        string
}

// String says what was measured, for the screen.
func (c DropCosts) String() string {
	return fmt.Sprintf("measured here (%s): scan %.2f ns per descriptor (%.0f ns for %d), lookup %.0f ns per block, dlist %.0f ns per hop",
		c.Timer, c.DescriptorNs, c.ScanNs, c.NBuffers, c.LookupNs, c.HopNs)
}

// dropCostRounds is how many one-block relations a pass drops.
const dropCostRounds = 64

// MeasureDropCosts measures DropCosts for a pool of nbuffers buffers (at
// least 16, at most 1<<20 here): the pool is filled with one big relation
// and dropCostRounds one-block ones, in recovery, with the per-relation
// lists kept, and each strategy drops the one-block relations one by one
// (read back between strategies, outside the timed region).
func MeasureDropCosts(nbuffers int) (DropCosts, error) {
	if nbuffers < 16 || nbuffers > 1<<20 {
		return DropCosts{}, fmt.Errorf("measuring drop costs: %d buffers is outside 16..%d", nbuffers, 1<<20)
	}
	p, err := bufmgr.NewPoolWith(nbuffers, nil, bufmgr.Options{InRecovery: true, DropList: true})
	if err != nil {
		return DropCosts{}, err
	}
	be, err := p.NewBackend("startup")
	if err != nil {
		return DropCosts{}, err
	}
	rounds := min(dropCostRounds, nbuffers/4)
	read := func(rel *bufmgr.Relation, blk uint32) error {
		_, _, err := exp.ReadRelease(be, rel, blk)
		return err
	}
	big := &bufmgr.Relation{Name: "big", Number: bufmgr.FirstNormalObjectId, Permanent: true}
	big.NBlocks[bufmgr.MainForkNum] = uint32(nbuffers - rounds)
	for b := uint32(0); b < big.NBlocks[bufmgr.MainForkNum]; b++ {
		if err := read(big, b); err != nil {
			return DropCosts{}, err
		}
	}
	var small []*bufmgr.Relation
	for i := 0; i < rounds; i++ {
		r := &bufmgr.Relation{Name: fmt.Sprintf("s%d", i), Number: uint32(bufmgr.FirstNormalObjectId + 1 + i), Permanent: true}
		r.NBlocks[bufmgr.MainForkNum] = 1
		small = append(small, r)
	}
	clk := timer.Best()
	// Each pass reads the one-block relations back (untimed) and drops
	// them all in one timed batch, so that a coarse timer (the browser's)
	// still measures well; passes repeat until 2ms of drops (at least 5,
	// at most 200) and the median pass is kept, which a busy machine's
	// interruptions do not move much.
	perDrop := func(st bufmgr.DropStrategy) (float64, error) {
		var passes []float64
		total := 0.0
		for len(passes) < 5 || len(passes) < 200 && total < 2e6 {
			for _, r := range small {
				if err := read(r, 0); err != nil {
					return 0, err
				}
			}
			t0 := clk.Now()
			for _, r := range small {
				if _, err := be.DropRelationBuffers(r, nil, nil, st); err != nil {
					return 0, err
				}
			}
			ns := clk.Nanos(clk.Now() - t0)
			total += ns
			passes = append(passes, ns/float64(len(small)))
		}
		sort.Float64s(passes)
		if med := passes[len(passes)/2]; med > 0 && clk.Info().ResolutionNs*100 < total/float64(len(passes)) {
			return med, nil
		}
		// A coarse timer (the browser's performance.now) reads many
		// passes as 0: the mean over all of them is the estimate.
		if total <= 0 {
			return 0, fmt.Errorf("measuring drop costs: the %s timer (resolution %.0f ns) saw no time pass in %d drops", clk.Info().Source, clk.Info().ResolutionNs, len(passes)*len(small))
		}
		return total / float64(len(passes)*len(small)), nil
	}
	c := DropCosts{NBuffers: nbuffers, Timer: clk.Info().Source}
	if c.ScanNs, err = perDrop(bufmgr.DropScan); err != nil {
		return c, err
	}
	if c.LookupNs, err = perDrop(bufmgr.DropLookup); err != nil {
		return c, err
	}
	if c.DListNs, err = perDrop(bufmgr.DropDList); err != nil {
		return c, err
	}
	c.DescriptorNs = c.ScanNs / float64(nbuffers)
	c.HopNs = c.DListNs / 2
	return c, nil
}
