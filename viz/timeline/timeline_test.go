package timeline_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"testing"

	"bufferlab/engine/scenario"
	"bufferlab/engine/trace"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/poolview/pooltest"
	"bufferlab/viz/timeline"
)

// logRun is a scenario's run (pooltest: the contention scenario, the
// lessons) and its log.
type logRun struct {
	r      *scenario.Runner
	events []trace.Event
}

func run(t testing.TB, name, src string) logRun {
	t.Helper()
	r := pooltest.Run(t, name, src)
	return logRun{r, r.Log().Events()}
}

func lesson(t testing.TB, name string) string { return pooltest.Lessons(t)[name] }

func (l logRun) initial() *view.Pool { return pooltest.NewView(l.r) }

// fingerprints replays the log on a fresh view: fps[p] is the fingerprint
// after p events.
func (l logRun) fingerprints() []uint64 {
	v := l.initial()
	fps := []uint64{v.Fingerprint()}
	for _, e := range l.events {
		v.Apply(e)
		fps = append(fps, v.Fingerprint())
	}
	return fps
}

// replay is a fresh view after p events.
func (l logRun) replay(p int) *view.Pool {
	v := l.initial()
	for _, e := range l.events[:p] {
		v.Apply(e)
	}
	return v
}

func checkAt(t *testing.T, tl *timeline.Timeline, l logRun, fps []uint64, what string) {
	t.Helper()
	checkSeek(t, tl, l, fps, what, tl.Keyframes())
}

// checkSeek is checkAt after a seek that began with made keyframes: one
// that made more applied the events from the last one made, at most.
func checkSeek(t *testing.T, tl *timeline.Timeline, l logRun, fps []uint64, what string, made int) {
	t.Helper()
	p := tl.Pos()
	if tl.Keyframes() > made {
		if a, u, _ := tl.LastSeek(); u != 0 || a > p-(made-1)*tl.KeyframeEvery() {
			t.Fatalf("%s: a seek to %d that made keyframes %d.. applied %d and unapplied %d events", what, p, made, a, u)
		}
		if tl.Keyframes() != p/tl.KeyframeEvery()+1 {
			t.Fatalf("%s: a seek to %d made keyframes up to %d", what, p, tl.Keyframes()-1)
		}
		tl.Seek(p) // (a no-op) so that the bound below holds
	}
	if got := tl.Current().Fingerprint(); got != fps[p] {
		t.Fatalf("%s: at %d the view differs from a fresh replay:\n%s", what, p, tl.Current().Diff(l.replay(p)))
	}
	if tl.Current().Applied() != p {
		t.Fatalf("%s: view applied %d at position %d", what, tl.Current().Applied(), p)
	}
	a, u, key := tl.LastSeek()
	if a+u > tl.KeyframeEvery()+16 || (key && a >= tl.KeyframeEvery()) {
		t.Fatalf("%s: the last seek applied %d and unapplied %d events (keyframe %v, K=%d)", what, a, u, key, tl.KeyframeEvery())
	}
}

