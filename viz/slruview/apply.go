package slruview

import (
	"fmt"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// Counters count SLRU events. Those named like slru.Stats fields count
// exactly what the engine counts there (Stats converts); the others are
// extra.
type Counters struct {
	Lookups       uint64 // page searches that ended: Hits + Misses
	Hits          uint64 // KHit: the page was in memory
	Misses        uint64 // KMiss: a slot claimed and the page read in (slru.Stats.Reads)
	SlotsCompared uint64 // KSlotScan: slots compared by linear searches (Stats.SlotsScanned)
	Probes        uint64 // KMapLookup: probes of a bank's table (banks+hash)
	ProbeEntries  uint64 // chain entries those probes compared
	VictimScans   uint64 // slots weighed by the victim search: KCandidate, KSkipLatest, KVictim of an EMPTY slot
	Victims       uint64 // KVictim: an EMPTY slot or the oldest clean one taken
	DirtyVictims  uint64 // KVictim: the oldest slot was dirty, written first
	Reads         uint64 // KIORead: physical reads (failed ones included)
	Writes        uint64 // KIOWrite: physical writes
	Zeroes        uint64 // KStore of latest_page_number: pages zeroed (SimpleLruZeroPage)
	LockAcquires  uint64 // KLWAcquire of a bank lock
	LockWaits     uint64 // KLWWait: a lock (bank or slot buffer lock) retried
	IOWaits       uint64 // KIOWait: waits for a slot's I/O
	Errors        uint64 // KError
	Ops           uint64 // KOp
}

// Stats returns the counters the engine keeps in slru.Stats.
func (c Counters) Stats() slru.Stats {
	return slru.Stats{Hits: c.Hits, Reads: c.Misses, Writes: c.Writes, Zeroes: c.Zeroes,
		SlotsScanned: c.SlotsCompared, Probes: c.Probes, VictimScans: c.VictimScans, Victims: c.Victims,
		DirtyVictims: c.DirtyVictims, LockWaits: c.LockWaits, IOWaits: c.IOWaits, Errors: c.Errors}
}

func (c Counters) fields() []uint64 {
	return []uint64{c.Lookups, c.Hits, c.Misses, c.SlotsCompared, c.Probes, c.ProbeEntries, c.VictimScans,
		c.Victims, c.DirtyVictims, c.Reads, c.Writes, c.Zeroes, c.LockAcquires, c.LockWaits, c.IOWaits, c.Errors, c.Ops}
}

// count adds d (1, or −1 as a wrapped uint64) to the counters e feeds.
func (c *Counters) count(e trace.Event, d uint64) {
	switch e.Kind {
	case trace.KHit:
		c.Hits += d
		c.Lookups += d
	case trace.KMiss:
		c.Misses += d
		c.Lookups += d
	case trace.KSlotScan:
		c.SlotsCompared += d
	case trace.KMapLookup:
		c.Probes += d
		c.ProbeEntries += d * e.Before
	case trace.KCandidate, trace.KSkipLatest:
		c.VictimScans += d
	case trace.KVictim:
		switch e.Arg {
		case slru.VictimEmpty:
			c.VictimScans += d
			c.Victims += d
		case slru.VictimClean:
			c.Victims += d
		case slru.VictimDirty:
			c.DirtyVictims += d
		}
	case trace.KIORead:
		c.Reads += d
	case trace.KIOWrite:
		c.Writes += d
	case trace.KStore:
		if e.Class == trace.OSLRU {
			c.Zeroes += d
		}
	case trace.KLWAcquire:
		if e.Class == trace.OBank {
			c.LockAcquires += d
		}
	case trace.KLWWait:
		c.LockWaits += d
	case trace.KIOWait:
		c.IOWaits += d
	case trace.KError:
		c.Errors += d
	case trace.KOp:
		c.Ops += d
	}
}

// Apply applies e: the view then shows the state just after e. Events must
// come in log order (ApplyChecked checks that each fits). Events of other
// mechanisms (classes that are not trace.ObjClass.IsSLRU) are ignored.
func (v *View) Apply(e trace.Event) {
	if !e.Class.IsSLRU() {
		return
	}
	v.objOK(e)
	v.mutate(e, false)
	v.counters.count(e, 1)
	v.lane(e.Actor).stats.count(e, 1)
	prev := emptyLookup
	if t := v.h.ActorTop(e.Actor); t != nil {
		prev = t.Data
	}
	v.h.Push(e, v.nextLookup(prev, e))
}

// Unapply undoes e, which must be the event applied last (it panics
// otherwise, or when TrimHistory dropped it): the words e wrote go back to
// its Before values, and the current event, the backend's lookup and the
// counters to what they were. Events of other mechanisms are ignored.
func (v *View) Unapply(e trace.Event) {
	if !e.Class.IsSLRU() {
		return
	}
	v.h.Pop(e, "slruview")
	v.mutate(e, true)
	v.counters.count(e, viewkit.MinusOne)
	v.lane(e.Actor).stats.count(e, viewkit.MinusOne)
}

// UnapplyLast undoes the event applied last and returns it; ok is false
// when there is no history left.
func (v *View) UnapplyLast() (e trace.Event, ok bool) { return viewkit.UnapplyLast(v, &v.h) }

// ApplyChecked is Check then Apply; it applies nothing when Check fails.
func (v *View) ApplyChecked(e trace.Event) error { return viewkit.ApplyChecked(v, e) }

// objOK panics with a precise message when e names a bank or slot the
// view does not have (a log from another SLRU; Check returns it as an
// error instead).
func (v *View) objOK(e trace.Event) {
	n := 0
	switch e.Class {
	case trace.OBank:
		n = len(v.banks)
	case trace.OSlot, trace.OSlotIO:
		n = len(v.slots)
	default:
		return
	}
	if int64(e.Obj) >= int64(n) {
		panic(fmt.Sprintf("slruview: event %v names %s %d; the view has %d", e, e.Class, e.Obj, n))
	}
}

func (v *View) setSlotWord(i int, w uint64) {
	p, st, d := slru.UnpackSlotWord(w)
	s := &v.slots[i]
	s.page, s.status, s.dirty = p, st, d
}

// mutate writes what e changed: After, or back to Before.
func (v *View) mutate(e trace.Event, undo bool) {
	val := viewkit.Written(e, undo)
	switch e.Kind {
	case trace.KSlotState, trace.KDirty:
		v.setSlotWord(int(e.Obj), val)
	case trace.KLRUCount:
		if e.Class == trace.OBank {
			v.banks[e.Obj].cur = int32(val)
		} else {
			v.slots[e.Obj].lru = int32(val)
		}
	case trace.KLRUTouch:
		v.slots[e.Obj].lru = int32(val)
		bank := v.g.SlotBank(int(e.Obj))
		if undo {
			v.banks[bank].cur = int32(e.Arg)
		} else {
			v.banks[bank].cur = int32(e.After)
		}
	case trace.KStore:
		if e.Class == trace.OSLRU {
			v.latest = int64(val)
		}
	case trace.KLWAcquire, trace.KLWRelease:
		switch e.Class {
		case trace.OBank:
			v.banks[e.Obj].holders = val
		case trace.OSlotIO:
			v.slots[e.Obj].io = val
		}
	}
}

// Check verifies that e fits the view before it is applied: the object it
// names exists, and every value it read or replaced is the view's (a
// slot's word, an LRU count, a lock's holders, latest_page_number, the
// table entry a probe found, a candidate's age from its pass's cur_count).
// A log applied in order from the SLRU's initial state passes every check.
func (v *View) Check(e trace.Event) error {
	if !e.Class.IsSLRU() {
		return nil
	}
	bad := func(what string, have, want any) error {
		return fmt.Errorf("slruview: event %v: %s is %v in the view, the event says %v", e, what, have, want)
	}
	switch e.Class {
	case trace.OBank:
		if int(e.Obj) >= len(v.banks) {
			return fmt.Errorf("slruview: event %v names bank %d of %d", e, e.Obj, len(v.banks))
		}
	case trace.OSlot, trace.OSlotIO:
		if int(e.Obj) >= len(v.slots) {
			return fmt.Errorf("slruview: event %v names slot %d of %d", e, e.Obj, len(v.slots))
		}
	}
	word := func() uint64 { s := &v.slots[e.Obj]; return slru.SlotWord(s.page, s.status, s.dirty) }
	slotWordIs := func(w uint64) error {
		if have := word(); have != w {
			return bad(fmt.Sprintf("slot %d", e.Obj), wordString(have), wordString(w))
		}
		return nil
	}
	switch e.Kind {
	case trace.KSlotState, trace.KDirty:
		return slotWordIs(e.Before)
	case trace.KSlotScan:
		if err := slotWordIs(e.After); err != nil {
			return err
		}
		if b := v.g.BankOf(int64(e.Arg)); b != v.g.SlotBank(int(e.Obj)) {
			return fmt.Errorf("slruview: event %v compares slot %d (bank %d) for page %d of bank %d", e, e.Obj, v.g.SlotBank(int(e.Obj)), e.Arg, b)
		}
	case trace.KVictim:
		return slotWordIs(e.Before)
	case trace.KLRUCount:
		if e.Class == trace.OBank {
			if c := v.banks[e.Obj].cur; uint32(c) != uint32(e.Before) {
				return bad(fmt.Sprintf("bank %d's bank_cur_lru_count", e.Obj), c, int32(e.Before))
			}
		} else if c := v.slots[e.Obj].lru; uint32(c) != uint32(e.Before) {
			return bad(fmt.Sprintf("slot %d's page_lru_count", e.Obj), c, int32(e.Before))
		}
	case trace.KLRUTouch:
		if c := v.slots[e.Obj].lru; uint32(c) != uint32(e.Before) {
			return bad(fmt.Sprintf("slot %d's page_lru_count", e.Obj), c, int32(e.Before))
		}
		if c := v.banks[v.g.SlotBank(int(e.Obj))].cur; uint32(c) != uint32(e.Arg) {
			return bad(fmt.Sprintf("bank %d's bank_cur_lru_count", v.g.SlotBank(int(e.Obj))), c, int32(e.Arg))
		}
	case trace.KCandidate, trace.KSkipLatest:
		s := &v.slots[e.Obj]
		if uint32(s.lru) != uint32(e.Before) {
			return bad(fmt.Sprintf("slot %d's page_lru_count", e.Obj), s.lru, int32(e.Before))
		}
		if s.status == slru.PageEmpty {
			return fmt.Errorf("slruview: event %v weighs slot %d, which is EMPTY", e, e.Obj)
		}
		if l := v.Lane(e.Actor).Lookup; l.Phase == PhaseVictim && uint32(l.CurCount-s.lru) != uint32(e.After) {
			return bad(fmt.Sprintf("slot %d's age (cur_count %d − %d)", e.Obj, l.CurCount, s.lru), l.CurCount-s.lru, int32(e.After))
		}
		if e.Kind == trace.KSkipLatest && (s.page != v.latest || int64(e.Arg) != v.latest) {
			return bad("latest_page_number", v.latest, fmt.Sprintf("page %d in slot %d", int64(e.Arg), e.Obj))
		}
		if e.Kind == trace.KCandidate && s.page == v.latest {
			return fmt.Errorf("slruview: event %v weighs slot %d, which holds latest_page_number %d", e, e.Obj, v.latest)
		}
	case trace.KStore:
		if e.Class == trace.OSLRU && v.latest != int64(e.Before) {
			return bad("latest_page_number", v.latest, int64(e.Before))
		}
	case trace.KLWAcquire, trace.KLWRelease, trace.KLWWait, trace.KLWCondFail:
		var have uint64
		switch e.Class {
		case trace.OBank:
			have = v.banks[e.Obj].holders
		case trace.OSlotIO:
			have = v.slots[e.Obj].io
		default:
			return fmt.Errorf("slruview: event %v: a lock of class %s", e, e.Class)
		}
		if have != e.Before {
			return bad(fmt.Sprintf("%s %d's lock holders", e.Class, e.Obj), slru.UnpackHolders(have), slru.UnpackHolders(e.Before))
		}
	case trace.KMapLookup:
		if b := v.g.BankOf(int64(e.Arg)); b != int(e.Obj) {
			return fmt.Errorf("slruview: event %v probes bank %d for page %d of bank %d", e, e.Obj, e.Arg, b)
		}
		have := trace.NoBuffer
		if i, ok := v.Find(int64(e.Arg)); ok {
			have = uint64(i)
		}
		if have != e.After {
			return bad(fmt.Sprintf("the table entry of page %d", e.Arg), int64(have), int64(e.After))
		}
	case trace.KMapInsert:
		if i, ok := v.Find(int64(e.Arg)); !ok || uint64(i) != e.After {
			return bad(fmt.Sprintf("the slot of page %d", e.Arg), i, e.After)
		}
	case trace.KMapDelete:
		if e.Before >= uint64(len(v.slots)) {
			return fmt.Errorf("slruview: event %v names slot %d of %d", e, e.Before, len(v.slots))
		}
		s := &v.slots[e.Before]
		if s.status != slru.PageEmpty && s.page == int64(e.Arg) {
			return fmt.Errorf("slruview: event %v deletes page %d from the table, but slot %d still holds it", e, e.Arg, e.Before)
		}
	case trace.KHit, trace.KIORead, trace.KIOWrite:
		if s := &v.slots[e.Obj]; s.status == slru.PageEmpty || s.page != int64(e.Arg) {
			return bad(fmt.Sprintf("slot %d", e.Obj), wordString(word()), fmt.Sprintf("page %d", e.Arg))
		}
	}
	return nil
}

// wordString prints a slot word: "page 7 VALID dirty", "EMPTY".
func wordString(w uint64) string {
	p, st, d := slru.UnpackSlotWord(w)
	if st == slru.PageEmpty {
		return "EMPTY"
	}
	s := fmt.Sprintf("page %d %s", p, st)
	if d {
		s += " dirty"
	}
	return s
}
