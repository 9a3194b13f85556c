package bufmgr

import "bufferlab/engine/trace"

// MomentOf says which lesson moment a buffer-pool event is, if any: a
// failed CAS on a state word, a spin on the header lock, a victim from the
// freelist or the clock sweep, a ring's buffer reused, a dirty victim
// written out (FlushBuffer from BufferAlloc), a mapping-table lookup that
// found nothing, or (a read's, in BufferAlloc) one that found the page, a
// buffer invalidated by a drop (its tag cleared), an ERROR, a read call of
// several blocks (PostgreSQL 17's smgrreadv). One event, no context: cost
// O(1).
func MomentOf(e trace.Event) trace.Moment {
	switch e.Kind {
	case trace.KCASFail:
		if e.Class == trace.OBuffer {
			return trace.MomentCASFail
		}
	case trace.KSpin:
		return trace.MomentSpin
	case trace.KVictim:
		if e.Arg == VictimRing {
			return trace.MomentRingReuse
		}
		return trace.MomentVictim
	case trace.KIOWrite:
		if e.Site == sFlushWrite {
			return trace.MomentDirtyEvict
		}
	case trace.KMapLookup:
		if e.After == trace.NoBuffer {
			return trace.MomentLookupMiss
		}
		if e.Site == sAllocLookup || e.Site == s16Lookup {
			return trace.MomentLookupHit
		}
	case trace.KRetag:
		if e.After == noTag && e.Site == sInvalClear {
			return trace.MomentDrop // not a victim's tag cleared in 16+ (InvalidateVictimBuffer)
		}
	case trace.KIORead:
		if e.Before == 0 && e.After > 1 {
			return trace.MomentReadV
		}
	case trace.KAIO:
		if _, worker := IOWorkerOf(e.Actor); worker && e.Arg&0xff == trace.AIOComplete {
			return trace.MomentAIOComplete
		}
	case trace.KError:
		return trace.MomentError
	}
	return trace.MomentNone
}
