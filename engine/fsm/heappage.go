package fsm

// The heap page model: as much of bufpage.c and the heap page layout as
// free space depends on. A page is a 24-byte header, the line pointer
// array growing up from pd_lower, free space, and tuples growing down from
// pd_upper, each stored MAXALIGN'd. No tuple data is kept, only lengths.

// Line pointer states (itemid.h). LP_REDIRECT is not modelled (no HOT).
const (
	LPUnused = 0 // LP_UNUSED: free for reuse
	LPNormal = 1 // LP_NORMAL: points at a tuple
	LPDead   = 3 // LP_DEAD: the tuple is gone, the pointer is not
)

// ItemID is a line pointer: its state and the tuple's length (lp_len,
// t_len; the tuple occupies MAXALIGN(lp_len) bytes).
type ItemID struct {
	Flags   uint8
	Len     uint16
	Deleted bool // LP_NORMAL tuple deleted (xmax set, committed); VACUUM removes it
	// Xmin is the inserting transaction: the store's transaction counter
	// (every HeapInsert and HeapDelete is one committed transaction). VACUUM
	// derives relfrozenxid from the oldest live one.
	Xmin uint64
}

// HeapPage is one heap page's layout.
type HeapPage struct {
	Lower, Upper uint16 // pd_lower, pd_upper; Upper == 0 is PageIsNew (all zeroes)
	Items        []ItemID
	// HasFreeLines is PD_HAS_FREE_LINES: an LP_UNUSED pointer may exist.
	HasFreeLines bool
	// AllVisible is PD_ALL_VISIBLE; the model keeps the visibility map
	// bit equal to it.
	AllVisible bool
}

// IsNew is PageIsNew: the page was never initialised (pd_upper == 0).
func (p HeapPage) IsNew() bool { return p.Upper == 0 }

// IsEmpty is PageIsEmpty: no line pointers.
func (p HeapPage) IsEmpty() bool { return int(p.Lower) <= SizeOfPageHeaderData }

// Init is PageInit with no special space.
func (p *HeapPage) Init() {
	*p = HeapPage{Lower: SizeOfPageHeaderData, Upper: BLCKSZ}
}

// FreeSpace is PageGetFreeSpace (bufpage.c): pd_upper - pd_lower less one
// line pointer, 0 if that is negative.
func (p HeapPage) FreeSpace() int {
	space := int(p.Upper) - int(p.Lower)
	if space < SizeOfItemID {
		return 0
	}
	return space - SizeOfItemID
}

// HeapFreeSpace is PageGetHeapFreeSpace (bufpage.c, PG 8.4–18):
// PageGetFreeSpace, except 0 when the page already has
// MaxHeapTuplesPerPage line pointers and none is unused. A new page has 0.
func (p HeapPage) HeapFreeSpace() int {
	if p.IsNew() {
		return 0
	}
	space := p.FreeSpace()
	if space > 0 && len(p.Items) >= MaxHeapTuplesPerPage {
		if !p.HasFreeLines {
			return 0
		}
		for _, it := range p.Items {
			if it.Flags == LPUnused {
				return space
			}
		}
		return 0
	}
	return space
}

// AddItem is PageAddItemExtended for a heap tuple (PAI_IS_HEAP, not
// overwriting): reuse the first unused line pointer if PD_HAS_FREE_LINES
// says there may be one, else append; refuse beyond MaxHeapTuplesPerPage
// or when the MAXALIGN'd tuple and a new pointer do not fit. It returns
// the offset number (1-based), or 0.
func (p *HeapPage) AddItem(tupleLen int) int {
	if p.IsNew() || tupleLen <= 0 || tupleLen > MaxHeapTupleSize {
		return 0
	}
	off := len(p.Items) // 0-based index of the pointer to use
	if p.HasFreeLines {
		found := false
		for i, it := range p.Items {
			if it.Flags == LPUnused {
				off, found = i, true
				break
			}
		}
		if !found {
			p.HasFreeLines = false
		}
	}
	if off+1 > MaxHeapTuplesPerPage {
		return 0
	}
	lower := int(p.Lower)
	if off == len(p.Items) {
		lower += SizeOfItemID
	}
	upper := int(p.Upper) - MaxAlign(tupleLen)
	if lower > upper {
		return 0
	}
	it := ItemID{Flags: LPNormal, Len: uint16(tupleLen)}
	if off == len(p.Items) {
		p.Items = append(p.Items, it)
	} else {
		p.Items[off] = it
	}
	p.Lower, p.Upper = uint16(lower), uint16(upper)
	return off + 1
}

