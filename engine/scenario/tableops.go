package scenario

import (
	"errors"
	"fmt"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
)

// Table operations of issue 13: truncate and the paused scan (scan pages=).
//
// `truncate REL [to N] [strategy=S]`: the relation loses its main-fork
// blocks from N on (default 0: all of them), as VACUUM's tail truncation
// does (lazy_truncate_heap → RelationTruncate), TRUNCATE of a table created
// in the same transaction, and their replay in recovery (smgr_redo of
// XLOG_SMGR_TRUNCATE). Their buffers go through DropRelFileNodeBuffers
// (smgrtruncate), unlike `drop` (DROP TABLE at commit: smgrdounlinkall →
// DropRelFileNodesAllBuffers). strategy= and the config's drop= variants
// choose how the buffers are found, as for drop.

// truncateOp parses `truncate REL [to N] [strategy=S]`.
func (p *parser) truncateOp(op Op, toks []token) (Op, error) {
	if err := p.needRel(toks); err != nil {
		return Op{}, err
	}
	rt := toks[1]
	st, ok := p.rels[rt.Text]
	if !ok {
		return Op{}, p.errf(rt.Pos, "truncate: expected a relation defined above, found %q", rt.Text)
	}
	if st.Heap {
		return Op{}, p.errf(rt.Pos, "truncate: %s is a heap of the free space map model, which keeps its own pages: expected a plain relation", rt.Text)
	}
	op.Rel = rt.Text
	rest := toks[2:]
	sawTo := false
	for len(rest) > 0 {
		t := rest[0]
		if t.Text == "to" && !sawTo {
			if len(rest) < 2 {
				return Op{}, p.errf(endPos(toks), "truncate: expected a number of blocks to keep after 'to'")
			}
			n, err := p.uint(rest[1], rest[1].Text, MaxRelBlocks, "truncate to")
			if err != nil {
				return Op{}, err
			}
			if uint32(n) > st.NBlocks[bufmgr.MainForkNum] {
				return Op{}, p.errf(rest[1].Pos, "truncate: %s has %d blocks: expected to N with N at most that (a truncation never extends)", rt.Text, st.NBlocks[bufmgr.MainForkNum])
			}
			op.From, sawTo = uint32(n), true
			rest = rest[2:]
			continue
		}
		k, v, ok := splitKV(t)
		if !ok || k != "strategy" {
			return Op{}, p.errf(t.Pos, "truncate: expected 'to N' or strategy=auto|scan|lookup|dlist, found %q", t.Text)
		}
		s, err := p.dropStrategy(t, v)
		if err != nil {
			return Op{}, err
		}
		op.Strategy = s
		rest = rest[1:]
	}
	return op, nil
}

// execTruncate is RelationTruncate (catalog/storage.c, PG 15) followed by
// smgrtruncate2 (smgr.c, PG 15.8+; smgrtruncate before): the main fork is
// cut to N blocks; the free space map and the visibility map, where they
// exist, are cut to what their prepare functions return, and left out
// when those return InvalidBlockNumber (nothing to cut). One call of
// DropRelFileNodeBuffers drops the buffers of every fork in the list at or
// past its new size; then each fork shrinks (Relation.NBlocks).
//
// The prepare functions read, zero the tail of and dirty the last FSM or
// VM page that stays, when the new end falls inside it; that read,
// MarkBufferDirty and release are modelled. Not modelled: the WAL record,
// and FreeSpaceMapVacuumRange after the truncation (which reads the FSM's
// upper pages again to fix their values).
func (r *Runner) execTruncate(be *backendState, op Op) error {
	op.Strategy = r.dropStrategy(op.Strategy)
	rel := r.rels[op.Rel]
	nblocks := op.From
	if old := rel.NBlocks[bufmgr.MainForkNum]; nblocks > old {
		return r.errf(op.Pos, "truncate %s to %d: %s has only %d blocks now (a truncation never extends)", op.Rel, nblocks, op.Rel, old)
	}
	forks := []bufmgr.ForkNumber{bufmgr.MainForkNum}
	first := []uint32{nblocks}
	for _, f := range []struct {
		fork    bufmgr.ForkNumber
		prepare func(be *backendState, rel *bufmgr.Relation, nblocks uint32) (uint32, bool, error)
	}{{bufmgr.FSMForkNum, r.fsmPrepareTruncate}, {bufmgr.VMForkNum, r.vmPrepareTruncate}} {
		if rel.NBlocks[f.fork] == 0 {
			continue
		}
		n, ok, err := f.prepare(be, rel, nblocks)
		if err != nil {
			return err
		}
		if ok {
			forks, first = append(forks, f.fork), append(first, n)
		}
	}
	if _, err := be.b.DropRelationBuffers(rel, forks, first, op.Strategy); err != nil {
		var pg *bufmgr.PGError
		if errors.As(err, &pg) {
			return err // a PostgreSQL ERROR: aborts the transaction
		}
		return r.errf(op.Pos, "truncate: %v", err)
	}
	// smgr_truncate of each fork; a fork is never made longer.
	for j, f := range forks {
		rel.NBlocks[f] = min(rel.NBlocks[f], first[j])
	}
	return nil
}

