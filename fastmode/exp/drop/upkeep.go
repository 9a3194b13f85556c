package drop

import (
	"fmt"
	"strconv"

	"bufferlab/engine/bufmgr"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/harness"
)

// The dlist's upkeep on reads (seed 001's question).

// UpkeepBench is a full pool ready for read hits or misses, with or
// without the per-relation lists.
type UpkeepBench struct {
	Pool    *bufmgr.Pool
	Backend *bufmgr.Backend
	Miss    bool
	rels    [2]bufmgr.Relation
	cur     int
	next    uint32
}

// NewUpkeepBench builds a pool of nbuffers buffers (Options.DropList as
// dlist) holding blocks 0… of a relation. Hits cycle through them; misses
// read a second relation of the same size, then the first again, and so on,
// so that every miss evicts a buffer of the other relation: the upkeep
// moves it from one list to the other under both list locks.
func NewUpkeepBench(nbuffers int, dlist, miss bool) (*UpkeepBench, error) {
	p, err := bufmgr.NewPoolWith(nbuffers, nil, bufmgr.Options{DropList: dlist})
	if err != nil {
		return nil, err
	}
	be, err := p.NewBackend("reader")
	if err != nil {
		return nil, err
	}
	u := &UpkeepBench{Pool: p, Backend: be, Miss: miss}
	for i := range u.rels {
		u.rels[i] = bufmgr.Relation{Name: "r" + strconv.Itoa(i), Number: uint32(bufmgr.FirstNormalObjectId + i), Permanent: true}
		u.rels[i].NBlocks[bufmgr.MainForkNum] = uint32(nbuffers)
	}
	if err := u.Run(nbuffers); err != nil {
		return nil, err
	}
	if miss {
		u.cur = 1
	}
	u.next = 0
	be.Stats = bufmgr.Stats{}
	return u, nil
}

// Run performs n reads (ReadBuffer + ReleaseBuffer).
func (u *UpkeepBench) Run(n int) error {
	be, nb := u.Backend, uint32(u.Pool.NBuffers)
	rel, next := &u.rels[u.cur], u.next
	for i := 0; i < n; i++ {
		if _, _, err := exp.ReadRelease(be, rel, next); err != nil {
			return err
		}
		if next++; next == nb {
			next = 0
			if u.Miss {
				u.cur ^= 1
				rel = &u.rels[u.cur]
			}
		}
	}
	u.next = next
	return nil
}

// Check verifies that the reads were what they should be: only hits, or
// only misses.
func (u *UpkeepBench) Check() error {
	st := u.Backend.Stats
	if u.Miss && st.Hits != 0 || !u.Miss && st.Misses != 0 {
		return fmt.Errorf("upkeep bench (miss %v): %d hits, %d misses", u.Miss, st.Hits, st.Misses)
	}
	return nil
}

// DropUpkeep is one read path with and without the lists.
type DropUpkeep struct {
	Path        string          // "hit" or "miss"
	Off, On     harness.Summary // ns per read, median per round
	OverheadPct harness.Summary // (on / off − 1) × 100, per round
	Rounds      int
	LinksPerOp  float64 // list links per read with the lists (misses: 1)
}

// MeasureUpkeep compares reads with and without the lists on pools of
// nbuffers buffers, in rounds: each round measures, for hits and for
// misses, one side then the other (alternating which goes first) with
// harness.Measure, and the overhead of the round is the ratio of the two.
func MeasureUpkeep(cfg harness.Config, nbuffers, rounds int, step func(string)) ([]DropUpkeep, error) {
	type side struct {
		u   *UpkeepBench
		med []float64
		ops uint64
	}
	out := []DropUpkeep{{Path: "hit"}, {Path: "miss"}}
	var sides [2][2]*side // [path][dlist]
	for i := range out {
		for j := range 2 {
			u, err := NewUpkeepBench(nbuffers, j == 1, i == 1)
			if err != nil {
				return nil, err
			}
			sides[i][j] = &side{u: u}
		}
	}
	c := cfg
	c.Samples = max(3, cfg.Samples/max(rounds, 1))
	pct := [2][]float64{}
	for r := 0; r < rounds; r++ {
		if step != nil {
			step(fmt.Sprintf("dlist upkeep, round %d/%d", r+1, rounds))
		}
		if r > 0 {
			c.Warmup = 0
		}
		for i := range out {
			var m [2]float64
			for j := 0; j < 2; j++ {
				d := j ^ (r & 1)
				sd := sides[i][d]
				s, err := harness.MeasureErr(c, func(n int) error {
					err := sd.u.Run(n)
					sd.ops += uint64(n)
					return err
				})
				if err != nil {
					return nil, err
				}
				m[d] = s.Median
				sd.med = append(sd.med, s.Median)
			}
			pct[i] = append(pct[i], (m[1]/m[0]-1)*100)
		}
	}
	for i := range out {
		for j := range 2 {
			if err := sides[i][j].u.Check(); err != nil {
				return nil, err
			}
		}
		off, on := sides[i][0], sides[i][1]
		out[i].Off, out[i].On = harness.Summarise(off.med), harness.Summarise(on.med)
		out[i].OverheadPct = harness.Summarise(pct[i])
		out[i].Rounds = rounds
		out[i].LinksPerOp = float64(on.u.Backend.Stats.DListLinks) / float64(max(on.ops, 1))
	}
	return out, nil
}