// vacuum removes deleted tuples as lazy_scan_prune and
// lazy_vacuum_heap_page do for a table without indexes (PG 15): their line
// pointers become LP_UNUSED, PageRepairFragmentation packs the remaining
// tuples against the end of the page, PageTruncateLinePointerArray drops
// unused pointers at the end of the array (never the first one). It
// returns how many tuples it removed.
func (p *HeapPage) vacuum() int {
	removed := 0
	for i := range p.Items {
		it := &p.Items[i]
		if it.Flags == LPDead || it.Flags == LPNormal && it.Deleted {
			*it = ItemID{}
			removed++
		}
	}
	if removed == 0 {
		return 0
	}
	// PageRepairFragmentation.
	upper := BLCKSZ
	for _, it := range p.Items {
		if it.Flags == LPNormal {
			upper -= MaxAlign(int(it.Len))
		}
	}
	p.Upper = uint16(upper)
	// PageTruncateLinePointerArray: keep at least the first pointer.
	n := len(p.Items)
	for n > 1 && p.Items[n-1].Flags == LPUnused {
		n--
	}
	p.Items = p.Items[:n]
	p.Lower = uint16(SizeOfPageHeaderData + SizeOfItemID*n)
	unused := false
	for _, it := range p.Items {
		if it.Flags == LPUnused {
			unused = true
		}
	}
	p.HasFreeLines = unused
	return removed
}

// Live counts tuples that are not deleted.
func (p HeapPage) Live() int {
	n := 0
	for _, it := range p.Items {
		if it.Flags == LPNormal && !it.Deleted {
			n++
		}
	}
	return n
}

// RowsPerPage is how many tuples of tupleLen bytes RelationGetBufferForTuple
// puts on one page before it moves on, for a fillfactor (PG 15 rules:
// MAXALIGN'd length, fillfactor's reserve, the nearly-empty cap): 226 for
// one int column at fillfactor 100, 44 at fillfactor 20, 67 at 30.
func RowsPerPage(tupleLen, fillfactor int) int {
	target := TargetFreeSpace(MaxAlign(tupleLen), fillfactor, true)
	var p HeapPage
	p.Init()
	n := 0
	for p.HeapFreeSpace() >= target && p.AddItem(tupleLen) != 0 {
		n++
	}
	return n
}

// TargetFreeSpace is the free space RelationGetBufferForTuple wants on a
// page for a MAXALIGN'd tuple of length alignedLen: the length plus
// fillfactor's reserve; with nearlyEmptyCap (PostgreSQL 15) at most
// max(alignedLen, NearlyEmptyFreeSpace), so that a big tuple fits on a
// nearly empty page of a low-fillfactor table.
func TargetFreeSpace(alignedLen, fillfactor int, nearlyEmptyCap bool) int {
	save := TargetPageFreeSpace(fillfactor)
	if nearlyEmptyCap && alignedLen+save > NearlyEmptyFreeSpace {
		return max(alignedLen, NearlyEmptyFreeSpace)
	}
	return alignedLen + save
}

