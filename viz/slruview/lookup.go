package slruview

import (
	"fmt"
	"strings"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// Phase is where a backend's operation is, as its events tell it.
type Phase uint8

// The phases.
const (
	PhaseNone   Phase = iota // no operation yet
	PhaseStart               // the operation began, or a search starts over after a wait or a write; nothing compared yet
	PhaseScan                // a linear search of the bank: Examining, after ScanFrom .. Examining-1
	PhaseProbe               // banks+hash: a probe of the bank's table (ProbeSlot, ProbeEntries)
	PhaseRelock              // not found under the shared lock: the bank lock released, to be retaken exclusively
	PhaseFound               // the page is in Slot: found there (Result hit) or just read in (Result miss)
	PhaseVictim              // SlruSelectLRUPage weighs the bank's slots (Candidates; Victim once chosen)
	PhaseRead                // a miss: Slot claimed READ_IN_PROGRESS, the page read in
	PhaseWrite               // Slot written out (a dirty victim, a checkpoint, the first page)
	PhaseWaitIO              // waiting for the I/O on Slot to end
	PhaseDone                // the operation ended (DoneValue)
	PhaseError               // the operation failed (Err)
)

var phaseNames = [...]string{"idle", "start", "scan", "probe", "relock", "found", "victim", "read", "write", "wait-io", "done", "error"}

func (p Phase) String() string { return viewkit.Name(phaseNames[:], p, "phase") }

// Result is what the operation's page search came to.
type Result uint8

// The results.
const (
	ResultNone Result = iota
	ResultHit         // found in memory (KHit)
	ResultMiss        // not in memory: a slot claimed and the page read (KMiss)
)

// CandKind says what SlruSelectLRUPage made of a slot.
type CandKind uint8

// Candidate kinds.
const (
	CandEmpty  CandKind = iota + 1 // EMPTY: taken at once
	CandValid                      // VALID: a victim candidate by age
	CandBusy                       // under I/O: only waited for if nothing VALID is left
	CandLatest                     // holds latest_page_number: never evicted
)

var candNames = [...]string{"", "empty", "valid", "busy", "latest"}

func (k CandKind) String() string { return viewkit.Name(candNames[:], k, "cand") }

// Candidate is one slot weighed by the victim search.
type Candidate struct {
	Slot int
	Kind CandKind
	LRU  int32 // page_lru_count (after a reset of one ahead of cur_count)
	Age  int32 // cur_count − page_lru_count: the LRU distance
	// Best is set when the slot was the best candidate of its kind so far
	// when weighed (slru.VerdictBest / VerdictBestBusy).
	Best bool
}

// Lookup is a backend's current operation and its page search, derived
// from its events. Its slices are shared between views: do not modify.
type Lookup struct {
	HasOp   bool
	Op      uint64 // slru.Op* code
	Operand uint64 // the xid (get, set, extend) or page (read-only, read, zero)
	Phase   Phase

	Page int64 // the page sought (-1: none, as for a checkpoint)
	Bank int   // its bank (-1: none)

	// Examining is the slot being compared, probed or weighed (-1: none).
	// In PhaseScan the search has compared ScanFrom .. Examining in this
	// pass (a search that fails and starts again begins a new pass), and
	// Match reports whether Examining holds the page.
	Examining int
	ScanFrom  int
	Match     bool
	// ScanWord is the slot word of Examining as the comparison saw it.
	ScanWord uint64

	// Probed: a probe of the bank's table found ProbeSlot (-1: not there)
	// after comparing ProbeEntries chain entries.
	Probed       bool
	ProbeSlot    int
	ProbeEntries int

	// The victim search: cur_count of this pass, the slots weighed in
	// bank order, and the choice (Victim -1 until made).
	CurCount   int32
	Candidates []Candidate
	Victim     int
	VictimWhy  uint64 // slru.VictimEmpty, VictimClean, VictimDirty
	VictimAge  int32

	Result Result
	// Slot is the slot found, claimed, written or waited for (-1: none).
	Slot int
	// Passes counts the searches of the bank this operation began (a
	// miss under the shared lock searches again under the exclusive one;
	// a wait or a write starts the search over).
	Passes int

	DoneValue uint64       // op-done's After: the slot, a status, or NoBuffer
	Err       slru.ErrCode // PhaseError's code

	// Trail is the slots this operation compared (KSlotScan) or found by a
	// probe of its bank's table (KMapLookup, banks+hash), in every pass,
	// as runs of consecutive slots in the order first reached: what
	// the scene keeps lit after the operation ends, until the next one
	// begins (View.TrailShown). OpSeq is the Seq of the operation's KOp,
	// EndSeq that of its KOpDone or KError (0 while it runs).
	Trail         []SlotRun
	OpSeq, EndSeq uint64
}

// SlotRun is the slots From..To (inclusive) of a trail.
type SlotRun struct{ From, To int }

// Compared reports whether the trail holds slot.
func (l Lookup) Compared(slot int) bool {
	for _, r := range l.Trail {
		if slot >= r.From && slot <= r.To {
			return true
		}
	}
	return false
}

// withCompared is trail with slot added: the last run grown when slot
// follows it, else a new run; the trail itself when it holds slot. It
// never modifies trail (earlier lookups share it). Cost: a copy of the
// runs, a few per operation (one per pass of the search).
func withCompared(trail []SlotRun, slot int) []SlotRun {
	for _, r := range trail {
		if slot >= r.From && slot <= r.To {
			return trail
		}
	}
	out := make([]SlotRun, len(trail), len(trail)+1)
	copy(out, trail)
	if n := len(out); n > 0 && out[n-1].To+1 == slot {
		out[n-1].To = slot
		return out
	}
	return append(out, SlotRun{slot, slot})
}

var noLookup = Lookup{Page: -1, Bank: -1, Examining: -1, ScanFrom: -1, ProbeSlot: -1, Victim: -1, Slot: -1}

var emptyLookup = &noLookup

// pageOf is the page an operation looks up (-1 for none).
func pageOf(op, operand uint64) int64 {
	switch op {
	case slru.OpGetStatus, slru.OpSetStatus, slru.OpExtend:
		return slru.TransactionIdToPage(uint32(operand))
	case slru.OpReadOnly, slru.OpRead, slru.OpZero:
		return int64(operand)
	case slru.OpBootstrap:
		return 0
	}
	return -1
}

// nextLookup derives a backend's lookup after e (already applied to v)
// from the one before; it returns prev itself when e changes nothing.
func (v *View) nextLookup(prev *Lookup, e trace.Event) *Lookup {
	switch e.Kind {
	case trace.KOp:
		n := noLookup
		n.HasOp, n.Op, n.Operand, n.Phase = true, e.Arg, uint64(e.Obj), PhaseStart
		n.OpSeq = e.Seq
		n.Page = pageOf(e.Arg, uint64(e.Obj))
		if n.Page >= 0 {
			n.Bank = v.g.BankOf(n.Page)
		}
		return &n
	case trace.KSlotScan:
		n := *prev
		slot := int(e.Obj)
		if prev.Phase != PhaseScan || slot <= prev.Examining {
			n.ScanFrom = slot
			n.Passes++
			n.Candidates, n.Victim, n.VictimWhy, n.VictimAge = nil, -1, 0, 0
			n.Probed, n.ProbeSlot, n.ProbeEntries = false, -1, 0
		}
		n.Phase, n.Examining, n.ScanWord = PhaseScan, slot, e.After
		n.Page, n.Bank = int64(e.Arg), v.g.SlotBank(slot)
		n.Trail = withCompared(prev.Trail, slot)
		p, st, _ := slru.UnpackSlotWord(e.After)
		n.Match = st != slru.PageEmpty && p == int64(e.Arg)
		return &n
	case trace.KMapLookup:
		n := *prev
		n.Phase, n.Passes = PhaseProbe, n.Passes+1
		n.Page, n.Bank = int64(e.Arg), int(e.Obj)
		n.Probed, n.ProbeEntries, n.ProbeSlot = true, int(e.Before), -1
		if e.After != trace.NoBuffer {
			n.ProbeSlot = int(e.After)
		}
		n.Examining, n.ScanFrom, n.Match = n.ProbeSlot, -1, n.ProbeSlot >= 0
		n.Candidates, n.Victim, n.VictimWhy, n.VictimAge = nil, -1, 0, 0
		if n.ProbeSlot >= 0 {
			n.Trail = withCompared(prev.Trail, n.ProbeSlot)
		}
		return &n
	case trace.KLWRelease:
		switch {
		case e.Class == trace.OBank && (prev.Phase == PhaseScan || prev.Phase == PhaseProbe):
			// SimpleLruReadPage_ReadOnly gives up its shared lock when
			// the search misses; the other searches end with a hit or
			// a victim search before any release.
			n := *prev
			n.Phase, n.Examining, n.Match = PhaseRelock, -1, false
			return &n
		case e.Class == trace.OSlotIO && prev.Phase == PhaseWaitIO:
			// SimpleLruWaitIO got the buffer lock: the I/O is over.
			n := *prev
			n.Phase = PhaseStart
			return &n
		}
		return prev
	case trace.KHit:
		n := *prev
		n.Phase, n.Result, n.Slot, n.Examining = PhaseFound, ResultHit, int(e.Obj), int(e.Obj)
		return &n
	case trace.KLRUCount:
		if e.Class != trace.OBank {
			return prev
		}
		n := *prev
		n.Phase, n.CurCount, n.Candidates, n.Victim, n.Examining = PhaseVictim, int32(e.Before), nil, -1, -1
		n.Bank = int(e.Obj)
		return &n
	case trace.KCandidate, trace.KSkipLatest:
		n := *prev
		c := Candidate{Slot: int(e.Obj), LRU: int32(e.Before), Age: int32(e.After)}
		switch {
		case e.Kind == trace.KSkipLatest:
			c.Kind = CandLatest
		case v.slots[e.Obj].status == slru.PageValid:
			c.Kind, c.Best = CandValid, e.Arg == slru.VerdictBest
		default:
			c.Kind, c.Best = CandBusy, e.Arg == slru.VerdictBestBusy
		}
		n.Phase, n.Examining = PhaseVictim, int(e.Obj)
		n.Candidates = append(prev.Candidates[:len(prev.Candidates):len(prev.Candidates)], c)
		return &n
	case trace.KVictim:
		n := *prev
		n.Phase, n.Victim, n.VictimWhy, n.VictimAge, n.Examining = PhaseVictim, int(e.Obj), e.Arg, int32(e.After), int(e.Obj)
		if e.Arg == slru.VictimEmpty {
			n.Candidates = append(prev.Candidates[:len(prev.Candidates):len(prev.Candidates)], Candidate{Slot: int(e.Obj), Kind: CandEmpty})
		}
		return &n
	case trace.KMiss:
		n := *prev
		n.Phase, n.Result, n.Slot, n.Examining = PhaseRead, ResultMiss, int(e.Obj), -1
		return &n
	case trace.KIOWait:
		n := *prev
		n.Phase, n.Slot, n.Examining = PhaseWaitIO, int(e.Obj), -1
		return &n
	case trace.KSlotState:
		_, was, _ := slru.UnpackSlotWord(e.Before)
		_, st, _ := slru.UnpackSlotWord(e.After)
		n := *prev
		switch {
		case st == slru.PageWriteInProgress:
			n.Phase, n.Slot, n.Examining = PhaseWrite, int(e.Obj), -1
		case was == slru.PageWriteInProgress && prev.Phase == PhaseWrite:
			// The write is over: the search starts over, or the
			// checkpoint goes on.
			n.Phase = PhaseStart
		case was == slru.PageReadInProgress && st == slru.PageValid && prev.Phase == PhaseRead:
			n.Phase = PhaseFound
		default:
			return prev
		}
		return &n
	case trace.KLoad:
		if e.Class != trace.OSlot || !prev.HasOp || prev.Op != slru.OpWriteAll {
			return prev
		}
		n := *prev // a checkpoint looks at each slot in turn
		n.Phase, n.Examining, n.Bank = PhaseStart, int(e.Obj), v.g.SlotBank(int(e.Obj))
		return &n
	case trace.KOpDone:
		n := *prev
		n.Phase, n.DoneValue, n.Examining, n.EndSeq = PhaseDone, e.After, -1, e.Seq
		return &n
	case trace.KError:
		n := *prev
		n.Phase, n.Err, n.Examining, n.EndSeq = PhaseError, slru.ErrCode(e.Arg), -1, e.Seq
		return &n
	}
	return prev
}

// OpText describes an operation: "get xid 100000", "read-only page 7",
// "write-all".
func OpText(op, operand uint64) string {
	switch op {
	case slru.OpGetStatus, slru.OpSetStatus, slru.OpExtend:
		return fmt.Sprintf("%s xid %d", slru.OpName(op), operand)
	case slru.OpReadOnly, slru.OpRead, slru.OpZero:
		return fmt.Sprintf("%s page %d", slru.OpName(op), operand)
	}
	return slru.OpName(op)
}

// Path describes how the operation found its bank, for a lesson: "xid
// 100000 → page 3 → bank 1 (3 % 2)". It is "" without an operation or a
// page.
func (v *View) Path(l Lookup) string {
	if !l.HasOp || l.Page < 0 {
		return ""
	}
	var b strings.Builder
	switch l.Op {
	case slru.OpGetStatus, slru.OpSetStatus, slru.OpExtend:
		fmt.Fprintf(&b, "xid %d → page %d (xid / %d)", l.Operand, l.Page, slru.ClogXactsPerPage)
	default:
		fmt.Fprintf(&b, "page %d", l.Page)
	}
	switch {
	case v.g.Variant == slru.Single:
		b.WriteString(" → the one ControlLock, all slots")
	case v.g.BankRule == slru.BankMask:
		fmt.Fprintf(&b, " → bank %d (%d & %d)", v.g.BankOf(l.Page), l.Page, v.NumBanks()-1)
	default:
		fmt.Fprintf(&b, " → bank %d (%d %% %d)", v.g.BankOf(l.Page), l.Page, v.NumBanks())
	}
	return b.String()
}

// Status describes where a backend's search is, in one line: "linear
// search: slot 18 (3 of 16 compared): page 5 ≠ 3", "victim: slot 2, oldest
// (age 7) but dirty: write it first".
func (v *View) Status(ln Lane) string {
	l := ln.Lookup
	if !l.HasOp {
		return "idle"
	}
	switch l.Phase {
	case PhaseStart:
		switch {
		case l.Op == slru.OpWriteAll && l.Examining >= 0:
			return fmt.Sprintf("checkpoint (SimpleLruWriteAll): slot %d, written if dirty", l.Examining)
		case l.Op == slru.OpWriteAll:
			return "checkpoint (SimpleLruWriteAll): every dirty slot, bank by bank"
		case l.Bank >= 0 && v.HeldBy(l.Bank, ln.Actor) != 0:
			again := ""
			if l.Passes > 0 {
				again = " again"
			}
			return fmt.Sprintf("holds %s (%s): about to search%s", v.lockName(l.Bank), v.HeldBy(l.Bank, ln.Actor), again)
		case l.Passes > 0:
			return fmt.Sprintf("searching %s again", v.BankName(l.Bank))
		case l.Bank >= 0:
			return fmt.Sprintf("taking %s", v.lockName(l.Bank))
		}
		return "starting"
	case PhaseScan:
		n := l.Examining - l.ScanFrom + 1
		p, st, _ := slru.UnpackSlotWord(l.ScanWord)
		what := "EMPTY"
		if st != slru.PageEmpty {
			what = fmt.Sprintf("page %d", p)
		}
		cmp := "≠"
		if l.Match {
			cmp = "="
		}
		return fmt.Sprintf("linear search: slot %d (%d of %d compared): %s %s %d", l.Examining, n, v.g.BankSize, what, cmp, l.Page)
	case PhaseProbe:
		if l.ProbeSlot < 0 {
			return fmt.Sprintf("hash probe of bank %d: page %d not in the table (%s compared)", l.Bank, l.Page, plural(l.ProbeEntries, "entry", "entries"))
		}
		return fmt.Sprintf("hash probe of bank %d: page %d → slot %d (%s compared)", l.Bank, l.Page, l.ProbeSlot, plural(l.ProbeEntries, "entry", "entries"))
	case PhaseRelock:
		return fmt.Sprintf("page %d not found under the shared lock: relock %s exclusively, look again, read it in", l.Page, v.lockName(l.Bank))
	case PhaseFound:
		if l.Result == ResultMiss {
			return fmt.Sprintf("read in: page %d now in slot %d", l.Page, l.Slot)
		}
		return fmt.Sprintf("hit: page %d in slot %d", l.Page, l.Slot)
	case PhaseVictim:
		if l.Victim >= 0 {
			switch l.VictimWhy {
			case slru.VictimEmpty:
				return fmt.Sprintf("victim: slot %d, EMPTY", l.Victim)
			case slru.VictimDirty:
				return fmt.Sprintf("victim: slot %d, oldest (age %d) but dirty: write it first", l.Victim, l.VictimAge)
			}
			return fmt.Sprintf("victim: slot %d, oldest clean (age %d)", l.Victim, l.VictimAge)
		}
		return fmt.Sprintf("choosing a victim in %s (cur_count %d): %d of %d slots weighed", v.BankName(l.Bank), l.CurCount, len(l.Candidates), v.g.BankSize)
	case PhaseRead:
		return fmt.Sprintf("miss: slot %d claimed, reading page %d", l.Slot, l.Page)
	case PhaseWrite:
		return fmt.Sprintf("writing slot %d out", l.Slot)
	case PhaseWaitIO:
		return fmt.Sprintf("waiting for the I/O on slot %d", l.Slot)
	case PhaseDone:
		switch l.Op {
		case slru.OpGetStatus, slru.OpSetStatus:
			return fmt.Sprintf("done: %s", slru.XidStatus(l.DoneValue))
		case slru.OpWriteAll:
			return "done"
		}
		if l.DoneValue == trace.NoBuffer {
			return "done: nothing to do"
		}
		return fmt.Sprintf("done: slot %d", l.DoneValue)
	case PhaseError:
		return fmt.Sprintf("ERROR: %s", l.Err)
	}
	return l.Phase.String()
}

// BankName names bank b in a sentence: "bank 1", or "the SLRU" for
// slru=single.
func (v *View) BankName(b int) string {
	if v.g.Variant == slru.Single {
		return "the SLRU"
	}
	return fmt.Sprintf("bank %d", b)
}

// lockName names bank b's lock in a sentence: "bank 1's lock", or "the
// ControlLock" for slru=single.
func (v *View) lockName(b int) string {
	if v.g.Variant == slru.Single {
		return "the ControlLock"
	}
	return fmt.Sprintf("bank %d's lock", b)
}

// LockName names the lock an event's class and object designate: "bank
// 1's lock", "the ControlLock", "slot 7's buffer lock".
func (v *View) LockName(c trace.ObjClass, obj int) string {
	if c == trace.OSlotIO {
		return fmt.Sprintf("slot %d's buffer lock (its I/O)", obj)
	}
	return v.lockName(obj)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