func TestSeekEqualsReplay(t *testing.T) {
	logs := map[string]logRun{
		"contention":   run(t, "contention", pooltest.Contention(7)),
		"clock-sweep":  run(t, "clock-sweep", lesson(t, "clock-sweep.scn")),
		"seventeen":    run(t, "seventeen", lesson(t, "seventeen-blocks.scn")),
		"contention-2": run(t, "contention", pooltest.Contention(2)),
	}
	for name, l := range logs {
		fps := l.fingerprints()
		for _, k := range []int{0, 1, 7, 100} {
			// Keyframes made up front, or as the seeks pass them.
			for _, built := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/K=%d/built=%v", name, k, built), func(t *testing.T) {
					tl := timeline.New(trace.Slice(l.events), l.initial(), k)
					if tl.Len() != len(l.events) || tl.Pos() != 0 || tl.Keyframes() != 1 {
						t.Fatalf("new timeline: %d events, at %d, %d keyframes", tl.Len(), tl.Pos(), tl.Keyframes())
					}
					wantK := k
					if k == 0 {
						wantK = timeline.DefaultKeyframeEvery
					}
					if built {
						tl.BuildKeyframes()
					}
					if tl.KeyframeEvery() != wantK || built && tl.Keyframes() != len(l.events)/wantK+1 {
						t.Fatalf("K %d, %d keyframes", tl.KeyframeEvery(), tl.Keyframes())
					}
					checkAt(t, tl, l, fps, "start")
					rng := rand.New(rand.NewPCG(uint64(k), 99))
					n := len(l.events)
					for i := 0; i < 400; i++ {
						var p int
						switch rng.IntN(4) {
						case 0: // near: a few events either way
							p = tl.Pos() + rng.IntN(41) - 20
						case 1: // anywhere, including out of range
							p = rng.IntN(n+20) - 10
						default:
							p = rng.IntN(n + 1)
						}
						made := tl.Keyframes()
						tl.Seek(p)
						if want := min(max(p, 0), n); tl.Pos() != want {
							t.Fatalf("Seek(%d) to %d", p, tl.Pos())
						}
						checkSeek(t, tl, l, fps, fmt.Sprintf("seek %d", i), made)
					}
					made := tl.Keyframes()
					tl.End()
					checkSeek(t, tl, l, fps, "end", made)
					if tl.Keyframes() != len(l.events)/wantK+1 {
						t.Fatalf("at the end: %d keyframes, want %d", tl.Keyframes(), len(l.events)/wantK+1)
					}
				})
			}
		}
	}
}

