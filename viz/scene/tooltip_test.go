package scene_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"bufferlab/engine/bufmgr"
	"bufferlab/engine/fsm"
	"bufferlab/engine/trace"
	"bufferlab/internal/goldentest"
	"bufferlab/viz/layout"
	view "bufferlab/viz/poolview"
	"bufferlab/viz/scene"
)

// partitionWait is a scenario in which B waits for a mapping partition's
// lock: A, reading block 0 first, holds partition 57 exclusively to
// insert its entry when B comes to look the same block up (shared).
const partitionWait = `config shared_buffers=128kB
relation t blocks=1
backend A: read t 0
backend B: read t 0
schedule A A A A A A A A A A B B B
run
`

// partitionWaitAt is the position just after B's first lw-wait there.
const partitionWaitAt = 15

// TestTooltipGolden runs testdata/tooltip.txt: the tooltip texts of real
// lesson states and the tooltip box's layout. Directives:
//
//	buffer lesson=NAME step=N|event=E id=B
//	partition lesson=NAME step=N id=P | partition wait id=P
//	slot lesson=NAME event=E id=S
//	fsmnode lesson=NAME event=E node=N
//	    the text of buffer B, partition P (wait: in the partitionWait
//	    scenario at partitionWaitAt), SLRU slot S, or node N of the FSM
//	    tree the scene lays out (LayoutFSMTree's page)
//	tooltip anchor=X,Y bounds=WxH [scale=S]
//	    the input text laid out by Tooltip at the anchor in bounds at
//	    (0,0): the box, then every item and overflow
//
// Regenerate with: go test ./viz/scene -run TooltipGolden -rewrite
func TestTooltipGolden(t *testing.T) {
	goldentest.RunFile(t, "testdata/tooltip.txt", goldentest.Directives{
		"buffer": func(t *testing.T, d *goldentest.Case) (string, error) {
			p := loadPlayer(t, goldentest.Args(d)["lesson"], "")
			if d.HasArg("event") {
				p.Seek(intArg(t, d, "event"))
			} else {
				p.GotoStep(intArg(t, d, "step"))
			}
			return scene.BufferTooltip(p.PaneView(goldentest.Int(t, d, "pane", 0)), intArg(t, d, "id")) + "\n", nil
		},
		"partition": func(t *testing.T, d *goldentest.Case) (string, error) {
			var v *view.Pool
			if d.HasArg("wait") {
				v = waitState(t)
			} else {
				v = loadStep(t, goldentest.Args(d)["lesson"], intArg(t, d, "step")).PaneView(goldentest.Int(t, d, "pane", 0))
			}
			return scene.PartitionTooltip(v, intArg(t, d, "id")) + "\n", nil
		},
		"slot": func(t *testing.T, d *goldentest.Case) (string, error) {
			p := lessonPlayer(t, goldentest.Args(d)["lesson"])
			v := slruAt(t, p, intArg(t, d, "event"), 0)
			return scene.SLRUSlotTooltip(v, intArg(t, d, "id")) + "\n", nil
		},
		"fsmnode": func(t *testing.T, d *goldentest.Case) (string, error) {
			v, rel, _ := fsmState(t, goldentest.Args(d)["lesson"], intArg(t, d, "event"), 0)
			phys, ok := scene.FSMTreePage(v, rel)
			if !ok {
				return "", errors.New("no FSM tree page")
			}
			return scene.FSMNodeTooltip(v, rel, phys, intArg(t, d, "node")) + "\n", nil
		},
		"tooltip": func(t *testing.T, d *goldentest.Case) (string, error) {
			var a layout.Point
			if _, err := fmt.Sscanf(goldentest.Args(d)["anchor"], "%f,%f", &a.X, &a.Y); err != nil {
				return "", fmt.Errorf("anchor: %w", err)
			}
			w, h := goldentest.Size(t, d, "bounds")
			th := layout.Light(goldentest.Float(t, d, "scale", 1))
			var l layout.List
			box := scene.Tooltip(&l, a, strings.TrimSuffix(d.Input, "\n"), layout.Rect{W: w, H: h}, th)
			return fmt.Sprintf("box %s\n", rectString(box)) + l.String(), nil
		},
	})
}

