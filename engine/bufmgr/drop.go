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
// Three ways to find the buffers (DropStrategy):
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

func (p *Pool) checkDropStrategy(s DropStrategy) error {
	if s >= numDropStrategies {
		return fmt.Errorf("bufmgr: unknown drop strategy %d", s)
	}
	if s == DropDList && p.dl == nil {
		return fmt.Errorf("bufmgr: drop strategy dlist needs a pool built with Options.DropList (the per-relation buffer lists)")
	}
	return nil
}

// count fills the per-call counters from the backend's before and after.
func (r *DropResult) count(before, after Stats) {
	r.DescsTouched = after.DropDescsTouched - before.DropDescsTouched
	r.Lookups = after.DropLookups - before.DropLookups
	r.PartitionLocks = after.DropPartitionLocks - before.DropPartitionLocks
	r.ListHops = after.DropListHops - before.DropListHops
	r.Invalidated = after.DropInvalidated - before.DropInvalidated
	r.PinWaits = after.DropPinWaits - before.DropPinWaits
}

// dropScan is the full scan of DropRelFileNodeBuffers: the unlocked
// pre-check of the relation part of every descriptor's tag, then for a
// match the header lock, the full re-check (fork, block) and
// InvalidateBuffer. The pre-check is safe without the lock because the tag
// of a buffer can only move away from the relation being dropped (e8d029a30b).
func (b *Backend) dropScan(spec *dropSpec) error {
	descs := b.pool.descs
	if !b.hooked() {
		// Fast path (see hooked): the same steps without yields and events.
		b.Stats.DropDescsTouched += uint64(len(descs))
		r := spec.rnode
		for i := range descs {
			t := &descs[i].tag
			if t.RelNode != r.RelNode || t.DbNode != r.DbNode || t.SpcNode != r.SpcNode {
				continue
			}
			if err := b.dropLockedRecheck(&descs[i], spec, sDropLock, sDropUnlock); err != nil {
				return err
			}
		}
		return nil
	}
	// Modelled path.
	for i := range descs {
		d := &descs[i]
		b.step(sDropPrecheck)
		b.Stats.DropDescsTouched++
		if b.traced() {
			b.emitSlow(trace.KLoad, sDropPrecheck, trace.OBuffer, d.bufID, 0, uint64(d.state.Load()), d.tag.Pack())
		}
		if t := &d.tag; t.RelNode != spec.rnode.RelNode || t.DbNode != spec.rnode.DbNode || t.SpcNode != spec.rnode.SpcNode {
			continue
		}
		if err := b.dropLockedRecheck(d, spec, sDropLock, sDropUnlock); err != nil {
			return err
		}
	}
	return nil
}

// dropLockedRecheck locks d's header, re-checks the tag against spec and
// invalidates the buffer, or unlocks it.
func (b *Backend) dropLockedRecheck(d *BufferDesc, spec *dropSpec, lockSite, unlockSite trace.Site) error {
	s := b.lockBufHdr(d, lockSite)
	if spec.matches(&d.tag) {
		return b.invalidateBuffer(d, s)
	}
	b.unlockBufHdr(d, s, unlockSite)
	return nil
}

// DropBufferLocked is the locked half of DropRelFileNodeBuffers' full scan
// for buffer id, for a caller that made the unlocked pre-check itself on
// its own copy of the tags: fast mode times the scan over PostgreSQL's
// 64-byte padded descriptors (BufferDescPadded, buf_internals.h), which
// the engine's compact BufferDesc is not. LockBufHdr, the re-check of the
// relation, fork and first block, then InvalidateBuffer (which releases
// the header lock) or UnlockBufHdr, as in the scan. It reports whether the
// buffer was invalidated. Events as the scan's at drop.lock and
// drop.unlock, and InvalidateBuffer's; not the pre-check's load.
func (b *Backend) DropBufferLocked(id int, rel *Relation, fork ForkNumber, firstDelBlock uint32) (bool, error) {
	p := b.pool
	if id < 0 || id >= p.NBuffers {
		return false, fmt.Errorf("bufmgr: DropBufferLocked: no buffer %d in a pool of %d", id, p.NBuffers)
	}
	if rel == nil {
		return false, fmt.Errorf("bufmgr: DropBufferLocked of no relation")
	}
	if fork < MainForkNum || fork > MaxForkNum {
		return false, fmt.Errorf("bufmgr: DropBufferLocked(%s): no fork %d", rel.Name, fork)
	}
	spec := dropSpec{rnode: rel.RelFileNode(), n: 1}
	spec.forks[0], spec.first[0] = fork, firstDelBlock
	before := b.Stats.DropInvalidated
	err := b.dropLockedRecheck(&p.descs[id], &spec, sDropLock, sDropUnlock)
	return b.Stats.DropInvalidated != before, err
}

