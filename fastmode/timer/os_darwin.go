//go:build darwin

package timer

import (
	"fmt"

	"github.com/ebitengine/purego"
)

type machTimebaseInfo struct {
	Numer uint32
	Denom uint32
}

// platformClock reads mach_absolute_time from libSystem through purego,
// scaled by mach_timebase_info.
func platformClock() (*osClock, error) {
	return libClock("mach_absolute_time", func() (uintptr, error) {
		return purego.Dlopen("/usr/lib/libSystem.B.dylib", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	}, machClock)
}

// machClock registers mach_absolute_time and mach_timebase_info from lib
// (libSystem) and builds the clock, its tick scaled by the timebase.
func machClock(lib uintptr) (*osClock, error) {
	var machAbsoluteTime func() uint64
	var machTimebase func(info *machTimebaseInfo) int32
	purego.RegisterLibFunc(&machAbsoluteTime, lib, "mach_absolute_time")
	purego.RegisterLibFunc(&machTimebase, lib, "mach_timebase_info")
	var tb machTimebaseInfo
	if rc := machTimebase(&tb); rc != 0 || tb.Denom == 0 {
		return nil, fmt.Errorf("mach_timebase_info returned %d", rc)
	}
	return &osClock{name: "mach_absolute_time", read: machAbsoluteTime, nsPerTick: float64(tb.Numer) / float64(tb.Denom)}, nil
}
