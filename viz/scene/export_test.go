package scene

import (
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/slruview"
	"fmt"
)

// What the external tests (package scene_test) need of the SLRU window's
// internals. They are external because they open lessons with
// viz/player, whose registered mechanisms (viz/mech/...) import this
// package: an internal test importing viz/player is an import cycle.

// SLRUPerLine is slruPerLine: the most slots on one line of a bank.
const SLRUPerLine = slruPerLine

// BankWindow is a bankWindow: slots Lo..Hi-1 of bank Bank are shown.
type BankWindow struct{ Bank, Lo, Hi int }

// BankWindows is what the scene shows of v's banks in a rectangle w × h
// (bankWindows, on the grid slruGridFor chooses, over the marks the scene
// collects with th): the windows, the note of what is left out (its
// longest form), and the banks where a lookup is.
func BankWindows(v *slruview.View, th *layout.Theme, w, h float64) ([]BankWindow, string, map[int][]trace.Actor) {
	m := collectSLRUMarks(v, th)
	cur, hasCur := v.Current()
	busy, _ := slruBusyBanks(v, m, cur, hasCur)
	g, _ := slruGridFor(v, slruFontsOf(th), len(busy), w, h)
	ws, forms := bankWindows(v, g, m, cur, hasCur, h)
	note := ""
	if forms != nil {
		note = forms[0]
	}
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

// GridString is the grid slruGridFor chooses in w × h, in words.
func GridString(v *slruview.View, th *layout.Theme, w, h float64) string {
	m := collectSLRUMarks(v, th)
	cur, hasCur := v.Current()
	busy, _ := slruBusyBanks(v, m, cur, hasCur)
	g, ok := slruGridFor(v, slruFontsOf(th), len(busy), w, h)
	return fmt.Sprintf("ok=%v perLine=%d text=%d tabs=%v labelW=%.0f labelH=%.0f lineH=%.1f tableH=%.1f bankH=%.1f level=%d", ok, g.perLine, g.text, g.tabs, g.labelW, g.labelH, g.lineH, g.tableH, g.bankH(v.BankSize()), g.level(v, len(busy), h))
}
