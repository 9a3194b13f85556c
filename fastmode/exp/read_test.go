package exp

import (
	"testing"

	"bufferlab/engine/bufmgr"
)

// A first read misses and a second hits; each leaves the buffer unpinned.
func TestReadRelease(t *testing.T) {
	p, err := bufmgr.NewPool(16, nil)
	if err != nil {
		t.Fatal(err)
	}
	be, err := p.NewBackend("A")
	if err != nil {
		t.Fatal(err)
	}
	rel := &bufmgr.Relation{Name: "r", Number: bufmgr.FirstNormalObjectId, Permanent: true}
	rel.NBlocks[bufmgr.MainForkNum] = 4
	for i, want := range []bool{false, true} {
		buf, hit, err := ReadRelease(be, rel, 2)
		if err != nil || hit != want || buf == bufmgr.InvalidBuffer {
			t.Fatalf("read %d: buffer %d, hit %v, %v; want hit %v", i, buf, hit, err, want)
		}
		if n := be.PrivateRefCount(buf); n != 0 {
			t.Fatalf("read %d left %d pins", i, n)
		}
	}
}
