package poolview

import (
	"fmt"
	"strings"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
)

// StreamWindow describes the read stream of actor a's sequential scan at
// PostgreSQL 17 (an open scan17.init op), from the buffers it pins: the
// blocks of the scanned relation, in runs, each run read (BM_VALID,
// waiting to be consumed), being read (BM_IO_IN_PROGRESS) or pinned and
// not read yet. The lowest is the page the scan consumes now (or next):
// every block before it in the scan's order is done. ok is false when a
// is not in such a scan.
//
// "stream 78..84: 78..80 read · 81..84 to read"
func (p *Pool) StreamWindow(a trace.Actor) (s string, ok bool) {
	l := p.Lane(a)
	if !l.HasScan || l.Scan.Site != siteScan17Init && l.Scan.Site != siteScan18Init {
		return "", false
	}
	rel := uint32(l.Scan.Obj)
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
		case st&bufmgr.BmIOInProgress != 0:
			state = "reading"
		}
		bs = append(bs, blk{t.BlockNum, state})
	}
	if len(bs) == 0 {
		return "stream: nothing pinned", true
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
	var runs []string
	for i := 0; i < len(bs); {
		j := i
		for j+1 < len(bs) && bs[j+1].state == bs[i].state && bs[j+1].n == bs[j].n+1 {
			j++
		}
		runs = append(runs, span(bs[i].n, bs[j].n)+" "+bs[i].state)
		i = j + 1
	}
	return fmt.Sprintf("stream %s: %s", span(bs[0].n, bs[len(bs)-1].n), strings.Join(runs, " · ")), true
}
