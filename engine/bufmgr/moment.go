package bufmgr

import "bufferlab/engine/trace"

// MomentOf says which lesson moment a buffer-pool event is, if any: a
// failed CAS on a state word, a spin on the header lock, a victim from the
// freelist or the clock sweep, a ring's buffer reused, a dirty victim
// written out (FlushBuffer from BufferAlloc), a mapping-table lookup that
// found nothing, or (a read's, in BufferAlloc) one that found the page, a
// buffer invalidated by a drop (its tag cleared), an ERROR. One event, no
// context: cost O(1).
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
		if e.Site == sAllocLookup {
			return trace.MomentLookupHit
		}
	case trace.KRetag:
		if e.After == noTag {
			return trace.MomentDrop
		}
	case trace.KError:
		return trace.MomentError
	}
	return trace.MomentNone
}
