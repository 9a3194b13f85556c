//go:build windows

package timer

import (
	"fmt"
	"syscall"

	"github.com/ebitengine/purego"
)

// platformClock reads QueryPerformanceCounter from kernel32 through purego,
// scaled by QueryPerformanceFrequency.
func platformClock() (oc *osClock, err error) {
	defer func() {
		if r := recover(); r != nil {
			oc, err = nil, fmt.Errorf("QueryPerformanceCounter: %v", r)
		}
	}()
	h, err := syscall.LoadLibrary("kernel32.dll")
	if err != nil {
		return nil, err
	}
	var qpc, qpf func(v *int64) int32
	purego.RegisterLibFunc(&qpc, uintptr(h), "QueryPerformanceCounter")
	purego.RegisterLibFunc(&qpf, uintptr(h), "QueryPerformanceFrequency")
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
