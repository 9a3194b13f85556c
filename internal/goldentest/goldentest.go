package goldentest

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// Case is one case of a golden file: its position (file:line), directive
// (Cmd), arguments (CmdArgs), input and expected output. It is
// datadriven's TestData, so its own helpers (HasArg, ScanArgs,
// MaybeScanArgs) work on it too.
type Case = datadriven.TestData

// Handler makes a case's output. A non-nil error fails the test at the
// case's position (the output is then ignored).
type Handler func(t *testing.T, d *Case) (string, error)

// Directives maps each directive a golden file may use to its handler.
type Directives map[string]Handler

// Run runs every datadriven file that glob matches (relative to the test's
// package directory), one subtest per file named by its base name, each
// case by the handler its directive names in ds (see RunFile).
// A glob that matches nothing fails the test: a moved folder or a typo
// must not turn the golden test into one that passes by checking nothing.
// Cost: one datadriven.RunTest per file; the files are read once each.
func Run(t *testing.T, glob string, ds Directives) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			RunFile(t, path, ds)
		})
	}
}

// RunFile runs the datadriven file at path: each case by the handler its
// directive names in ds, its output compared with the file's (or written
// into it with -rewrite). It fails the test at the case's file:line when
// ds has no such directive (naming those it has) or when the handler
// returns an error. A missing file fails too (datadriven's check).
func RunFile(t *testing.T, path string, ds Directives) {
	t.Helper()
	datadriven.RunTest(t, path, func(t *testing.T, d *Case) string {
		t.Helper()
		out, err := ds.output(t, d)
		if err != nil {
			t.Fatal(err)
		}
		return out
	})
}

// output is the case's output by its directive's handler; the error, if
// any, starts with the case's position.
func (ds Directives) output(t *testing.T, d *Case) (string, error) {
	h, ok := ds[d.Cmd]
	if !ok {
		return "", fmt.Errorf("%s: unknown directive %q (known: %s)", d.Pos, d.Cmd, strings.Join(ds.names(), ", "))
	}
	out, err := h(t, d)
	if err != nil {
		return "", fmt.Errorf("%s: %w", d.Pos, err)
	}
	return out, nil
}

// names is the directives of ds, sorted.
func (ds Directives) names() []string {
	var ns []string
	for n := range ds {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// errNoError is Fails' error when the case did not fail.
var errNoError = errors.New("expected an error, the case ran")

// Fails is the handler of a directive that must fail: it runs h and its
// output is h's error's text and a newline. When h returns no error the
// case fails (h's output is then ignored).
func Fails(h Handler) Handler {
	return func(t *testing.T, d *Case) (string, error) {
		_, err := h(t, d)
		if err == nil {
			return "", errNoError
		}
		return err.Error() + "\n", nil
	}
}

// Scripted is the directives of a golden file whose cases each run a
// mechanism's script, as engine/fsm's and engine/slru's do:
//
//	events   the script's events, then what out writes after them
//	picture  the same without the events
//	error    the script must fail; the output is its error (Fails)
//
// run runs the case's script; its error is the case's, and only the error
// directive expects one. out is the output of a run that succeeded, with
// the events or without; its error (what the script left behind, such as a
// pin) fails the case.
func Scripted[R any](run func(t *testing.T, d *Case) (R, error), out func(r R, events bool) (string, error)) Directives {
	output := func(events bool) Handler {
		return func(t *testing.T, d *Case) (string, error) {
			r, err := run(t, d)
			if err != nil {
				return "", err
			}
			return out(r, events)
		}
	}
	return Directives{
		"events":  output(true),
		"picture": output(false),
		"error": Fails(func(t *testing.T, d *Case) (string, error) {
			_, err := run(t, d)
			return "", err
		}),
	}
}

// Shown is the directives of a golden file whose cases each run once and
// differ only in how they show what the run logged, as engine/readstream's
// and engine/aio's do (a summary of the reads, every step): one directive
// per entry of shows, each running run with that entry as its show.
func Shown[L any](run func(t *testing.T, d *Case, show func(L) string) (string, error), shows map[string]func(L) string) Directives {
	ds := make(Directives, len(shows))
	for name, show := range shows {
		ds[name] = func(t *testing.T, d *Case) (string, error) { return run(t, d, show) }
	}
	return ds
}

// Args is the case's arguments by key: a key given alone maps to "", one
// given values to its values joined by commas (so roles=(a, b) and
// roles=a,b read alike). Where a key is given twice the last one counts.
// It checks nothing.
func Args(d *Case) map[string]string {
	args := make(map[string]string, len(d.CmdArgs))
	for _, a := range d.CmdArgs {
		args[a.Key] = strings.Join(a.Vals, ",")
	}
	return args
}

// value is the one value of argument key, and whether the case gives it;
// it fails the test at d.Pos when the key is given with no value or more
// than one.
func value(t testing.TB, d *Case, key string) (string, bool) {
	t.Helper()
	a, ok := d.Arg(key)
	if !ok {
		return "", false
	}
	if len(a.Vals) != 1 {
		t.Fatalf("%s: %s: want one value, found %d", d.Pos, key, len(a.Vals))
	}
	return a.Vals[0], true
}

// Float is the number argument key gives (key=1.45), or def when the case
// does not give key. It fails the test at d.Pos when the value is not a
// number or the key has no value or several.
func Float(t testing.TB, d *Case, key string, def float64) float64 {
	t.Helper()
	s, ok := value(t, d, key)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s: %s=%q: want a number", d.Pos, key, s)
	}
	return f
}

// Int is the whole number argument key gives (key=12), or def when the
// case does not give key. It fails the test at d.Pos when the value is not
// a whole number or the key has no value or several.
func Int(t testing.TB, d *Case, key string, def int) int {
	t.Helper()
	s, ok := value(t, d, key)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s: %s=%q: want a whole number", d.Pos, key, s)
	}
	return n
}