// dropAllScan is the full scan of DropRelFileNodesAllBuffers: each
// descriptor's relation is looked for among rels, linearly or (bsearch) by
// binary search in the sorted list; on a match, the header lock, the
// re-check of the relation, and InvalidateBuffer.
func (b *Backend) dropAllScan(rels []*Relation, bsearch bool) error {
	nodes := make([]RelFileNode, len(rels)) // one allocation per drop, as PostgreSQL's palloc
	for i, r := range rels {
		nodes[i] = r.RelFileNode()
	}
	if bsearch {
		slices.SortFunc(nodes, compareRelFileNode)
	}
	precheck := sDropAllLinear
	if bsearch {
		precheck = sDropAllBSearch
	}
	hooked := b.hooked()
	descs := b.pool.descs
	if !hooked {
		b.Stats.DropDescsTouched += uint64(len(descs))
	}
	for i := range descs {
		d := &descs[i]
		if hooked {
			b.step(precheck)
			b.Stats.DropDescsTouched++
			if b.traced() {
				b.emitSlow(trace.KLoad, precheck, trace.OBuffer, d.bufID, 0, uint64(d.state.Load()), d.tag.Pack())
			}
		}
		rn := RelFileNode{SpcNode: d.tag.SpcNode, DbNode: d.tag.DbNode, RelNode: d.tag.RelNode}
		k := -1
		if !bsearch {
			for j := range nodes {
				if nodes[j] == rn {
					k = j
					break
				}
			}
		} else if j, ok := slices.BinarySearchFunc(nodes, rn, compareRelFileNode); ok {
			k = j
		}
		if k < 0 {
			continue
		}
		spec := dropSpec{rnode: nodes[k], all: true}
		if err := b.dropLockedRecheck(d, &spec, sDropAllLock, sDropAllUnlock); err != nil {
			return err
		}
	}
	return nil
}

// findAndDropRelFileNodeBuffers is FindAndDropRelFileNodeBuffers (bufmgr.c,
// PG 14–15; PG 16+ FindAndDropRelationBuffers): for each block from
// firstDelBlock up to nForkBlock, look its tag up in the mapping table under
// the partition lock taken shared, and if a buffer holds it, lock that
// buffer's header, re-check (it may have been recycled since the lookup)
// and invalidate it.
func (b *Backend) findAndDropRelFileNodeBuffers(rnode RelFileNode, f ForkNumber, nForkBlock, firstDelBlock uint32) error {
	p := b.pool
	for cur := firstDelBlock; cur < nForkBlock; cur++ {
		tag := BufferTag{SpcNode: rnode.SpcNode, DbNode: rnode.DbNode, RelNode: rnode.RelNode, ForkNum: f, BlockNum: cur}
		part := BufTableHashPartition(BufTableHashCode(tag))
		// DropPartitionLocks, DropLookups and (when the lookup finds a
		// buffer) DropDescsTouched are counted by lwAcquire and
		// bufTableLookup as they emit the event, so that the counters match
		// the trace after every event.
		b.partitionLock(part, LWShared, sLookupLock)
		id := b.bufTableLookup(tag, part, sLookupLookup)
		b.partitionUnlock(part, sLookupUnlock)
		if id < 0 {
			continue
		}
		d := &p.descs[id] // DropDescsTouched was counted when the lookup found it
		s := b.lockBufHdr(d, sLookupHdrLock)
		if d.tag.SameRel(tag) && d.tag.ForkNum == f && d.tag.BlockNum >= firstDelBlock {
			if err := b.invalidateBuffer(d, s); err != nil {
				return err
			}
			continue
		}
		b.unlockBufHdr(d, s, sLookupHdrUnlock)
	}
	return nil
}

