package poolview_test

import (
	"runtime"
	"runtime/debug"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
)

// keyframePool is a view of nbuffers buffers as a long run leaves it: every
// buffer tagged and valid, the mapping table full (nbuffers entries, about
// nbuffers/128 a partition), backend A in an operation (so its events leave
// trail marks) and pinning a few buffers. Built from events by hand (a
// scenario of 131,072 buffers would take seconds), history trimmed.
func keyframePool(nbuffers int) (*view.Pool, uint64) {
	v := view.New(nbuffers, map[uint32]string{16384: "t"}, []string{"sys", "A", "B"})
	seq := uint64(0)
	ap := func(e trace.Event) {
		e.Seq = seq
		seq++
		v.Apply(e)
	}
	const a = trace.Actor(1)
	for i := 0; i < nbuffers; i++ {
		tag := uint64(16384)<<32 | uint64(i)
		ap(trace.Event{Actor: a, Kind: trace.KFreelistPop, Class: trace.OBuffer, Obj: uint32(i), Before: uint64(i), After: uint64(int64(i + 1))})
		ap(trace.Event{Actor: a, Kind: trace.KRetag, Class: trace.OBuffer, Obj: uint32(i), Before: view.NoTag, After: tag})
		ap(trace.Event{Actor: a, Kind: trace.KMapInsert, Class: trace.OPartition, Obj: uint32(view.PartitionOf(tag)), Arg: tag, Before: uint64(i), After: trace.NoBuffer})
		ap(trace.Event{Actor: a, Kind: trace.KCAS, Class: trace.OBuffer, Obj: uint32(i), Before: 0, After: uint64(bufmgr.BmTagValid | bufmgr.BmValid)})
		if i%4096 == 4095 {
			v.TrimHistory(0)
		}
	}
	ap(trace.Event{Actor: a, Kind: trace.KOp, Class: trace.ORelation, Site: trace.SiteOf("read.begin"), Obj: 16384, Arg: 16384 << 32})
	for i := 0; i < 8; i++ {
		ap(trace.Event{Actor: a, Kind: trace.KPrivRef, Class: trace.OBuffer, Obj: uint32(i * 97 % nbuffers), Before: 0, After: 1})
	}
	v.TrimHistory(0)
	return v, seq
}

