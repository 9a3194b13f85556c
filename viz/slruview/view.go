package slruview

import (
	"fmt"
	"sort"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// Geometry is what the view knows of an SLRU before its first event: the
// shape of the cache (variant, slots, banks, the rule that maps a page to
// its bank) and the initial latest_page_number (StartupCLOG sets it
// without an event). Everything else starts as SimpleLruInit leaves it.
type Geometry struct {
	Variant  slru.Variant
	Slots    int           // nslots
	BankSize int           // slots per bank; Slots for slru=single (0: SLRU_BANK_SIZE, or Slots for single)
	BankRule slru.BankRule // pageno % nbanks (17.3+) or pageno & (nbanks − 1)
	Latest   int64         // latest_page_number before the first event
	Name     string        // the SLRU's name ("transaction"), for titles
}

// GeometryOf reads s's geometry and its current latest_page_number: call
// it before the first event the view will apply (typically right after
// slru.New and StartupCLOG).
func GeometryOf(s *slru.SLRU) Geometry {
	c := s.Config()
	return Geometry{Variant: c.Variant, Slots: s.NumSlots(), BankSize: s.BankSize(), BankRule: c.BankRule,
		Latest: s.LatestPageNumber(), Name: c.Name}
}

// normalize fills defaults and panics on an impossible geometry (a
// programming error: the engine would have refused it).
func (g Geometry) normalize() Geometry {
	if g.BankSize == 0 {
		g.BankSize = slru.SlruBankSize
		if g.Variant == slru.Single {
			g.BankSize = g.Slots
		}
	}
	if g.Slots < 1 || g.BankSize < 1 || g.Slots%g.BankSize != 0 || (g.Variant == slru.Single && g.BankSize != g.Slots) {
		panic(fmt.Sprintf("slruview: geometry of %d slots in banks of %d (%s)", g.Slots, g.BankSize, g.Variant))
	}
	return g
}

// NumBanks is the number of banks (1 for slru=single).
func (g Geometry) NumBanks() int { return g.Slots / g.BankSize }

// BankOf is the bank of a page, as slru.SLRU.BankOf computes it.
func (g Geometry) BankOf(page int64) int {
	n := int64(g.NumBanks())
	if g.BankRule == slru.BankMask {
		return int(page & (n - 1))
	}
	return int(page % n)
}

// SlotBank is the bank a slot belongs to.
func (g Geometry) SlotBank(slot int) int { return slot / g.BankSize }

// BankSlots returns the first slot of bank b and one past its last.
func (g Geometry) BankSlots(b int) (start, end int) { return b * g.BankSize, (b + 1) * g.BankSize }

// HasTable reports whether the banks carry a page → slot hash table
// (slru=banks+hash).
func (g Geometry) HasTable() bool { return g.Variant == slru.BanksHash }

// slotState is one slot as the view holds it.
type slotState struct {
	page   int64
	lru    int32 // page_lru_count
	status slru.PageStatus
	dirty  bool
	io     uint64 // holder word of the slot's buffer lock
}

type bankState struct {
	holders uint64 // holder word of the bank lock
	cur     int32  // bank_cur_lru_count
}

type lane struct {
	name  string
	stats Counters // what this backend's events counted
}

// Holds is false: an SLRU lane holds nothing its events do not show.
func (lane) Holds() bool { return false }

// View is the view model of one SLRU, derived from its events only. See
// the package comment.
type View struct {
	g        Geometry
	slots    []slotState
	banks    []bankState
	latest   int64
	lanes    []lane
	nInitial int

	counters Counters

	// h is the history: the events applied, each with its backend's
	// lookup after it (immutable; the lanes' last events are its tops).
	h viewkit.History[*Lookup]
}

// New returns the view of an SLRU of geometry g as SimpleLruInit leaves
// it: every slot EMPTY (page 0), clean, LRU count 0; every bank counter 0;
// no lock held; latest_page_number g.Latest; and one lane per backend name
// (index = actor; [0] is the system, "sys").
func New(g Geometry, backendNames []string) *View {
	g = g.normalize()
	v := &View{g: g, slots: make([]slotState, g.Slots), banks: make([]bankState, g.NumBanks()), latest: g.Latest}
	v.lanes = viewkit.NewLanes(backendNames, newLane)
	v.nInitial = len(v.lanes)
	return v
}

// Clone returns an independent copy of v, history included (both can
// Unapply the events applied so far). It copies the slot and bank arrays
// (a few bytes per slot) and shares the immutable history.
func (v *View) Clone() *View {
	c := *v
	c.slots = append([]slotState(nil), v.slots...)
	c.banks = append([]bankState(nil), v.banks...)
	c.lanes = append([]lane(nil), v.lanes...)
	c.h = v.h.Clone()
	return &c
}

// Snapshot is Clone without history: the same state, nothing to Unapply.
// Timelines keep snapshots as keyframes.
func (v *View) Snapshot() *View { return viewkit.Snapshot(v) }

// TrimHistory forgets all but the last keep applied events, so that
// Unapply can undo at most keep more; the state shown does not change.
func (v *View) TrimHistory(keep int) { v.h.Trim(keep) }

// lane returns actor a's lane, adding lanes (named as trace.ActorName
// does) for actors New was not told about.
func (v *View) lane(a trace.Actor) *lane { return viewkit.LaneOf(&v.lanes, a, newLane) }

func newLane(name string) lane { return lane{name: name} }

// --- Reads: geometry, slots, banks ---

// Geometry returns the view's geometry (defaults filled in).
func (v *View) Geometry() Geometry { return v.g }

// NumSlots is nslots.
func (v *View) NumSlots() int { return v.g.Slots }

// NumBanks is the number of banks.
func (v *View) NumBanks() int { return len(v.banks) }

// BankSize is the number of slots per bank.
func (v *View) BankSize() int { return v.g.BankSize }

// Slot is one buffer slot as the view shows it.
type Slot struct {
	ID       int
	Page     int64 // page_number (kept, but meaningless, while EMPTY)
	Status   slru.PageStatus
	Dirty    bool
	LRUCount int32  // page_lru_count
	Age      int32  // bank_cur_lru_count − page_lru_count: the LRU distance (bigger is older)
	IOLock   uint64 // holder word of the slot's buffer lock (held during its I/O)
	Latest   bool   // holds latest_page_number (never evicted)
}

// Empty reports page_status == EMPTY.
func (s Slot) Empty() bool { return s.Status == slru.PageEmpty }

// InIO reports READ_IN_PROGRESS or WRITE_IN_PROGRESS.
func (s Slot) InIO() bool {
	return s.Status == slru.PageReadInProgress || s.Status == slru.PageWriteInProgress
}

// Word is the slot's slru.SlotWord.
func (s Slot) Word() uint64 { return slru.SlotWord(s.Page, s.Status, s.Dirty) }

func (v *View) slotOK(i int) {
	if i < 0 || i >= len(v.slots) {
		panic(fmt.Sprintf("slruview: slot %d out of range [0, %d)", i, len(v.slots)))
	}
}

// Slot returns slot i.
func (v *View) Slot(i int) Slot {
	v.slotOK(i)
	s := &v.slots[i]
	return Slot{ID: i, Page: s.page, Status: s.status, Dirty: s.dirty, LRUCount: s.lru,
		Age: v.banks[v.g.SlotBank(i)].cur - s.lru, IOLock: s.io,
		Latest: s.status != slru.PageEmpty && s.page == v.latest}
}

// Bank is one bank as the view shows it.
type Bank struct {
	ID         int
	First, End int    // its slots: First .. End-1
	Lock       uint64 // holder word of the bank lock (ControlLock for slru=single)
	CurCount   int32  // bank_cur_lru_count
	// Waiters are the backends waiting for the bank lock, in actor order.
	Waiters []Waiter
}

// Waiter is a backend waiting for a lock.
type Waiter struct {
	Actor trace.Actor
	Mode  slru.LWLockMode
}

// Bank returns bank b.
func (v *View) Bank(b int) Bank {
	if b < 0 || b >= len(v.banks) {
		panic(fmt.Sprintf("slruview: bank %d out of range [0, %d)", b, len(v.banks)))
	}
	first, end := v.g.BankSlots(b)
	return Bank{ID: b, First: first, End: end, Lock: v.banks[b].holders, CurCount: v.banks[b].cur,
		Waiters: v.waiters(trace.OBank, b)}
}

// IOWaiters lists the backends waiting for slot i's buffer lock (for its
// I/O to end), in actor order.
func (v *View) IOWaiters(i int) []Waiter {
	v.slotOK(i)
	return v.waiters(trace.OSlotIO, i)
}

func (v *View) waiters(c trace.ObjClass, obj int) []Waiter {
	var out []Waiter
	for a := range v.lanes {
		if t := v.h.ActorTop(trace.Actor(a)); t != nil && t.Ev.Kind == trace.KLWWait && t.Ev.Class == c && int(t.Ev.Obj) == obj {
			out = append(out, Waiter{Actor: trace.Actor(a), Mode: slru.LWLockMode(t.Ev.Arg)})
		}
	}
	return out
}

// LatestPage is latest_page_number.
func (v *View) LatestPage() int64 { return v.latest }

// Entry is one entry of a bank's page → slot table.
type Entry struct {
	Page int64
	Slot int
}

// TableEntries returns bank b's page → slot table (slru=banks+hash; nil
// otherwise), sorted by page. The table maps exactly the bank's non-EMPTY
// slots, so the view derives it from them (the engine changes it in the
// same step as the slot; its KMapInsert/KMapDelete events are checked
// against it).
func (v *View) TableEntries(b int) []Entry {
	if !v.g.HasTable() {
		return nil
	}
	first, end := v.g.BankSlots(b)
	var out []Entry
	for i := first; i < end; i++ {
		if v.slots[i].status != slru.PageEmpty {
			out = append(out, Entry{Page: v.slots[i].page, Slot: i})
		}
	}
	sort.Slice(out, func(x, y int) bool { return out[x].Page < out[y].Page })
	return out
}

// Find returns the slot holding page in any state but EMPTY, as a search
// of its bank (or a probe of its table) would find it.
func (v *View) Find(page int64) (int, bool) {
	if page < 0 {
		return -1, false
	}
	first, end := v.g.BankSlots(v.g.BankOf(page))
	for i := first; i < end; i++ {
		if v.slots[i].status != slru.PageEmpty && v.slots[i].page == page {
			return i, true
		}
	}
	return -1, false
}

// --- Reads: backends ---

// NumLanes is the number of lanes (index = actor; lane 0 is the system).
func (v *View) NumLanes() int { return len(v.lanes) }

// Lane is what the view shows of one backend.
type Lane struct {
	// LaneHead: the backend, its last event, its counters (Stats.Stats
	// gives the engine's slru.Stats of the backend).
	viewkit.LaneHead[Counters]
	// Waiting is set while the last event is a KLWWait: the backend
	// retries a bank lock (Class trace.OBank) or a slot's buffer lock
	// (trace.OSlotIO, waiting for an I/O to end) given by WaitingFor.
	Waiting    bool
	WaitingFor trace.Event
	// Lookup is the backend's operation and where its page search is.
	Lookup Lookup
}

// Lane returns actor a's lane (an empty one for an actor never seen).
func (v *View) Lane(a trace.Actor) Lane {
	var stats Counters
	if int(a) < len(v.lanes) {
		stats = v.lanes[a].stats
	}
	out := Lane{LaneHead: viewkit.HeadOf(&v.h, a, v.LaneName(a), stats), Lookup: noLookup}
	if top := v.h.ActorTop(a); top != nil {
		out.Lookup = *top.Data
		if top.Ev.Kind == trace.KLWWait {
			out.Waiting, out.WaitingFor = true, top.Ev
		}
	}
	return out
}

// TrailShown reports whether actor a's lookup's trail (Lookup.Trail) is
// shown, by the rule every view's trails follow (viewkit.TrailShown):
// while its operation runs, and after it ends until the next operation
// begins in the view, any backend's. Cost: a look at every lane.
func (v *View) TrailShown(a trace.Actor) bool {
	return viewkit.LaneTrailShown(a, len(v.lanes), func(b trace.Actor) viewkit.Span {
		l := v.Lane(b).Lookup
		return viewkit.Span{Has: l.HasOp, Done: l.Phase == PhaseDone || l.Phase == PhaseError, Seq: l.OpSeq, End: l.EndSeq}
	})
}

// LaneName is actor a's name ("sys" for 0, "A", … for unnamed ones).
func (v *View) LaneName(a trace.Actor) string {
	if int(a) < len(v.lanes) {
		return v.lanes[a].name
	}
	return trace.ActorName(a)
}

// Holders lists the holders of a lock holder word: the exclusive holder,
// or the shared ones in actor order.
func Holders(w uint64) (excl trace.Actor, shared []trace.Actor) {
	l := slru.UnpackHolders(w)
	for a := trace.Actor(1); a <= 48; a++ {
		if l.Shared&(1<<(a-1)) != 0 {
			shared = append(shared, a)
		}
	}
	return l.Excl, shared
}

// HeldBy reports the mode in which actor a holds bank b's lock (0: not).
func (v *View) HeldBy(b int, a trace.Actor) slru.LWLockMode {
	l := slru.UnpackHolders(v.banks[b].holders)
	return l.ModeOf(a)
}

// --- Reads: current event, counters ---

// Current is the event applied last, if any.
func (v *View) Current() (trace.Event, bool) { return v.h.Current() }

// Applied is the number of events applied, net of those unapplied
// (events of other mechanisms, which the view ignores, do not count).
func (v *View) Applied() int { return v.h.Applied() }

// HistoryLen is how many of the applied events Unapply can still undo.
func (v *View) HistoryLen() int { return v.h.Len() }

// Counters returns the counters of every backend together.
func (v *View) Counters() Counters { return v.counters }
