package bufmgr

import (
	"bufferlab/engine/aio"
	"bufferlab/engine/trace"
)

// StrategyKind is a BufferAccessStrategyType (bufmgr.h).
type StrategyKind uint8

// Access strategies.
const (
	BASNormal    StrategyKind = iota // no ring
	BASBulkRead                      // large sequential scans: 256kB
	BASBulkWrite                     // COPY, CREATE TABLE AS: 16MB
	BASVacuum                        // VACUUM: 256kB (PG 15, 16), 2MB (17, 18)
)

func (k StrategyKind) String() string {
	return [...]string{"normal", "bulkread", "bulkwrite", "vacuum"}[k]
}

// Strategy is a BufferAccessStrategy: a ring of buffers a bulk operation
// recycles so that it does not wipe out the rest of the pool.
type Strategy struct {
	Kind             StrategyKind
	buffers          []Buffer // InvalidBuffer where not yet filled
	current          int
	currentWasInRing bool
}

// RingSize returns the number of slots in the ring.
func (s *Strategy) RingSize() int { return len(s.buffers) }

// Buffers returns the ring's slots (InvalidBuffer for empty ones).
func (s *Strategy) Buffers() []Buffer { return s.buffers }

// GetAccessStrategy builds a ring for kind (freelist.c, PG15): BULKREAD and
// VACUUM 256kB, BULKWRITE 16MB, each capped at NBuffers/8. BASNormal
// returns nil, meaning the default strategy.
func (p *Pool) GetAccessStrategy(kind StrategyKind) *Strategy {
	var ringBytes int
	switch kind {
	case BASNormal:
		return nil
	case BASBulkRead, BASVacuum:
		ringBytes = 256 * 1024
		if kind == BASVacuum && p.version >= 17 {
			// vacuum_buffer_usage_limit (16+) is 2MB by default from 17
			// on (guc_tables.c, REL_17_9; 16's default was 256kB).
			ringBytes = 2048 * 1024
		}
	case BASBulkWrite:
		ringBytes = 16 * 1024 * 1024
	}
	size := min(ringBytes/BLCKSZ, p.NBuffers/8)
	if kind == BASBulkRead && p.version >= 18 {
		// 18 sizes the BULKREAD ring for the read stream's look-ahead:
		// 256kB + io_combine_limit × effective_io_concurrency blocks,
		// capped by the pin limit and NBuffers/8 (freelist.c, REL_18_4).
		size = aio.GetAccessStrategy(aio.BulkRead, p.NBuffers, aio.DefaultMaxBackends, p.ioCombineLimit, p.effectiveIOConcurrency).Buffers
	}
	return &Strategy{Kind: kind, buffers: make([]Buffer, size)}
}

// strategyGetBuffer is StrategyGetBuffer (freelist.c, PG15). It returns the
// victim with its header locked (the returned state has BM_LOCKED) and
// refcount 0, or the "no unpinned buffers available" error.
func (b *Backend) strategyGetBuffer(strategy *Strategy) (*BufferDesc, uint32, error) {
	p := b.pool
	if strategy != nil {
		if d, s := b.getBufferFromRing(strategy); d != nil {
			b.Stats.RingVictims++
			b.emit(trace.KVictim, sRingReuse, trace.OBuffer, d.bufID, uint64(strategy.current), uint64(s), VictimRing)
			return d, s, nil
		}
	}
	b.step(sSGBAllocs)
	old := p.numBufferAllocs.Add(1) - 1
	b.emit(trace.KLoad, sSGBAllocs, trace.OStrategy, 0, uint64(old), uint64(old+1), 0)

	// The freelist: an unlocked peek, then pops under the spinlock.
	b.step(sSGBPeek)
	if p.firstFreeBuffer >= 0 {
		for {
			b.lwAcquireSpin(sSGBSpinAcquire)
			if p.firstFreeBuffer < 0 {
				b.lwReleaseSpin(sSGBSpinEmpty)
				break
			}
			d := &p.descs[p.firstFreeBuffer]
			before := p.firstFreeBuffer
			p.firstFreeBuffer = d.freeNext
			d.freeNext = FreeNextNotInList
			b.emit(trace.KFreelistPop, sSGBPop, trace.OBuffer, d.bufID, uint64(int64(before)), uint64(int64(p.firstFreeBuffer)), 0)
			b.lwReleaseSpin(sSGBSpinRelease)
			s := b.lockBufHdr(d, sSGBFreeLock)
			if StateRefcount(s) == 0 && StateUsagecount(s) == 0 {
				if strategy != nil {
					b.addBufferToRing(strategy, d)
				}
				b.Stats.FreelistVictims++
				b.emit(trace.KVictim, sSGBFreeVictim, trace.OBuffer, d.bufID, 0, uint64(s), VictimFreelist)
				return d, s, nil
			}
			b.unlockBufHdr(d, s, sSGBFreeUnlock)
		}
	}

	// The clock sweep.
	trycounter := p.NBuffers
	for {
		d := &p.descs[b.clockSweepTick()]
		s := b.lockBufHdr(d, sSGBSweepLock)
		if StateRefcount(s) == 0 {
			if StateUsagecount(s) != 0 {
				before := s
				s -= BufUsagecountOne
				trycounter = p.NBuffers
				b.Stats.UsageDecrements++
				b.emit(trace.KUsageDown, sSGBUsageDown, trace.OBuffer, d.bufID, uint64(before), uint64(s), 0)
			} else {
				if strategy != nil {
					b.addBufferToRing(strategy, d)
				}
				b.Stats.SweepVictims++
				b.emit(trace.KVictim, sSGBSweepVictim, trace.OBuffer, d.bufID, 0, uint64(s), VictimSweep)
				return d, s, nil
			}
		} else {
			trycounter--
			b.Stats.SkippedPinned++
			b.emit(trace.KSkipPinned, sSGBPinned, trace.OBuffer, d.bufID, 0, uint64(s), uint64(trycounter))
			if trycounter == 0 {
				b.unlockBufHdr(d, s, sSGBErrorUnlock)
				b.Stats.Errors++
				b.emit(trace.KError, sSGBError, trace.OStrategy, 0, 0, 0, uint64(ErrNoUnpinnedBuffers))
				return nil, 0, errNoUnpinned()
			}
		}
		b.unlockBufHdr(d, s, sSGBSweepUnlock)
	}
}

