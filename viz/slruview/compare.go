package slruview

import (
	"fmt"
	"strings"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/viewkit"
)

// significantLanes is the number of lanes that take part in comparisons
// (viewkit.SignificantLanes).
func (v *View) significantLanes() int { return viewkit.SignificantLanes(&v.h, v.nInitial, v.lanes) }

// Diff describes how v and o differ (at most a dozen differences, one per
// line), or returns "" when they show the same state. History is not
// compared: a snapshot equals the view it was taken from.
func (v *View) Diff(o *View) string {
	if v.g != o.g {
		return fmt.Sprintf("geometry %+v vs %+v", v.g, o.g)
	}
	var d viewkit.Diffs
	for i := 0; i < len(v.slots) && !d.Full(); i++ {
		a, b := v.slots[i], o.slots[i]
		if a != b {
			d.Add("slot %d: %s lru %d io %s vs %s lru %d io %s", i, wordString(slru.SlotWord(a.page, a.status, a.dirty)), a.lru,
				slru.UnpackHolders(a.io), wordString(slru.SlotWord(b.page, b.status, b.dirty)), b.lru, slru.UnpackHolders(b.io))
		}
	}
	for i := range v.banks {
		if v.banks[i] != o.banks[i] {
			d.Add("bank %d: lock %s counter %d vs lock %s counter %d", i, slru.UnpackHolders(v.banks[i].holders), v.banks[i].cur,
				slru.UnpackHolders(o.banks[i].holders), o.banks[i].cur)
		}
	}
	if v.latest != o.latest {
		d.Add("latest_page_number %d vs %d", v.latest, o.latest)
	}
	lanes := func(a trace.Actor) string { return laneDiff(v.Lane(a), o.Lane(a)) }
	viewkit.DiffTail(&d, max(v.significantLanes(), o.significantLanes()), lanes, v.counters, o.counters, &v.h, &o.h)
	return d.String()
}

func laneDiff(a, b Lane) string {
	if d := a.LaneHead.Diff(b.LaneHead); d != "" {
		return d
	}
	if !viewkit.WordsEqual(a.Lookup, b.Lookup, lookupWords) {
		return fmt.Sprintf("lookup %+v vs %+v", a.Lookup, b.Lookup)
	}
	return ""
}

// lookupWords encodes a lookup for Fingerprint.
func lookupWords(l Lookup, put func(uint64)) {
	b := viewkit.Bit
	for _, w := range []uint64{b(l.HasOp), l.Op, l.Operand, uint64(l.Phase), uint64(l.Page), uint64(l.Bank),
		uint64(l.Examining), uint64(l.ScanFrom), b(l.Match), l.ScanWord, b(l.Probed), uint64(l.ProbeSlot),
		uint64(l.ProbeEntries), uint64(uint32(l.CurCount)), uint64(l.Victim), l.VictimWhy, uint64(uint32(l.VictimAge)),
		uint64(l.Result), uint64(l.Slot), uint64(l.Passes), l.DoneValue, uint64(l.Err), uint64(len(l.Candidates)),
		uint64(len(l.Trail)), l.OpSeq, l.EndSeq} {
		put(w)
	}
	for _, c := range l.Candidates {
		put(uint64(c.Slot)<<8 | uint64(c.Kind)<<1 | b(c.Best))
		put(uint64(uint32(c.LRU))<<32 | uint64(uint32(c.Age)))
	}
	for _, r := range l.Trail {
		put(uint64(uint32(r.From))<<32 | uint64(uint32(r.To)))
	}
}

// Equal reports whether v and o show the same state (Diff is empty).
func (v *View) Equal(o *View) bool { return viewkit.Equal(v, o) }

// Fingerprint is a 64-bit FNV-1a hash of a canonical encoding of
// everything Diff compares: equal views have equal fingerprints.
func (v *View) Fingerprint() uint64 {
	h := viewkit.NewHasher()
	put := h.Put
	put(uint64(v.g.Variant))
	put(uint64(v.g.Slots))
	put(uint64(v.g.BankSize))
	put(uint64(v.g.BankRule))
	for _, s := range v.slots {
		put(slru.SlotWord(s.page, s.status, s.dirty))
		put(uint64(uint32(s.lru)))
		put(s.io)
	}
	for _, b := range v.banks {
		put(b.holders)
		put(uint64(uint32(b.cur)))
	}
	put(uint64(v.latest))
	viewkit.PutHistory(h, v.counters.fields(), &v.h)
	for a := 0; a < v.significantLanes(); a++ {
		l := v.Lane(trace.Actor(a))
		h.PutLane(l.Name, l.HasLast, l.Last, l.Stats.fields())
		lookupWords(l.Lookup, put)
	}
	return h.Sum64()
}

// HoldersString prints a holder word: "none", "A(X)", "A B".
func HoldersString(w uint64) string { return slru.UnpackHolders(w).String() }

// String draws the view as text, like slru.SLRU.Picture, with each
// backend's lookup.
func (v *View) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "slru view (%s): %d slots, %d bank(s) of %d, latest page %d, %d events applied\n",
		v.g.Variant, v.g.Slots, len(v.banks), v.g.BankSize, v.latest, v.h.Applied())
	for bank := range v.banks {
		bk := v.Bank(bank)
		fmt.Fprintf(&b, "bank %d: lock %s, lru counter %d", bank, HoldersString(bk.Lock), bk.CurCount)
		for _, w := range bk.Waiters {
			fmt.Fprintf(&b, ", %s waits (%s)", v.LaneName(w.Actor), w.Mode)
		}
		if v.g.HasTable() {
			b.WriteString(", table")
			for _, e := range v.TableEntries(bank) {
				fmt.Fprintf(&b, " %d->%d", e.Page, e.Slot)
			}
		}
		b.WriteByte('\n')
		for i := bk.First; i < bk.End; i++ {
			s := v.Slot(i)
			if s.Empty() && s.IOLock == 0 {
				continue
			}
			d := "clean"
			if s.Dirty {
				d = "dirty"
			}
			extra := ""
			if s.IOLock != 0 {
				extra = " io-lock " + HoldersString(s.IOLock)
			}
			if s.Latest {
				extra += " <- latest"
			}
			if s.Empty() {
				fmt.Fprintf(&b, "  %4d  EMPTY%s\n", i, extra)
				continue
			}
			fmt.Fprintf(&b, "  %4d  page %-6d %-17s %s lru %d age %d%s\n", i, s.Page, s.Status, d, s.LRUCount, s.Age, extra)
		}
	}
	for a := 1; a < len(v.lanes); a++ {
		l := v.Lane(trace.Actor(a))
		if !l.Lookup.HasOp {
			continue
		}
		fmt.Fprintf(&b, "%s: %s: %s\n", l.Name, OpText(l.Lookup.Op, l.Lookup.Operand), v.Status(l))
	}
	return b.String()
}