// fsmPrepareTruncate is FreeSpaceMapPrepareTruncateRel (freespace.c, PG
// 13–15): the FSM's new size in blocks, or ok false when there is nothing
// to cut. When the first removed heap block is not the first slot of its
// leaf page, that leaf stays: it is read (if the fork has it), its tail is
// zeroed and it is dirtied, and the fork keeps the blocks up to it;
// otherwise the fork is cut before the leaf, if it is longer than that.
func (r *Runner) fsmPrepareTruncate(be *backendState, rel *bufmgr.Relation, nblocks uint32) (uint32, bool, error) {
	addr, slot := fsm.Location(nblocks)
	phys := addr.Physical()
	if slot == 0 {
		if rel.NBlocks[bufmgr.FSMForkNum] <= phys {
			return 0, false, nil // the FSM was already smaller
		}
		return phys, true, nil
	}
	if phys >= rel.NBlocks[bufmgr.FSMForkNum] {
		return 0, false, nil // fsm_readbuf(extend=false): no such page
	}
	if err := r.touchDirty(be, rel, bufmgr.FSMForkNum, phys); err != nil {
		return 0, false, err
	}
	return phys + 1, true, nil
}

// vmPrepareTruncate is visibilitymap_prepare_truncate (visibilitymap.c, PG
// 13–15): the VM's new size, or ok false when there is nothing to cut. When
// the new end is not at a map page boundary, the last map page that stays
// is read, its tail bits cleared and it is dirtied.
func (r *Runner) vmPrepareTruncate(be *backendState, rel *bufmgr.Relation, nblocks uint32) (uint32, bool, error) {
	truncBlock := nblocks / fsm.VMHeapBlocksPerPage
	newBlocks := truncBlock
	if nblocks%fsm.VMHeapBlocksPerPage != 0 {
		if truncBlock >= rel.NBlocks[bufmgr.VMForkNum] {
			return 0, false, nil // vm_readbuf(extend=false): the map was already smaller
		}
		if err := r.touchDirty(be, rel, bufmgr.VMForkNum, truncBlock); err != nil {
			return 0, false, err
		}
		newBlocks = truncBlock + 1
	}
	if rel.NBlocks[bufmgr.VMForkNum] <= newBlocks {
		return 0, false, nil
	}
	return newBlocks, true, nil
}

// touchDirty reads a block, changes it under the content lock
// (MarkBufferDirty) and releases it: ReadBufferExtended, LockBuffer
// EXCLUSIVE, MarkBufferDirty, UnlockReleaseBuffer.
func (r *Runner) touchDirty(be *backendState, rel *bufmgr.Relation, f bufmgr.ForkNumber, blk uint32) error {
	b := be.b
	buf, _, err := b.ReadBuffer(rel, f, blk, nil)
	if err != nil {
		return err
	}
	if err := b.MarkBufferDirty(buf); err != nil {
		return fmt.Errorf("truncate: %w", err)
	}
	return b.ReleaseBuffer(buf)
}

// scanOp parses the rest of `scan REL [pages=N]`: pages=N stops the scan
// after N pages with the last one still pinned, as a cursor whose FETCH
// has read that far (release it, or release all, to close the cursor).
func (p *parser) scanOp(op Op, toks []token) (Op, error) {
	for _, t := range toks[2:] {
		k, v, ok := splitKV(t)
		if !ok || k != "pages" {
			return Op{}, p.errf(t.Pos, "scan: expected pages=N (a cursor paused after N pages) or nothing after the relation name, found %q", t.Text)
		}
		n, err := p.uint(t, v, MaxRelBlocks, "pages")
		if err != nil {
			return Op{}, err
		}
		if n == 0 {
			return Op{}, p.errf(t.Pos, "pages: expected at least 1, found 0")
		}
		op.Pages = uint32(n)
	}
	return op, nil
}