// waitState is the pool in the partitionWait scenario at partitionWaitAt.
func waitState(t *testing.T) *view.Pool {
	t.Helper()
	p := scenarioPlayer(t, "wait", partitionWait)
	p.Seek(partitionWaitAt)
	return p.View()
}

// centre is the middle of r.
func centre(r layout.Rect) (float64, float64) { return r.X + r.W/2, r.Y + r.H/2 }

// Over every cell of lesson 1's pool (step 9), BufferAt finds the buffer
// and its tooltip says what the view holds: its id, its block, its
// refcount and usage count, the flags set (by their PostgreSQL names) and
// no flag that is clear. In lesson 2, while buffers are pinned, the
// tooltip names every backend that pins one and its own count.
func TestBufferTooltipSaysTheStateWord(t *testing.T) {
	th := layout.Light(1)
	p := loadStep(t, "shared-buffers", 8)
	v := p.View()
	var s scene.PoolScene
	var l layout.List
	s.Layout(&l, layout.Rect{X: 10, Y: 20, W: 700, H: 400}, v, th)
	n := 0
	for _, c := range cellRects(&l) {
		id := c.id
		got, ok := s.BufferAt(centre(c.r))
		if !ok || got != id {
			t.Fatalf("cell %d: BufferAt = %d, %v", id, got, ok)
		}
		n++
		b := v.Buffer(id)
		text := scene.BufferTooltip(v, id)
		want := []string{fmt.Sprintf("Buffer %d", id), fmt.Sprintf("refcount %d", b.Refcount()), fmt.Sprintf("usage count %d", b.Usage())}
		if b.TagValid() {
			want = append(want, v.TagString(b.Tag), fmt.Sprintf("mapping partition %d", view.PartitionOf(b.Tag)))
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("buffer %d: tooltip lacks %q:\n%s", id, w, text)
			}
		}
		for _, f := range bufmgr.FlagNames(bufmgr.BufFlagMask) {
			bit, _ := bufmgr.ParseFlag(f)
			if has := strings.Contains(text, "BM_"+f+":"); has != (b.State&bit != 0) {
				t.Errorf("buffer %d (state %s): tooltip names BM_%s: %v", id, bufmgr.StateString(b.State), f, has)
			}
		}
	}
	if n != 16 {
		t.Fatalf("%d cells, want 16", n)
	}

	pins := loadPlayer(t, "pinning", "")
	checked := 0
	for pos := 0; pos <= pins.Len() && checked < 20; pos += 7 {
		pins.Seek(pos)
		pv := pins.View()
		for id := 0; id < pv.NBuffers(); id++ {
			if pv.Buffer(id).Refcount() == 0 {
				continue
			}
			text := scene.BufferTooltip(pv, id)
			for a := 1; a < pv.NumLanes(); a++ {
				c := pv.PinCount(trace.Actor(a), id)
				name := pv.Lane(trace.Actor(a)).Name
				switch {
				case c == 1 && !strings.Contains(text, "pinned by") || c == 1 && !strings.Contains(text, name):
					t.Errorf("event %d, buffer %d: %s pins it once; tooltip:\n%s", pos, id, name, text)
				case c > 1 && !strings.Contains(text, fmt.Sprintf("%s (%d pins", name, c)):
					t.Errorf("event %d, buffer %d: %s pins it %d times; tooltip:\n%s", pos, id, name, c, text)
				}
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("lesson 2 never pins a buffer")
	}
}

// The partitions' layout records one region per partition, and over each
// HitAt finds it; the tooltip of every partition of lesson 1 (step 9)
// lists its entries as the view holds them, and in the partitionWait
// scenario it names A's exclusive hold and B's wait.
func TestPartitionTooltipFromHitRegions(t *testing.T) {
	th := layout.Light(1)
	p := loadStep(t, "shared-buffers", 8)
	v := p.View()
	var l layout.List
	scene.LayoutPartitions(&l, layout.Rect{X: 5, Y: 5, W: 480, H: 200}, v, th)
	if len(l.Hits) != view.NumPartitions {
		t.Fatalf("%d regions, want %d", len(l.Hits), view.NumPartitions)
	}
	entries := 0
	for _, h := range l.Hits {
		got, ok := l.HitAt(centre(h.Rect))
		if !ok || got.Kind != scene.HitPartition || got.ID != h.ID {
			t.Fatalf("centre of partition %d: HitAt = %+v, %v", h.ID, got, ok)
		}
		text, ok := scene.TooltipText(got, v)
		if !ok || !strings.HasPrefix(text, fmt.Sprintf("Mapping partition %d of %d", h.ID, view.NumPartitions)) {
			t.Fatalf("partition %d: %q, %v", h.ID, text, ok)
		}
		es := v.PartitionEntries(h.ID)
		entries += len(es)
		for _, e := range es {
			if w := fmt.Sprintf("%s → buffer %d", v.TagString(e.Tag), e.Buf); !strings.Contains(text, w) {
				t.Errorf("partition %d lacks %q:\n%s", h.ID, w, text)
			}
		}
		if len(es) == 0 && !strings.Contains(text, "no entries") {
			t.Errorf("empty partition %d:\n%s", h.ID, text)
		}
	}
	if entries != v.MappingLen() || entries == 0 {
		t.Errorf("the tooltips list %d entries, the table has %d", entries, v.MappingLen())
	}
	if _, ok := scene.TooltipText(layout.Hit{Kind: scene.HitPartition}, "not a pool"); ok {
		t.Error("a partition's tooltip from a view that is no pool")
	}

	w := waitState(t)
	text := scene.PartitionTooltip(w, 57)
	for _, want := range []string{"lock held exclusively by A", "waiting for the lock: B (shared)"} {
		if !strings.Contains(text, want) {
			t.Errorf("partition 57 while B waits: lacks %q:\n%s", want, text)
		}
	}
}

// The SLRU scene records a region per slot it lays out; in lesson 4 at
// the linear search (event 446), over each slot HitAt finds it and its
// tooltip says its page, status, bank and LRU numbers as the view holds
// them.
func TestSLRUSlotTooltipFromHitRegions(t *testing.T) {
	p := lessonPlayer(t, "slru-banks")
	v := slruAt(t, p, 446, 0)
	var l layout.List
	scene.LayoutSLRUScene(&l, layout.Rect{W: 1280, H: 720}, v, layout.Light(1))
	seen := map[int]bool{}
	for _, h := range l.Hits {
		if h.Kind != scene.HitSLRUSlot {
			continue
		}
		got, ok := l.HitAt(centre(h.Rect))
		if !ok || got != h {
			t.Fatalf("centre of slot %d: HitAt = %+v, %v", h.ID, got, ok)
		}
		seen[h.ID] = true
		text, ok := scene.TooltipText(got, v)
		if !ok {
			t.Fatalf("slot %d: no tooltip", h.ID)
		}
		s := v.Slot(h.ID)
		b := v.Geometry().SlotBank(h.ID)
		want := []string{fmt.Sprintf("Slot %d of %d, in bank %d", h.ID, v.NumSlots(), b)}
		if !s.Empty() {
			want = append(want, fmt.Sprintf("page %d: %s", s.Page, s.Status), fmt.Sprintf("page_lru_count %d", s.LRUCount),
				fmt.Sprintf("bank_cur_lru_count %d: age %d", v.Bank(b).CurCount, s.Age))
		} else {
			want = append(want, "EMPTY")
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("slot %d lacks %q:\n%s", h.ID, w, text)
			}
		}
	}
	if len(seen) != v.NumSlots() {
		t.Errorf("%d slots have regions, want %d", len(seen), v.NumSlots())
	}
	if text := scene.SLRUSlotTooltip(v, 20); !strings.Contains(text, "page 9: VALID") {
		t.Errorf("slot 20, which B compares, holds page 9 (VALID):\n%s", text)
	}
}

