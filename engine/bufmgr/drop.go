package bufmgr

import (
	"fmt"
	"slices"

	"bufferlab/engine/internal/enum"
	"bufferlab/engine/trace"
)

// Dropping a relation's buffers (bufmgr.c). When a relation is truncated
// (VACUUM's tail truncation, TRUNCATE; smgrtruncate) or its files are
// unlinked (DROP at commit, and the replay of either in recovery;
// smgrdounlinkall), every buffer holding one of the removed pages is
// invalidated without being written. PostgreSQL 14 and 15 call these
// functions DropRelFileNodeBuffers, FindAndDropRelFileNodeBuffers and
// DropRelFileNodesAllBuffers; PostgreSQL 16 renamed them DropRelationBuffers,
// FindAndDropRelationBuffers and DropRelationsAllBuffers (the RelFileLocator
// rename) without changing what they do. BufferLab follows PG 15.
//
// Three ways to find the buffers (DropStrategy; dropfind.go):
//
//   - scan: look at every descriptor in the pool, O(NBuffers) whatever the
//     relation's size, with an unlocked pre-check of the relation part of
//     the tag before taking the header lock;
//   - lookup (PG 14+, d6ad34f341/bea449c635): for every block of every
//     fork to drop, build its tag and look it up in the mapping table. It
//     needs each fork's exact size, which only smgrnblocks_cached knows, and
//     only InRecovery; PostgreSQL uses it when the blocks to drop number
//     fewer than BUF_DROP_FULL_SCAN_THRESHOLD = NBuffers/32;
//   - dlist: walk a per-relation list of buffers (the thread's first patch,
//     never committed; see dlist.go).
//
// Preconditions, as in PostgreSQL: the caller holds AccessExclusiveLock on
// the relation (or is the startup process replaying WAL), so nobody loads a
// page of it meanwhile; other backends may still evict its buffers (a tag
// only ever moves away from the relation), or hold a pin while writing one
// out, which makes InvalidateBuffer wait. The caller, not the drop, shrinks
// the relation (Relation.NBlocks) afterwards, as smgrtruncate does after
// DropRelFileNodeBuffers.

// InvalidBlockNumber is InvalidBlockNumber (block.h): "no block", and what
// smgrnblocks_cached returns when the size is not cached.
const InvalidBlockNumber uint32 = 0xFFFFFFFF

// RelsBSearchThreshold is RELS_BSEARCH_THRESHOLD (bufmgr.c, 279628a0a7,
// 9.3): DropRelFileNodesAllBuffers tests each buffer against the relations
// one by one up to this many relations, and sorts them for a binary search
// above it.
const RelsBSearchThreshold = 20

// relsBSearchThreshold is RelsBSearchThreshold; tests change it to run the
// same drop both ways.
var relsBSearchThreshold = RelsBSearchThreshold

// BufDropFullScanThreshold is BUF_DROP_FULL_SCAN_THRESHOLD, (uint64)
// (NBuffers / 32) (bufmgr.c, PG 14+): the per-block lookup is used only when
// fewer blocks than this are to be dropped. 512 at 128MB, 409 600 at 100GB.
func BufDropFullScanThreshold(nbuffers int) uint64 { return uint64(nbuffers / 32) }

// DropStrategy says how a drop finds the buffers to invalidate.
type DropStrategy uint8

// Drop strategies.
const (
	// DropAuto decides as PostgreSQL 15 does: the per-block lookup when
	// every fork's size is cached (only in recovery) and the blocks to drop
	// are fewer than NBuffers/32, else the full scan. It never picks the
	// dlist, which PostgreSQL never had.
	DropAuto DropStrategy = iota
	// DropScan forces the full scan of every descriptor.
	DropScan
	// DropLookup forces the per-block lookup, whatever the size and even
	// outside recovery. A fork whose size is not cached is looked up over
	// its actual size (smgrnblocks, an lseek), which in BufferLab is
	// always exact; PostgreSQL never does this outside recovery because it
	// cannot trust a size that is not cached and a buffer left behind past
	// it would make the checkpointer PANIC. For experiments (the 000
	// thread removed the threshold the same way).
	DropLookup
	// DropDList forces the walk of the relation's buffer list; the pool
	// must have been built with Options.DropList.
	DropDList
	numDropStrategies
)

var dropStrategyNames = [numDropStrategies]string{"auto", "scan", "lookup", "dlist"}

func (s DropStrategy) String() string { return enum.Name(dropStrategyNames[:], s, "drop-strategy") }

