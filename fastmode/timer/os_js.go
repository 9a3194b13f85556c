//go:build js && wasm

package timer

import (
	"errors"
	"syscall/js"
)

// platformClock reads performance.now() (milliseconds as a float; browsers
// coarsen it to 5-100 µs).
func platformClock() (*osClock, error) {
	perf := js.Global().Get("performance")
	if perf.IsUndefined() || perf.IsNull() || perf.Get("now").Type() != js.TypeFunction {
		return nil, errors.New("performance.now is not available")
	}
	read := func() uint64 { return uint64(perf.Call("now").Float() * 1e6) }
	return &osClock{name: "performance.now", read: read, nsPerTick: 1}, nil
}
