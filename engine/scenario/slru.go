package scenario

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// The commit log's SLRU in scenarios (engine/slru).
//
// Configuration: slru=single|banks|banks+hash turns it on, and several in
// pane order (slru=single,banks,banks+hash) run the same statements on
// each variant side by side; slru_buffers=N
// sets its slots (default: PostgreSQL 17's transaction_buffers rule from
// shared_buffers, or PostgreSQL 16's CLOG size for slru=single);
// bank_size=N slots per bank (default 16); clog_pages=N starts with pages
// 0 … N−1 of pg_xact on disk and latest_page_number N−1, as a cluster that
// has handed out N×32768 transaction ids (default: none, as after initdb
// before BootStrapCLOG), N at most 131072 (slru.ClogMaxPages: all 2^32
// transaction ids).
//
// Operations (backend A: clog OP): get XID, set XID committed|aborted|
// sub-committed, extend XID, boot, read-only PAGE, read PAGE, zero PAGE,
// write-all (see slru.Op).
//
// Expectations: expect slru KEY=V (hits, reads, writes, zeroes,
// slots_scanned, probes, victim_scans, victims, dirty_victims, lock_waits,
// latest) and expect page P
// KEY=V (slot: its slot or none; status; dirty).

// slruConfig is the SLRU part of ConfigStmt.
type slruConfig struct {
	On        bool
	Variant   slru.Variant
	Slots     int // 0: the default rule
	BankSize  int // 0: SLRU_BANK_SIZE
	ClogPages int
}

var slruMechanism = Mechanism{
	Name: "slru", Title: "the commit log's SLRU", Owner: trace.MSLRU,
	Keys: []Key{
		variantsKey("slru", "the commit log's SLRU and how a page finds its slot; several in pane order run side by side",
			"single, banks, banks+hash or several in pane order (banks,banks+hash)", []VariantInfo{
				{"single", "slru=single: one lock, every slot searched (PostgreSQL 16 and older)", "slru=single (PG ≤ 16)"},
				{"banks", "slru=banks: a bank of 16 per page, searched slot by slot (PostgreSQL 17.3+)", "slru=banks (PG 17.3+)"},
				{"banks+hash", "slru=banks+hash: the bank's hash table finds the slot (the 2023 patch, not committed)", "slru=banks+hash (not committed)"},
			}, parseSLRUVariant, func(st *ConfigStmt, vr slru.Variant) { st.SLRU.On, st.SLRU.Variant = true, vr }),
		{Name: "slru_buffers", Values: "N", Doc: "its slots (default: PG 17's transaction_buffers rule, or PG 16's CLOG size for single)", parse: (*parser).slruSizeKey},
		{Name: "bank_size", Values: "N", Doc: "slots per bank, a power of two (default SLRU_BANK_SIZE, 16)", parse: (*parser).slruSizeKey},
		{Name: "clog_pages", Values: "N", Doc: "pg_xact pages on disk at the start (latest_page_number N−1)", parse: (*parser).slruSizeKey},
	},
	Ops: []OpSpec{{Name: "clog", Kind: OpCLOG, Grammar: "clog get|set|extend|boot|read-only|read|zero|write-all …: a commit log operation",
		parse: (*parser).clogOp, run: (*Runner).execCLOG}},
	Subjects: []Subject{
		{Name: "slru", Expect: true, Show: true, Keys: []string{"hits", "reads", "writes", "zeroes", "slots_scanned", "probes", "victim_scans", "victims", "dirty_victims", "lock_waits", "latest"}},
		{Name: "page", Expect: true, Keys: []string{"slot", "status", "dirty"}},
	},
	ErrorText: func(e trace.Event) string { return slru.ErrCode(e.Arg).String() },
	Caption: func(evs []trace.Event, i int, n Names) string {
		return slru.Caption(evs, i, n.Actor)
	},
	Moment:    slru.MomentOf,
	describes: func(e trace.Event) bool { return e.Class.IsSLRU() },
	describe:  (*Runner).describeSLRU,
	absent: func(p *parser) string {
		if p.slru {
			return ""
		}
		return "the scenario has no SLRU: expected config slru=single|banks|banks+hash"
	},
}