// ParseDropStrategy parses a strategy= setting: auto, scan, lookup or dlist.
func ParseDropStrategy(s string) (DropStrategy, bool) {
	return enum.Parse[DropStrategy](dropStrategyNames[:], s)
}

// DropResult says what one drop did.
type DropResult struct {
	// Requested is the strategy asked for; Strategy the path taken (scan,
	// lookup or dlist, never auto).
	Requested, Strategy DropStrategy
	// Cached reports that every fork's size was cached (smgrnblocks_cached;
	// only in recovery).
	Cached bool
	// BlocksToInvalidate is nBlocksToInvalidate: the blocks the lookup
	// would visit (Σ size − firstDelBlock over the forks; all blocks of
	// every existing fork for DropRelationsAllBuffers), InvalidBlockNumber
	// when a size is not cached.
	BlocksToInvalidate uint64
	// Threshold is BUF_DROP_FULL_SCAN_THRESHOLD for the pool.
	Threshold uint64
	// BSearch reports that DropRelationsAllBuffers' full scan sorted the
	// relations and searched them (more than RELS_BSEARCH_THRESHOLD).
	BSearch bool
	// What this drop did (the Drop* counters of Stats, for this call).
	DescsTouched, Lookups, PartitionLocks, ListHops, Invalidated, PinWaits uint64
}

// SetInRecovery sets whether the pool models a server in recovery: whether
// the backends that drop relations are the startup process replaying WAL
// (InRecovery), for which smgrnblocks_cached returns the cached sizes.
func (p *Pool) SetInRecovery(on bool) { p.inRecovery = on }

// InRecovery reports SetInRecovery's setting.
func (p *Pool) InRecovery() bool { return p.inRecovery }

// smgrnblocksCached is smgrnblocks_cached (smgr.c, PG 14+): a fork's size
// when it is cached, which happens only InRecovery, else InvalidBlockNumber.
// In BufferLab every existing fork with blocks has its size cached in
// recovery (the replay that extended or read it cached it); an empty fork
// has none, which models the known gap of a relation created and dropped
// while empty (it gets the full scan).
func (p *Pool) smgrnblocksCached(rel *Relation, f ForkNumber) uint32 {
	if p.inRecovery && rel.NBlocks[f] > 0 {
		return rel.NBlocks[f]
	}
	return InvalidBlockNumber
}

// smgrexists: the main fork always exists; another fork exists when it has
// blocks (Relation.NBlocks is 0 for a fork that does not exist).
func smgrexists(rel *Relation, f ForkNumber) bool {
	return f == MainForkNum || rel.NBlocks[f] > 0
}

// dropSpec is what a drop removes: from one relation, the blocks at or
// after first[j] of forks[j]; or (all) every block of every fork. It lives
// on the stack: the drop path allocates nothing per buffer.
type dropSpec struct {
	rnode RelFileNode
	n     int
	forks [MaxForkNum + 1]ForkNumber
	first [MaxForkNum + 1]uint32
	all   bool
}

// matches is the locked re-check: the tag is of the relation and, unless
// the whole relation goes, of one of the forks at or after its first block.
func (s *dropSpec) matches(t *BufferTag) bool {
	if t.RelNode != s.rnode.RelNode || t.DbNode != s.rnode.DbNode || t.SpcNode != s.rnode.SpcNode {
		return false
	}
	if s.all {
		return true
	}
	for j := 0; j < s.n; j++ {
		if t.ForkNum == s.forks[j] && t.BlockNum >= s.first[j] {
			return true
		}
	}
	return false
}

