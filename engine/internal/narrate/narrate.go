package narrate

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"bufferlab/engine/internal/lwlock"
	"bufferlab/engine/trace"
)

// MaxLen is the longest caption, in runes, that the tests accept over
// every embedded scenario and lesson: one line of a caption bar on a
// laptop at the caption type size, and of a terminal a little wider than
// 100 columns. Captions aim to be much shorter; the longest are those that
// name two pages of long relation names.
const MaxLen = 110

// Window bounds how far back Back looks: at most this many entries of evs
// before i, idle padding included. A caption therefore costs O(Window) at
// worst, whatever the length of the run. The events a caption looks for
// are a few events back, or at most a bank's search or a clock sweep of
// about a thousand buffers back (the read a dirty victim is written for):
// beyond that, the caption says less rather than look further.
const Window = 4096

// Back returns the latest event before i that ok accepts, looking at most
// window entries back (idle trace.KNone padding, which a player inserts
// between steps, counts toward the window but is never offered to ok).
// Cost: O(window) calls of ok at worst.
func Back(evs []trace.Event, i, window int, ok func(e trace.Event) bool) (trace.Event, int, bool) {
	stop := max(0, i-window)
	for j := min(i, len(evs)) - 1; j >= stop; j-- {
		if e := evs[j]; e.Kind != trace.KNone && ok(e) {
			return e, j, true
		}
	}
	return trace.Event{}, -1, false
}

// Holders names the holders of a lock from its holder word
// (lwlock.Lock.HolderWord): "nobody", "A (exclusive)", "A and B (shared)".
func Holders(w uint64, actor func(trace.Actor) string) string {
	l := lwlock.Unpack(w)
	if l.Free() {
		return "nobody"
	}
	if l.Excl != 0 {
		return actor(l.Excl) + " (exclusive)"
	}
	return List(SharedHolders(w, actor)) + " (shared)"
}

// HolderVerb is Holders as the subject of "holds it": "A holds it
// exclusively", "A and B hold it shared", "nobody holds it".
func HolderVerb(w uint64, actor func(trace.Actor) string) string {
	l := lwlock.Unpack(w)
	switch {
	case l.Free():
		return "nobody holds it"
	case l.Excl != 0:
		return actor(l.Excl) + " holds it exclusively"
	case l.NShared == 1:
		return List(SharedHolders(w, actor)) + " holds it shared"
	}
	return List(SharedHolders(w, actor)) + " hold it shared"
}

// SharedHolders lists the shared holders of a holder word, in actor order.
func SharedHolders(w uint64, actor func(trace.Actor) string) []string {
	l := lwlock.Unpack(w)
	var out []string
	for a := trace.Actor(1); a <= lwlock.MaxActor; a++ {
		if l.Shared&(1<<(a-1)) != 0 {
			out = append(out, actor(a))
		}
	}
	return out
}

// listMax is the most names List writes out; past it, it writes two and
// counts the rest.
const listMax = 3