// dropListWalk is the dlist variant's drop (BufferLab's reconstruction of
// the thread's patch, see dlist.go): walk spec's relation's list, reading
// each link under the list lock taken shared, and invalidate the buffers
// that match, without the list lock (InvalidateBuffer takes it
// exclusively to unlink). If the next buffer left the list while the lock
// was released (another backend evicted it), start over from the head.
//
// Events: lw-acquire/lw-release of the list lock (class rel); a load at
// dlist.head (class rel, Obj = relation, After = first buffer or -1, Arg =
// list length), one at dlist.next per node (class buf, Obj = the node,
// After = its state word, Arg = the next buffer or -1), and one at
// dlist.restart (like dlist.head) when the walk starts over.
func (b *Backend) dropListWalk(spec *dropSpec) error {
	dl := b.pool.dl
	rel := int32(spec.rnode.RelNode)
	k := dl.find(spec.rnode)
	if k == relListNone {
		// The relation never had a buffer: its entry does not exist.
		b.step(sDListHead)
		b.Stats.DropListHops++
		b.emit(trace.KLoad, sDListHead, trace.ORelation, rel, 0, trace.NoBuffer, 0)
		return nil
	}
	b.listLock(k, LWShared, sDListLock)
	b.step(sDListHead)
	cur := dl.lists[k].head
	b.Stats.DropListHops++
	b.emit(trace.KLoad, sDListHead, trace.ORelation, rel, 0, uint64(int64(cur)), uint64(dl.lists[k].n))
	for cur != relListNone {
		d := &b.pool.descs[cur]
		b.step(sDListNext)
		next := dl.next[cur]
		b.Stats.DropListHops++
		b.Stats.DropDescsTouched++
		if b.traced() {
			b.emitSlow(trace.KLoad, sDListNext, trace.OBuffer, cur, 0, uint64(d.state.Load()), uint64(int64(next)))
		}
		b.listUnlock(k, sDListUnlock)
		if err := b.dropLockedRecheck(d, spec, sDListHdrLock, sDListHdrUnlock); err != nil {
			return err
		}
		b.listLock(k, LWShared, sDListRelock)
		if next != relListNone && dl.owner[next] != k {
			b.step(sDListRestart)
			next = dl.lists[k].head
			b.Stats.DropListHops++
			b.emit(trace.KLoad, sDListRestart, trace.ORelation, rel, 0, uint64(int64(next)), uint64(dl.lists[k].n))
		}
		cur = next
	}
	b.listUnlock(k, sDListDone)
	return nil
}

// invalidateBuffer is InvalidateBuffer (bufmgr.c, PG 9.6–15; unchanged in
// 16–18): entered with d's header locked (state s), it removes d's page
// from the pool. It takes the old tag's mapping partition lock exclusively
// and relocks the header; if the buffer was recycled meanwhile it leaves it
// alone; if another backend pins it (PostgreSQL assumes: to write it out)
// it releases everything, waits and retries; otherwise it clears the tag,
// the flags and the usage count, deletes the mapping entry and puts the
// buffer at the head of the freelist (StrategyFreeBuffer). With the dlist
// variant it also takes the relation's list lock and unlinks the buffer.
//
// The wait: PostgreSQL calls WaitIO, which returns at once when no I/O is
// in progress, and retries, busy-waiting until the pin goes. BufferLab
// does WaitIO, then yields as a waiting backend until the refcount is 0,
// and only then retries: the retries it skips would all find the buffer
// still pinned (a pinned buffer cannot be retagged). Unscheduled, a wait
// that only another backend can end panics, as everywhere in the engine.
// Our own pin is ERROR "buffer is pinned in InvalidateBuffer".
func (b *Backend) invalidateBuffer(d *BufferDesc, s uint32) error {
	p := b.pool
	oldTag := d.tag
	b.unlockBufHdr(d, s, sInvalUnlock)
	oldPart := BufTableHashPartition(BufTableHashCode(oldTag))
	listK := relListNone
	if p.dl != nil {
		listK = p.dl.find(oldTag.RelFileNode())
	}
	for {
		b.partitionLock(oldPart, LWExclusive, sInvalLockPart) // counts DropPartitionLocks
		if listK != relListNone {
			b.listLock(listK, LWExclusive, sInvalLockList)
		}
		s = b.lockBufHdr(d, sInvalRelock)
		if d.tag != oldTag {
			b.unlockBufHdr(d, s, sInvalChangedUnlock)
			if listK != relListNone {
				b.listUnlock(listK, sInvalChangedRelease)
			}
			b.partitionUnlock(oldPart, sInvalChangedRelease)
			return nil
		}
		if StateRefcount(s) != 0 {
			b.unlockBufHdr(d, s, sInvalPinnedUnlock)
			own := b.PrivateRefCount(Buffer(d.bufID+1)) > 0
			if !own {
				b.Stats.DropPinWaits++
				b.Stats.IOWaits++
				b.emit(trace.KIOWait, sInvalWait, trace.OBuffer, d.bufID, 0, uint64(s), 0)
			}
			if listK != relListNone {
				b.listUnlock(listK, sInvalPinnedRelease)
			}
			b.partitionUnlock(oldPart, sInvalPinnedRelease)
			if own {
				b.Stats.Errors++
				b.emit(trace.KError, sInvalOwnPin, trace.OBuffer, d.bufID, 0, 0, uint64(ErrPinnedInInvalidate))
				return &PGError{Code: ErrPinnedInInvalidate, Msg: "buffer is pinned in InvalidateBuffer"}
			}
			b.waitIO(d)
			for StateRefcount(d.state.Load()) != 0 {
				b.stepWait(sInvalWait)
			}
			continue
		}
		// CLEAR_BUFFERTAG and the flags and usage count, stored with the
		// unlock: one step, so that nobody sees the cleared tag with
		// BM_TAG_VALID still set.
		oldFlags := s & BufFlagMask
		b.step(sInvalClear)
		// The unlock (BM_TAG_VALID gone) is reported before the cleared
		// tag, so that after each event the trace tells the whole state.
		prev := d.state.Load()
		after := s &^ (BufFlagMask | BufUsagecountMask)
		d.state.Store(after)
		b.emit(trace.KUnlockHdr, sInvalClear, trace.OBuffer, d.bufID, uint64(prev), uint64(after), 0)
		d.tag = BufferTag{}
		b.emit(trace.KRetag, sInvalClear, trace.OBuffer, d.bufID, oldTag.Pack(), noTag, 0)
		if listK != relListNone {
			b.dlistUnlinkInvalidated(d, listK)
			b.listUnlock(listK, sInvalUnlink)
		}
		if oldFlags&BmTagValid != 0 {
			b.bufTableDelete(oldTag, oldPart, sInvalDelete)
		}
		b.partitionUnlock(oldPart, sInvalRelease) // counts DropInvalidated
		b.strategyFreeBuffer(d)
		return nil
	}
}