// DropRelationBuffers is DropRelFileNodeBuffers (bufmgr.c, PG 14–15; PG 16+
// DropRelationBuffers): remove from the pool every buffer of rel's fork
// forks[j] holding a block ≥ firstDelBlock[j], without writing dirty ones.
// forks == nil means every fork that exists, from block 0. strategy chooses
// how the buffers are found (DropStrategy); DropAuto is PostgreSQL's rule.
//
// Caller mistakes (no relation, a fork out of range or given twice,
// firstDelBlock past the fork's end, mismatched lengths, dlist without the
// pool option, an unknown strategy) are errors before anything happens.
// ERROR "buffer is pinned in InvalidateBuffer" (the caller pins a buffer it
// drops) ends the drop part way, as the ERROR would.
//
// Events: an op at drop.begin (Obj = relation, Before = requested strategy,
// After = strategy taken, Arg = nBlocksToInvalidate) and an op-done at the
// end (After = buffers invalidated); between them, per strategy, a load at
// drop.precheck for every descriptor the scan examines (Obj = buffer,
// After = its state word, Arg = the packed tag read, 0 for none), the
// lookups of FindAndDropRelFileNodeBuffers, or the dlist walk.
func (b *Backend) DropRelationBuffers(rel *Relation, forks []ForkNumber, firstDelBlock []uint32, strategy DropStrategy) (DropResult, error) {
	p := b.pool
	res := DropResult{Requested: strategy, Threshold: BufDropFullScanThreshold(p.NBuffers)}
	if err := p.checkDropStrategy(strategy); err != nil {
		return res, err
	}
	if rel == nil {
		return res, fmt.Errorf("bufmgr: DropRelationBuffers of no relation")
	}
	spec := dropSpec{rnode: rel.RelFileNode()}
	if forks == nil {
		if firstDelBlock != nil {
			return res, fmt.Errorf("bufmgr: DropRelationBuffers(%s): firstDelBlock without forks", rel.Name)
		}
		for f := MainForkNum; f <= MaxForkNum; f++ {
			if smgrexists(rel, f) {
				spec.forks[spec.n] = f
				spec.n++
			}
		}
	} else {
		if len(forks) != len(firstDelBlock) {
			return res, fmt.Errorf("bufmgr: DropRelationBuffers(%s): %d forks but %d firstDelBlock values", rel.Name, len(forks), len(firstDelBlock))
		}
		if len(forks) == 0 || len(forks) > int(MaxForkNum)+1 {
			return res, fmt.Errorf("bufmgr: DropRelationBuffers(%s): %d forks; want 1 to %d", rel.Name, len(forks), MaxForkNum+1)
		}
		for j, f := range forks {
			if f < MainForkNum || f > MaxForkNum {
				return res, fmt.Errorf("bufmgr: DropRelationBuffers(%s): no fork %d", rel.Name, f)
			}
			if slices.Contains(forks[:j], f) {
				return res, fmt.Errorf("bufmgr: DropRelationBuffers(%s): fork %s given twice", rel.Name, f)
			}
			if firstDelBlock[j] > rel.NBlocks[f] {
				return res, fmt.Errorf("bufmgr: DropRelationBuffers(%s): firstDelBlock %d is past the end of the %s fork (%d blocks)",
					rel.Name, firstDelBlock[j], f, rel.NBlocks[f])
			}
			spec.forks[j], spec.first[j] = f, firstDelBlock[j]
		}
		spec.n = len(forks)
	}

	// The sizes (backend-local: smgr_cached_nblocks). As in PostgreSQL,
	// the first fork without a cached size ends the count.
	var n uint64
	for j := 0; j < spec.n; j++ {
		size := p.smgrnblocksCached(rel, spec.forks[j])
		if size == InvalidBlockNumber {
			n = uint64(InvalidBlockNumber)
			break
		}
		n += uint64(size - spec.first[j])
	}
	res.BlocksToInvalidate = n
	res.Cached = n != uint64(InvalidBlockNumber)
	res.Strategy = strategy
	if strategy == DropAuto {
		res.Strategy = DropScan
		if res.Cached && n < res.Threshold {
			res.Strategy = DropLookup
		}
	}

	before := b.Stats
	b.emit(trace.KOp, sDropBegin, trace.ORelation, int32(rel.Number), uint64(strategy), uint64(res.Strategy), n)
	var err error
	done := sDropScanDone
	switch res.Strategy {
	case DropLookup:
		done = sDropLookupDone
		for j := 0; j < spec.n && err == nil; j++ {
			size := p.smgrnblocksCached(rel, spec.forks[j])
			if size == InvalidBlockNumber {
				size = rel.NBlocks[spec.forks[j]] // forced lookup without a cached size: smgrnblocks
			}
			err = b.findAndDropRelFileNodeBuffers(spec.rnode, spec.forks[j], size, spec.first[j])
		}
	case DropScan:
		err = b.dropScan(&spec)
	case DropDList:
		done = sDListDone
		err = b.dropListWalk(&spec)
	}
	res.count(before, b.Stats)
	if err != nil {
		return res, err
	}
	b.emit(trace.KOpDone, done, trace.ORelation, int32(rel.Number), 0, res.Invalidated, 0)
	return res, nil
}

