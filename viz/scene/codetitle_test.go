package scene

import (
	"strings"
	"testing"

	"bufferlab/engine/trace"
)

// Every modelled function's code-panel title states its versions once: the
// name without the " (PG N)" that keeps names unique, and the versions
// without their notes ("BufferAlloc (PG 16–18)", not "BufferAlloc (PG 16)
// (PG 16–18)").
func TestCodeTitleForms(t *testing.T) {
	suffixed := 0
	for _, f := range trace.Funcs() {
		base, short := f.BaseName(), f.ShortVersion()
		if base != f.Name {
			suffixed++
		}
		if strings.Contains(base, "(PG") || strings.Contains(base, "(9") || base == "" {
			t.Errorf("%q: base name %q", f.Name, base)
		}
		released := strings.HasPrefix(f.Version, "PG ")
		if released && (strings.ContainsAny(short, "(:") || !strings.HasPrefix(f.Version, short)) || !released && short != f.Version {
			t.Errorf("%q: version %q shortened to %q", f.Name, f.Version, short)
		}
	}
	if suffixed == 0 {
		t.Fatal("no function name carries a version suffix: the engines' sites were not linked")
	}
	for _, c := range []struct{ name, version, base, short string }{
		{"BufferAlloc (PG 16)", "PG 16–18", "BufferAlloc", "PG 16–18"},
		{"IoWorkerMain (PG 18)", "PG 18 (pg=18, io_method=worker)", "IoWorkerMain", "PG 18"},
		{"ExtendCLOG (PG 16)", "PG 13–16: XactSLRULock (slru=single)", "ExtendCLOG", "PG 13–16"},
		{"ReleaseBuffer", "PG 15", "ReleaseBuffer", "PG 15"},
		{"PinBuffer (9.5)", "PG 9.5's locking, drawn on the 9.6 word", "PinBuffer", "PG 9.5's locking, drawn on the 9.6 word"},
		{"DropRelFileNodeBuffers (dlist)", "dlist patch (2019–20), reconstructed", "DropRelFileNodeBuffers (dlist)", "dlist patch (2019–20), reconstructed"},
	} {
		f := trace.Func{Name: c.name, Version: c.version}
		if f.BaseName() != c.base || f.ShortVersion() != c.short {
			t.Errorf("%q, %q: %q and %q, want %q and %q", c.name, c.version, f.BaseName(), f.ShortVersion(), c.base, c.short)
		}
	}
}