// keyframeCost measures, in bytes allocated (runtime.MemStats.TotalAlloc,
// GC off, the average of runs), what a timeline's keyframe costs on the
// pool of keyframePool(nbuffers): snap is Snapshot itself; first[k] is what
// the live view then allocates applying the k-th of four events of
// backend A (one writing a buffer's state word and its trail mark, one
// taking a partition's lock, one inserting a mapping entry in it, one
// changing A's pin count); again[k] is what the same event allocates when
// no snapshot came before (its history node and lane information: what
// every Apply costs). A keyframe costs snap + Σ(first - again).
func keyframeCost(t *testing.T, nbuffers int) (snap float64, first, again [4]float64) {
	v, seq := keyframePool(nbuffers)
	const a = trace.Actor(1)
	buf := nbuffers / 3
	tag := uint64(16385)<<32 | 7 // not in the table yet
	part := uint32(view.PartitionOf(tag))
	st := uint64(v.State(buf))
	writes := [4]trace.Event{
		{Seq: seq, Actor: a, Kind: trace.KCAS, Class: trace.OBuffer, Obj: uint32(buf), Before: st, After: st + uint64(bufmgr.BufRefcountOne)},
		{Seq: seq + 1, Actor: a, Kind: trace.KLWAcquire, Class: trace.OPartition, Obj: part, Before: 0, After: uint64(a) << 48},
		{Seq: seq + 2, Actor: a, Kind: trace.KMapInsert, Class: trace.OPartition, Obj: part, Arg: tag, Before: uint64(buf), After: trace.NoBuffer},
		{Seq: seq + 3, Actor: a, Kind: trace.KPrivRef, Class: trace.OBuffer, Obj: uint32(buf), Before: 0, After: 1},
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var ms runtime.MemStats
	total := func() float64 { runtime.ReadMemStats(&ms); return float64(ms.TotalAlloc) }
	applyAll := func(into *[4]float64) {
		for k, e := range writes {
			t0 := total()
			v.Apply(e)
			into[k] += total() - t0
		}
	}
	unapplyAll := func() {
		for k := len(writes) - 1; k >= 0; k-- {
			v.Unapply(writes[k])
		}
	}
	var keep []*view.Pool // snapshots stay alive, as a timeline's do
	const runs = 16
	for r := -1; r < runs; r++ {
		if r == 0 { // run -1 warms up: a pin map's buckets grow once
			snap, first, again = 0, [4]float64{}, [4]float64{}
		}
		t0 := total()
		s := v.Snapshot()
		snap += total() - t0
		keep = append(keep, s)
		applyAll(&first)
		unapplyAll()
		applyAll(&again)
		unapplyAll()
	}
	if d := keep[0].Diff(v); d != "" {
		t.Fatalf("%d buffers: the view after the writes undone differs from its snapshot:\n%s", nbuffers, d)
	}
	for k := range first {
		first[k] /= runs
		again[k] /= runs
	}
	return snap / runs, first, again
}

// A keyframe costs memory in proportion to what changed since the last,
// not to the pool: Snapshot copies the Pool, its directory of buffer blocks
// (one pointer per 2,048 buffers), its lanes; the first writes after it
// copy one block of chunk pointers and one chunk of 32 descriptors, one
// group of 8 partitions, one bucket of a partition's mapping entries and
// the bucket pointers of its table, one bucket of the backend's pins.
//
// Measured here (amd64, Go 1.26, bytes allocated; keyframe = snapshot +
// the first writes' extra bytes, by write):
//
//	                 keyframe  snapshot  buffer  partition lock  entry   pin
//	before  16,384     20,112     9,072   1,152               0  9,560   328
//	before 131,072    112,928    36,976   1,152               0 74,472   328
//	after   16,384      3,152       816   1,600             208    368   160
//	after  131,072      4,224     1,264   1,600             208    912   240
//
// Before, Clone copied one pointer per 32 buffers and the 128 partitions
// inline (3 kB), and the first insert into a partition copied its whole Go
// map (128 entries at 16,384 buffers, 1,024 at 131,072). A whole timeline
// (timeline.New, a keyframe every 256 events) of the big-pool lesson
// (16,384 buffers, 576,147 events) held 63.8 MB before, 16.7 MB after.
func TestKeyframeCost(t *testing.T) {
	cost := map[int]float64{}
	for _, n := range []int{16384, 131072} {
		snap, first, again := keyframeCost(t, n)
		kf := snap
		for k := range first {
			kf += first[k] - again[k]
		}
		cost[n] = kf
		t.Logf("%7d buffers: keyframe %5.0f B = snapshot %5.0f B + first writes (buffer, partition lock, entry, pin) %v B - the same again %v B",
			n, kf, snap, first, again)
	}
	const bound = 5 << 10
	if c := cost[131072]; c > bound {
		t.Errorf("a keyframe of a 131,072-buffer pool costs %.0f B with its first writes, want at most %d", c, bound)
	}
	// A pool 8× larger adds to a keyframe its directory (56 more pointers,
	// 448 B) and a larger partition table's bucket pointers, nothing else.
	if r := cost[131072] / cost[16384]; r > 1.5 {
		t.Errorf("a keyframe costs %.1f× more at 131,072 buffers than at 16,384 (%.0f vs %.0f B), want at most 1.5×", r, cost[131072], cost[16384])
	}
}

// TestVersion: a pool's Version changes with every Apply and Unapply and
// is kept by Clone and Snapshot, and two pools made apart never share one
// (a scene compares versions to know that nothing it draws changed).
func TestVersion(t *testing.T) {
	a, b := view.New(16, nil, nil), view.New(16, nil, nil)
	if a.Version() == b.Version() {
		t.Fatal("two new pools share a version")
	}
	e := trace.Event{Kind: trace.KFreelistPop, Class: trace.OStrategy, Actor: 1, Before: 0, After: 1, Obj: 0}
	v0 := a.Version()
	a.Apply(e)
	if a.Version() == v0 {
		t.Fatal("Apply kept the version")
	}
	c, s := a.Clone(), a.Snapshot()
	if c.Version() != a.Version() || s.Version() != a.Version() {
		t.Fatal("a clone or snapshot has another version")
	}
	c.Unapply(e)
	if c.Version() == a.Version() || c.Version() == v0 {
		t.Fatal("Unapply kept a version another pool has")
	}
}
