package pin

import (
	"fmt"
	"sync"
	"testing"
	"unsafe"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/exptest"
	"bufferlab/fastmode/timer"
)

func TestPinDescPadded(t *testing.T) {
	if s := unsafe.Sizeof(PinDesc{}); s != 64 {
		t.Fatalf("PinDesc is %d bytes, want 64 (BufferDescPadded)", s)
	}
}

// Several goroutines run the native loop (go test -race ./fastmode/exp
// -run Pin); afterwards every refcount is back to zero and no usage count
// exceeds BM_MAX_USAGE_COUNT, for both variants. For the atomic variant a
// further goroutine takes and releases header locks (BM_LOCKED) meanwhile,
// so the pin and unpin loops also wait it out.
func TestPinNativeLoop(t *testing.T) {
	const workers = 6
	n := 20000
	if testing.Short() {
		n = 5000
	}
	for _, v := range PinVariants {
		t.Run(v.String(), func(t *testing.T) {
			p := NewPinPool(64) // few buffers: more collisions
			var stop chan struct{}
			var lockerWG sync.WaitGroup
			var lockerStats PinStats
			if v == PinAtomic {
				stop = make(chan struct{})
				lockerWG.Add(1)
				go func() {
					defer lockerWG.Done()
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						d := &p.Descs[i%len(p.Descs)]
						s := LockBufHdr(d, &lockerStats)
						UnlockBufHdr(d, s)
					}
				}()
			}
			_, st := p.RunWorkers(v, workers, n, 42, timer.Best())
			if stop != nil {
				close(stop)
				lockerWG.Wait()
			}
			if st.Ops != uint64(workers*n) {
				t.Errorf("ops %d, want %d", st.Ops, workers*n)
			}
			if err := p.Check(); err != nil {
				t.Fatal(err)
			}
			touched := 0
			for i := range p.Descs {
				u := p.Usage(v, i)
				if u > BMMaxUsageCount {
					t.Errorf("buffer %d: usage %d", i, u)
				}
				if u > 0 {
					touched++
				}
			}
			if touched == 0 {
				t.Error("no usage count went up")
			}
			t.Logf("%s: %+v", v, st)
		})
	}
}

func TestPinWorkerCounts(t *testing.T) {
	for _, c := range []struct {
		max  int
		want string
	}{{1, "[1]"}, {4, "[1 2 4]"}, {6, "[1 2 4 6]"}, {128, "[1 2 4 8 16 32 64 128]"}} {
		if got := fmt.Sprint(PinWorkerCounts(c.max)); got != c.want {
			t.Errorf("PinWorkerCounts(%d) = %s, want %s", c.max, got, c.want)
		}
	}
}

func TestRatio(t *testing.T) {
	if got := Ratio(3, 1); got != "×3.00 faster" {
		t.Error(got)
	}
	if got := Ratio(1, 2); got != "×2.00 slower" {
		t.Error(got)
	}
}

// The figures quoted in the table come from seed 003; the embedded copy
// matches the shared seed where that is present.
func TestPinThread(t *testing.T) {
	th := PinThread()
	if th.Clients != [2]int{64, 128} || len(th.Rows) != 4 {
		t.Fatalf("parsed %+v", th)
	}
	if r := th.Rows[0]; r.Patch != "pin_unpin" || r.TPS != [2]int{330280, 133586} {
		t.Errorf("first row %+v", r)
	}
	if th.Command == "" || th.Author != "Amit Kapila" {
		t.Errorf("command %q author %q", th.Command, th.Author)
	}
	if exptest.Seed(t, "003_*.txt") != pinThreadText {
		t.Errorf("embedded seed003_pin_thread.txt differs from the shared seed 003")
	}
}

func TestPinReport(t *testing.T) {
	e, _ := exp.Lookup("pin")
	r, err := e.Run(exp.Options{Quick: true, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(PinWorkers(r)); got != "[1 2 3]" {
		t.Errorf("worker counts %s", got)
	}
	for _, k := range e.SummaryKeys {
		if !(r.Summary[k] > 0) {
			t.Errorf("summary %s = %v", k, r.Summary[k])
		}
	}
}

// BenchmarkPin is the testing.B twin of bench pin: b.N pin/unpin
// iterations spread over the workers; ns/op is wall time per operation
// (the inverse of throughput).
func BenchmarkPin(b *testing.B) {
	p := NewPinPool(PinHotBuffers)
	clock := timer.Best()
	for _, v := range PinVariants {
		for _, w := range []int{1, 2, 4, 8} {
			b.Run(fmt.Sprintf("variant=%s/workers=%d", v, w), func(b *testing.B) {
				n := max(1, b.N/w)
				b.ResetTimer()
				_, st := p.RunWorkers(v, w, n, 7, clock)
				b.StopTimer()
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(st.Ops), "ns/op")
				ops := float64(st.Ops)
				b.ReportMetric(float64(st.CASFailures)/ops, "casfail/op")
				b.ReportMetric(float64(st.Spins)/ops, "spins/op")
				if err := p.Check(); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}
