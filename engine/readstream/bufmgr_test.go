package readstream_test

import (
	"testing"

	"bufferlab/engine/readstream"
)

// otherBackend is a MemPool in which another backend is reading some
// blocks: StartBufferIO(nowait) finds their I/O in progress and gives up;
// StartBufferIO waiting sees that I/O finish (the block becomes valid) and
// reports that there is nothing left to read (StartBufferIO, bufmgr.c).
type otherBackend struct {
	*readstream.MemPool
	reading map[readstream.BlockNumber]bool
	done    map[readstream.BlockNumber]bool
}

func (o *otherBackend) StartBufferIO(buf readstream.Buffer, nowait bool) bool {
	b := o.BufferGetBlockNumber(buf)
	if o.reading[b] {
		if nowait {
			return false
		}
		delete(o.reading, b)
		o.done[b] = true
		return false
	}
	return o.MemPool.StartBufferIO(buf, nowait)
}

// run is StartReadBuffers(block, n) then, if needed, WaitReadBuffers, on
// pool; it returns the record and the blocks covered.
func run(t *testing.T, pool readstream.Pool, block readstream.BlockNumber, n int) (string, int) {
	t.Helper()
	log := &readstream.Log{}
	op := readstream.NewReadBuffersOperation(pool, log)
	bufs := make([]readstream.Buffer, n)
	covered := n
	if readstream.StartReadBuffers(&op, bufs, block, &covered, 0) {
		readstream.WaitReadBuffers(&op)
	}
	for _, b := range bufs[:covered] {
		pool.ReleaseBuffer(b)
	}
	return log.String(), covered
}

// TestStartAndWaitReadBuffers checks bufmgr.c's two halves on their own
// (PG 17.9): where StartReadBuffersImpl cuts a range, and which blocks
// WaitReadBuffers reads with one smgrreadv.
func TestStartAndWaitReadBuffers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pool    func() readstream.Pool
		covered int
		want    string
	}{
		{"cold: one run, one smgrreadv",
			func() readstream.Pool { return readstream.NewMemPool() }, 4,
			"StartReadBuffers(0, 4) -> 4: read 0..3, wait\nWaitReadBuffers 0..3\n  smgrreadv 0..3 [4]\n"},
		{"a hit ends the range, pinned but not read",
			func() readstream.Pool { return readstream.NewMemPool(2) }, 3,
			"StartReadBuffers(0, 4) -> 3: read 0..1, hit 2, wait\nWaitReadBuffers 0..1\n  smgrreadv 0..1 [2]\n"},
		{"a first hit: no I/O",
			func() readstream.Pool { return readstream.NewMemPool(0, 1) }, 1,
			"StartReadBuffers(0, 4) -> 1: hit\n"},
		// Another backend is reading block 1 when WaitReadBuffers runs: the
		// run 0.. stops before it (nowait), block 1 is waited for and
		// skipped, and 2..3 is a second smgrreadv.
		{"another backend reads block 1: two smgrreadv",
			func() readstream.Pool {
				return &otherBackend{readstream.NewMemPool(),
					map[readstream.BlockNumber]bool{1: true}, map[readstream.BlockNumber]bool{}}
			}, 4,
			"StartReadBuffers(0, 4) -> 4: read 0..3, wait\nWaitReadBuffers 0..3\n  smgrreadv 0 [1]\n  skip 1: already valid\n  smgrreadv 2..3 [2]\n"},
	} {
		pool := tc.pool()
		got, covered := run(t, pool, 0, 4)
		if got != tc.want || covered != tc.covered {
			t.Errorf("%s: covered %d (want %d)\n%s\nwant\n%s", tc.name, covered, tc.covered, got, tc.want)
		}
	}

	// ReadBuffer_common's path in 17: StartReadBuffer, then WaitReadBuffers.
	pool := readstream.NewMemPool()
	log := &readstream.Log{}
	op := readstream.NewReadBuffersOperation(pool, log)
	buf := []readstream.Buffer{readstream.InvalidBuffer}
	if !readstream.StartReadBuffer(&op, buf, 7, 0) {
		t.Fatal("StartReadBuffer of a cold block needs no wait")
	}
	readstream.WaitReadBuffers(&op)
	if got, want := log.String(), "StartReadBuffer(7): read 7, wait\nWaitReadBuffers 7\n  smgrreadv 7 [1]\n"; got != want {
		t.Errorf("ReadBuffer path:\n%s\nwant\n%s", got, want)
	}
	if pool.BufferGetBlockNumber(buf[0]) != 7 || !pool.Valid(7) || pool.Pins != 1 {
		t.Errorf("after the read: buffer %d, valid %v, pins %d", buf[0], pool.Valid(7), pool.Pins)
	}
}