func TestStepping(t *testing.T) {
	l := run(t, "contention", pooltest.Contention(11))
	fps := l.fingerprints()
	n := len(l.events)
	tl := timeline.New(trace.Slice(l.events), l.initial(), 64)
	if _, ok := tl.Event(); ok {
		t.Fatal("an event at position 0")
	}
	for i := 0; i < n; i++ {
		if e, ok := tl.Next(); !ok || e != l.events[i] {
			t.Fatal("Next")
		}
		tl.StepForward()
		checkAt(t, tl, l, fps, "step forward")
		if e, ok := tl.Event(); !ok || e != l.events[i] {
			t.Fatalf("Event at %d", tl.Pos())
		}
		if cur, _ := tl.Current().Current(); cur != l.events[i] {
			t.Fatal("the view's current event is not the timeline's")
		}
	}
	tl.StepForward()
	if tl.Pos() != n || !tl.AtEnd() {
		t.Fatal("stepped past the end")
	}
	if _, ok := tl.Next(); ok {
		t.Fatal("Next at the end")
	}
	for i := n - 1; i >= 0; i-- {
		tl.StepBack()
		checkAt(t, tl, l, fps, "step back")
	}
	tl.StepBack()
	if tl.Pos() != 0 {
		t.Fatal("stepped before the start")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 500; i++ {
		switch rng.IntN(6) {
		case 0:
			tl.Step(10)
		case 1:
			tl.Step(-10)
		case 2:
			tl.Step(rng.IntN(300) - 150)
		case 3:
			tl.StepBack()
		case 4:
			tl.StepForward()
		default:
			if rng.IntN(2) == 0 {
				tl.Start()
			} else {
				tl.End()
			}
		}
		checkAt(t, tl, l, fps, fmt.Sprintf("random step %d", i))
	}
	tl.End()
	if tl.Pos() != n {
		t.Fatal("End")
	}
	tl.Start()
	if tl.Pos() != 0 || tl.Current().Fingerprint() != fps[0] {
		t.Fatal("Start")
	}
}

// Stepping back by Unapply and restoring a keyframe give the same view.
func TestUnapplyAndKeyframePathsAgree(t *testing.T) {
	l := run(t, "contention", pooltest.Contention(13))
	n := len(l.events)
	a := timeline.New(trace.Slice(l.events), l.initial(), 32)
	b := timeline.New(trace.Slice(l.events), l.initial(), 32)
	sawUnapply, sawKey := false, false
	for p := 1; p < n; p += 37 {
		a.Seek(p - 1) // make sure a has history up to p
		a.Seek(p)
		a.StepBack()
		_, un, key := a.LastSeek()
		if un != 1 || key {
			t.Fatalf("step back at %d: unapplied %d, keyframe %v", p, un, key)
		}
		sawUnapply = true
		b.End()
		b.Seek(p - 1)
		if _, _, key := b.LastSeek(); key {
			sawKey = true
		}
		if d := a.Current().Diff(b.Current()); d != "" {
			t.Fatalf("at %d, unapply vs keyframe:\n%s", p-1, d)
		}
	}
	if !sawUnapply || !sawKey {
		t.Fatal("both paths were not exercised")
	}
}

func TestTickSpeeds(t *testing.T) {
	l := run(t, "clock-sweep", lesson(t, "clock-sweep.scn"))
	n := len(l.events)
	tl := timeline.New(trace.Slice(l.events), l.initial(), 0)
	if tl.Speed() != 1 || tl.EventsPerSecond() != 60 || tl.SpeedLabel() != "1×" || tl.Playing() {
		t.Fatal("defaults")
	}
	if tl.Tick() != 0 || tl.Pos() != 0 {
		t.Fatal("a paused timeline advanced")
	}
	for i := 0; i < 10; i++ {
		tl.Slower()
	}
	var labels []string
	var rates []int
	for i := 0; i < 15; i++ {
		labels = append(labels, tl.SpeedLabel())
		rates = append(rates, tl.EventsPerSecond())
		if float64(tl.EventsPerSecond())/timeline.TicksPerSecond != tl.Speed() {
			t.Fatalf("%s: Speed %v, %d a second", tl.SpeedLabel(), tl.Speed(), tl.EventsPerSecond())
		}
		tl.Faster()
	}
	wantLabels := "[1/s 2/s 4/s 8/s 15/s 30/s 1× 2× 4× 8× 16× 32× 64× 64× 64×]"
	if fmt.Sprint(labels) != wantLabels || fmt.Sprint(rates) != "[1 2 4 8 15 30 60 120 240 480 960 1920 3840 3840 3840]" {
		t.Fatalf("speeds %v %v", labels, rates)
	}
	if fmt.Sprint(timeline.SpeedLabels()) != "[1/s 2/s 4/s 8/s 15/s 30/s 1× 2× 4× 8× 16× 32× 64×]" || len(timeline.Speeds()) != 13 {
		t.Fatalf("Speeds %v SpeedLabels %v", timeline.Speeds(), timeline.SpeedLabels())
	}
	for _, rate := range timeline.Speeds() {
		if err := tl.SetSpeed(rate); err != nil || tl.EventsPerSecond() != rate {
			t.Fatal(rate, err)
		}
		tl.Start()
		tl.Play()
		if !tl.Playing() {
			t.Fatal("Play")
		}
		// Exact: after k ticks, floor(k × rate / 60) events, whatever the
		// rate (no rounding drift over a long play).
		for tick := 1; tick <= 130; tick++ {
			moved := tl.Tick()
			want := min(tick*rate/timeline.TicksPerSecond, n)
			if tl.Pos() != want {
				t.Fatalf("%d/s: after %d ticks at %d, want %d", rate, tick, tl.Pos(), want)
			}
			if rate%timeline.TicksPerSecond == 0 && tl.Pos() < n && moved != rate/timeline.TicksPerSecond {
				t.Fatalf("%d/s: tick moved %d", rate, moved)
			}
		}
		// play to the end: it stops there and pauses
		ticks := 0
		for tl.Playing() {
			tl.Tick()
			if ticks++; ticks > 60*n+8 {
				t.Fatal("never reached the end")
			}
		}
		if tl.Pos() != n || tl.Tick() != 0 || tl.Pos() != n {
			t.Fatalf("%d/s: stopped at %d of %d", rate, tl.Pos(), n)
		}
	}
	// One event a second: one event every 60th tick; 15/s every fourth.
	for _, c := range []struct{ rate, every int }{{1, 60}, {15, 4}, {30, 2}} {
		tl.SetSpeed(c.rate)
		tl.Start()
		tl.Play()
		for k := 1; k <= 3*c.every; k++ {
			moved := tl.Tick()
			if want := map[bool]int{true: 1, false: 0}[k%c.every == 0]; moved != want {
				t.Fatalf("%d/s: tick %d moved %d, want %d", c.rate, k, moved, want)
			}
		}
	}
	for _, bad := range []int{0, 3, 7, 59, 61, 5000, -60} {
		if err := tl.SetSpeed(bad); err == nil {
			t.Fatalf("SetSpeed(%d)", bad)
		}
	}
	// Play at the end starts again; Toggle and Pause.
	tl.End()
	tl.Play()
	if tl.Pos() != 0 || !tl.Playing() {
		t.Fatal("Play at the end")
	}
	tl.Toggle()
	if tl.Playing() {
		t.Fatal("Toggle")
	}
	tl.Toggle()
	if !tl.Playing() {
		t.Fatal("Toggle back")
	}
	tl.Pause()
	if tl.Playing() || tl.Tick() != 0 {
		t.Fatal("Pause")
	}
	for i := 0; i < 20; i++ {
		tl.Slower()
	}
	if tl.EventsPerSecond() != 1 || tl.SpeedLabel() != "1/s" {
		t.Fatal("Slower clamps at one event a second")
	}
}

// expectedOpEnd computes OpEnd from its definition.
func expectedOpEnd(evs []trace.Event, p int) int {
	if p == len(evs) {
		return p
	}
	a := evs[0].Actor
	if p > 0 {
		a = evs[p-1].Actor
	}
	// the operation containing event p-1 (or the first one) ends at the
	// actor's next KOp after it; if that is the very next event, the
	// following operation's end is the target
	for j := p + 1; j < len(evs); j++ {
		if evs[j].Kind == trace.KOp && evs[j].Actor == a {
			return j
		}
	}
	return len(evs)
}

func TestPlayToOpEnd(t *testing.T) {
	l := run(t, "contention", pooltest.Contention(1))
	evs := l.events
	n := len(evs)
	fps := l.fingerprints()
	tl := timeline.New(trace.Slice(evs), l.initial(), 0)
	rng := rand.New(rand.NewPCG(7, 7))
	multi := 0
	for i := 0; i < 300; i++ {
		p := rng.IntN(n + 1)
		if i == 0 {
			p = 0
		}
		tl.Pause()
		tl.Seek(p)
		_ = tl.SetSpeed([]int{15, 60, 240, 3840}[rng.IntN(4)])
		want := expectedOpEnd(evs, p)
		got := tl.PlayToOpEnd()
		if got != want {
			t.Fatalf("PlayToOpEnd from %d: target %d, want %d", p, got, want)
		}
		for ticks := 0; tl.Playing(); ticks++ {
			tl.Tick()
			if ticks > 4*n {
				t.Fatal("never stopped")
			}
		}
		if tl.Pos() != want {
			t.Fatalf("PlayToOpEnd from %d stopped at %d, want %d", p, tl.Pos(), want)
		}
		checkAt(t, tl, l, fps, "play to op end")
		// it stops exactly before the acting backend's next KOp
		a := evs[0].Actor
		if p > 0 {
			a = evs[p-1].Actor
		}
		if want < n && (evs[want].Kind != trace.KOp || evs[want].Actor != a) {
			t.Fatalf("stopped before %v, not a KOp of %s", evs[want], trace.ActorName(a))
		}
		for j := p + 1; j < want; j++ {
			if evs[j].Kind == trace.KOp && evs[j].Actor == a {
				t.Fatalf("passed %s's KOp at %d", trace.ActorName(a), j)
			}
			if evs[j].Actor != a {
				multi++
			}
		}
		// ToOpEnd jumps to the same place
		tl.Seek(p)
		tl.ToOpEnd()
		if tl.Pos() != want {
			t.Fatalf("ToOpEnd from %d to %d, want %d", p, tl.Pos(), want)
		}
	}
	if multi == 0 {
		t.Fatal("no operation had other backends' events interleaved")
	}
	tl.End()
	if tl.PlayToOpEnd() != n || tl.Playing() {
		t.Fatal("PlayToOpEnd at the end")
	}
	// Pausing forgets the target.
	tl.Seek(0)
	tl.PlayToOpEnd()
	tl.Pause()
	tl.Play()
	tl.SetSpeed(3840)
	for tl.Playing() {
		tl.Tick()
	}
	if tl.Pos() != n {
		t.Fatalf("after Pause, Play stopped at %d", tl.Pos())
	}
}

func TestNextPrevOp(t *testing.T) {
	l := run(t, "contention", pooltest.Contention(2))
	evs := l.events
	var bounds []int
	for i, e := range evs {
		if e.Kind == trace.KOp {
			bounds = append(bounds, i)
		}
	}
	tl := timeline.New(trace.Slice(evs), l.initial(), 0)
	var got []int
	for tl.NextOp() {
		got = append(got, tl.Pos())
	}
	if tl.Pos() != len(evs) {
		t.Fatal("NextOp did not reach the end")
	}
	want := append(append([]int(nil), bounds...), len(evs))
	if bounds[0] == 0 {
		want = want[1:]
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("NextOp positions %v…, want %v…", got[:5], want[:5])
	}
	got = got[:0]
	for tl.PrevOp() {
		got = append(got, tl.Pos())
	}
	if tl.Pos() != 0 || len(got) != len(bounds) {
		t.Fatalf("PrevOp: %d moves, at %d", len(got), tl.Pos())
	}
	for _, p := range got {
		if p != 0 && evs[p].Kind != trace.KOp {
			t.Fatalf("PrevOp stopped at %d, before %v", p, evs[p])
		}
	}
}

func TestMarks(t *testing.T) {
	l := run(t, "seventeen", lesson(t, "seventeen-blocks.scn"))
	n := len(l.events)
	tl := timeline.New(trace.Slice(l.events), l.initial(), 0)
	tl.SetMarks([]int{50, 10, 30, n + 100, -4})
	ms := tl.Marks()
	var ps []int
	for _, m := range ms {
		ps = append(ps, m.Pos)
	}
	if fmt.Sprint(ps) != fmt.Sprint([]int{0, 10, 30, 50, n}) {
		t.Fatalf("marks %v", ps)
	}
	var visited []int
	for tl.NextMark() {
		visited = append(visited, tl.Pos())
	}
	if fmt.Sprint(visited) != fmt.Sprint([]int{10, 30, 50, n}) {
		t.Fatalf("NextMark visited %v", visited)
	}
	visited = visited[:0]
	for tl.PrevMark() {
		visited = append(visited, tl.Pos())
	}
	if fmt.Sprint(visited) != fmt.Sprint([]int{50, 30, 10, 0}) {
		t.Fatalf("PrevMark visited %v", visited)
	}
	for _, c := range []struct{ p, i int }{{0, 0}, {9, 0}, {10, 1}, {29, 1}, {30, 2}, {n - 1, 3}, {n, 4}} {
		if i, ok := tl.MarkAt(c.p); !ok || i != c.i {
			t.Fatalf("MarkAt(%d) = %d, %v; want %d", c.p, i, ok, c.i)
		}
	}
	tl.SetNamedMarks([]timeline.Mark{{Pos: 40, Name: "sweep"}, {Pos: 5, Name: "cold"}})
	if ms := tl.Marks(); ms[0].Name != "cold" || ms[1].Name != "sweep" {
		t.Fatalf("named marks %v", ms)
	}
	if _, ok := tl.MarkAt(4); ok {
		t.Fatal("MarkAt before every mark")
	}
	tl.SetMarks(nil)
	if tl.NextMark() || tl.PrevMark() {
		t.Fatal("moved without marks")
	}
}

func TestEmptyLog(t *testing.T) {
	tl := timeline.New(trace.Slice(nil), view.New(16, nil, nil), 0)
	tl.Play()
	tl.StepForward()
	tl.StepBack()
	tl.End()
	if tl.Pos() != 0 || tl.Playing() || tl.Tick() != 0 || tl.OpEnd() != 0 || tl.NextOp() || tl.PrevOp() {
		t.Fatal("empty timeline moved")
	}
}

// A log of ~200k events in a 16 384-buffer pool: keyframes stay cheap
// (copy-on-write), and every seek replays fewer than K events.
func TestBigLog(t *testing.T) {
	// -short reduces the log to ~50k events; it still spans many keyframes.
	blocks, want := 8000, 200000
	if testing.Short() {
		blocks, want = 2000, 50000
	}
	l := run(t, "big", fmt.Sprintf(`
config shared_buffers=128MB
relation t blocks=%d
backend A: scan t
run
`, blocks))
	n := len(l.events)
	if n < want {
		t.Fatalf("only %d events", n)
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	tl := timeline.New(trace.Slice(l.events), l.initial(), 0)
	tl.BuildKeyframes()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	t.Logf("%d events, %d keyframes, heap +%d MB", n, tl.Keyframes(), (int64(m1.HeapAlloc)-int64(m0.HeapAlloc))>>20)
	if tl.Keyframes() != n/timeline.DefaultKeyframeEvery+1 {
		t.Fatalf("%d keyframes", tl.Keyframes())
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var ps []int
	for i := 0; i < 300; i++ {
		p := rng.IntN(n + 1)
		tl.Seek(p)
		a, u, _ := tl.LastSeek()
		if a >= timeline.DefaultKeyframeEvery || a+u > timeline.DefaultKeyframeEvery+16 {
			t.Fatalf("seek to %d applied %d, unapplied %d", p, a, u)
		}
		if i%50 == 0 {
			ps = append(ps, p)
		}
		h := tl.Current().HistoryLen()
		tl.Step(-3)
		a, u, key := tl.LastSeek()
		if h >= 3 && (u != 3 || a != 0 || key) || h < 3 && !key {
			t.Fatalf("step back 3 at %d with history %d: applied %d, unapplied %d, keyframe %v", tl.Pos(), h, a, u, key)
		}
	}
	// A few positions against a fresh replay.
	sort.Ints(ps)
	v := l.initial()
	done := 0
	for _, p := range ps {
		for ; done < p; done++ {
			v.Apply(l.events[done])
		}
		tl.Seek(p)
		if d := tl.Current().Diff(v); d != "" {
			t.Fatalf("at %d: %s", p, d)
		}
	}
	// Playing at 64× through a stretch keeps seeks small and history trimmed.
	tl.Seek(n / 2)
	tl.SetSpeed(3840)
	tl.Play()
	for i := 0; i < 200; i++ {
		from := tl.Pos()
		if tl.Tick() != 64 || tl.Pos() != from+64 {
			t.Fatalf("a tick at 64× moved from %d to %d", from, tl.Pos())
		}
		if a, u, _ := tl.LastSeek(); a > 64 || u != 0 {
			t.Fatalf("a tick at 64× applied %d, unapplied %d", a, u)
		}
		if h := tl.Current().HistoryLen(); h > 2*timeline.DefaultKeyframeEvery {
			t.Fatalf("history grew to %d", h)
		}
	}
	// The final view agrees with the engine on the things a scan changes.
	tl.End()
	v = tl.Current()
	p := l.r.Pool()
	if v.Hand() != p.NextVictimBuffer() || v.CompletePasses() != p.CompletePasses() ||
		v.Counters().Stats() != p.Stats() || v.MappingLen() != len(p.MappingEntries()) ||
		fmt.Sprint(v.Freelist()) != fmt.Sprint(p.Freelist()) {
		t.Fatal("final view disagrees with the engine")
	}
	for i := 0; i < p.NBuffers; i++ {
		if v.State(i) != p.Desc(i).State() {
			t.Fatalf("buffer %d", i)
		}
	}
}

// Moving by hand while playing to an operation's end cancels the target.
func TestSeekCancelsOpEnd(t *testing.T) {
	l := run(t, "contention", pooltest.Contention(3))
	tl := timeline.New(trace.Slice(l.events), l.initial(), 0)
	target := tl.PlayToOpEnd()
	tl.Seek(target + 50)
	tl.SetSpeed(60)
	if tl.Tick() != 1 || tl.Pos() != target+51 || !tl.Playing() {
		t.Fatalf("after a seek past the target, a tick went to %d (target %d)", tl.Pos(), target)
	}
}
