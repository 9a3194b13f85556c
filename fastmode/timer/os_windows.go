//go:build windows

package timer

import (
	"fmt"
	"syscall"

	"github.com/ebitengine/purego"
)

// platformClock reads QueryPerformanceCounter from kernel32 through purego,
// scaled by QueryPerformanceFrequency.
func platformClock() (*osClock, error) {
	return libClock("QueryPerformanceCounter", func() (uintptr, error) {
		h, err := syscall.LoadLibrary("kernel32.dll")
		return uintptr(h), err
	}, qpcClock)
}

// qpcClock registers QueryPerformanceCounter and QueryPerformanceFrequency
// from lib (kernel32) and builds the clock, its tick scaled by the
// frequency.
func qpcClock(lib uintptr) (*osClock, error) {
	var qpc, qpf func(v *int64) int32
	purego.RegisterLibFunc(&qpc, lib, "QueryPerformanceCounter")
	purego.RegisterLibFunc(&qpf, lib, "QueryPerformanceFrequency")
	var freq int64
	if qpf(&freq) == 0 || freq <= 0 {
		return nil, fmt.Errorf("QueryPerformanceFrequency failed")
	}
	read := func() uint64 {
		var v int64
		qpc(&v)
		return uint64(v)
	}
	return &osClock{name: "QueryPerformanceCounter", read: read, nsPerTick: 1e9 / float64(freq)}, nil
}
