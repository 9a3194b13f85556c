package slru

import "bufferlab/engine/trace"

// MomentOf says which lesson moment an SLRU event is, if any: a bank
// search comparing a slot that holds the page sought (the compare that
// matches, in SimpleLruReadPage_ReadOnly's or SlruSelectLRUPage's loop),
// a slot chosen as victim (an empty slot used at once is not a victim:
// nothing is thrown out), the lock a lookup takes to search for a page (the
// bank's, or PG 16's ControlLock: SimpleLruReadPage_ReadOnly's shared lock,
// the exclusive one TransactionIdSetPageStatus takes), an ERROR. One
// event: O(1).
func MomentOf(e trace.Event) trace.Moment {
	switch e.Kind {
	case trace.KSlotScan:
		if page, st, _ := UnpackSlotWord(e.After); st != PageEmpty && page == int64(e.Arg) {
			return trace.MomentSLRUMatch
		}
	case trace.KVictim:
		if e.Arg != VictimEmpty {
			return trace.MomentSLRUVictim
		}
	case trace.KLWAcquire:
		if lookupLock[e.Site] {
			return trace.MomentSLRULookup
		}
	case trace.KError:
		return trace.MomentError
	}
	return trace.MomentNone
}

// lookupLock holds the sites of the locks a lookup takes to search for a
// page: SimpleLruReadPage_ReadOnly's shared lock in each variant, and the
// exclusive lock of a status update (TransactionIdSetPageStatus), with
// its PG 16 site.
var lookupLock = func() map[trace.Site]bool {
	m := map[trace.Site]bool{roBanks.lock: true, roSingle.lock: true, roHash.lock: true, sClogSetLock: true}
	if t, ok := toPG16[sClogSetLock]; ok {
		m[t] = true
	}
	return m
}()
