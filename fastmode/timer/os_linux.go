//go:build linux && !android

package timer

import (
	"fmt"

	"github.com/ebitengine/purego"
)

const clockMonotonicRaw = 4 // CLOCK_MONOTONIC_RAW

type timespec struct {
	Sec  int64
	Nsec int64
}

// platformClock reads clock_gettime(CLOCK_MONOTONIC_RAW) from the C
// library through purego (works with CGO_ENABLED=0 and 1).
func platformClock() (*osClock, error) {
	return libClock("clock_gettime", func() (uintptr, error) {
		return purego.Dlopen("libc.so.6", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	}, clockGettimeClock)
}

// clockGettimeClock registers clock_gettime from lib (the C library) and
// builds the clock after one successful call; a tick is a nanosecond.
func clockGettimeClock(lib uintptr) (*osClock, error) {
	var clockGettime func(id int32, ts *timespec) int32
	purego.RegisterLibFunc(&clockGettime, lib, "clock_gettime")
	var ts timespec
	if rc := clockGettime(clockMonotonicRaw, &ts); rc != 0 {
		return nil, fmt.Errorf("clock_gettime(CLOCK_MONOTONIC_RAW) returned %d", rc)
	}
	read := func() uint64 {
		var ts timespec
		clockGettime(clockMonotonicRaw, &ts)
		return uint64(ts.Sec)*1_000_000_000 + uint64(ts.Nsec)
	}
	return &osClock{name: "clock_gettime", read: read, nsPerTick: 1}, nil
}