// The FSM tree records a region per node box; in lesson 5 (event 672)
// each node's tooltip gives its depth and value, and the value in bytes as
// fsm_space_cat_to_avail reads it; the root is the most of the leaves.
func TestFSMNodeTooltipFromHitRegions(t *testing.T) {
	v, rel, _ := fsmState(t, "free-space-map", 672, 0)
	var l layout.List
	scene.LayoutFSMScene(&l, layout.Rect{W: 1280, H: 800}, v, rel, layout.Light(1))
	phys, ok := scene.FSMTreePage(v, rel)
	if !ok {
		t.Fatal("no tree page")
	}
	depths := map[int]bool{}
	for _, h := range l.Hits {
		if h.Kind != scene.HitFSMNode {
			continue
		}
		if h.In != [2]uint32{rel, phys} {
			t.Fatalf("node %d recorded in %v, the tree is relation %d block %d", h.ID, h.In, rel, phys)
		}
		got, ok := l.HitAt(centre(h.Rect))
		if !ok || got.Kind != scene.HitFSMNode {
			t.Fatalf("centre of node %d: HitAt = %+v, %v", h.ID, got, ok)
		}
		text, _ := scene.TooltipText(h, v)
		if !strings.HasPrefix(text, fmt.Sprintf("Node %d of FSM block %d", h.ID, phys)) {
			t.Errorf("node %d: %q", h.ID, text)
		}
		if h.ID >= fsm.NodesPerPage {
			continue
		}
		d := 0
		for (1<<(d+1))-1 <= h.ID {
			d++
		}
		depths[d] = true
		if !strings.Contains(text, fmt.Sprintf("depth %d", d)) {
			t.Errorf("node %d: no depth %d:\n%s", h.ID, d, text)
		}
		val := v.Node(rel, phys, h.ID)
		if !strings.Contains(text, fmt.Sprintf("value %d:", val)) {
			t.Errorf("node %d: no value %d:\n%s", h.ID, val, text)
		}
		if val > 0 && !strings.Contains(text, fmt.Sprintf("at least %d bytes free", fsm.CatToAvail(val))) {
			t.Errorf("node %d (category %d): no %d bytes:\n%s", h.ID, val, fsm.CatToAvail(val), text)
		}
	}
	for d := 0; d <= 12; d++ {
		if !depths[d] {
			t.Errorf("no node of depth %d has a region", d)
		}
	}
	root := scene.FSMNodeTooltip(v, rel, phys, 0)
	if !strings.Contains(root, "the root, depth 0") {
		t.Errorf("root: %s", root)
	}
}

