package goldentest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// echo is a handler whose output is the case's input.
func echo(t *testing.T, d *Case) (string, error) { return d.Input + "\n", nil }

// TestRunVisitsEveryFile: each matched file is its own subtest and every
// case of it reaches its directive's handler.
func TestRunVisitsEveryFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt"} {
		body := "echo\n" + name + "\n----\n" + name + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	Run(t, filepath.Join(dir, "*.txt"), Directives{"echo": func(t *testing.T, d *Case) (string, error) {
		seen = append(seen, t.Name())
		return echo(t, d)
	}})
	if len(seen) != 2 || seen[0] != "TestRunVisitsEveryFile/a.txt" || seen[1] != "TestRunVisitsEveryFile/b.txt" {
		t.Fatalf("subtests %q, want one per file named by its base name", seen)
	}
}

// TestRunFileDirectives runs testdata/directives.txt: each case by its
// own directive's handler, the error directive's output the error.
func TestRunFileDirectives(t *testing.T) {
	var cmds []string
	RunFile(t, "testdata/directives.txt", Directives{
		"echo": func(t *testing.T, d *Case) (string, error) {
			cmds = append(cmds, d.Cmd)
			return echo(t, d)
		},
		"upper": func(t *testing.T, d *Case) (string, error) {
			cmds = append(cmds, d.Cmd)
			return strings.ToUpper(d.Input) + "\n", nil
		},
		"error": Fails(func(t *testing.T, d *Case) (string, error) {
			cmds = append(cmds, d.Cmd)
			return "", errors.New(d.Input)
		}),
	})
	if got := strings.Join(cmds, " "); got != "echo upper error echo" {
		t.Fatalf("handlers ran for %q, want echo upper error echo", got)
	}
}

// An unknown directive is an error at the case's position that names the
// directives there are; a handler's error is reported at the position
// too, and wrapped.
func TestOutputErrors(t *testing.T) {
	bad := errors.New("no relation t")
	ds := Directives{
		"echo":  echo,
		"error": Fails(echo),
		"run":   func(*testing.T, *Case) (string, error) { return "ignored", bad },
	}
	_, err := ds.output(t, &Case{Pos: "x.txt:3", Cmd: "evnets"})
	if err == nil || err.Error() != `x.txt:3: unknown directive "evnets" (known: echo, error, run)` {
		t.Errorf("unknown directive: %v", err)
	}
	out, err := ds.output(t, &Case{Pos: "x.txt:9", Cmd: "run"})
	if !errors.Is(err, bad) || err.Error() != "x.txt:9: no relation t" || out != "" {
		t.Errorf("a handler's error: %q, %v", out, err)
	}
	out, err = ds.output(t, &Case{Pos: "x.txt:12", Cmd: "echo", Input: "hi"})
	if err != nil || out != "hi\n" {
		t.Errorf("echo: %q, %v", out, err)
	}
}

// Fails: the handler's error is the output; no error fails the case.
func TestFails(t *testing.T) {
	out, err := Fails(func(*testing.T, *Case) (string, error) {
		return "", errors.New(`line 2: unknown command "frob"`)
	})(t, &Case{})
	if err != nil || out != "line 2: unknown command \"frob\"\n" {
		t.Errorf("a failing handler: %q, %v", out, err)
	}
	out, err = Fails(echo)(t, &Case{Input: "ran"})
	if err == nil || out != "" {
		t.Errorf("a handler that ran: %q, %v; want an error", out, err)
	}
}