// SLRU is the SLRU variant the pane chose, if it chose one.
func (v Variant) SLRU() (slru.Variant, bool) {
	return chosen(v, "slru", parseSLRUVariant)
}

// parseSLRUVariant is slru.ParseVariant with an ok in place of the error.
func parseSLRUVariant(s string) (slru.Variant, bool) {
	vr, err := slru.ParseVariant(s)
	return vr, err == nil
}

// slruSizeKey parses slru_buffers=, bank_size= and clog_pages=.
func (p *parser) slruSizeKey(st *ConfigStmt, t token, v string) error {
	k, _, _ := splitKV(t)
	max := uint64(1 << 20)
	if k == "clog_pages" {
		// pg_xact's own bound (slru.ClogMaxPages); the simulated disk
		// keeps only the pages written, so the largest costs little.
		n, err := strconv.ParseUint(v, 10, 64)
		if err == nil && n > uint64(slru.ClogMaxPages) || errors.Is(err, strconv.ErrRange) {
			return p.errf(t.Pos, "clog_pages: %s is too large: pg_xact holds at most %d pages, the 2^32 transaction ids over CLOG_XACTS_PER_PAGE = %d (clog.c), in %d segments of SLRU_PAGES_PER_SEGMENT = %d (slru.h)",
				v, slru.ClogMaxPages, slru.ClogXactsPerPage, slru.ClogMaxSegments, slru.SlruPagesPerSegment)
		}
		max = uint64(slru.ClogMaxPages)
	}
	n, err := p.uint(t, v, max, k)
	if err != nil {
		return err
	}
	if k == "bank_size" && n == 0 {
		// 0 is no size: slru_buffers=0 is the default rule, as
		// transaction_buffers=0 is in PostgreSQL, but no bank
		// size setting means "the default".
		return p.errf(t.Pos, "bank_size: expected a power of two from 2 to 4096 (or no bank_size= for SLRU_BANK_SIZE, 16), found 0")
	}
	switch k {
	case "slru_buffers":
		st.SLRU.Slots = int(n)
	case "bank_size":
		st.SLRU.BankSize = int(n)
	default:
		st.SLRU.ClogPages = int(n)
	}
	return nil
}

// slruEngineConfig is the engine configuration a config statement asks
// for, with the given variant (its own, or one of several side by side).
func (c *ConfigStmt) slruEngineConfig(vr slru.Variant) (slru.Config, error) {
	slots := c.SLRU.Slots
	if slots == 0 {
		if vr == slru.Single {
			slots = slru.CLOGBuffersPG16(c.NBuffers)
		} else {
			var err error
			if slots, err = slru.TransactionBuffers(0, c.NBuffers); err != nil {
				return slru.Config{}, err
			}
		}
	}
	return slru.Config{Variant: vr, Slots: slots, BankSize: c.SLRU.BankSize}, nil
}

// checkSLRUConfig validates the SLRU settings once the config line is read.
func (p *parser) checkSLRUConfig(st *ConfigStmt, toks []token) error {
	if !st.SLRU.On {
		for _, t := range toks[1:] {
			if k, _, ok := splitKV(t); ok && (k == "slru_buffers" || k == "bank_size" || k == "clog_pages") {
				return p.errf(t.Pos, "%s: applies to the commit log's SLRU: expected slru=single|banks|banks+hash too", k)
			}
		}
		return nil
	}
	for _, v := range st.AllVariants() {
		vr := st.SLRU.Variant
		if own, ok := v.SLRU(); ok {
			vr = own
		}
		cfg, err := st.slruEngineConfig(vr)
		if err == nil {
			_, err = slru.New(cfg, nil)
		}
		if err != nil {
			return p.errf(toks[0].Pos, "%v", err)
		}
	}
	p.slru, p.slruVar = true, st.SLRU.Variant
	return nil
}

