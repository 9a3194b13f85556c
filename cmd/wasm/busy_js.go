//go:build js && wasm

package main

import (
	"syscall/js"
	"time"
)

// gate runs what is opened from text (budget.go's runGate): the progress
// bar is boot.js's _busy, and the page's turn is boot.js's _turn, which
// calls back after the next frame is painted (or 50 ms, in a hidden tab
// that paints none). In WebAssembly a goroutine that waits, with every
// other one waiting too, hands the thread back to the browser's event
// loop: the page paints, takes input and runs its handlers (Cancel among
// them). So the runs must be on goroutines of their own, never in a
// handler JavaScript waits on (a js.FuncOf call): openAsync below. A turn
// costs about a frame (16 ms) per 100 ms slice of work.
var gate = &runGate{
	slice: 100 * time.Millisecond,
	now:   time.Now,
	pause: func(events int) {
		api.Call("_busy", progressText(events, browserBudget), events, browserBudget.MaxEvents())
		done := make(chan struct{})
		cb := js.FuncOf(func(js.Value, []js.Value) any {
			close(done)
			return nil
		})
		api.Call("_turn", cb)
		<-done
		cb.Release()
	},
}

// gated runs f (a run from text) through the gate: refused while
// another runs, the progress bar gone when it ends.
func gated(f func() error) error {
	if err := gate.begin(); err != nil {
		return err
	}
	defer func() {
		gate.end()
		api.Call("_busy", "", 0, 0)
	}()
	return f()
}

// openAsync is a call of window.bufferlab that runs something: it returns
// a Promise of {value} or {error} (boot.js turns the error into a
// rejection) and does the work on a goroutine of its own, so the run can
// hand the thread to the page.
func openAsync(f func(args []js.Value) (any, string)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		var exec js.Func
		exec = js.FuncOf(func(_ js.Value, pargs []js.Value) any {
			resolve := pargs[0]
			exec.Release() // the Promise calls its executor once, at once
			go func() { resolve.Invoke(result(f(args))) }()
			return nil
		})
		return js.Global().Get("Promise").New(exec)
	})
}