// dlistUnlinkInvalidated unlinks d, just invalidated, from list k, whose
// lock the caller holds exclusively. Event: a cas at inval.unlink (class
// rel, Obj = relation, Before = the previous neighbour, After = the next,
// Arg = buffer id).
func (b *Backend) dlistUnlinkInvalidated(d *BufferDesc, k int32) {
	dl := b.pool.dl
	id := d.bufID
	switch dl.owner[id] {
	case k:
	case relListNone:
		return // never linked (cannot happen for a buffer with a valid tag)
	default:
		panic(fmt.Sprintf("bufmgr: InvalidateBuffer of buffer %d: it is on the list of %d, not %d",
			id, dl.lists[dl.owner[id]].rnode.RelNode, dl.lists[k].rnode.RelNode))
	}
	b.step(sInvalUnlink)
	p, n := dl.prev[id], dl.next[id]
	dl.unlink(id)
	b.Stats.DListUnlinks++
	b.emit(trace.KCAS, sInvalUnlink, trace.ORelation, int32(dl.lists[k].rnode.RelNode), uint64(int64(p)), uint64(int64(n)), uint64(id))
}

// strategyFreeBuffer is StrategyFreeBuffer (freelist.c, PG 9.5–18): put d
// at the head of the freelist unless it is on it already (the clock sweep
// can reuse a buffer without taking it off the list). Event: freelist-push
// at free.push (Before = old head, After = new head = d); none when d was
// on the list already.
func (b *Backend) strategyFreeBuffer(d *BufferDesc) {
	p := b.pool
	b.lwAcquireSpin(sFreeSpinAcquire)
	if d.freeNext == FreeNextNotInList {
		old := p.firstFreeBuffer
		d.freeNext = old
		if old < 0 {
			p.lastFreeBuffer = d.bufID
		}
		p.firstFreeBuffer = d.bufID
		b.emit(trace.KFreelistPush, sFreePush, trace.OBuffer, d.bufID, uint64(int64(old)), uint64(d.bufID), 0)
	}
	b.lwReleaseSpin(sFreeSpinRelease)
}

// DescribeDrop decodes the events of the drop functions and of the dlist
// variant that Describe does not know: it returns Describe's layout and
// true for them, and "", false for any other event.
func DescribeDrop(e trace.Event, names RelNamer) (string, bool) {
	return DescribeDropWith(e, names, trace.ActorName)
}