// Scripted: events and picture print a successful run with the events
// or without, error prints the run's error; a run's error fails events,
// out's error fails the case, and a run that succeeds fails error.
func TestScripted(t *testing.T) {
	run := func(t *testing.T, d *Case) (string, error) {
		if strings.HasPrefix(d.Input, "bad") {
			return "", errors.New("line 1: " + d.Input)
		}
		return d.Input, nil
	}
	out := func(r string, events bool) (string, error) {
		if r == "pinned" {
			return "", errors.New("a pin left")
		}
		if events {
			return "events of " + r + "\n" + r + "\n", nil
		}
		return r + "\n", nil
	}
	ds := Scripted(run, out)
	if got := strings.Join(ds.names(), " "); got != "error events picture" {
		t.Fatalf("directives %q", got)
	}
	for _, c := range []struct {
		cmd, input, want, err string
	}{
		{"events", "ok", "events of ok\nok\n", ""},
		{"picture", "ok", "ok\n", ""},
		{"error", "bad cmd", "line 1: bad cmd\n", ""},
		{"events", "bad cmd", "", "x.txt:1: line 1: bad cmd"},
		{"picture", "pinned", "", "x.txt:1: a pin left"},
		{"error", "ok", "", "x.txt:1: " + errNoError.Error()},
	} {
		got, err := ds.output(t, &Case{Pos: "x.txt:1", Cmd: c.cmd, Input: c.input})
		if got != c.want || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("%s %q: %q, %v; want %q, %q", c.cmd, c.input, got, err, c.want, c.err)
		}
	}
}

// Shown: each directive runs the case once with its own show; the run's
// error is the case's, at its position.
func TestShown(t *testing.T) {
	run := func(t *testing.T, d *Case, show func([]string) string) (string, error) {
		if d.Input == "bad" {
			return "", errors.New("no log")
		}
		return "begin\n" + show(strings.Fields(d.Input)) + "end\n", nil
	}
	ds := Shown(run, map[string]func([]string) string{
		"count": func(l []string) string { return fmt.Sprintf("%d entries\n", len(l)) },
		"trace": func(l []string) string { return strings.Join(l, "\n") + "\n" },
	})
	if got := strings.Join(ds.names(), " "); got != "count trace" {
		t.Fatalf("directives %q", got)
	}
	for cmd, want := range map[string]string{"count": "begin\n2 entries\nend\n", "trace": "begin\na\nb\nend\n"} {
		if got, err := ds.output(t, &Case{Pos: "x.txt:1", Cmd: cmd, Input: "a b"}); got != want || err != nil {
			t.Errorf("%s: %q, %v; want %q", cmd, got, err, want)
		}
	}
	if _, err := ds.output(t, &Case{Pos: "x.txt:3", Cmd: "trace", Input: "bad"}); err == nil || err.Error() != "x.txt:3: no log" {
		t.Errorf("a failing run: %v", err)
	}
}

// fatalT stands in for a test whose Fatalf is recorded rather than
// ending it (fatalOf recovers it).
type fatalT struct{ testing.TB }

type fatal string

func (fatalT) Fatalf(format string, args ...any) { panic(fatal(fmt.Sprintf(format, args...))) }

// fatalOf runs f and returns the message it failed with ("" when it did
// not fail).
func fatalOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			m, ok := r.(fatal)
			if !ok {
				panic(r)
			}
			msg = string(m)
		}
	}()
	f()
	return ""
}

// argCase is a case at x.txt:5 with the given arguments.
func argCase(args ...datadriven.CmdArg) *Case {
	return &Case{Pos: "x.txt:5", Cmd: "layout", CmdArgs: args}
}

func arg(key string, vals ...string) datadriven.CmdArg {
	return datadriven.CmdArg{Key: key, Vals: vals}
}

func TestArgs(t *testing.T) {
	got := Args(argCase(arg("pane"), arg("size", "1280x720"), arg("roles", "a", "b")))
	want := map[string]string{"pane": "", "size": "1280x720", "roles": "a,b"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Args = %v, want %v", got, want)
	}
}

