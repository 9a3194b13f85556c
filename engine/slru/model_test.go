package slru_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// A naive model of the SLRU for one backend running operations one after
// another, written from the rules rather than from PostgreSQL's counters:
//
//   - a page's bank is pageno % nbanks (or & (nbanks-1));
//   - a lookup finds the slot of the bank holding the page;
//   - a slot for a new page is the lowest-numbered EMPTY slot of the bank,
//     else the VALID slot used longest ago (by a use clock, not by the
//     bank_cur_lru_count/page_lru_count arithmetic) that does not hold the
//     latest page; a dirty one is written to disk first;
//   - a use (a hit, a read, a zero) stamps the slot with the clock;
//   - a failed read leaves the slot EMPTY.
//
// With one backend at a time there are no I/O waits and no racing counters,
// so the engine must agree with it exactly: same results, same slot for
// every page, same dirty flags and contents, same disk.
type model struct {
	bankSize, nbanks int
	mask             bool
	slots            []mslot
	clock            int
	latest           int64
	disk             map[int64][]byte
	reads, writes    int
}

type mslot struct {
	valid   bool
	page    int64
	dirty   bool
	lastUse int
	data    []byte
}

func newModel(s *slru.SLRU) *model {
	m := &model{bankSize: s.BankSize(), nbanks: s.NumBanks(), mask: s.Config().BankRule == slru.BankMask,
		slots: make([]mslot, s.NumSlots()), latest: s.LatestPageNumber(), disk: map[int64][]byte{}}
	return m
}

func (m *model) bankOf(p int64) int {
	if m.mask {
		return int(p & int64(m.nbanks-1))
	}
	return int(p % int64(m.nbanks))
}

func (m *model) find(p int64) int {
	b := m.bankOf(p)
	for i := b * m.bankSize; i < (b+1)*m.bankSize; i++ {
		if m.slots[i].valid && m.slots[i].page == p {
			return i
		}
	}
	return -1
}

func (m *model) touch(i int) { m.clock++; m.slots[i].lastUse = m.clock }

// slotFor returns the page's slot, or the slot to put it in.
func (m *model) slotFor(p int64) int {
	if i := m.find(p); i >= 0 {
		return i
	}
	b := m.bankOf(p)
	for i := b * m.bankSize; i < (b+1)*m.bankSize; i++ {
		if !m.slots[i].valid {
			return i
		}
	}
	best := -1
	for i := b * m.bankSize; i < (b+1)*m.bankSize; i++ {
		if m.slots[i].page == m.latest {
			continue
		}
		if best < 0 || m.slots[i].lastUse < m.slots[best].lastUse {
			best = i
		}
	}
	if m.slots[best].dirty {
		m.disk[m.slots[best].page] = bytes.Clone(m.slots[best].data)
		m.slots[best].dirty = false
		m.writes++
	}
	return best
}

var errModelRead = errors.New("page not on disk")

func (m *model) readPage(p int64) (int, error) {
	i := m.slotFor(p)
	if m.slots[i].valid && m.slots[i].page == p {
		m.touch(i)
		return i, nil
	}
	m.reads++
	d, ok := m.disk[p]
	if !ok {
		m.slots[i] = mslot{page: p}
		return -1, errModelRead
	}
	m.slots[i] = mslot{valid: true, page: p, data: bytes.Clone(d)}
	m.touch(i)
	return i, nil
}

