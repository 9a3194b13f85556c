package slru

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"bufferlab/engine/slru"
	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/exp/exptest"
	"bufferlab/fastmode/harness"
)

func TestSlruCrossover(t *testing.T) {
	sizes := []int{8, 16, 32, 64, 128, 256}
	for _, c := range []struct {
		ratio []float64
		want  float64
		bound int
	}{
		// Crossing between 16 and 32: log-linear interpolation.
		{[]float64{1.3, 1.3, 0.87, 0.76, 0.5, 0.3}, 16 * math.Exp2(math.Log(1.3)/(math.Log(1.3)-math.Log(0.87))), 0},
		// Exactly 1 at 32 counts as "not yet faster": the crossing is after it.
		{[]float64{1.5, 1.2, 1, 0.5, 0.4, 0.3}, 32, 0},
		// Noise: the last crossing wins.
		{[]float64{1.3, 0.9, 1.1, 0.8, 0.7, 0.6}, 32 * math.Exp2(math.Log(1.1)/(math.Log(1.1)-math.Log(0.8))), 0},
		{[]float64{0.9, 0.8, 0.7, 0.6, 0.5, 0.4}, 8, -1},
		{[]float64{2, 1.9, 1.5, 1.4, 1.2, 1.1}, 512, 1},
	} {
		got, bound := SlruCrossover(sizes, c.ratio)
		if bound != c.bound || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("SlruCrossover(%v) = %v, %d; want %v, %d", c.ratio, got, bound, c.want, c.bound)
		}
	}
	if got, _ := SlruCrossover(nil, nil); !math.IsNaN(got) {
		t.Errorf("no data: %v", got)
	}
}

// The read-only bench never misses; the mixed one misses about one lookup
// in five and writes dirty victims back; the fast path allocates nothing
// per lookup.
func TestSlruBenchSetup(t *testing.T) {
	for _, bank := range []int{8, 16, 256} {
		for _, v := range []struct {
			variant slru.Variant
			h       slru.HashTable
		}{{slru.Banks, slru.HashDynahash}, {slru.BanksHash, slru.HashDynahash}, {slru.BanksHash, slru.HashGoMap}} {
			sb, err := NewSlruBench(v.variant, v.h, bank, false, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := sb.Run(10000); err != nil {
				t.Fatal(err)
			}
			st := sb.Backend.Stats
			if st.Reads != 0 || st.Hits != 10000 {
				t.Errorf("%s/%s bank %d: %d hits, %d reads", v.variant, v.h, bank, st.Hits, st.Reads)
			}
			if v.variant == slru.Banks {
				// A present page is found after (bank+1)/2 slots on average.
				avg := float64(st.SlotsScanned) / 10000
				if avg < float64(bank)/2-2 || avg > float64(bank)/2+3 {
					t.Errorf("bank %d: %.1f slots compared per lookup", bank, avg)
				}
			}
			if allocs := testing.AllocsPerRun(100, func() { _ = sb.Run(100) }); allocs != 0 {
				t.Errorf("%s/%s bank %d: %.1f allocations per 100 lookups", v.variant, v.h, bank, allocs)
			}
			if err := sb.SLRU.CheckQuiescent(); err != nil {
				t.Error(err)
			}
		}
		for _, v := range []slru.Variant{slru.Banks, slru.BanksHash} {
			sb, err := NewSlruBench(v, slru.HashDynahash, bank, true, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := sb.Run(20000); err != nil {
				t.Fatal(err)
			}
			st := sb.Backend.Stats
			miss := float64(st.Reads) / 20000
			if miss < 0.1 || miss > 0.3 || st.Writes == 0 || st.DirtyVictims == 0 {
				t.Errorf("%s bank %d mixed: miss ratio %.3f, %d writes, %d dirty victims", v, bank, miss, st.Writes, st.DirtyVictims)
			}
			if err := sb.SLRU.CheckQuiescent(); err != nil {
				t.Error(err)
			}
		}
	}
	if _, err := NewSlruBench(slru.Banks, slru.HashDynahash, 12, false, 1); err == nil {
		t.Error("bank of 12 accepted")
	}
}

func TestSlruReport(t *testing.T) {
	cfg := harness.Quick
	cfg.Samples = 3
	r, err := slruExperiment.Run(exp.Options{Quick: true, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range slruExperiment.SummaryKeys {
		if v := r.Summary[k]; !(v > 0) || math.IsInf(v, 0) {
			t.Errorf("summary %s = %v", k, v)
		}
	}
	for _, name := range []string{SlruLinear, SlruHash, SlruGoMap, SlruMixedLinear, SlruMixedHash} {
		slots, ns := SlruPoints(r, name)
		if fmt.Sprint(slots) != fmt.Sprint(SlruBankSizes) || len(ns) != len(slots) {
			t.Errorf("%s: points at %v", name, slots)
		}
		for i, v := range ns {
			if !(v > 0) {
				t.Errorf("%s at %d: %v ns", name, slots[i], v)
			}
		}
	}
	var b strings.Builder
	slruExperiment.WriteTable(r, &b)
	for _, want := range []string{"crossover", "bank slots", "seed 004", "crossover_slots", "nslots"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	t.Logf("\n%s", b.String())
}

// The thread's figures quoted in SeedSlruTable are the seed's.
func TestSlruSeedFigures(t *testing.T) {
	text := exptest.Seed(t, "004_*.txt")
	for _, row := range SeedSlruTable {
		line := fmt.Sprintf("%d %gs %gs", row.Slots, row.NoHashS, row.HashS)
		if !strings.Contains(text, line) {
			t.Errorf("seed lacks %q", line)
		}
	}
	for _, s := range []string{"14837.851 ms", "22723.243 ms"} {
		if !strings.Contains(text, s) {
			t.Errorf("seed lacks %q", s)
		}
	}
}

// testing.B twins of bench slru, for go test -bench and benchstat:
//
//	go test -run - -bench Slru ./fastmode/exp

func benchSlru(b *testing.B, mixed bool) {
	for _, v := range []struct {
		name    string
		variant slru.Variant
		h       slru.HashTable
	}{{SlruLinear, slru.Banks, slru.HashDynahash}, {SlruHash, slru.BanksHash, slru.HashDynahash}, {SlruGoMap, slru.BanksHash, slru.HashGoMap}} {
		if mixed && v.name == SlruGoMap {
			continue
		}
		for _, bank := range SlruBankSizes {
			b.Run(fmt.Sprintf("variant=%s/bank=%d", v.name, bank), func(b *testing.B) {
				sb, err := NewSlruBench(v.variant, v.h, bank, mixed, 42)
				if err != nil {
					b.Fatal(err)
				}
				exptest.Time(b, sb.Run)
			})
		}
	}
}

// BenchmarkSlruReadOnly: SimpleLruReadPage_ReadOnly + release of a present
// page, per variant and bank size.
func BenchmarkSlruReadOnly(b *testing.B) { benchSlru(b, false) }

// BenchmarkSlruMixed: the mixed workload with misses.
func BenchmarkSlruMixed(b *testing.B) { benchSlru(b, true) }
