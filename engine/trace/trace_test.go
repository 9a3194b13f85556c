package trace

import (
	"strings"
	"testing"
	"unsafe"
)

var testFunc = DefineFunc("TestFunc", "test.c", "PG 15", `
TestFunc(x)
    first line                     @test.first
    second line
    third line                     @test.third`)

func TestSites(t *testing.T) {
	s1, s3 := SiteOf("test.first"), SiteOf("test.third")
	if s1 == 0 || s3 != s1+1 {
		t.Fatalf("sites %d, %d: want consecutive non-zero ids", s1, s3)
	}
	if i := s1.Info(); i.Func != testFunc || i.Line != 1 || testFunc.Lines[1] != "    first line" {
		t.Fatalf("site info %+v, line %q", i, testFunc.Lines[i.Line])
	}
	if i := s3.Info(); i.Line != 3 || testFunc.Lines[3] != "    third line" {
		t.Fatalf("site info %+v", i)
	}
	if s1.String() != "test.first" || Site(0).String() != "-" || Site(65000).String() != "-" {
		t.Fatalf("site names %q %q %q", s1, Site(0), Site(65000))
	}
	if _, ok := LookupSite("test.nope"); ok {
		t.Fatal("LookupSite found a site that does not exist")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("SiteOf of an unknown site did not panic")
		}
	}()
	SiteOf("test.nope")
}

func TestDuplicateSitePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "defined twice") {
			t.Fatalf("recovered %v, want a duplicate-site panic", r)
		}
	}()
	DefineFunc("Dup", "x.c", "PG 15", "a  @test.first")
}

func TestNilLog(t *testing.T) {
	var l *Log
	l.Append(Event{Kind: KHit})
	if l.Len() != 0 || l.Events() != nil || l.Enabled() || l.String() != "" {
		t.Fatal("a nil log recorded something")
	}
	if l.Hash() != NewLog().Hash() {
		t.Fatal("nil and empty logs hash differently")
	}
}

func TestLogAndHash(t *testing.T) {
	mk := func() *Log {
		l := NewLog()
		l.Append(Event{Actor: 1, Kind: KLoad, Site: SiteOf("test.first"), Class: OBuffer, Obj: 3, After: 0x01040000})
		l.Append(Event{Actor: 2, Kind: KCAS, Site: SiteOf("test.third"), Class: OBuffer, Obj: 3, Before: 1, After: 2, Arg: 7})
		return l
	}
	a, b := mk(), mk()
	if a.Len() != 2 || a.At(1).Seq != 1 || a.At(0).Seq != 0 {
		t.Fatalf("sequence numbers %d %d", a.At(0).Seq, a.At(1).Seq)
	}
	if a.Hash() != b.Hash() {
		t.Fatal("equal logs hash differently")
	}
	// Every field takes part in the hash.
	for i, mut := range []func(*Event){
		func(e *Event) { e.Actor = 3 }, func(e *Event) { e.Kind = KCASFail }, func(e *Event) { e.Site = 0 },
		func(e *Event) { e.Class = OPartition }, func(e *Event) { e.Obj = 4 }, func(e *Event) { e.Before = 9 },
		func(e *Event) { e.After = 9 }, func(e *Event) { e.Arg = 9 },
	} {
		c := mk()
		mut(&c.open[1])
		if c.Hash() == a.Hash() {
			t.Errorf("mutation %d does not change the hash", i)
		}
	}
	want := "00001 B   cas          test.third                   buf[3] 0x1->0x2 arg=0x7"
	if got := a.At(1).String(); got != want {
		t.Fatalf("String:\n got  %q\n want %q", got, want)
	}
	if !strings.HasSuffix(a.String(), want+"\n") || strings.Count(a.String(), "\n") != 2 {
		t.Fatalf("log String: %q", a.String())
	}
	var seen []uint64
	a.OnAppend = func(e Event) { seen = append(seen, e.Seq) }
	a.Append(Event{Kind: KHit})
	if len(seen) != 1 || seen[0] != 2 {
		t.Fatalf("OnAppend saw %v", seen)
	}
}