// DescribeDropWith is DescribeDrop with backends named by actor, as
// DescribeWith.
func DescribeDropWith(e trace.Event, names RelNamer, actor func(trace.Actor) string) (string, bool) {
	detail, ok := dropDetail(e, names)
	if !ok {
		return "", false
	}
	obj := fmt.Sprintf("%s %d", e.Class, int32(e.Obj))
	switch e.Class {
	case trace.ORelation:
		obj = "rel " + names.relName(e.Obj)
	case trace.OStrategy:
		obj = "strategy"
	case trace.ONone:
		obj = fmt.Sprintf("%d relations", e.Obj)
	}
	return fmt.Sprintf("%05d %-3s %-13s %-24s %s%s", e.Seq, actor(e.Actor), e.Kind, e.Site, obj, detail), true
}

func (n RelNamer) relName(rel uint32) string {
	if n != nil {
		return n(rel)
	}
	return fmt.Sprint(rel)
}

func idOrNone(v uint64) string {
	if int64(v) < 0 {
		return "none"
	}
	return fmt.Sprintf("buf %d", v)
}

// dropDetail is DescribeDrop's text after the object, for the events it
// knows.
func dropDetail(e trace.Event, names RelNamer) (string, bool) {
	switch {
	case e.Kind == trace.KOp && (e.Site == sDropBegin || e.Site == sDropAllBegin):
		blocks := "sizes not cached"
		if e.Arg != uint64(InvalidBlockNumber) {
			blocks = fmt.Sprintf("%d blocks to drop", e.Arg)
		}
		return fmt.Sprintf(": strategy %s -> %s, %s", DropStrategy(e.Before), DropStrategy(e.After), blocks), true
	case e.Kind == trace.KOpDone && (e.Site == sDropLookupDone || e.Site == sDropScanDone || e.Site == sDropAllLookupDone ||
		e.Site == sDropAllScanDone || e.Site == sDListDone):
		return fmt.Sprintf(": %d buffers invalidated", e.After), true
	case e.Kind == trace.KLoad && (e.Site == sDropPrecheck || e.Site == sDropAllLinear || e.Site == sDropAllBSearch):
		tag := "none"
		if e.Arg != 0 {
			tag = names.tag(UnpackTag(e.Arg))
		}
		return fmt.Sprintf(": tag %s, %s", tag, StateString(uint32(e.After))), true
	case e.Kind == trace.KLoad && (e.Site == sDListHead || e.Site == sDListRestart):
		return fmt.Sprintf(": head %s, %d on the list", idOrNone(e.After), e.Arg), true
	case e.Kind == trace.KLoad && e.Site == sDListNext:
		return fmt.Sprintf(": next %s, %s", idOrNone(e.Arg), StateString(uint32(e.After))), true
	case e.Kind == trace.KCAS && (e.Site == sDListAllocLink):
		return fmt.Sprintf(": link buf %d at the head (was %s)", e.Arg, idOrNone(e.Before)), true
	case e.Kind == trace.KCAS && (e.Site == sDListAllocUnlink || e.Site == sInvalUnlink):
		return fmt.Sprintf(": unlink buf %d (between %s and %s)", e.Arg, idOrNone(e.Before), idOrNone(e.After)), true
	case e.Kind == trace.KRetag && e.After == noTag:
		return fmt.Sprintf(": %s -> (none)", names.tag(UnpackTag(e.Before))), true
	case e.Kind == trace.KFreelistPush:
		return fmt.Sprintf(": first free %d -> %d", int64(e.Before), int64(e.After)), true
	case e.Kind == trace.KIOWait && e.Site == sInvalWait:
		return fmt.Sprintf(": pinned, wait: %s", StateString(uint32(e.After))), true
	case e.Kind == trace.KError && e.Arg == uint64(ErrPinnedInInvalidate):
		return ": buffer is pinned in InvalidateBuffer", true
	}
	return "", false
}

// dropCounted adds to the drop counters that belong to an event at site,
// called by the helpers that emit lock and lookup events just before they
// emit (and on their fast paths), so that Stats matches the trace after
// every event.
func (b *Backend) dropCounted(site trace.Site) {
	switch site {
	case sLookupLock, sInvalLockPart:
		b.Stats.DropPartitionLocks++
	case sLookupLookup:
		b.Stats.DropLookups++
	case sInvalRelease:
		b.Stats.DropInvalidated++
	case sDListAllocLock, sDListLock, sDListRelock, sInvalLockList:
		b.Stats.DListLocks++
	}
}
