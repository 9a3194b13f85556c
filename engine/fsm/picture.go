package fsm

import (
	"fmt"
	"strings"

	"bufferlab/engine/bufmgr"
)

// Picture prints every heap as text: its size, fillfactor and forks, then
// a line per page (at most 32; the rest counted) with its rows, its free
// space and category, and what the free space map records for it. It reads
// the model directly (no buffer access, no event), as pg_freespace and
// pageinspect would show the same table.
func (st *Store) Picture(names bufmgr.RelNamer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "free space map model: fsm=%s", st.opt.Variant)
	if st.opt.Variant == SmallSkip {
		fmt.Fprintf(&b, " (no map up to %d pages)", st.opt.Threshold)
	}
	b.WriteByte('\n')
	for _, h := range st.heaps {
		name := fmt.Sprint(h.Rel.Number)
		if names != nil {
			name = names(h.Rel.Number)
		}
		fsmFork := "no FSM fork"
		if h.FSMExists() {
			fsmFork = fmt.Sprintf("FSM fork %d pages", h.FSMBlocks())
		}
		fmt.Fprintf(&b, "heap %s: %d pages, fillfactor %d, relpages %d, %s\n", name, h.NBlocks(), h.FillFactor(), h.RelPages(), fsmFork)
		const shown = 32
		for blk := uint32(0); blk < h.NBlocks() && blk < shown; blk++ {
			p := h.HeapPage(blk)
			if p.IsNew() {
				fmt.Fprintf(&b, "  blk %-4d new (all zeroes)", blk)
			} else {
				free := p.FreeSpace()
				fmt.Fprintf(&b, "  blk %-4d %3d rows  %5d B free (category %3d)", blk, p.Live(), free, SpaceAvailToCat(free))
			}
			if h.FSMExists() {
				fmt.Fprintf(&b, "  map %3d", h.RecordedCat(blk))
			}
			b.WriteByte('\n')
		}
		if h.NBlocks() > shown {
			fmt.Fprintf(&b, "  … %d more pages\n", h.NBlocks()-shown)
		}
	}
	return b.String()
}