// Victim sources, the Arg of a victim event.
const (
	VictimFreelist = 1
	VictimSweep    = 2
	VictimRing     = 3
)

// clockSweepTick is ClockSweepTick (freelist.c, 9.5+): an atomic
// fetch-and-add of the hand; whoever lands exactly on a multiple of NBuffers
// brings the counter back into range under the spinlock and counts a
// complete pass.
func (b *Backend) clockSweepTick() int {
	p := b.pool
	n := uint32(p.NBuffers)
	b.step(sTickFetchAdd)
	victim := p.nextVictimBuffer.Add(1) - 1
	b.Stats.ClockTicks++
	b.emit(trace.KClockTick, sTickFetchAdd, trace.OStrategy, 0, uint64(victim), uint64(victim%n), 0)
	if victim >= n {
		original := victim
		victim %= n
		if victim == 0 {
			expected := original + 1
			for {
				b.lwAcquireSpin(sTickSpinAcquire)
				wrapped := expected % n
				b.step(sTickCAS)
				ok := p.nextVictimBuffer.CompareAndSwap(expected, wrapped)
				if ok {
					p.completePasses++
					b.emit(trace.KClockWrap, sTickCAS, trace.OStrategy, 0, uint64(expected), uint64(wrapped), uint64(p.completePasses))
				} else {
					cur := p.nextVictimBuffer.Load()
					b.emit(trace.KCASFail, sTickCAS, trace.OStrategy, 0, uint64(expected), uint64(cur), 0)
					expected = cur
				}
				b.lwReleaseSpin(sTickSpinRelease)
				if ok {
					break
				}
			}
		}
	}
	return int(victim)
}

// getBufferFromRing is GetBufferFromRing (freelist.c, PG15).
func (b *Backend) getBufferFromRing(s *Strategy) (*BufferDesc, uint32) {
	s.current++
	if s.current >= len(s.buffers) {
		s.current = 0
	}
	bufnum := s.buffers[s.current]
	if bufnum == InvalidBuffer {
		s.currentWasInRing = false
		b.emit(trace.KRingReject, sRingEmpty, trace.OBuffer, -1, 0, 0, uint64(s.current))
		return nil, 0
	}
	d := &b.pool.descs[bufnum-1]
	st := b.lockBufHdr(d, sRingLock)
	if StateRefcount(st) == 0 && StateUsagecount(st) <= 1 {
		s.currentWasInRing = true
		return d, st
	}
	b.Stats.RingRejects++
	b.emit(trace.KRingReject, sRingUnlock, trace.OBuffer, d.bufID, 0, uint64(st), uint64(s.current))
	b.unlockBufHdr(d, st, sRingUnlock)
	s.currentWasInRing = false
	return nil, 0
}

// addBufferToRing is AddBufferToRing: remember d in the current slot.
// The event's Before is the slot's previous buffer (0 when it was empty),
// so the ring can be shown and stepped back.
func (b *Backend) addBufferToRing(s *Strategy, d *BufferDesc) {
	prev := s.buffers[s.current]
	s.buffers[s.current] = Buffer(d.bufID + 1)
	b.emit(trace.KRingAdd, sRingAdd, trace.OBuffer, d.bufID, uint64(prev), uint64(d.bufID+1), uint64(s.current))
}

// lwAcquireSpin takes buffer_strategy_lock.
func (b *Backend) lwAcquireSpin(site trace.Site) {
	l := &b.pool.strategyLock
	waiting := false
	for {
		if waiting {
			b.stepWait(site)
		} else {
			b.step(site)
		}
		if l.TryAcquire(b.Actor, LWExclusive) {
			b.emit(trace.KSpinAcquire, site, trace.OStrategy, 0, 0, uint64(b.Actor), 0)
			return
		}
		b.Stats.Spins++
		b.emit(trace.KSpin, site, trace.OStrategy, 0, uint64(l.Excl), uint64(l.Excl), 0)
		waiting = true
	}
}

func (b *Backend) lwReleaseSpin(site trace.Site) {
	b.step(site)
	b.pool.strategyLock.Release(b.Actor)
	b.emit(trace.KSpinRelease, site, trace.OStrategy, 0, uint64(b.Actor), 0, 0)
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
