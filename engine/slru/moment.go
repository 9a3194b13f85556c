package slru

import "bufferlab/engine/trace"

// MomentOf says which lesson moment an SLRU event is, if any: a bank
// search comparing a slot that holds the page sought (the compare that
// matches, in SimpleLruReadPage_ReadOnly's or SlruSelectLRUPage's loop),
// a slot chosen as victim (an empty slot used at once is not a victim:
// nothing is thrown out), an ERROR. One event: O(1).
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
	case trace.KError:
		return trace.MomentError
	}
	return trace.MomentNone
}
