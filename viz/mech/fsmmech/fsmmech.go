package fsmmech

import (
	"fmt"

	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/scene"

	"bufferlab/engine/scenario"
	"bufferlab/viz/fsmview"
	"bufferlab/viz/mech"
	"bufferlab/viz/timeline"
)

func init() {
	mech.Add(mech.Def[*fsmview.View]{
		Name: "fsm",
		Open: func(r mech.Run) *timeline.Of[*fsmview.View] {
			st := r.Runner.FSM()
			if st == nil {
				return nil
			}
			opt := st.Options()
			setup := fsmview.Setup{Variant: opt.Variant, Threshold: opt.Threshold, Backends: r.Backends,
				ExtensionsFirst: runsBulkExtension(r.Runner)}
			for _, h := range scenario.Heaps(r.Runner.Script()) {
				setup.Heaps = append(setup.Heaps, fsmview.HeapSetup{Rel: h.Rel, Name: h.Name, FillFactor: h.FillFactor,
					Main: h.Main, FSM: h.FSM, FSMExists: h.FSM > 0})
			}
			// The view copies each heap's page words per keyframe: the
			// heaps' final size bounds that.
			size := 0
			for _, h := range st.Heaps() {
				size += int(h.NBlocks()) + int(h.FSMBlocks())
			}
			return mech.NewTimeline(r, fsmview.New(setup), size)
		},
		Title: func(v *fsmview.View) string {
			if h, ok := v.Heap(FocusRel(v)); ok {
				// One form, short enough for a phone's width: the heap
				// panel's title says the fillfactor.
				return fmt.Sprintf("Heap %s and its free space map · fsm=%s", h.Name, v.Variant())
			}
			return "Heap and free space map"
		},
		Scene: &mech.SceneDef[*fsmview.View]{
			// Side by side (fsm=always,small-skip), each pane lays out the
			// first heap; the code panels show the pool's code.
			Panes: &mech.PanesDef[*fsmview.View]{
				Layout: func(l *layout.List, r layout.Rect, v *fsmview.View, th *layout.Theme) {
					var rel uint32
					if hs := v.Heaps(); len(hs) > 0 {
						rel = hs[0].Rel
					}
					scene.LayoutFSMScene(l, r, v, rel, th)
				},
			},
			Split: 0.64,
			// The heap the current event is about, else the first one.
			Layout: func(l *layout.List, r layout.Rect, v *fsmview.View, th *layout.Theme) {
				scene.LayoutFSMScene(l, r, v, FocusRel(v), th)
			},
			// The player's last event of any kind: FSM events and the
			// buffer accesses the FSM code makes.
			Code: func(v *fsmview.View, c mech.CodeContext) (trace.Event, bool, string) {
				if !c.HasEvent {
					return c.Event, false, ""
				}
				return c.Event, true, fsm.DescribeWith(c.Event, c.RelName, c.Actor)
			},
		},
		Experiments: []string{"fsm"},
		Checks: []string{"fsm-created-by-vacuum", "fsm-one-row", "fsm-4069-4070", "fsm-category-rounding", "fsm-page-contents",
			"fsm-root-empty-after-inserts", "vacuum-buffers", "fsm-two-leaves", "rows-per-page", "ctid-sequence", "ctid-random", "ctid-random-ff10"},
	})
}

// runsBulkExtension says whether the run, or a pane beside it, is
// PostgreSQL 16 or later, whose RelationAddBlocks extends a heap by
// several pages at once: bulk extension is then the story, and every pane
// keeps its extensions in view (pg=15,16 shows 15's one page at a time
// beside 16's).
func runsBulkExtension(r *scenario.Runner) bool {
	if r.PG() >= 16 {
		return true
	}
	if cfg := r.Config(); cfg != nil {
		for _, v := range cfg.AllVariants() {
			if s, ok := v.Of("pg"); ok {
				if pg, ok := scenario.ParsePGVersion(s); ok && pg >= 16 {
					return true
				}
			}
		}
	}
	return false
}

// FocusRel is the heap the scene is about: the one the current event's
// backend is searching, else the first.
func FocusRel(v *fsmview.View) uint32 {
	var rel uint32
	if hs := v.Heaps(); len(hs) > 0 {
		rel = hs[0].Rel
	}
	if e, ok := v.Current(); ok {
		if ln := v.Lane(e.Actor); ln.Search.HasOp {
			rel = ln.Search.Rel
		}
	}
	return rel
}
