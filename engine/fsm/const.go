package fsm

import "bufferlab/engine/bufmgr"

// Page geometry (bufpage.h, itemid.h, htup_details.h, 64-bit, BLCKSZ 8192).
const (
	// BLCKSZ is the block size.
	BLCKSZ = bufmgr.BLCKSZ
	// SizeOfPageHeaderData is the page header: pd_lsn 8, pd_checksum 2,
	// pd_flags 2, pd_lower 2, pd_upper 2, pd_special 2,
	// pd_pagesize_version 2, pd_prune_xid 4.
	SizeOfPageHeaderData = 24
	// SizeOfItemID is sizeof(ItemIdData): one line pointer.
	SizeOfItemID = 4
	// MaximumAlignof is MAXIMUM_ALIGNOF on 64-bit platforms.
	MaximumAlignof = 8
	// SizeofHeapTupleHeader is offsetof(HeapTupleHeaderData, t_bits): a
	// tuple's header before the null bitmap; MAXALIGN'd to 24 as t_hoff.
	SizeofHeapTupleHeader = 23
	// MaxHeapTupleSize is BLCKSZ - MAXALIGN(SizeOfPageHeaderData +
	// sizeof(ItemIdData)) = 8192 - 32 = 8160 (htup_details.h).
	MaxHeapTupleSize = BLCKSZ - (SizeOfPageHeaderData+SizeOfItemID+MaximumAlignof-1)/MaximumAlignof*MaximumAlignof
	// MaxHeapTuplesPerPage is (BLCKSZ - SizeOfPageHeaderData) /
	// (MAXALIGN(SizeofHeapTupleHeader) + sizeof(ItemIdData)) = 8168/28 = 291.
	MaxHeapTuplesPerPage = (BLCKSZ - SizeOfPageHeaderData) / ((SizeofHeapTupleHeader+MaximumAlignof-1)/MaximumAlignof*MaximumAlignof + SizeOfItemID)
	// HeapDefaultFillFactor and HeapMinFillFactor are HEAP_DEFAULT_FILLFACTOR
	// and HEAP_MIN_FILLFACTOR (rel.h): fillfactor is 10..100.
	HeapDefaultFillFactor = 100
	HeapMinFillFactor     = 10
	// NearlyEmptyFreeSpace is hio.c's nearlyEmptyFreeSpace (PG 15):
	// MaxHeapTupleSize - (MaxHeapTuplesPerPage/8 * sizeof(ItemIdData)) =
	// 8160 - 36*4 = 8016. A page with at least this much free space counts
	// as empty for a tuple that fillfactor would otherwise keep off it.
	NearlyEmptyFreeSpace = MaxHeapTupleSize - MaxHeapTuplesPerPage/8*SizeOfItemID
)

// Free space map geometry (storage/fsm_internals.h, freespace.c).
const (
	// NodesPerPage is BLCKSZ - MAXALIGN(SizeOfPageHeaderData) -
	// offsetof(FSMPageData, fp_nodes): 8192 - 24 - 4 = 8164 one-byte nodes.
	NodesPerPage = BLCKSZ - SizeOfPageHeaderData - 4
	// NonLeafNodesPerPage is BLCKSZ/2 - 1 = 4095: the inner nodes of the
	// binary tree in a page (12 full levels).
	NonLeafNodesPerPage = BLCKSZ/2 - 1
	// LeafNodesPerPage is NodesPerPage - NonLeafNodesPerPage = 4069: the
	// leaves actually present on the 13th level (a full level would hold
	// 4096).
	LeafNodesPerPage = NodesPerPage - NonLeafNodesPerPage
	// SlotsPerFSMPage is LeafNodesPerPage: heap blocks (or child pages) one
	// FSM page describes.
	SlotsPerFSMPage = LeafNodesPerPage
	// FSMTreeDepth is FSM_TREE_DEPTH: 3 when SlotsPerFSMPage >= 1626
	// (1626^3 >= 2^32-1), else 4.
	FSMTreeDepth = 3
	// FSMRootLevel and FSMBottomLevel are FSM_ROOT_LEVEL and FSM_BOTTOM_LEVEL.
	FSMRootLevel   = FSMTreeDepth - 1
	FSMBottomLevel = 0
	// FSMCategories and FSMCatStep are FSM_CATEGORIES and FSM_CAT_STEP
	// (BLCKSZ / FSM_CATEGORIES = 32 bytes per category).
	FSMCategories = 256
	FSMCatStep    = BLCKSZ / FSMCategories
	// MaxFSMRequestSize is MaxHeapTupleSize (8160); freespace.c's comment
	// that says 8164 is stale.
	MaxFSMRequestSize = MaxHeapTupleSize
	// FSMRestartLimit bounds fsm_search: it gives up once restarts++ >
	// 10000 ("an emergency valve").
	FSMRestartLimit = 10000
)

