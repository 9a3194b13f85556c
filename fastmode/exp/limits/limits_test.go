package limits

import (
	"sync/atomic"
	"testing"

	"bufferlab/fastmode/exp/exptest"
)

func BenchmarkStream(b *testing.B) {
	for _, size := range exptest.Sizes() {
		b.Run("shared_buffers="+size, func(b *testing.B) {
			a := NewStream(exptest.NBuffers(b, size))
			b.SetBytes(int64(len(a) * 8))
			b.ResetTimer()
			var x uint64
			for i := 0; i < b.N; i++ {
				x += Stream(a)
			}
			Sink.Add(x)
		})
	}
}

func BenchmarkChase(b *testing.B) {
	for _, size := range exptest.Sizes() {
		b.Run("shared_buffers="+size, func(b *testing.B) {
			a := NewChase(exptest.NBuffers(b, size), 1)
			b.ResetTimer()
			Sink.Add(Chase(a, 0, b.N))
		})
	}
}

func BenchmarkCAS(b *testing.B) {
	b.Run("uncontended", func(b *testing.B) {
		var w atomic.Uint64
		CAS(&w, b.N)
	})
	b.Run("contended", func(b *testing.B) {
		var w atomic.Uint64
		stop := Contended(&w)
		b.ResetTimer()
		CAS(&w, b.N)
		b.StopTimer()
		stop()
	})
}

func TestChaseIsOneCycle(t *testing.T) {
	a := NewChase(1000, 7)
	seen := map[uint64]bool{}
	p := uint64(0)
	for i := 0; i < 1000; i++ {
		if seen[p] {
			t.Fatalf("cycle of length %d", i)
		}
		seen[p] = true
		p = a[p]
	}
	if p != 0 {
		t.Fatal("not back at the start after 1000 loads")
	}
}