// Events are small fixed-size values without pointers.
func TestEventSize(t *testing.T) {
	if s := unsafe.Sizeof(Event{}); s > 48 {
		t.Fatalf("Event is %d bytes; keep it at most 48", s)
	}
	for k := Kind(0); k < numKinds; k++ {
		if kindNames[k] == "" {
			t.Errorf("kind %d has no name", k)
		}
	}
	if ActorName(0) != "sys" || ActorName(1) != "A" || ActorName(26) != "Z" || ActorName(27) != "B27" {
		t.Fatal("actor names")
	}
}

// Kind and class values are part of the trace hash: existing ones never
// move, new ones are appended (the SLRU ones after KWake and OBackend, the
// FSM ones after KStore and OSLRU, PostgreSQL 17's KCall after KTarget,
// 18's KAIO and OAIO last).
func TestKindAndClassValues(t *testing.T) {
	kinds := map[Kind]uint8{KNone: 0, KLoad: 1, KUnlockHdr: 6, KLWAcquire: 7, KMapLookup: 13,
		KVictim: 22, KHit: 25, KDirty: 32, KOp: 34, KWake: 36, KSlotScan: 37, KSlotState: 38,
		KLRUCount: 39, KLRUTouch: 40, KCandidate: 41, KSkipLatest: 42, KStore: 43,
		KNodeStore: 44, KCategory: 45, KSearchStep: 46, KNextSlot: 47, KFSMSkip: 48, KPageTried: 49,
		KHeapPage: 50, KLocalMap: 51, KLocalMapSize: 52, KForkSize: 53, KTarget: 54, KCall: 55, KAIO: 56}
	for k, v := range kinds {
		if uint8(k) != v {
			t.Errorf("kind %s is %d, want %d", k, uint8(k), v)
		}
	}
	if numKinds != 57 {
		t.Errorf("%d kinds: a kind was added or removed; update this test (append only)", numKinds)
	}
	classes := []ObjClass{ONone, OBuffer, OPartition, OContent, OStrategy, ORelation, OBackend, OBank, OSlot, OSlotIO, OSLRU,
		OFSMRel, OFSMPage, OFSMNode, OHeapPage, OLocalMap, OAIO}
	for i, c := range classes {
		if int(c) != i {
			t.Errorf("class %s is %d, want %d", c, c, i)
		}
		if objNames[c] == "" {
			t.Errorf("class %d has no name", c)
		}
		if want := c >= OBank && c <= OSLRU; c.IsSLRU() != want {
			t.Errorf("%s.IsSLRU() = %v", c, c.IsSLRU())
		}
		if want := c >= OFSMRel && c <= OLocalMap; c.IsFSM() != want {
			t.Errorf("%s.IsFSM() = %v", c, c.IsFSM())
		}
		if c.IsSLRU() && c.IsFSM() {
			t.Errorf("%s is both an SLRU and an FSM class", c)
		}
	}
	if numObjClasses != ObjClass(len(classes)) {
		t.Errorf("%d classes; update this test (append only)", numObjClasses)
	}
	if KSkipLatest.String() != "skip-latest" || OSlotIO.String() != "slot-io" || ObjClass(200).IsSLRU() {
		t.Error("names")
	}
	if KTarget.String() != "target-block" || KHeapPage.String() != "heap-page" || OFSMNode.String() != "fsm-node" ||
		OLocalMap.String() != "local-map" || ObjClass(200).IsFSM() {
		t.Error("FSM names")
	}
	e := Event{Seq: 3, Actor: 2, Kind: KSlotState, Class: OSlot, Obj: 5, Before: 0, After: 0x302}
	if got, want := e.String(), "00003 B   slot-state   -                            slot[5] 0x0->0x302"; got != want {
		t.Errorf("String:\n got  %q\n want %q", got, want)
	}
}
