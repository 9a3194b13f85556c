package poolview

import (
	"fmt"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// StreamWindow describes the read stream of actor a's sequential scan at
// PostgreSQL 17 or 18 (an open scan17.init or scan18.init op), from the
// buffers it pins: the blocks of the scanned relation, in runs, each run
// read (BM_VALID, waiting to be consumed), being read (BM_IO_IN_PROGRESS)
// or pinned and not read yet. The lowest is the page the scan consumes now
// (or next): every block before it in the scan's order is done. ok is
// false when a is not in such a scan.
//
// At 18 an I/O's life shows: a block being read is either queued (its
// handle submitted, no I/O worker has taken it) or read by the worker
// that took it; completed, it is read; consumed, it leaves the window.
//
// "stream 78..84: 78..80 read · 81..84 to read"
// "stream 47..94: 47..62 read · 63..78 read by W1 · 79..94 queued"
func (p *Pool) StreamWindow(a trace.Actor) (s string, ok bool) {
	forms, ok := p.StreamWindowForms(a)
	if !ok {
		return "", false
	}
	return forms[0], true
}

// StreamWindowForms is StreamWindow in forms from the longest to the
// shortest, for a lane of any width: the window; its runs alone; the runs
// with a worker's name alone ("63..78 W1"); the blocks in each state
// ("16 read · 16 W1 · 16 queued").
func (p *Pool) StreamWindowForms(a trace.Actor) (forms []string, ok bool) {
	l := p.Lane(a)
	if !l.HasScan || l.Scan.Site != siteScan17Init && l.Scan.Site != siteScan18Init {
		return nil, false
	}
	rel := uint32(l.Scan.Obj)
	var byWorker map[uint32]string
	if l.Scan.Site == siteScan18Init {
		byWorker = p.workerReads(rel)
	}
	type blk struct {
		n     uint32
		state string
	}
	var bs []blk
	for _, pin := range p.Pins(a) {
		t := bufmgr.UnpackTag(p.Tag(int(pin.Buf)))
		st := p.State(int(pin.Buf))
		if st&bufmgr.BmTagValid == 0 || t.RelNode != rel || t.ForkNum != bufmgr.MainForkNum {
			continue
		}
		state := "to read"
		switch {
		case st&bufmgr.BmValid != 0:
			state = "read"
		case st&bufmgr.BmIOInProgress != 0 && byWorker != nil:
			state = "queued"
			if w, ok := byWorker[t.BlockNum]; ok {
				state = "read by " + w
			}
		case st&bufmgr.BmIOInProgress != 0:
			state = "reading"
		}
		bs = append(bs, blk{t.BlockNum, state})
	}
	if len(bs) == 0 {
		return []string{"stream: nothing pinned", "nothing pinned"}, true
	}
	// Order by block; a synchronized scan that wrapped keeps its order
	// from its start block (Before of the scan op).
	start := uint32(l.Scan.Before)
	order := func(b uint32) uint32 { return b - start } // wraps like the scan
	for i := 1; i < len(bs); i++ {
		for j := i; j > 0 && order(bs[j].n) < order(bs[j-1].n); j-- {
			bs[j], bs[j-1] = bs[j-1], bs[j]
		}
	}
	span := func(a, b uint32) string {
		if a == b {
			return fmt.Sprint(a)
		}
		return fmt.Sprintf("%d..%d", a, b)
	}
	var runs, terse, counts []string
	for i := 0; i < len(bs); {
		j := i
		for j+1 < len(bs) && bs[j+1].state == bs[i].state && bs[j+1].n == bs[j].n+1 {
			j++
		}
		st := bs[i].state
		runs = append(runs, span(bs[i].n, bs[j].n)+" "+st)
		st = strings.TrimPrefix(st, "read by ")
		terse = append(terse, span(bs[i].n, bs[j].n)+" "+st)
		counts = append(counts, fmt.Sprintf("%d %s", j-i+1, st))
		i = j + 1
	}
	all := strings.Join(runs, " · ")
	return []string{fmt.Sprintf("stream %s: %s", span(bs[0].n, bs[len(bs)-1].n), all), all,
		strings.Join(terse, " · "), strings.Join(counts, " · ")}, true
}

// workerReads are the blocks of relation rel that PostgreSQL 18's I/O
// workers are reading now, with the worker's lane name: each worker's last
// KAIO event (within wordWalk of its events), when it is a dequeue.
func (p *Pool) workerReads(rel uint32) map[uint32]string {
	out := map[uint32]string{}
	for _, a := range p.LaneActors() {
		if _, ok := bufmgr.IOWorkerOf(a); !ok {
			continue
		}
		for n, i := p.h.ActorTop(a), 0; n != nil && i < wordWalk; n, i = n.ActorPrev, i+1 {
			e := n.Ev
			if e.Kind != trace.KAIO {
				continue
			}
			if e.Arg&0xff == trace.AIODequeue && uint32(e.Arg>>8) == rel {
				for b := e.Before; b < e.Before+max(e.After, 1); b++ {
					out[uint32(b)] = p.Lane(a).Name
				}
			}
			break
		}
	}
	return out
}