// clogOp parses `clog OP …` into op.
func (p *parser) clogOp(op Op, toks []token) (Op, error) {
	if !p.slru {
		return Op{}, p.errf(toks[0].Pos, "clog: the scenario has no SLRU: expected config slru=single|banks|banks+hash")
	}
	var words []string
	for _, t := range toks[1:] {
		words = append(words, t.Text)
	}
	o, err := slru.ParseOp(strings.Join(words, " "))
	if err != nil {
		at := endPos(toks)
		if len(toks) > 1 {
			at = toks[1].Pos
		}
		return Op{}, p.errf(at, "clog: %v", err)
	}
	op.SLRU = o
	return op, nil
}

// newSLRU builds the runner's SLRU (with its log) when the config asks.
func (r *Runner) newSLRU() error {
	if !r.cfg.SLRU.On {
		return nil
	}
	vr := r.cfg.SLRU.Variant
	if own, ok := r.variant.SLRU(); ok {
		vr = own
	}
	cfg, err := r.cfg.slruEngineConfig(vr)
	if err != nil {
		return err
	}
	if r.slru, err = slru.New(cfg, r.log); err != nil {
		return err
	}
	if n := r.cfg.SLRU.ClogPages; n > 0 {
		r.slru.Disk().FormatPages(0, int64(n-1))
		r.slru.SetLatestPageNumber(int64(n - 1))
	}
	return nil
}

// SLRU is the scenario's commit-log SLRU (nil without slru=).
func (r *Runner) SLRU() *slru.SLRU { return r.slru }

// SLRUStartLatest is latest_page_number before the first event.
func (r *Runner) SLRUStartLatest() int64 {
	if n := r.cfg.SLRU.ClogPages; n > 0 {
		return int64(n - 1)
	}
	return 0
}

// execCLOG runs a clog operation.
func (r *Runner) execCLOG(be *backendState, op Op) error {
	if _, err := be.sb.Do(op.SLRU); err != nil {
		return r.errf(op.Pos, "clog %s: %v", op.SLRU, err)
	}
	return nil
}

// The keys of the SLRU's expect subjects.
func (r *Runner) slruExpectValue(st *ExpectStmt, c check) (string, error) {
	s := r.slru
	if s == nil {
		return "", r.errf(c.Pos, "expect %s: the scenario has no SLRU (config slru=…)", st.Subject)
	}
	switch st.Subject {
	case "slru":
		t := s.Stats()
		if v, ok := counter(c.Key, map[string]uint64{"hits": t.Hits, "reads": t.Reads, "writes": t.Writes, "zeroes": t.Zeroes,
			"slots_scanned": t.SlotsScanned, "probes": t.Probes, "victim_scans": t.VictimScans, "victims": t.Victims,
			"lock_waits": t.LockWaits, "dirty_victims": t.DirtyVictims}); ok {
			return v, nil
		}
		if c.Key == "latest" {
			return strconv.FormatInt(s.LatestPageNumber(), 10), nil
		}
	case "page":
		page, _ := strconv.ParseInt(st.Args[0].Text, 10, 64)
		slot, ok := s.Find(page)
		switch c.Key {
		case "slot":
			if !ok {
				return "none", nil
			}
			return strconv.Itoa(slot), nil
		case "status", "dirty":
			if !ok {
				return "", r.errf(c.Pos, "expect page %d %s: the page is in no slot", page, c.Key)
			}
			sl := s.Slot(slot)
			if c.Key == "dirty" {
				return yesNo(sl.Dirty), nil
			}
			return sl.Status.String(), nil
		}
	}
	return "", r.errf(c.Pos, "expect %s: unknown key %q", st.Subject, c.Key)
}

// describeSLRU describes an SLRU event with the scenario's backend names.
func (r *Runner) describeSLRU(e trace.Event) string {
	s := slru.Describe(e)
	if int(e.Actor) >= 1 && int(e.Actor) <= len(r.backends) {
		// The actor column follows the sequence number, which is wider
		// than 5 digits from event 100000 on.
		at := len(fmt.Sprintf("%05d ", e.Seq))
		if name := r.backends[e.Actor-1].name; name != trace.ActorName(e.Actor) && len(s) >= at+3 {
			s = s[:at] + fmt.Sprintf("%-3s", name) + s[at+3:]
		}
	}
	return s
}
