package slru

import "fmt"

// Mix is a random mix of commit-log operations, the load that the tests,
// the view's tests and cmd/slrushot put on an SLRU. Each weight is how
// often its operation is drawn, as a share of the weights' sum (percent
// when they add up to 100). What each one stands for in PostgreSQL:
//
//   - GetStatus: TransactionIdGetStatus of an xid on one of the pages
//     0..Pages-1, as a visibility check (TransactionIdDidCommit) does when
//     the tuple's hint bits are not set yet.
//   - GetAny: TransactionIdGetStatus of an xid among the first AnySpread
//     of the page, whoever's it is (with Own, GetStatus reads only the
//     backend's own xids).
//   - GetMissing: TransactionIdGetStatus of the first xid of one of the
//     four pages past the log's end (the page Extend creates next, or one
//     of the three after it), which are not on disk: the read fails
//     ("could not access status of transaction") and leaves the slot
//     EMPTY.
//   - SetStatus: TransactionIdSetTreeStatus of a transaction without
//     subtransactions (TransactionIdSetStatus), its commit or abort, to a
//     status drawn from Statuses. Changing a status already set (committed
//     to aborted) fails with ErrStatusChange.
//   - ReadOnly: SimpleLruReadPage_ReadOnly of a page, then the bank lock
//     released.
//   - Read: SimpleLruReadPage of a page under its bank lock held
//     exclusively (write_ok), as TransactionIdSetPageStatus reads it.
//   - Zero: SimpleLruZeroPage of a page under its bank lock.
//   - WriteAll: a checkpoint's SimpleLruWriteAll (CheckPointCLOG).
//   - Extend: ExtendCLOG of the first xid of the next page past the log,
//     GetNewTransactionId's call that does something (for an xid that
//     does not start a page it returns at once): page Pages first, then
//     Pages+1, and so on. It zeroes the page and makes it
//     latest_page_number.
//
// Each operation draws a page, an xid offset into it and the operation,
// then what the operation needs (a status when Statuses has more than
// one, GetAny's xid, GetMissing's page), in that order: the golden traces
// of seeded runs depend on it.
type Mix struct {
	GetStatus, GetAny, GetMissing, SetStatus int // weights
	ReadOnly, Read, Zero, WriteAll, Extend   int // weights

	Pages     int         // the pages on disk, 0..Pages-1, that operations address
	XidFrom   int         // GetStatus's and SetStatus's xids: XidFrom..XidFrom+XidSpread-1
	XidSpread int         // into the page, a special xid (0..2) moved up to a normal one
	AnySpread int         // GetAny's xids are the first AnySpread of their page
	Statuses  []XidStatus // SetStatus's statuses; none: committed

	// Own gives each backend of Plans xids of its own, as only a
	// transaction's own backend records its commit: backend k of n sets
	// and looks up the xids x with x % n == k, XidSpread of them a page
	// from XidFrom on. GetAny reads anybody's.
	Own bool
}

// Plans draws ops operations for each of backends backends, backend 0's
// first, taking its random numbers from n (n(k) is uniform in 0..k-1:
// rand.Rand's IntN, or a rapid draw). Only backend 0 extends the log:
// ExtendCLOG runs under XidGenLock, one backend at a time and page after
// page, so another backend's Extend draw is a checkpoint (WriteAll).
func (m Mix) Plans(backends, ops int, n func(int) int) [][]Op {
	d := m.drawer(n)
	plans := make([][]Op, backends)
	for k := range plans {
		for range ops {
			plans[k] = append(plans[k], d.draw(k, backends))
		}
	}
	return plans
}

// Stream returns a function that draws one operation a call for a single
// backend, which extends the log (Own makes no difference), taking its
// random numbers from n as Plans does.
func (m Mix) Stream(n func(int) int) func() Op {
	d := m.drawer(n)
	return func() Op { return d.draw(0, 1) }
}

// A drawer draws a Mix's operations with its random source and knows
// where the log ends.
type drawer struct {
	Mix
	n    func(int) int
	sum  int    // of the weights
	next uint32 // the first xid of the page the next Extend creates
}

func (m Mix) drawer(n func(int) int) *drawer {
	d := &drawer{Mix: m, n: n, next: uint32(m.Pages) * ClogXactsPerPage}
	for _, w := range []int{m.GetStatus, m.GetAny, m.GetMissing, m.SetStatus, m.ReadOnly, m.Read, m.Zero, m.WriteAll, m.Extend} {
		if w < 0 {
			panic(fmt.Sprintf("slru: Mix with a negative weight: %+v", m))
		}
		d.sum += w
	}
	if d.sum == 0 || m.Pages < 1 || m.XidFrom < 0 || m.XidSpread < 1 || (m.GetAny > 0 && m.AnySpread < 1) {
		panic(fmt.Sprintf("slru: Mix without weights, pages or spreads: %+v", m))
	}
	return d
}

// draw draws one operation of backend k of nb.
func (d *drawer) draw(k, nb int) Op {
	owners, own := uint32(1), uint32(0)
	if d.Own {
		owners, own = uint32(nb), uint32(k)
	}
	page := uint32(d.n(d.Pages))
	first := page * ClogXactsPerPage
	xid := first + uint32(d.XidFrom) + uint32(d.n(d.XidSpread))*owners + own
	xid = max(xid, FirstNormalTransactionId+own)
	for xid%owners != own {
		xid++
	}
	x := d.n(d.sum)
	// pick(w) reports whether x falls in the next w of the sum, in the
	// order of the fields.
	pick := func(w int) bool {
		if x < w {
			return true
		}
		x -= w
		return false
	}
	switch {
	case pick(d.GetStatus):
		return Op{Code: OpGetStatus, Xid: xid}
	case pick(d.GetAny):
		return Op{Code: OpGetStatus, Xid: first + uint32(d.n(d.AnySpread))}
	case pick(d.GetMissing):
		return Op{Code: OpGetStatus, Xid: d.next + uint32(d.n(4))*ClogXactsPerPage}
	case pick(d.SetStatus):
		st := StatusCommitted
		if len(d.Statuses) > 0 {
			st = d.Statuses[0]
		}
		if len(d.Statuses) > 1 {
			st = d.Statuses[d.n(len(d.Statuses))]
		}
		return Op{Code: OpSetStatus, Xid: xid, Status: st}
	case pick(d.ReadOnly):
		return Op{Code: OpReadOnly, Page: int64(page)}
	case pick(d.Read):
		return Op{Code: OpRead, Page: int64(page)}
	case pick(d.Zero):
		return Op{Code: OpZero, Page: int64(page)}
	case pick(d.WriteAll) || k != 0:
		return Op{Code: OpWriteAll}
	}
	o := Op{Code: OpExtend, Xid: d.next}
	d.next += ClogXactsPerPage
	return o
}