// DropRelationsAllBuffers is DropRelFileNodesAllBuffers (bufmgr.c, PG
// 14–15; PG 16+ DropRelationsAllBuffers): remove every buffer of every fork
// of rels, as DROP TABLE does at commit (smgrdounlinkall) and its replay.
// With DropAuto, the per-block lookup of every existing fork when all their
// sizes are cached and the total is below NBuffers/32, else one full scan
// testing each buffer against the relations one by one (up to
// RELS_BSEARCH_THRESHOLD = 20 relations) or by binary search in the
// sorted list (more). DropScan, DropLookup and DropDList force a path as
// for DropRelationBuffers (the dlist walks each relation's list).
//
// No relations is no work (PostgreSQL returns at once). A nil relation, a
// dlist without the pool option or an unknown strategy is an error.
//
// Events: an op at dropall.begin (Class none, Obj = the number of
// relations; for one relation Class rel, Obj = its number; Before =
// requested strategy, After = strategy taken, Arg = nBlocksToInvalidate),
// then the path's events (a load at dropall.precheck-linear or
// dropall.precheck-bsearch per descriptor for the scan), then an op-done
// with the same Class and Obj (After = buffers invalidated).
func (b *Backend) DropRelationsAllBuffers(rels []*Relation, strategy DropStrategy) (DropResult, error) {
	p := b.pool
	res := DropResult{Requested: strategy, Threshold: BufDropFullScanThreshold(p.NBuffers)}
	if err := p.checkDropStrategy(strategy); err != nil {
		return res, err
	}
	for i, r := range rels {
		if r == nil {
			return res, fmt.Errorf("bufmgr: DropRelationsAllBuffers: relation %d is nil", i)
		}
	}
	if len(rels) == 0 {
		res.Strategy = strategy
		if strategy == DropAuto {
			res.Strategy = DropScan
		}
		return res, nil
	}

	// The sizes of every fork that exists (backend-local).
	cached := true
	var n uint64
	for _, r := range rels {
		for f := MainForkNum; f <= MaxForkNum; f++ {
			size := p.smgrnblocksCached(r, f)
			if size == InvalidBlockNumber {
				if !smgrexists(r, f) {
					continue
				}
				cached = false
				break
			}
			n += uint64(size)
		}
		if !cached {
			break
		}
	}
	res.Cached = cached
	res.BlocksToInvalidate = n
	if !cached {
		res.BlocksToInvalidate = uint64(InvalidBlockNumber)
	}
	res.Strategy = strategy
	if strategy == DropAuto {
		res.Strategy = DropScan
		if cached && n < res.Threshold {
			res.Strategy = DropLookup
		}
	}
	res.BSearch = res.Strategy == DropScan && len(rels) > relsBSearchThreshold

	class, obj := trace.ONone, int32(len(rels))
	if len(rels) == 1 {
		class, obj = trace.ORelation, int32(rels[0].Number)
	}
	before := b.Stats
	b.emit(trace.KOp, sDropAllBegin, class, obj, uint64(strategy), uint64(res.Strategy), res.BlocksToInvalidate)
	var err error
	done := sDropAllScanDone
	switch res.Strategy {
	case DropLookup:
		done = sDropAllLookupDone
	lookup:
		for _, r := range rels {
			for f := MainForkNum; f <= MaxForkNum; f++ {
				if !smgrexists(r, f) {
					continue
				}
				size := p.smgrnblocksCached(r, f)
				if size == InvalidBlockNumber {
					size = r.NBlocks[f] // forced: smgrnblocks
				}
				if err = b.findAndDropRelFileNodeBuffers(r.RelFileNode(), f, size, 0); err != nil {
					break lookup
				}
			}
		}
	case DropScan:
		err = b.dropAllScan(rels, res.BSearch)
	case DropDList:
		done = sDListDone
		for _, r := range rels {
			spec := dropSpec{rnode: r.RelFileNode(), all: true}
			if err = b.dropListWalk(&spec); err != nil {
				break
			}
		}
	}
	res.count(before, b.Stats)
	if err != nil {
		return res, err
	}
	b.emit(trace.KOpDone, done, class, obj, 0, res.Invalidated, 0)
	return res, nil
}

// checkDropStrategy rejects a strategy the pool cannot run: an unknown
// one, or dlist on a pool built without the per-relation lists.
func (p *Pool) checkDropStrategy(s DropStrategy) error {
	if s >= numDropStrategies {
		return fmt.Errorf("bufmgr: unknown drop strategy %d", s)
	}
	if s == DropDList && p.dl == nil {
		return fmt.Errorf("bufmgr: drop strategy dlist needs a pool built with Options.DropList (the per-relation buffer lists)")
	}
	return nil
}
