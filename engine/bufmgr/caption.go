package bufmgr

import (
	"fmt"
	"strings"

	"bufferlab/engine/trace"
)

// captionLookBack bounds how far back a caption looks for the event that
// explains this one (who changed a word first): a window, so a caption
// costs O(1) however long the run.
const captionLookBack = 4096

// Caption says event i of evs in plain English, in one line, with the
// scenario's names: the pool's and its pins' and drops' events.
func Caption(evs []trace.Event, i int, names RelNamer, actor func(trace.Actor) string) string {
	e := evs[i]
	who := actor(e.Actor)
	switch e.Kind {
	case trace.KCASFail:
		if e.Class == trace.OBuffer {
			return casFailCaption(evs, i, who, actor)
		}
	}
	// Not yet captioned in words: the event's description without its
	// columns.
	d := DescribeWith(e, names, actor)
	if f := strings.Fields(d); len(f) > 4 {
		d = strings.Join(f[4:], " ")
	}
	return fmt.Sprintf("%s: %s %s", who, e.Kind, d)
}

// casFailCaption names the backend that changed the word between this
// backend's read and its CAS: the latest write to the same buffer's word by
// another actor (CAS, header lock or unlock) before i.
func casFailCaption(evs []trace.Event, i int, who string, actor func(trace.Actor) string) string {
	e := evs[i]
	expected, found := uint32(e.Before), uint32(e.After)
	change := fmt.Sprintf("refcount %d → %d", StateRefcount(expected), StateRefcount(found))
	if StateRefcount(expected) == StateRefcount(found) {
		change = fmt.Sprintf("%s → %s", StateString(expected), StateString(found))
	}
	for j := i - 1; j >= 0 && j >= i-captionLookBack; j-- {
		o := evs[j]
		if o.Class != trace.OBuffer || o.Obj != e.Obj || o.Actor == e.Actor {
			continue
		}
		switch o.Kind {
		case trace.KCAS, trace.KLockHdr, trace.KUnlockHdr:
			return fmt.Sprintf("%s's CAS failed: %s changed buffer %d's state word first (%s). %s reloads the word and retries.",
				who, actor(o.Actor), e.Obj, change, who)
		}
	}
	return fmt.Sprintf("%s's CAS failed: buffer %d's state word changed since %s read it (%s). %s reloads the word and retries.",
		who, e.Obj, who, change, who)
}
