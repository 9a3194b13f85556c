package trace

import "testing"

// Every object class is owned by one mechanism, so that exactly one view
// applies its events; only ONone (idle padding) belongs to none. A class
// added to the list without an entry in classOwner fails here.
func TestEveryClassHasAnOwner(t *testing.T) {
	for c := ObjClass(0); int(c) < NumObjClasses; c++ {
		m := c.Owner()
		if c == ONone {
			if m != MNone {
				t.Errorf("ONone is owned by %s, want none", m)
			}
			continue
		}
		if m == MNone || m >= numMechanisms {
			t.Errorf("class %s (%d) has no owner: add it to classOwner", c, c)
		}
	}
	if got := ObjClass(NumObjClasses).Owner(); got != MNone {
		t.Errorf("a class out of range is owned by %s, want none", got)
	}
	// The older predicates agree with the owners.
	for c := ObjClass(0); int(c) < NumObjClasses; c++ {
		if c.IsSLRU() != (c >= OBank && c <= OSLRU) || c.IsFSM() != (c >= OFSMRel && c <= OLocalMap) {
			t.Errorf("class %s: IsSLRU %v IsFSM %v disagree with the class ranges", c, c.IsSLRU(), c.IsFSM())
		}
	}
}