// Block numbers (block.h).
const (
	// InvalidBlockNumber is "no block".
	InvalidBlockNumber uint32 = 0xFFFFFFFF
	// MaxBlockNumber is the largest valid block number.
	MaxBlockNumber uint32 = 0xFFFFFFFE
)

// Visibility map geometry (visibilitymap.c): two bits per heap block.
const (
	// VMMapSize is MAPSIZE: BLCKSZ - MAXALIGN(SizeOfPageHeaderData).
	VMMapSize = BLCKSZ - SizeOfPageHeaderData
	// VMHeapBlocksPerPage is HEAPBLOCKS_PER_PAGE: MAPSIZE * 4 = 32672.
	VMHeapBlocksPerPage = VMMapSize * 4
)

// HeapFSMCreationThreshold is HEAP_FSM_CREATION_THRESHOLD from the reverted
// PostgreSQL 12 development patch (b0eaa4c51b, reverted by 7db0cde6b5): no
// free space map for a heap of at most this many pages.
const HeapFSMCreationThreshold = 4

// MaxFSMBlocks is the size of the largest possible FSM fork: up to the
// leaf of block MaxBlockNumber (physical block 1055794).
const MaxFSMBlocks = 1055795

// MaxBuildFSMBlocks bounds Heap.BuildFSM: 2^26 heap blocks (a 512 GB
// table), whose map is about 16 500 pages (129 MB).
const MaxBuildFSMBlocks = 1 << 26

// MaxLocalMapThreshold bounds the small-skip threshold BufferLab accepts
// (PostgreSQL's was a compile-time constant; the seed thread also built
// it with 8).
const MaxLocalMapThreshold = 1024

// MaxAlign is MAXALIGN: n rounded up to a multiple of 8.
func MaxAlign(n int) int { return (n + MaximumAlignof - 1) &^ (MaximumAlignof - 1) }

// HeapTupleLen is the t_len of a heap tuple without nulls holding dataBytes
// of column data: MAXALIGN(SizeofHeapTupleHeader) + dataBytes. One int4
// column gives 28 (stored MAXALIGN'd as 32); one char(5000) PLAIN column
// gives 24 + 4 + 5000 = 5028.
func HeapTupleLen(dataBytes int) int { return MaxAlign(SizeofHeapTupleHeader) + dataBytes }

// TargetPageFreeSpace is RelationGetTargetPageFreeSpace (rel.h): the bytes
// fillfactor keeps free on a page, BLCKSZ * (100 - fillfactor) / 100 in
// integer arithmetic (fillfactor 20 keeps 6553).
func TargetPageFreeSpace(fillfactor int) int { return BLCKSZ * (100 - fillfactor) / 100 }

// SpaceAvailToCat is fsm_space_avail_to_cat (freespace.c, PG 8.4–18): it
// rounds down. avail >= MaxFSMRequestSize (8160) is category 255; below
// that ⌊avail/32⌋ capped at 254, so 8128–8159 bytes are category 254.
// Negative amounts count as 0; PostgreSQL asserts avail < BLCKSZ, and
// larger amounts are category 255 here.
func SpaceAvailToCat(avail int) uint8 {
	if avail >= MaxFSMRequestSize {
		return 255
	}
	if avail < 0 {
		return 0
	}
	return uint8(min(avail/FSMCatStep, 254))
}

// SpaceNeededToCat is fsm_space_needed_to_cat (freespace.c, PG 8.4–18): it
// rounds up, so that any page of that category holds the request. A
// request of 0 needs category 1; above MaxFSMRequestSize it is PostgreSQL's
// ERROR "invalid FSM request size".
func SpaceNeededToCat(needed int) (uint8, error) {
	if needed > MaxFSMRequestSize || needed < 0 {
		return 0, errInvalidRequest(needed)
	}
	if needed == 0 {
		return 1, nil
	}
	return uint8(min((needed+FSMCatStep-1)/FSMCatStep, 255)), nil
}

