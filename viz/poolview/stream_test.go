package poolview_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	"bufferlab/viz/poolview/pooltest"
)

// A PostgreSQL 17 scan's read stream as the lane shows it (StreamWindow),
// after each WaitReadBuffers: the stream reads 1, 2, 4, 8 blocks, then the
// 9 left (io_combine_limit is 16); each read's blocks stay pinned, read,
// until the scan consumes them. During a wait the scan holds no page of
// its own: heap_fetch_next_buffer releases the previous page before it
// asks the stream for the next. A PostgreSQL 15 scan has no stream.
func TestStreamWindow(t *testing.T) {
	const src = `config shared_buffers=128MB pg=17
relation t blocks=24
backend A: scan t
run
`
	r := pooltest.Run(t, "stream", src)
	v := pooltest.NewView(r)
	var got []string
	for e := range r.Log().Range(0, r.Log().Len()) {
		v.Apply(e)
		if e.Kind == trace.KCall && e.Site.String() == "waitread.begin" {
			// Pinned by StartReadBuffers, not read yet.
			if w, _ := v.StreamWindow(e.Actor); !strings.HasSuffix(w, " to read") {
				t.Errorf("event %d, WaitReadBuffers begins: window %q does not end with blocks to read", e.Seq, w)
			}
		}
		if e.Kind == trace.KIORead {
			// smgrreadv and TerminateBufferIO: the block is being read.
			if w, _ := v.StreamWindow(e.Actor); !strings.Contains(w, "reading") {
				t.Errorf("event %d, a read: window %q shows nothing being read", e.Seq, w)
			}
		}
		if e.Kind == trace.KCall && e.Site.String() == "waitread.done" {
			w, ok := v.StreamWindow(e.Actor)
			if !ok {
				t.Fatalf("event %d: A is in a PostgreSQL 17 scan but has no stream window", e.Seq)
			}
			got = append(got, w)
		}
	}
	want := []string{
		"stream 0: 0 read",
		"stream 1..2: 1..2 read",
		"stream 3..6: 3..6 read",
		"stream 7..14: 7..14 read",
		"stream 15..23: 15..23 read",
	}
	if !slices.Equal(got, want) {
		t.Errorf("stream windows after each WaitReadBuffers:\n got  %q\n want %q", got, want)
	}
	if w, ok := v.StreamWindow(1); ok {
		t.Errorf("after the scan: a stream window %q", w)
	}

	r15 := pooltest.Run(t, "stream15", "config shared_buffers=128MB\nrelation t blocks=24\nbackend A: scan t\nrun\n")
	v15 := pooltest.NewView(r15)
	for e := range r15.Log().Range(0, r15.Log().Len()) {
		v15.Apply(e)
		if w, ok := v15.StreamWindow(e.Actor); ok {
			t.Fatalf("PostgreSQL 15, event %d: a stream window %q", e.Seq, w)
		}
	}
}

// At PostgreSQL 18 the window shows an I/O's life: blocks whose read is
// submitted and queued, blocks an I/O worker is reading (named), blocks
// read and waiting for the scan; the seeded schedule shows each at some
// event, and none at the scan's end.
func TestStreamWindow18(t *testing.T) {
	const src = `config shared_buffers=128MB pg=18 schedule=random seed=3
relation t blocks=160
backend A: scan t
run
`
	r := pooltest.Run(t, "stream18", src)
	v := pooltest.NewView(r)
	seen := map[string]bool{}
	for e := range r.Log().Range(0, r.Log().Len()) {
		v.Apply(e)
		w, ok := v.StreamWindow(1)
		if !ok {
			continue
		}
		for _, s := range []string{"queued", "read by W", " read"} {
			if strings.Contains(w, s) {
				seen[s] = true
			}
		}
		if strings.Contains(w, "reading") {
			t.Fatalf("event %d: window %q says reading, not queued or by whom", e.Seq, w)
		}
	}
	for _, s := range []string{"queued", "read by W", " read"} {
		if !seen[s] {
			t.Errorf("no window showed %q", s)
		}
	}
	if w, ok := v.StreamWindow(1); ok {
		t.Errorf("after the scan: a stream window %q", w)
	}
}

// An I/O worker's lane at PostgreSQL 18: "reads handle N (blocks)" from
// the dequeue to the completion, "completed handle N (blocks)" at the
// completion itself, and after it "waits for work (last read blocks)",
// without the handle's number: two scans in a row reuse the handles, so a
// number kept from the first scan would name another read (the owner
// reclaims a handle and stages its next read in it).
func TestWorkerLane(t *testing.T) {
	const src = `config shared_buffers=128MB pg=18 schedule=random seed=3
relation t blocks=40
relation u blocks=40
backend A: scan t
backend A: scan u
run
`
	r := pooltest.Run(t, "workers", src)
	v := pooltest.NewView(r)
	reading := map[trace.Actor]string{} // a worker's handle and blocks since its dequeue
	completions := 0
	for e := range r.Log().Range(0, r.Log().Len()) {
		v.Apply(e)
		for w := 0; w < 3; w++ {
			a := bufmgr.IOWorkerActor(w)
			status := v.OpLabel(a)
			switch {
			case e.Actor == a && e.Kind == trace.KAIO && e.Arg&0xff == trace.AIODequeue:
				if !strings.HasPrefix(status, fmt.Sprintf("reads handle %d (", e.Obj)) {
					t.Fatalf("event %d, W%d dequeues handle %d: lane %q", e.Seq, w, e.Obj, status)
				}
				reading[a] = strings.TrimPrefix(status, "reads ")
			case e.Actor == a && e.Kind == trace.KAIO && e.Arg&0xff == trace.AIOComplete:
				if want := "completed " + reading[a]; status != want {
					t.Fatalf("event %d, W%d completes: lane %q, want %q", e.Seq, w, status, want)
				}
				completions++
			case strings.HasPrefix(status, "completed"):
				t.Fatalf("event %d (by %d): W%d's lane %q after its completion", e.Seq, e.Actor, w, status)
			case strings.HasPrefix(status, "waits for work (last read ") && strings.Contains(status, "handle"):
				t.Fatalf("event %d: W%d's lane %q names a handle", e.Seq, w, status)
			}
		}
	}
	if completions < 4 {
		t.Errorf("%d completions by workers: the scans were to go through them", completions)
	}
	if got := v.OpLabel(bufmgr.IOWorkerActor(0)); !strings.HasPrefix(got, "waits for work (last read u/") {
		t.Errorf("at the end W0's lane is %q, want it waiting, having read u last", got)
	}
}
