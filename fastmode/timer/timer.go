package timer

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// Info describes a clock.
type Info struct {
	Source       string  `json:"source"`
	ResolutionNs float64 `json:"resolution_ns"` // smallest non-zero delta between successive reads
	ReadNs       float64 `json:"read_ns"`       // cost of one read
	Note         string  `json:"note,omitempty"`
}

func (i Info) String() string {
	s := fmt.Sprintf("%s (resolution %.3g ns, read %.3g ns)", i.Source, i.ResolutionNs, i.ReadNs)
	if i.Note != "" {
		s += "; " + i.Note
	}
	return s
}

// Clock is one time source. Now returns ticks; Nanos converts a number of
// ticks (usually a difference of two Now values) to nanoseconds.
type Clock struct {
	read      func() uint64
	nsPerTick float64
	info      Info
}

// Now reads the clock.
func (c *Clock) Now() uint64 { return c.read() }

// Nanos converts ticks to nanoseconds.
func (c *Clock) Nanos(ticks uint64) float64 { return float64(ticks) * c.nsPerTick }

// Info describes the clock.
func (c *Clock) Info() Info { return c.info }

// NsPerTick is the calibrated length of one tick.
func (c *Clock) NsPerTick() float64 { return c.nsPerTick }

// osClock is a platform clock counting in ticks of nsPerTick nanoseconds.
type osClock struct {
	name      string
	read      func() uint64
	nsPerTick float64
}

var start = time.Now()

func goNow() uint64 { return uint64(time.Since(start)) }

func newClock(name string, read func() uint64, nsPerTick float64, note string) *Clock {
	c := &Clock{read: read, nsPerTick: nsPerTick}
	c.info = Info{Source: name, Note: note}
	c.info.ResolutionNs, c.info.ReadNs = measure(c)
	return c
}

// measure finds the resolution (smallest non-zero delta between successive
// reads) and the cost of a read.
func measure(c *Clock) (resNs, readNs float64) {
	minDelta := uint64(math.MaxUint64)
	for i := 0; i < 2000; i++ {
		a := c.read()
		b := c.read()
		for j := 0; b == a && j < 1_000_000; j++ {
			b = c.read()
		}
		if b > a && b-a < minDelta {
			minDelta = b - a
		}
	}
	if minDelta == math.MaxUint64 {
		minDelta = 1
	}
	resNs = c.Nanos(minDelta)
	// Read cost: time n reads with the clock itself, growing n until the
	// span is at least 1000 resolutions; take the smallest of 5 rounds.
	readNs = math.Inf(1)
	for n := 1000; ; n *= 4 {
		best := math.Inf(1)
		for r := 0; r < 5; r++ {
			t0 := c.read()
			for i := 0; i < n; i++ {
				c.read()
			}
			d := c.Nanos(c.read() - t0)
			best = min(best, d)
		}
		if best >= 1000*resNs || n >= 1<<24 {
			readNs = best / float64(n)
			break
		}
	}
	return resNs, readNs
}

// calibrate measures the length of one cycle-counter tick against ref over
// about d.
func calibrate(cycles func() uint64, ref *osClock, d time.Duration) float64 {
	// Bracket each reference read between two counter reads and keep the
	// tightest bracket at both ends, so that the reference's read cost does
	// not bias the ratio.
	pair := func() (uint64, uint64) {
		bestW := uint64(math.MaxUint64)
		var c, r uint64
		for i := 0; i < 50; i++ {
			c0 := cycles()
			rr := ref.read()
			c1 := cycles()
			if c1-c0 < bestW {
				bestW, c, r = c1-c0, c0+(c1-c0)/2, rr
			}
		}
		return c, r
	}
	c0, r0 := pair()
	time.Sleep(d)
	c1, r1 := pair()
	if c1 <= c0 {
		return 0
	}
	return float64(r1-r0) * ref.nsPerTick / float64(c1-c0)
}

var (
	once      sync.Once
	available []*Clock
)

// CalibrationTime is how long the cycle counter is compared with the OS
// clock when the clocks are first set up.
const CalibrationTime = 100 * time.Millisecond

func setup() {
	once.Do(func() {
		var osc *Clock
		ref := &osClock{name: "time.Now", read: goNow, nsPerTick: 1}
		if o, err := platformClock(); err == nil {
			osc = newClock(o.name, o.read, o.nsPerTick, "")
			ref = o
		}
		if read, ok := cycleCounter(); ok {
			if ns := calibrate(read, ref, CalibrationTime); ns > 0 {
				available = append(available, newClock("tsc", read, ns, "calibrated against "+ref.name))
			}
		}
		if osc != nil {
			available = append(available, osc)
		}
		note := ""
		if len(available) == 0 {
			note = "no cycle counter or OS raw clock available here; using the Go runtime clock"
		}
		available = append(available, newClock("time.Now", goNow, 1, note))
	})
}

// Available returns every clock that works on this machine, best first.
// time.Now is always last.
func Available() []*Clock {
	setup()
	return available
}

// Best returns the best clock: the first of Available.
func Best() *Clock { return Available()[0] }

// Sources lists the names of the available clocks.
func Sources() []string {
	var s []string
	for _, c := range Available() {
		s = append(s, c.info.Source)
	}
	return s
}
