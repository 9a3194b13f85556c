package testmem

import (
	"runtime"
	"testing"
)

// Holding a 64MB slice shows as about 64MB more live heap (the rest of
// the heap may shrink by a little meanwhile: at least 63MB more); dropping
// it gives the memory back at the next call.
func TestHeapInUse(t *testing.T) {
	h0 := HeapInUse()
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = byte(i)
	}
	held := HeapInUse()
	if held < h0+63<<20 {
		t.Errorf("holding 64MB: heap %d, before %d", held, h0)
	}
	runtime.KeepAlive(b)
	if after := HeapInUse(); after >= held-32<<20 {
		t.Errorf("after dropping 64MB: heap %d, while held %d", after, held)
	}
}