// Tooltip keeps its box inside the bounds: below right of the pointer
// where there is room, flipped left at the right edge and up at the
// bottom, and moved in where neither side has room; the lines of a text
// too tall for the bounds are recorded, never drawn outside.
func TestTooltipStaysInside(t *testing.T) {
	th := layout.Light(1)
	bounds := layout.Rect{X: 0, Y: 0, W: 390, H: 300}
	text := "Buffer 3 (buf_id 3)\nholds orders/2 (mapping partition 57)\nstate word 0x82440000: refcount 0, usage count 1 (at most 5)"
	for _, c := range []struct {
		ax, ay      float64
		left, above bool
	}{{20, 20, false, false}, {380, 20, true, false}, {20, 290, false, true}, {380, 290, true, true}} {
		var l layout.List
		box := scene.Tooltip(&l, layout.Point{X: c.ax, Y: c.ay}, text, bounds, th)
		if box.X < 0 || box.Y < 0 || box.X+box.W > bounds.W+0.01 || box.Y+box.H > bounds.H+0.01 {
			t.Errorf("anchor %v,%v: box %v outside %v", c.ax, c.ay, box, bounds)
		}
		if left := box.X+box.W <= c.ax; left != c.left {
			t.Errorf("anchor %v,%v: box %v left of the pointer: %v, want %v", c.ax, c.ay, box, left, c.left)
		}
		if above := box.Y+box.H <= c.ay; above != c.above {
			t.Errorf("anchor %v,%v: box %v above the pointer: %v, want %v", c.ax, c.ay, box, above, c.above)
		}
		if box.Contains(c.ax, c.ay) {
			t.Errorf("anchor %v,%v: the box %v covers the pointer", c.ax, c.ay, box)
		}
		if len(l.Overflows) > 0 {
			t.Errorf("anchor %v,%v: overflows %v", c.ax, c.ay, l.Overflows)
		}
	}
	var l layout.List
	long := strings.Repeat("the clock sweep takes one off each unpinned buffer it passes\n", 20)
	box := scene.Tooltip(&l, layout.Point{X: 100, Y: 50}, long, layout.Rect{W: 360, H: 200}, th)
	if box.Y < 0 || box.Y+box.H > 200.01 || len(l.Overflows) == 0 {
		t.Errorf("a text too tall: box %v, %d overflows", box, len(l.Overflows))
	}
	for _, it := range l.Texts("tooltip") {
		if it.Rect.Y+it.Rect.H > 200.5 {
			t.Errorf("%s drawn below the bounds", it)
		}
	}
}
