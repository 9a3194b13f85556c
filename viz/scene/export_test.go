package scene

import (
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/slruview"
)

// What the external tests (package scene_test) need of the SLRU window's
// internals. They are external because they open lessons with
// viz/player, whose registered mechanisms (viz/mech/...) import this
// package: an internal test importing viz/player is an import cycle.

// SLRUPerLine is slruPerLine: the slots on one line of a bank.
const SLRUPerLine = slruPerLine

// BankWindow is a bankWindow: slots Lo..Hi-1 of bank Bank are shown.
type BankWindow struct{ Bank, Lo, Hi int }

// BankWindows is what the scene shows of v's banks in height h
// (bankWindows, over the marks the scene collects with th): the windows,
// the note of what is left out, and the banks where a lookup is.
func BankWindows(v *slruview.View, th *layout.Theme, h float64) ([]BankWindow, string, map[int][]trace.Actor) {
	m := collectSLRUMarks(v, th)
	cur, hasCur := v.Current()
	ws, note := bankWindows(v, m, cur, hasCur, h)
	out := make([]BankWindow, len(ws))
	for i, w := range ws {
		out[i] = BankWindow{Bank: w.bank, Lo: w.lo, Hi: w.hi}
	}
	return out, note, m.banks
}

// FlagStripLabels are the state word strip's flag labels, long and short
// (flagLabels).
func FlagStripLabels() []string {
	var out []string
	for _, f := range flagLabels {
		out = append(out, f.label, f.short)
	}
	return out
}