func (m *model) do(o slru.Op) (string, error) {
	switch o.Code {
	case slru.OpReadOnly, slru.OpRead:
		i, err := m.readPage(o.Page)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("slot %d", i), nil
	case slru.OpGetStatus:
		i, err := m.readPage(slru.TransactionIdToPage(o.Xid))
		if err != nil {
			return "", err
		}
		return (slru.XidStatus(m.slots[i].data[slru.TransactionIdToByte(o.Xid)]>>slru.BitShift(o.Xid)) & 3).String(), nil
	case slru.OpSetStatus:
		i, err := m.readPage(slru.TransactionIdToPage(o.Xid))
		if err != nil {
			return "", err
		}
		by, sh := slru.TransactionIdToByte(o.Xid), slru.BitShift(o.Xid)
		cur := slru.XidStatus(m.slots[i].data[by]>>sh) & 3
		if !(cur == 0 || (cur == slru.StatusSubCommitted && o.Status != 0) || cur == o.Status) {
			return "", errors.New("illegal change")
		}
		m.slots[i].data[by] = m.slots[i].data[by]&^(3<<sh) | byte(o.Status)<<sh
		m.slots[i].dirty = true
		return "ok", nil
	case slru.OpZero, slru.OpExtend:
		p := o.Page
		if o.Code == slru.OpExtend {
			if slru.TransactionIdToPgIndex(o.Xid) != 0 && o.Xid != slru.FirstNormalTransactionId {
				return "ok", nil
			}
			p = slru.TransactionIdToPage(o.Xid)
		}
		i := m.slotFor(p)
		m.slots[i] = mslot{valid: true, page: p, dirty: true, data: make([]byte, slru.BLCKSZ)}
		m.touch(i)
		m.latest = p
		if o.Code == slru.OpExtend {
			return "ok", nil
		}
		return fmt.Sprintf("slot %d", i), nil
	case slru.OpWriteAll:
		for i := range m.slots {
			if m.slots[i].valid && m.slots[i].dirty {
				m.disk[m.slots[i].page] = bytes.Clone(m.slots[i].data)
				m.slots[i].dirty = false
				m.writes++
			}
		}
		return "ok", nil
	}
	return "", fmt.Errorf("model: op %v", o)
}

// compare reports the first difference between the engine and the model.
func (m *model) compare(s *slru.SLRU) error {
	for i := range m.slots {
		e, ms := s.Slot(i), m.slots[i]
		if (e.Status != slru.PageEmpty) != ms.valid {
			return fmt.Errorf("slot %d: engine %s, model valid=%v", i, e.Status, ms.valid)
		}
		if !ms.valid {
			continue
		}
		if e.Status != slru.PageValid || e.Page != ms.page || e.Dirty != ms.dirty {
			return fmt.Errorf("slot %d: engine page %d %s dirty=%v, model page %d dirty=%v", i, e.Page, e.Status, e.Dirty, ms.page, ms.dirty)
		}
		if !bytes.Equal(s.PageData(i), ms.data) {
			return fmt.Errorf("slot %d (page %d): contents differ", i, ms.page)
		}
	}
	if s.LatestPageNumber() != m.latest {
		return fmt.Errorf("latest page: engine %d, model %d", s.LatestPageNumber(), m.latest)
	}
	for p, d := range m.disk {
		got, err := s.Disk().ReadPage(p)
		if err != nil || !bytes.Equal(got, d) {
			return fmt.Errorf("disk page %d differs (%v)", p, err)
		}
	}
	st := s.Stats()
	if int(st.Reads) != m.reads || int(st.Writes) != m.writes {
		return fmt.Errorf("reads/writes: engine %d/%d, model %d/%d", st.Reads, st.Writes, m.reads, m.writes)
	}
	return nil
}

// genConfig draws a small configuration of any variant.
func genConfig(t *rapid.T) slru.Config {
	v := rapid.SampledFrom(slru.Variants).Draw(t, "variant")
	bank := rapid.SampledFrom([]int{2, 4, 8, 16}).Draw(t, "bank")
	nbanks := rapid.IntRange(1, 3).Draw(t, "nbanks")
	cfg := slru.Config{Variant: v, Slots: bank * nbanks, BankSize: bank}
	if v == slru.Single {
		cfg.BankSize = 0
	} else if rapid.Bool().Draw(t, "mask") {
		cfg.BankRule = slru.BankMask
	}
	if v == slru.BanksHash && rapid.Bool().Draw(t, "gomap") {
		cfg.HashTable = slru.HashGoMap
	}
	return cfg
}

// genOps returns a function that draws operations over pages 0..npages-1,
// on disk, and lookups past the log's end, which fail.
func genOps(t *rapid.T, npages int64) func() slru.Op {
	return slru.Mix{ReadOnly: 40, GetStatus: 12, GetMissing: 3, SetStatus: 20, Read: 10, Zero: 5, WriteAll: 7, Extend: 3,
		Pages: int(npages), XidSpread: 41,
		Statuses: []slru.XidStatus{slru.StatusCommitted, slru.StatusAborted, slru.StatusSubCommitted},
	}.Stream(func(n int) int { return rapid.IntRange(0, n-1).Draw(t, "op") })
}

