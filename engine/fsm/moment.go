package fsm

import (
	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// MomentOf says which lesson moment a free-space-map event is, if any: a
// read of an FSM page past the fork's end that reads nothing (fsm_readbuf
// with extend=false: the small-table skip when the fork does not exist),
// the creation of the FSM fork (fsm_extend's smgrcreate), an ERROR. One
// event: O(1).
func MomentOf(e trace.Event) trace.Moment {
	switch e.Kind {
	case trace.KFSMSkip:
		return trace.MomentFSMSkip
	case trace.KForkSize:
		before, _ := UnpackForkWord(e.Before)
		after, _ := UnpackForkWord(e.After)
		if f, _, _ := UnpackAddr(e.Arg); f == bufmgr.FSMForkNum && !before && after {
			return trace.MomentFSMCreate
		}
	case trace.KError:
		return trace.MomentError
	}
	return trace.MomentNone
}
