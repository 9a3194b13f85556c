package mech

import (
	"fmt"
	"slices"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	"bufferlab/viz/layout"
	"bufferlab/viz/timeline"
)

// Track is a mechanism's view over one pane's events, positioned by the
// player: a *timeline.Of[S] with its state type erased.
type Track interface {
	// Seek moves the view to after the first pos events.
	Seek(pos int)
	// Len is the number of events.
	Len() int
	// State is the view at the current position (the S of the timeline).
	State() any
}

// Run is what a mechanism's view is built from: one pane's runner (after
// its run), its events (padded to the panes' common length when several
// run side by side) and its backends' names by actor.
type Run struct {
	Runner   *scenario.Runner
	Events   trace.Events
	Backends []string
}

// Mechanism is one registration, type-erased (see Def for the typed
// form that Add takes).
type Mechanism struct {
	// Name is the scenario mechanism it draws ("slru").
	Name string
	// Open builds its track over a run, or returns nil when the run does
	// not have this mechanism.
	Open func(Run) Track
	// Title heads its scene or panel for a state.
	Title func(state any) string
	// Scene, when set, is its main scene: what the app draws for a run
	// of one pane that has its track (the pool's own scene is the app's
	// default).
	Scene *Scene
	// Panel, when set, lays out a side panel that the app shows beside
	// whatever scene the run's main mechanism draws (a read-only
	// statistics panel, say); nil for a mechanism drawn only as a main
	// scene.
	Panel func(l *layout.List, r layout.Rect, state any, th *layout.Theme)
	// PanelHeight is the height the panel's content needs at width w (the
	// app gives it that, up to most of the column it stands in).
	PanelHeight func(th *layout.Theme, w float64) float64
	// Experiments are the names of its `bufferlab bench` experiments
	// (fastmode/exp), Checks those of its `bufferlab verify` checks.
	Experiments, Checks []string
}

// Scene is a mechanism's main scene: a panel with the scene's layout on
// the left (Split of the width), the lesson and the code of the modelled
// function on the right, and optionally a counter row below.
type Scene struct {
	// Split is the fraction of the width the scene's panel takes.
	Split float64
	// Layout lays the scene out inside its panel.
	Layout func(l *layout.List, r layout.Rect, state any, th *layout.Theme)
	// Counters, when set, lays out a counter row under the scene, in the
	// height CountersH says it needs at the row's width (nil: 44 px,
	// scaled).
	Counters  func(l *layout.List, r layout.Rect, state any, th *layout.Theme)
	CountersH func(state any, th *layout.Theme, w float64) float64
	// Code is the event the code panel shows and its description, from
	// the view or from the player's position (c).
	Code func(state any, c CodeContext) (e trace.Event, ok bool, desc string)
	// Panes, when set, is how the scene shows several variants side by
	// side (config slru=single,banks,banks+hash).
	Panes *Panes
}

// Panes lays out a mechanism's variants side by side: a titled panel per
// pane (the variant's title, then TitleSuffix), an optional legend line
// over them and counter line in each; on the right the lesson and a code
// panel per pane.
type Panes struct {
	// Stacked puts the panes one above another (a bank of SLRU slots is a
	// wide row) instead of side by side.
	Stacked bool
	// Legend, when set, lays out a line over the panes, LegendH high.
	Legend  func(l *layout.List, r layout.Rect, th *layout.Theme)
	LegendH func(th *layout.Theme) float64
	// TitleSuffix follows the variant's title in a pane's panel (the
	// title is then shortened to fit with "…").
	TitleSuffix func(state any) string
	// Layout lays out one pane's scene.
	Layout func(l *layout.List, r layout.Rect, state any, th *layout.Theme)
	// CounterLine, when set, lays out a line of counters at the bottom of
	// each pane, CounterLineH high.
	CounterLine  func(l *layout.List, r layout.Rect, state any, th *layout.Theme)
	CounterLineH func(th *layout.Theme) float64
	// Narr is the lesson's share of the right column's height.
	Narr float64
	// OwnCode: each pane's code panel shows the scene's Code for that
	// pane's view; otherwise the pool's code at that pane's position.
	OwnCode bool
}

// PanesDef is the typed form of Panes.
type PanesDef[S any] struct {
	Stacked      bool
	Legend       func(*layout.List, layout.Rect, *layout.Theme)
	LegendH      func(*layout.Theme) float64
	TitleSuffix  func(S) string
	Layout       func(*layout.List, layout.Rect, S, *layout.Theme)
	CounterLine  func(*layout.List, layout.Rect, S, *layout.Theme)
	CounterLineH func(*layout.Theme) float64
	Narr         float64
	OwnCode      bool
}

// CodeContext is what a code panel may read besides the view: the
// player's current event and how the scenario names actors and
// relations.
type CodeContext struct {
	Event    trace.Event
	HasEvent bool
	Actor    func(trace.Actor) string
	RelName  func(uint32) string
}

// SceneDef is the typed form of Scene.
type SceneDef[S any] struct {
	Split    float64
	Layout   func(*layout.List, layout.Rect, S, *layout.Theme)
	Counters func(*layout.List, layout.Rect, S, *layout.Theme)
	// CountersH is the height the counter row needs at width w (nil:
	// 44 px at the theme's scale).
	CountersH func(S, *layout.Theme, float64) float64
	Code      func(S, CodeContext) (trace.Event, bool, string)
	Panes     *PanesDef[S]
}

// Def is the typed form of a registration over a view of type S.
type Def[S timeline.State[S]] struct {
	Name string
	// Open returns the view's timeline over a run, nil without the
	// mechanism. KeyframeEvery helps size its keyframes.
	Open  func(Run) *timeline.Of[S]
	Title func(S) string
	Panel func(*layout.List, layout.Rect, S, *layout.Theme)
	// PanelHeight: see Mechanism.PanelHeight.
	PanelHeight func(th *layout.Theme, w float64) float64
	Scene       *SceneDef[S]

	Experiments, Checks []string
}