// List joins names in English: "A", "A and B", "A, B and C", "A, B and 2
// others".
func List(names []string) string {
	switch n := len(names); {
	case n == 0:
		return ""
	case n == 1:
		return names[0]
	case n > listMax:
		return strings.Join(names[:2], ", ") + fmt.Sprintf(" and %d others", n-2)
	default:
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
}

// Plural writes a count with its noun: "1 block", "3 blocks", "2 tries"
// (a noun ending in a consonant and y takes -ies).
func Plural(n uint64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if k := len(noun); k >= 2 && noun[k-1] == 'y' && !strings.ContainsRune("aeiou", rune(noun[k-2])) {
		return fmt.Sprintf("%d %sies", n, noun[:k-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// LockWords are an engine package's sentences for its LWLock events, by
// site: each a format of the backend and the lock's name, in that order
// ("%s takes %s exclusively to add a page."). A site with none says the
// plain sentence ("A takes bank 2's lock shared.", "A releases bank 2's
// lock.").
type LockWords struct {
	Take    map[trace.Site]string // sites that take the lock (lw-acquire)
	Release map[trace.Site]string // sites that release it
}

// Caption says LWLock event e (the lock taken, waited for, not taken
// without waiting, or released) at site by who, of the lock called lock:
// a wait and a failure to take it at once name its holders (HolderVerb),
// the others say the site's sentence. O(1).
func (w LockWords) Caption(e trace.Event, site trace.Site, who, lock string, actor func(trace.Actor) string) string {
	switch e.Kind {
	case trace.KLWWait:
		return fmt.Sprintf("%s must wait for %s: %s.", who, lock, HolderVerb(e.Before, actor))
	case trace.KLWCondFail:
		return fmt.Sprintf("%s does not get %s without waiting: %s.", who, lock, HolderVerb(e.Before, actor))
	case trace.KLWRelease:
		if f, ok := w.Release[site]; ok {
			return fmt.Sprintf(f, who, lock)
		}
		return fmt.Sprintf("%s releases %s.", who, lock)
	}
	if f, ok := w.Take[site]; ok {
		return fmt.Sprintf(f, who, lock)
	}
	return fmt.Sprintf("%s takes %s %s.", who, lock, Mode(lwlock.Mode(e.Arg)))
}

// Mode is a lock mode as an adverb: "shared", "exclusively".
func Mode(m lwlock.Mode) string {
	if m == lwlock.Exclusive {
		return "exclusively"
	}
	return "shared"
}

// Who names an actor as the subject of a caption: the scenario's name, or
// "The system" for trace.System.
func Who(a trace.Actor, actor func(trace.Actor) string) string {
	if a == trace.System {
		return "The system"
	}
	return actor(a)
}

// describeLayout matches what an event's description (Describe, the golden
// text) has and a caption must not: its leading sequence number and
// columns, its arrows and state-word, holder and argument fields, a site
// name (alloc.lookup, slru.ro16.scan).
var describeLayout = regexp.MustCompile(`^\d{5} |->|\brc=|\busage=|\bholders |\barg=|[a-z0-9]\.[a-z]`)

// Check reports what is wrong with a caption, or nil: what CheckWords
// rejects, and the words of a caption written for no particular event
// (Generic).
func Check(caption string) error {
	if err := CheckWords(caption); err != nil {
		return err
	}
	if strings.Contains(caption, Generic) {
		return fmt.Errorf("generic caption (no sentence for this event): %q", caption)
	}
	return nil
}

// CheckWords reports whether a caption is in words: not empty, at most
// MaxLen runes, on one line, without a raw kind name ("cas-fail",
// "lw-acquire": every kind whose name is not a plain word), without the
// layout of an event's description, and naming no code but PG15Names.
func CheckWords(caption string) error {
	switch {
	case strings.TrimSpace(caption) == "":
		return fmt.Errorf("empty caption")
	case utf8.RuneCountInString(caption) > MaxLen:
		return fmt.Errorf("caption of %d runes, over %d: %q", utf8.RuneCountInString(caption), MaxLen, caption)
	case strings.ContainsAny(caption, "\n\r\t"):
		return fmt.Errorf("caption not on one line: %q", caption)
	}
	if m := describeLayout.FindString(caption); m != "" {
		return fmt.Errorf("caption has the description's layout (%q): %q", m, caption)
	}
	for k := trace.Kind(1); int(k) < trace.NumKinds; k++ {
		if n := k.String(); strings.Contains(n, "-") && strings.Contains(caption, n) {
			return fmt.Errorf("caption names the kind %q: %q", n, caption)
		}
	}
	return checkNames(caption)
}

// PG15Names are the PostgreSQL identifiers a caption may name: functions
// (the one a caption's event models, in parentheses) and the fields, locks
// and flags they name, each checked against the PostgreSQL 15.18 source
// (functions by their definition, fields by their declaration). No
// function of the reverted small-table-skip patch or of PostgreSQL 16+ is
// among them: a caption of such code says what it does in words. Add a
// name only after checking it in that source.
var PG15Names = map[string]bool{
	// bufmgr.c, freelist.c, syncscan.c, proc.c, smgr.c, buf_internals.h
	"ReadBuffer_common": true, "MarkBufferDirty": true, "StartBufferIO": true, "TerminateBufferIO": true,
	"FlushBuffer": true, "WaitIO": true, "PinBuffer_Locked": true, "InvalidateBuffer": true,
	"ProcSendSignal": true, "smgrread": true, "smgrwrite": true, "ss_get_location": true,
	"ss_report_location": true, "LockBufHdr": true,
	"buffer_strategy_lock": true, "numBufferAllocs": true, "nextVictimBuffer": true,
	"BM_DIRTY": true, "BM_VALID": true, "BM_TAG_VALID": true, "BM_IO_IN_PROGRESS": true,
	"BM_JUST_DIRTIED": true, "BM_PIN_COUNT_WAITER": true, "BM_LOCKED": true, "BM_IO_ERROR": true,
	"BM_CHECKPOINT_NEEDED": true, "BM_PERMANENT": true,
	// slru.c, clog.c, slru.h
	"SimpleLruReadPage_ReadOnly": true, "SimpleLruReadPage": true, "SimpleLruZeroPage": true,
	"SimpleLruWriteAll": true, "SimpleLruWaitIO": true, "SlruPhysicalReadPage": true,
	"SlruPhysicalWritePage": true, "TransactionIdGetStatus": true, "TransactionIdSetPageStatus": true,
	"ExtendCLOG": true, "BootStrapCLOG": true, "ControlLock": true, "latest_page_number": true,
	// freespace.c, fsmpage.c, fsm_internals.h, hio.c, heapam.c, vacuumlazy.c, visibilitymap.c, pg_class.h
	"GetPageWithFreeSpace": true, "RecordPageWithFreeSpace": true, "RecordAndGetPageWithFreeSpace": true,
	"GetRecordedFreeSpace": true, "FreeSpaceMapVacuumRange": true, "fsm_search": true, "fsm_extend": true,
	"fsm_rebuild_page": true, "fp_next_slot": true, "RelationGetBufferForTuple": true, "heap_insert": true,
	"heap_delete": true, "lazy_scan_heap": true, "visibilitymap_pin": true, "visibilitymap_count": true,
	"relpages": true, "pg_class": true,
}

// PG17Names are the identifiers of PostgreSQL 16's and 17's read path
// that the captions of its own sites name (engine/bufmgr/read17.go, only
// for config pg=16 and pg=17), each checked against the 17.9 source
// (bufmgr.c: StartReadBuffers, StartReadBuffer, WaitReadBuffers,
// PinBufferForBlock; smgr.c: smgrreadv); and those of PostgreSQL 16's
// bulk relation extension (engine/fsm/extend16.go, pg=16 and later),
// checked against 17.9 and 18.4 (hio.c: RelationAddBlocks; bufmgr.c:
// ExtendBufferedRelBy, LimitAdditionalPins; bufmgr.h: EB_LOCK_FIRST;
// lmgr.c: LockRelationForExtension, RelationExtensionLockWaiterCount;
// proc.c: ProcLockWakeup).
var PG17Names = map[string]bool{
	"StartReadBuffers": true, "StartReadBuffer": true, "WaitReadBuffers": true,
	"PinBufferForBlock": true, "smgrreadv": true,
	"RelationAddBlocks": true, "ExtendBufferedRelBy": true, "LimitAdditionalPins": true,
	"EB_LOCK_FIRST": true, "LockRelationForExtension": true, "RelationExtensionLockWaiterCount": true,
	"ProcLockWakeup": true,
}

// PG18Names are the identifiers of PostgreSQL 18's asynchronous read
// path that the captions of its own sites name (engine/bufmgr/read18.go,
// only for config pg=18), each checked against the 18.4 source
// (bufmgr.c: AsyncReadBuffers).
var PG18Names = map[string]bool{
	"AsyncReadBuffers": true,
}

// codeWord matches a word that looks like code: an identifier with an
// underscore, or with a capital letter after its first letter (not a
// plain capitalised word, not CAS, ERROR or I/O); parenWord a single word
// in parentheses, where captions name the function an event models.
var (
	codeWord  = regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b`)
	parenWord = regexp.MustCompile(`\(([A-Za-z][A-Za-z0-9_]*)\)`)
)

// parenPlain are the plain words a caption puts alone in parentheses;
// plainCode the words that look like code and are not.
var (
	parenPlain = map[string]bool{"shared": true, "valid": true}
	plainCode  = map[string]bool{"PostgreSQL": true}
)

// checkNames reports a name in caption that looks like code and is not
// one of PG15Names.
func checkNames(caption string) error {
	for _, w := range codeWord.FindAllString(caption, -1) {
		if !PG15Names[w] && !PG17Names[w] && !PG18Names[w] && !plainCode[w] {
			return fmt.Errorf("caption names %s, which is not a checked PostgreSQL 15 (or 17, 18) name: %q", w, caption)
		}
	}
	for _, m := range parenWord.FindAllStringSubmatch(caption, -1) {
		if w := m[1]; !PG15Names[w] && !PG17Names[w] && !PG18Names[w] && !parenPlain[w] {
			return fmt.Errorf("caption names %s in parentheses, which is not a checked PostgreSQL 15 (or 17, 18) name: %q", w, caption)
		}
	}
	return nil
}

// Generic is the phrase of a caption that says only what kind of thing
// happened to what: the last resort of an engine package's Caption for a
// kind and site it never emits together. Check rejects it, so a test over
// a run's events finds any event left without its own sentence.
const Generic = " acts on "
