// Package slrumech registers the commit log's SLRU with viz/mech: its
// view (viz/slruview) over a pane's events, its title, and its bench
// experiment and verify checks.
package slrumech

import (
	"bufferlab/viz/mech"
	"bufferlab/viz/slruview"
	"bufferlab/viz/timeline"
)

func init() {
	mech.Add(mech.Def[*slruview.View]{
		Name: "slru",
		Open: func(r mech.Run) *timeline.Of[*slruview.View] {
			s := r.Runner.SLRU()
			if s == nil {
				return nil
			}
			g := slruview.GeometryOf(s)
			g.Latest = r.Runner.SLRUStartLatest()
			// A keyframe copies every slot: the slots bound its size.
			return timeline.NewOf(r.Events, slruview.New(g, r.Backends), mech.KeyframeEvery(len(r.Events), g.Slots))
		},
		Title:       func(v *slruview.View) string { return "Commit log SLRU: " + v.Geometry().Variant.String() },
		Experiments: []string{"slru"},
		Checks:      []string{"xact-slru-size", "pg-xact-files", "clog-bits"},
	})
}