// Size is the width and height argument key gives as WxH (size=1280x720;
// each a number). It fails the test at d.Pos when the case does not give
// key, or gives it in another form.
func Size(t testing.TB, d *Case, key string) (w, h float64) {
	t.Helper()
	s, ok := value(t, d, key)
	if !ok {
		t.Fatalf("%s: needs %s=WxH", d.Pos, key)
	}
	ws, hs, _ := strings.Cut(s, "x")
	w, errW := strconv.ParseFloat(ws, 64)
	h, errH := strconv.ParseFloat(hs, 64)
	if errW != nil || errH != nil {
		t.Fatalf("%s: %s=%q: want WxH", d.Pos, key, s)
	}
	return w, h
}

// Stream is the input of a read-stream case (engine/readstream's and
// engine/aio's golden files), one line each:
//
//	heapscan N [start=S]   a serial heap scan of N blocks from block S
//	blocks LIST            a callback returning LIST (numbers and a..b)
//	cached LIST            blocks already valid in the pool
//
// HeapScan says which of the first two the case has; a later line of
// either replaces an earlier one.
type Stream struct {
	HeapScan    bool
	N, Start    uint32
	Blocks      []uint32
	Cached      []uint32
	StartGiven  bool // the heapscan line said start=
	HasCallback bool // a heapscan or blocks line was given
}

// ParseStream reads d's input as a read-stream case (Stream).
func ParseStream(d *Case) (Stream, error) {
	var s Stream
	for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "heapscan":
			if len(f) < 2 || len(f) > 3 {
				return s, fmt.Errorf("heapscan N [start=S]: %q", line)
			}
			n, err := strconv.ParseUint(f[1], 10, 32)
			if err != nil {
				return s, fmt.Errorf("heapscan: %v", err)
			}
			s.HeapScan, s.HasCallback, s.N, s.Start, s.StartGiven = true, true, uint32(n), 0, false
			if len(f) == 3 {
				v, ok := strings.CutPrefix(f[2], "start=")
				if !ok {
					return s, fmt.Errorf("heapscan: want start=S, found %q", f[2])
				}
				st, err := strconv.ParseUint(v, 10, 32)
				if err != nil {
					return s, fmt.Errorf("heapscan: %v", err)
				}
				s.Start, s.StartGiven = uint32(st), true
			}
		case "blocks", "cached":
			bs, err := ParseBlocks(f[1:])
			if err != nil {
				return s, err
			}
			if f[0] == "cached" {
				s.Cached = append(s.Cached, bs...)
				continue
			}
			s.HeapScan, s.HasCallback, s.Blocks = false, true, bs
		default:
			return s, fmt.Errorf("unknown input line %q", line)
		}
	}
	if !s.HasCallback {
		return s, fmt.Errorf("no heapscan or blocks line")
	}
	return s, nil
}

// ParseBlocks reads block numbers and ranges a..b.
func ParseBlocks(fs []string) ([]uint32, error) {
	var bs []uint32
	for _, f := range fs {
		lo, hi, isRange := strings.Cut(f, "..")
		a, err := strconv.ParseUint(lo, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("block %q: %v", f, err)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(hi, 10, 32); err != nil || b < a {
				return nil, fmt.Errorf("block range %q", f)
			}
		}
		for x := a; x <= b; x++ {
			bs = append(bs, uint32(x))
		}
	}
	return bs, nil
}

// Blocks converts block numbers to a block type of a package's own.
func Blocks[B ~uint32](xs []uint32) []B {
	out := make([]B, len(xs))
	for i, x := range xs {
		out[i] = B(x)
	}
	return out
}