// CatToAvail is fsm_space_cat_to_avail: the least free space a category
// stands for (255 → MaxFSMRequestSize, else cat × 32). GetRecordedFreeSpace
// and pg_freespace report this value.
func CatToAvail(cat uint8) int {
	if cat == 255 {
		return MaxFSMRequestSize
	}
	return int(cat) * FSMCatStep
}

// Address is an FSMAddress (freespace.c): a page of the tree of FSM pages,
// by level (0 = leaves, FSMRootLevel = the root) and logical page number
// within that level.
type Address struct {
	Level     int
	LogPageNo uint32
}

// RootAddress is FSM_ROOT_ADDRESS.
var RootAddress = Address{Level: FSMRootLevel}

// Location is fsm_get_location: the leaf page and slot describing heap
// block heapBlk.
func Location(heapBlk uint32) (Address, uint16) {
	return Address{Level: FSMBottomLevel, LogPageNo: heapBlk / SlotsPerFSMPage}, uint16(heapBlk % SlotsPerFSMPage)
}

// HeapBlock is fsm_get_heap_blk: the heap block of slot on leaf page a.
func HeapBlock(a Address, slot uint16) uint32 {
	return a.LogPageNo*SlotsPerFSMPage + uint32(slot)
}

// Parent is fsm_get_parent: the page one level up and the slot in it that
// describes a.
func (a Address) Parent() (Address, uint16) {
	return Address{Level: a.Level + 1, LogPageNo: a.LogPageNo / SlotsPerFSMPage}, uint16(a.LogPageNo % SlotsPerFSMPage)
}

// Child is fsm_get_child: the page one level down that slot describes.
func (a Address) Child(slot uint16) Address {
	return Address{Level: a.Level - 1, LogPageNo: a.LogPageNo*SlotsPerFSMPage + uint32(slot)}
}

// Physical is fsm_logical_to_physical (freespace.c, PG 8.4–18): the
// block number of the page in the FSM fork. Pages are laid out depth
// first, in pre-order: the root is block 0, page (1,0) block 1, the leaves
// (0,k) for k <= 4068 blocks k+2, (1,1) block 4071, (0,4069) block 4072.
func (a Address) Physical() uint32 {
	// The first leaf below a, then how many pages of each level come
	// before it (itself included), less the levels below a.
	leafno := uint64(a.LogPageNo)
	for l := 0; l < a.Level; l++ {
		leafno *= SlotsPerFSMPage
	}
	var pages uint64
	for l := 0; l < FSMTreeDepth; l++ {
		pages += leafno + 1
		leafno /= SlotsPerFSMPage
	}
	pages -= uint64(a.Level)
	return uint32(pages - 1)
}

// AddressOf inverts Physical: the logical address of FSM block phys.
func AddressOf(phys uint32) Address {
	// Walk down from the root: each subtree of level l holds
	// span(l) = 1 + SlotsPerFSMPage*span(l-1) pages, span(0) = 1.
	var span [FSMTreeDepth]uint64
	span[0] = 1
	for l := 1; l < FSMTreeDepth; l++ {
		span[l] = 1 + SlotsPerFSMPage*span[l-1]
	}
	a := RootAddress
	rest := uint64(phys)
	for rest > 0 && a.Level > 0 {
		rest-- // skip a itself
		child := rest / span[a.Level-1]
		rest %= span[a.Level-1]
		a = a.Child(uint16(child))
	}
	return a
}

// ForkPagesFor is the size the FSM fork must reach to record heap block
// nblocks-1: the physical number of its leaf page plus one (0 for an
// empty heap). 1..4069 heap blocks need 3 pages, 4070 need 4.
func ForkPagesFor(nblocks uint32) uint32 {
	if nblocks == 0 {
		return 0
	}
	a, _ := Location(nblocks - 1)
	return a.Physical() + 1
}

func (a Address) String() string {
	switch a.Level {
	case FSMRootLevel:
		return "root"
	case FSMBottomLevel:
		return "leaf " + itoa(a.LogPageNo)
	}
	return "level " + itoa(uint32(a.Level)) + " #" + itoa(a.LogPageNo)
}

func itoa(v uint32) string {
	if v == 0 {
		return "0"
	}
	var b [10]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return string(b[i:])
}
