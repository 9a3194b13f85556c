package app

import (
	"errors"
	"fmt"

	"bufferlab/engine/trace"
	"bufferlab/fastmode/exp/drop"
)

// togglePacing switches a drop race between pacing by events and by the
// native times of the strategies, measured on this machine the first time
// (MeasureDropCosts, a fraction of a second).
func (a *App) togglePacing() {
	if err := a.setPacing(map[string]string{"events": "time", "time": "events"}[a.p.Pacing()]); err != nil {
		a.showError(err.Error())
	}
}

// setPacing sets the drop race's pacing: "events" or "time".
func (a *App) setPacing(mode string) error {
	p := a.p
	if p == nil || p.Panes() < 2 || p.Variant.Key() != "drop" {
		return errors.New("pacing: only a drop race (config drop=…) can be paced by time")
	}
	switch mode {
	case "events":
		p.PaceByEvents()
		return nil
	case "time":
	default:
		return fmt.Errorf("pacing: expected events or time, found %q", mode)
	}
	if a.dropCosts == nil || a.dropCosts.NBuffers != p.View().NBuffers() {
		c, err := drop.MeasureDropCosts(p.View().NBuffers())
		if err != nil {
			return err
		}
		a.dropCosts = &c
	}
	c := *a.dropCosts
	return p.PaceByCost(func(_ int, e trace.Event) float64 { return dropEventNs(c, e) }, c.DescriptorNs)
}

// dropEventNs is the native time of one event of a drop race: a
// descriptor of the scan, a lookup (with its invalidation) or a list hop
// as measured; any other event costs nothing extra (each still takes one
// position).
func dropEventNs(c drop.DropCosts, e trace.Event) float64 {
	switch e.Site.String() {
	case "drop.precheck", "dropall.precheck-linear", "dropall.precheck-bsearch":
		return c.DescriptorNs
	case "lookup.lookup":
		if e.Kind == trace.KMapLookup {
			return c.LookupNs
		}
	case "dlist.head", "dlist.next":
		return c.HopNs
	}
	return 0
}

// SetPacing is setPacing for the JavaScript API and tests.
func (a *App) SetPacing(mode string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.setPacing(mode)
}