// Int and Float: the value given, the default when the key is absent, a
// failure at the case's position for anything else.
func TestIntAndFloat(t *testing.T) {
	ft := fatalT{t}
	d := argCase(arg("event", "446"), arg("scale", "1.45"), arg("step", "two"), arg("pane"), arg("floor", "1", "2"))
	var n int
	var f float64
	if msg := fatalOf(func() { n, f = Int(ft, d, "event", 0), Float(ft, d, "scale", 1) }); msg != "" || n != 446 || f != 1.45 {
		t.Errorf("event=446 scale=1.45: %d, %v, %q", n, f, msg)
	}
	if msg := fatalOf(func() { n, f = Int(ft, d, "id", 7), Float(ft, d, "width", 2.5) }); msg != "" || n != 7 || f != 2.5 {
		t.Errorf("absent keys: %d, %v, %q; want the defaults", n, f, msg)
	}
	for _, c := range []struct {
		name string
		call func()
		want string
	}{
		{"Int step=two", func() { Int(ft, d, "step", 0) }, `x.txt:5: step="two": want a whole number`},
		{"Int scale=1.45", func() { Int(ft, d, "scale", 0) }, `x.txt:5: scale="1.45": want a whole number`},
		{"Float step=two", func() { Float(ft, d, "step", 0) }, `x.txt:5: step="two": want a number`},
		{"Int pane (no value)", func() { Int(ft, d, "pane", 0) }, "x.txt:5: pane: want one value, found 0"},
		{"Float floor=(1, 2)", func() { Float(ft, d, "floor", 0) }, "x.txt:5: floor: want one value, found 2"},
	} {
		if msg := fatalOf(c.call); msg != c.want {
			t.Errorf("%s: failed with %q, want %q", c.name, msg, c.want)
		}
	}
}

// Size reads WxH and fails at the case's position when the key is absent
// or the value is in another form.
func TestSize(t *testing.T) {
	ft := fatalT{t}
	d := argCase(arg("size", "1280x720.5"), arg("window", "1280"), arg("rect", "axb"), arg("screen", "12x"))
	var w, h float64
	if msg := fatalOf(func() { w, h = Size(ft, d, "size") }); msg != "" || w != 1280 || h != 720.5 {
		t.Errorf("size=1280x720.5: %v x %v, %q", w, h, msg)
	}
	for key, want := range map[string]string{
		"window": `x.txt:5: window="1280": want WxH`,
		"rect":   `x.txt:5: rect="axb": want WxH`,
		"screen": `x.txt:5: screen="12x": want WxH`,
		"bounds": "x.txt:5: needs bounds=WxH",
	} {
		if msg := fatalOf(func() { Size(ft, d, key) }); msg != want {
			t.Errorf("%s: failed with %q, want %q", key, msg, want)
		}
	}
}

// ParseStream reads a read-stream case's input; a later callback line
// replaces an earlier one; every malformed line is an error.
func TestParseStream(t *testing.T) {
	in, err := ParseStream(&Case{Input: "cached 3 5..7\nblocks 0..2 9\nheapscan 40 start=7\ncached 1"})
	if err != nil || !in.HeapScan || in.N != 40 || in.Start != 7 || !in.StartGiven ||
		fmt.Sprint(in.Cached) != "[3 5 6 7 1]" {
		t.Errorf("ParseStream: %+v, %v", in, err)
	}
	in, err = ParseStream(&Case{Input: "heapscan 4\nblocks 2..3"})
	if err != nil || in.HeapScan || fmt.Sprint(Blocks[uint32](in.Blocks)) != "[2 3]" {
		t.Errorf("blocks after heapscan: %+v, %v", in, err)
	}
	for input, want := range map[string]string{
		"":                   "no heapscan or blocks line",
		"cached 1":           "no heapscan or blocks line",
		"heapscan":           "heapscan N [start=S]",
		"heapscan x":         "heapscan: ",
		"heapscan 4 from=2":  "want start=S",
		"blocks 5..2":        `block range "5..2"`,
		"blocks a":           `block "a"`,
		"prefetch 3":         `unknown input line "prefetch 3"`,
		"heapscan 4 start=x": "heapscan: ",
	} {
		if _, err := ParseStream(&Case{Input: input}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseStream(%q) = %v, want an error with %q", input, err, want)
		}
	}
}