// A page word packs what a heap page's free space depends on into one
// event value (the Before and After of a trace.KHeapPage event):
//
//	bits  0–15  pd_upper (0: a new, all-zero page)
//	bits 16–31  pd_lower
//	bits 32–40  live tuples (LP_NORMAL, not deleted)
//	bits 41–49  deleted tuples (LP_NORMAL, xmax set: dead once VACUUM sees them)
//	bit  50     PD_ALL_VISIBLE (and the visibility map bit, kept equal)
//	bit  51     PD_HAS_FREE_LINES
//
// The line pointers are (pd_lower − 24) / 4; those neither live nor
// deleted are LP_UNUSED (the model never leaves a pointer LP_DEAD).
const (
	heapWordLiveShift    = 32
	heapWordDeletedShift = 41
	heapWordCountMask    = 0x1FF
	heapWordAllVisible   = 1 << 50
	heapWordFreeLines    = 1 << 51
)

// Word packs p into a page word (see above).
func (p HeapPage) Word() uint64 {
	live, deleted := 0, 0
	for _, it := range p.Items {
		if it.Flags == LPNormal {
			if it.Deleted {
				deleted++
			} else {
				live++
			}
		}
	}
	w := uint64(p.Upper) | uint64(p.Lower)<<16 | uint64(live)<<heapWordLiveShift | uint64(deleted)<<heapWordDeletedShift
	if p.AllVisible {
		w |= heapWordAllVisible
	}
	if p.HasFreeLines {
		w |= heapWordFreeLines
	}
	return w
}

// PageInfo is a heap page word unpacked: what a viewer knows of a page.
type PageInfo struct {
	Lower, Upper  uint16
	Live, Deleted int
	AllVisible    bool
	HasFreeLines  bool
}

// UnpackHeapWord decodes a page word.
func UnpackHeapWord(w uint64) PageInfo {
	return PageInfo{Upper: uint16(w), Lower: uint16(w >> 16), Live: int(w >> heapWordLiveShift & heapWordCountMask),
		Deleted: int(w >> heapWordDeletedShift & heapWordCountMask), AllVisible: w&heapWordAllVisible != 0,
		HasFreeLines: w&heapWordFreeLines != 0}
}

// IsNew is PageIsNew.
func (i PageInfo) IsNew() bool { return i.Upper == 0 }

// LinePointers is the size of the line pointer array.
func (i PageInfo) LinePointers() int {
	if i.IsNew() || i.Lower < SizeOfPageHeaderData {
		return 0
	}
	return (int(i.Lower) - SizeOfPageHeaderData) / SizeOfItemID
}

// Unused is the number of LP_UNUSED line pointers.
func (i PageInfo) Unused() int { return max(0, i.LinePointers()-i.Live-i.Deleted) }

// TupleBytes is the space the tuples take (BLCKSZ − pd_upper; no special
// space on a heap page).
func (i PageInfo) TupleBytes() int {
	if i.IsNew() {
		return 0
	}
	return BLCKSZ - int(i.Upper)
}

// FreeSpace is PageGetHeapFreeSpace of the page the word describes (the
// same rules as HeapPage.HeapFreeSpace).
func (i PageInfo) FreeSpace() int {
	if i.IsNew() {
		return 0
	}
	space := int(i.Upper) - int(i.Lower)
	if space < SizeOfItemID {
		return 0
	}
	space -= SizeOfItemID
	if space > 0 && i.LinePointers() >= MaxHeapTuplesPerPage && (!i.HasFreeLines || i.Unused() == 0) {
		return 0
	}
	return space
}

// Category is the FSM category of the page's free space
// (fsm_space_avail_to_cat): what VACUUM would record for it.
func (i PageInfo) Category() uint8 { return SpaceAvailToCat(i.FreeSpace()) }

// ForkWord packs a fork's state into an event value (the Before and After
// of a trace.KForkSize event): bit 32 says the fork exists (smgrexists),
// bits 0–31 are its size in blocks.
func ForkWord(exists bool, nblocks uint32) uint64 { return b2u(exists)<<32 | uint64(nblocks) }

// UnpackForkWord decodes a fork word.
func UnpackForkWord(w uint64) (exists bool, nblocks uint32) { return w>>32&1 != 0, uint32(w) }
