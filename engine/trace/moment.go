package trace

import (
	"strings"

	"bufferlab/engine/internal/enum"
)

// Moment names an event that a lesson is about: one a student should see
// happen, not watch flash by. The player stops on it (in lessons), slows
// down near it and gives it a caption. Which events are which moment is the
// owning mechanism's call (scenario.MomentOf asks it); the names are the
// vocabulary lesson authors write in a step's stops and a question's "at".
//
// Values are not part of any hash; append, never reorder (tests and lessons
// name them, not their numbers).
type Moment uint8

// The moments.
const (
	MomentNone        Moment = iota
	MomentCASFail            // a CAS on a state word failed: another backend changed it first (KCASFail)
	MomentSpin               // a backend found the header lock held and spun (KSpin)
	MomentVictim             // the freelist or the clock sweep gave a buffer up as victim (KVictim, not a ring's)
	MomentDirtyEvict         // a dirty victim is written out before reuse (KIOWrite)
	MomentRingReuse          // a strategy ring's own buffer is reused (KVictim from the ring)
	MomentLookupMiss         // the mapping table has no entry for a tag (KMapLookup → no buffer)
	MomentDrop               // a buffer of a dropped relation is invalidated (KRetag to no tag)
	MomentSLRUMatch          // an SLRU bank search compares a slot that holds the page sought
	MomentSLRUVictim         // an SLRU slot is chosen as victim
	MomentFSMSkip            // the FSM read finds the page past the fork's end and reads nothing (KFSMSkip)
	MomentFSMCreate          // a relation's free space map fork is created
	MomentError              // a PostgreSQL-level ERROR (KError)
	MomentLookupHit          // a read finds its page in the mapping table (KMapLookup → a buffer, BufferAlloc's lookup)
	MomentSLRULookup         // a backend takes the lock it searches an SLRU under, to look for a page (its bank's; the whole SLRU's ControlLock before PG 17)
	MomentReadV              // one read call brings in several blocks (PostgreSQL 17's smgrreadv: the KIORead of its first block)
	MomentAIOComplete        // an I/O worker completes an AIO read for a backend (PostgreSQL 18: KAIO AIOComplete by a worker)
	numMoments
)

var momentNames = [numMoments]string{
	MomentNone: "none", MomentCASFail: "cas-fail", MomentSpin: "spin", MomentVictim: "victim",
	MomentDirtyEvict: "dirty-evict", MomentRingReuse: "ring-reuse", MomentLookupMiss: "lookup-miss",
	MomentDrop: "drop", MomentSLRUMatch: "slru-match", MomentSLRUVictim: "slru-victim",
	MomentFSMSkip: "fsm-skip", MomentFSMCreate: "fsm-create", MomentError: "error",
	MomentLookupHit: "lookup-hit", MomentSLRULookup: "slru-lookup", MomentReadV: "readv",
	MomentAIOComplete: "aio-complete",
}

func (m Moment) String() string { return enum.Name(momentNames[:], m, "moment") }

// ParseMoment reads a moment's name ("cas-fail"); "none" is not a moment
// one can ask for.
func ParseMoment(s string) (Moment, bool) {
	m, ok := enum.Parse[Moment](momentNames[:], s)
	return m, ok && m != MomentNone
}

// MomentNames lists the moments' names in order ("cas-fail, spin, …"),
// for errors and docs.
func MomentNames() string { return strings.Join(momentNames[1:], ", ") }

// NumMoments is the number of moments (MomentNone included), for tests
// that walk them.
const NumMoments = int(numMoments)
