package testmem

import "runtime"

// HeapInUse collects garbage and returns the bytes of live heap objects
// (runtime.MemStats.HeapAlloc): the difference of two calls is what the
// code between them keeps reachable. It costs a full collection, a few
// milliseconds on a small heap.
func HeapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