var registry []*Mechanism

// Add registers a mechanism's view, scene and tools. It panics when the
// name is taken or is no scenario mechanism (a programming error every
// test finds).
func Add[S timeline.State[S]](d Def[S]) {
	if _, ok := scenario.Lookup(d.Name); !ok {
		panic(fmt.Sprintf("mech: %q is no registered scenario mechanism (scenario.Register it first)", d.Name))
	}
	if _, dup := Lookup(d.Name); dup {
		panic(fmt.Sprintf("mech: %q registered twice", d.Name))
	}
	m := &Mechanism{Name: d.Name, PanelHeight: d.PanelHeight, Experiments: d.Experiments, Checks: d.Checks}
	if d.Open != nil {
		m.Open = func(r Run) Track {
			tl := d.Open(r)
			if tl == nil {
				return nil
			}
			return track[S]{tl}
		}
	}
	if d.Title != nil {
		m.Title = func(s any) string { return d.Title(s.(S)) }
	}
	if d.Panel != nil {
		m.Panel = func(l *layout.List, r layout.Rect, s any, th *layout.Theme) { d.Panel(l, r, s.(S), th) }
	}
	if sd := d.Scene; sd != nil {
		sc := &Scene{Split: sd.Split,
			Layout: func(l *layout.List, r layout.Rect, s any, th *layout.Theme) { sd.Layout(l, r, s.(S), th) },
			Code:   func(s any, c CodeContext) (trace.Event, bool, string) { return sd.Code(s.(S), c) }}
		if sd.Counters != nil {
			sc.Counters = func(l *layout.List, r layout.Rect, s any, th *layout.Theme) { sd.Counters(l, r, s.(S), th) }
		}
		if sd.CountersH != nil {
			sc.CountersH = func(s any, th *layout.Theme, w float64) float64 { return sd.CountersH(s.(S), th, w) }
		}
		if pd := sd.Panes; pd != nil {
			sc.Panes = &Panes{Stacked: pd.Stacked, Legend: pd.Legend, LegendH: pd.LegendH, Narr: pd.Narr, OwnCode: pd.OwnCode,
				CounterLineH: pd.CounterLineH,
				Layout:       func(l *layout.List, r layout.Rect, s any, th *layout.Theme) { pd.Layout(l, r, s.(S), th) }}
			if pd.TitleSuffix != nil {
				sc.Panes.TitleSuffix = func(s any) string { return pd.TitleSuffix(s.(S)) }
			}
			if pd.CounterLine != nil {
				sc.Panes.CounterLine = func(l *layout.List, r layout.Rect, s any, th *layout.Theme) { pd.CounterLine(l, r, s.(S), th) }
			}
		}
		m.Scene = sc
	}
	registry = append(registry, m)
	// The scenario language's order, whatever order packages initialise
	// in: it decides which scene a run with two mechanisms shows.
	order := map[string]int{}
	for i, sm := range scenario.Mechanisms() {
		order[sm.Name] = i
	}
	slices.SortStableFunc(registry, func(a, b *Mechanism) int { return order[a.Name] - order[b.Name] })
}

// All lists the registered mechanisms in the order the scenario language
// registered them.
func All() []*Mechanism { return registry }

// Lookup returns the mechanism of that name.
func Lookup(name string) (*Mechanism, bool) {
	for _, m := range registry {
		if m.Name == name {
			return m, true
		}
	}
	return nil, false
}

// track wraps a typed timeline as a Track.
type track[S timeline.State[S]] struct{ tl *timeline.Of[S] }

func (t track[S]) Seek(pos int) { t.tl.Seek(pos) }
func (t track[S]) Len() int     { return t.tl.Len() }
func (t track[S]) State() any   { return t.tl.Current() }

// Timeline returns the typed timeline behind a track of view type S (nil
// when t is nil or of another type).
func Timeline[S timeline.State[S]](t Track) *timeline.Of[S] {
	if tt, ok := t.(track[S]); ok {
		return tt.tl
	}
	return nil
}

// Open opens every registered mechanism's track over a run, by name
// (only those the run has).
func Open(r Run) map[string]Track {
	out := map[string]Track{}
	for _, m := range registry {
		if m.Open == nil {
			continue
		}
		if t := m.Open(r); t != nil {
			out[m.Name] = t
		}
	}
	return out
}

// NewTimeline is a view's timeline over a run's events, with keyframes
// spaced by KeyframeEvery for a view whose copies cost size (slots,
// pages; 0: the default spacing).
func NewTimeline[S timeline.State[S]](r Run, initial S, size int) *timeline.Of[S] {
	return timeline.NewOf(r.Events, initial, KeyframeEvery(r.Events.Len(), size))
}

// KeyframeBudget bounds what a timeline's keyframes copy: keyframes × the
// view's size (its slots, say) stays below it. A view of 131072 SLRU slots
// over a quarter of a million events would otherwise keep a thousand
// copies of itself (gigabytes, beyond what a browser tab may hold).
const KeyframeBudget = 1 << 20

// KeyframeEvery is the keyframe interval for n events over a view of the
// given size: timeline.DefaultKeyframeEvery, or more where the budget
// asks (a seek then replays up to that many events, which is still
// quick).
func KeyframeEvery(n, size int) int {
	k := timeline.DefaultKeyframeEvery
	if size > 0 && n/k*size > KeyframeBudget {
		k = max(k, (n*size+KeyframeBudget-1)/KeyframeBudget)
	}
	return k
}
