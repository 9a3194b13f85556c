package slrumech

import (
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/mech"
	"bufferlab/viz/scene"
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
			return mech.NewTimeline(r, slruview.New(g, r.Backends), g.Slots)
		},
		Title: func(v *slruview.View) string { return "Commit log SLRU: " + v.Geometry().Variant.String() },
		Scene: &mech.SceneDef[*slruview.View]{
			// Side by side, the panes are stacked (a bank is a wide row
			// of slots), each titled with its geometry and ending in a
			// line of its counters, under the SLRU legend; each pane's
			// code is its own.
			Panes: &mech.PanesDef[*slruview.View]{
				Stacked:      true,
				Legend:       scene.LayoutSLRULegend,
				LegendH:      func(th *layout.Theme) float64 { return layout.LineHeight(th.Font(layout.Regular, 12)) + 8 },
				TitleSuffix:  func(v *slruview.View) string { return " · " + scene.SLRUPaneTitle(v) },
				Layout:       scene.LayoutSLRUPane,
				CounterLine:  scene.LayoutSLRUPaneCounters,
				CounterLineH: func(th *layout.Theme) float64 { return layout.LineHeight(th.Font(layout.Bold, 13)) + 8 },
				Narr:         0.46,
				OwnCode:      true,
			},
			Split:    0.62,
			Layout:   scene.LayoutSLRUScene,
			Counters: scene.LayoutSLRUCounters,
			// The SLRU view's own current event, its backend named as
			// the scenario names it.
			Code: func(v *slruview.View, c mech.CodeContext) (trace.Event, bool, string) {
				e, ok := v.Current()
				if !ok {
					return e, false, ""
				}
				return e, true, slru.DescribeWith(e, c.Actor)
			},
		},
		Experiments: []string{"slru"},
		Checks:      []string{"xact-slru-size", "pg-xact-files", "clog-bits"},
	})
}
