package timer

import (
	"math"
	"runtime"
	"testing"
	"time"
)

func TestSources(t *testing.T) {
	cs := Available()
	if len(cs) == 0 || cs[len(cs)-1].Info().Source != "time.Now" {
		t.Fatalf("sources %v: want time.Now last", Sources())
	}
	t.Logf("sources: %v", Sources())
	want := map[string]bool{}
	if runtime.GOOS == "linux" {
		want["clock_gettime"] = true
	}
	if _, ok := cycleCounter(); ok {
		want["tsc"] = true
	}
	got := map[string]bool{}
	for _, c := range cs {
		got[c.Info().Source] = true
	}
	for s := range want {
		if !got[s] {
			t.Errorf("source %s exists on this machine but is not available: %v", s, Sources())
		}
	}
	if Best() != cs[0] {
		t.Error("Best is not the first available clock")
	}
}

// Every available source: info sane, reads monotonic, calibrated against
// time.Now within 1% over 200 ms.
func TestEachSource(t *testing.T) {
	for _, c := range Available() {
		c := c
		t.Run(c.Info().Source, func(t *testing.T) {
			info := c.Info()
			t.Logf("%v, %.6g ns/tick", info, c.NsPerTick())
			if !(info.ResolutionNs > 0) || !(info.ReadNs > 0) || math.IsInf(info.ReadNs, 0) {
				t.Errorf("info %+v: want positive resolution and read cost", info)
			}
			prev := c.Now()
			for i := 0; i < 100000; i++ {
				now := c.Now()
				if now < prev {
					t.Fatalf("read %d went back: %d after %d", i, now, prev)
				}
				prev = now
			}
			t0, w0 := c.Now(), time.Now()
			time.Sleep(200 * time.Millisecond)
			t1, w1 := c.Now(), time.Now()
			got, want := c.Nanos(t1-t0), float64(w1.Sub(w0))
			if math.Abs(got-want) > 0.01*want {
				t.Errorf("%s measured %.0f ns where time.Now measured %.0f ns (more than 1%% apart)", info.Source, got, want)
			}
		})
	}
}