// TestLookupAndVictimRulesAgainstModel runs random operation streams on the
// engine (traced, with the invariants checked after every event, on every
// other run) and on the naive model, comparing after each operation.
func TestLookupAndVictimRulesAgainstModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := genConfig(t)
		npages := int64(rapid.IntRange(2, 4*cfg.Slots).Draw(t, "npages"))
		var log *trace.Log
		if rapid.Bool().Draw(t, "traced") {
			log = trace.NewLog()
		}
		s, err := slru.New(cfg, log)
		if err != nil {
			t.Fatal(err)
		}
		s.Disk().FormatPages(0, npages-1)
		s.SetLatestPageNumber(rapid.Int64Range(0, npages+3).Draw(t, "latest"))
		if log != nil {
			log.OnAppend = func(e trace.Event) {
				if err := s.CheckInvariants(); err != nil {
					t.Fatalf("after %s: %v", slru.Describe(e), err)
				}
			}
		}
		m := newModel(s)
		for p := int64(0); p < npages; p++ {
			m.disk[p] = make([]byte, slru.BLCKSZ)
		}
		a, _ := s.NewBackend("A")
		genOp := genOps(t, npages)
		nops := rapid.IntRange(1, 150).Draw(t, "nops")
		for i := 0; i < nops; i++ {
			o := genOp()
			got, gerr := a.Do(o)
			want, werr := m.do(o)
			if (gerr != nil) != (werr != nil) || (gerr == nil && got != want) {
				t.Fatalf("op %d %v: engine %q, %v; model %q, %v\n%s", i, o, got, gerr, want, werr, s.Picture())
			}
			if err := m.compare(s); err != nil {
				t.Fatalf("after op %d %v: %v\n%s", i, o, err, s.Picture())
			}
			if len(a.HeldLocks()) != 0 {
				t.Fatalf("after op %d %v: A holds %v", i, o, a.HeldLocks())
			}
		}
		if err := s.CheckQuiescent(); err != nil {
			t.Fatal(err)
		}
	})
}

// The three variants make the same choices: banks+hash differs from banks
// only in how it finds a page, and single is banks with one bank of all
// the slots.
func TestVariantsChooseAlike(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		bank := rapid.SampledFrom([]int{2, 4, 16}).Draw(t, "bank")
		nbanks := rapid.IntRange(1, 3).Draw(t, "nbanks")
		npages := int64(rapid.IntRange(2, 3*bank*nbanks).Draw(t, "npages"))
		cfgs := []slru.Config{
			{Variant: slru.Banks, Slots: bank * nbanks, BankSize: bank},
			{Variant: slru.BanksHash, Slots: bank * nbanks, BankSize: bank},
			{Variant: slru.BanksHash, Slots: bank * nbanks, BankSize: bank, HashTable: slru.HashGoMap},
		}
		if nbanks == 1 {
			cfgs = append(cfgs, slru.Config{Variant: slru.Single, Slots: bank})
		}
		var ss []*slru.SLRU
		var bs []*slru.Backend
		for _, c := range cfgs {
			s, err := slru.New(c, nil)
			if err != nil {
				t.Fatal(err)
			}
			s.Disk().FormatPages(0, npages-1)
			b, _ := s.NewBackend("A")
			ss, bs = append(ss, s), append(bs, b)
		}
		genOp := genOps(t, npages)
		for i, n := 0, rapid.IntRange(1, 200).Draw(t, "nops"); i < n; i++ {
			o := genOp()
			var first string
			for k, b := range bs {
				got, err := b.Do(o)
				res := fmt.Sprint(got, err != nil)
				if k == 0 {
					first = res
				} else if res != first {
					t.Fatalf("op %d %v: %s gives %s, %s gives %s", i, o, cfgs[0].Variant, first, cfgs[k].Variant, res)
				}
			}
			for k := 1; k < len(ss); k++ {
				for j := 0; j < ss[0].NumSlots(); j++ {
					if ss[0].Slot(j) != ss[k].Slot(j) {
						t.Fatalf("op %d %v: slot %d: %+v vs %+v (%s)", i, o, j, ss[0].Slot(j), ss[k].Slot(j), cfgs[k].Variant)
					}
				}
			}
		}
	})
}
