package pgsize

import (
	"math"
	"strings"
	"testing"
)

func TestBlocks(t *testing.T) {
	cases := []struct {
		in   string
		want int64
	}{
		{"16", 16},          // no unit: blocks
		{"0", 0},            // the callers bound the minimum
		{"8192B", 1},        // bytes
		{"8kB", 1},          // kB is 1024 bytes
		{"128kB", 16},       //
		{"1MB", 128},        //
		{"128MB", 16384},    // PostgreSQL's default shared_buffers
		{"1GB", 131072},     //
		{"1TB", 134217728},  //
		{"  64MB  ", 8192},  // spaces around
		{"64 MB", 8192},     // and between number and unit
		{"1.5", 2},          // half to even: 1.5 -> 2
		{"2.5", 2},          // 2.5 -> 2
		{"3.5", 4},          //
		{"2.4", 2},          //
		{"2.6", 3},          //
		{"12kB", 2},         // 1.5 blocks -> 2
		{"20kB", 2},         // 2.5 blocks -> 2
		{"4095B", 0},        // 0.4999 blocks
		{"4096B", 0},        // 0.5 -> 0
		{"12288B", 2},       // 1.5 -> 2
		{"0.5MB", 64},       // fractional with a unit
		{"30.1GB", 3945267}, // one rounding (PostgreSQL: 3945216, see the package comment)
		{"1.", 1},           // strconv takes a trailing dot
		{".5kB", 0},         // 0.0625 blocks
		{"2147483647", 1<<31 - 1},
	}
	for _, c := range cases {
		got, err := Blocks(c.in, math.MaxInt32)
		if err != nil || got != c.want {
			t.Errorf("Blocks(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestBlocksErrors(t *testing.T) {
	cases := []struct {
		in   string
		max  int64
		kind ErrorKind
		unit string
		msg  string // part of Error()
	}{
		{"", 100, Syntax, "", `invalid size ""`},
		{"   ", 100, Syntax, "", "invalid size"},
		{"MB", 100, Syntax, "", `invalid size "MB"`},
		{"-1", 100, Syntax, "", "invalid size"},
		{"+1", 100, Syntax, "", "invalid size"},
		{"1e3", 100, BadUnit, "e3", `invalid unit "e3"`},
		{"0x10", 100, BadUnit, "x10", "invalid unit"},
		{"1.2.3", 100, Syntax, "", "invalid size"},
		{".", 100, Syntax, "", "invalid size"},
		{"1mb", 100, BadUnit, "mb", `invalid unit "mb" in "1mb" (valid units are B, kB, MB, GB, TB)`},
		{"1KB", 100, BadUnit, "KB", "invalid unit"},
		{"1 PB", 100, BadUnit, "PB", "invalid unit"},
		{"1MB x", 100, BadUnit, "MB x", "invalid unit"},
		{"101", 100, Range, "", "more than 100 blocks"},
		{"1MB", 127, Range, "", "more than 127"},
		{"2147483648", math.MaxInt32, Range, "", "more than"},
		{strings.Repeat("9", 300) + "TB", 1 << 40, Range, "", "more than"}, // +Inf blocks
		{strings.Repeat("9", 400), 1 << 40, Syntax, "", "invalid size"},    // the number itself overflows
	}
	for _, c := range cases {
		n, err := Blocks(c.in, c.max)
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("Blocks(%q) = %d, %v; want an *Error", c.in, n, err)
			continue
		}
		if e.Kind != c.kind || e.Unit != c.unit || e.Input != c.in || !strings.Contains(e.Error(), c.msg) {
			t.Errorf("Blocks(%q) error %+v %q; want kind %d unit %q, message with %q", c.in, *e, e, c.kind, c.unit, c.msg)
		}
	}
	if n, err := Blocks("100", 100); err != nil || n != 100 {
		t.Errorf("Blocks at the maximum = %d, %v", n, err)
	}
}

func TestFormat(t *testing.T) {
	cases := []struct {
		bytes int64
		want  string
	}{
		{0, "0B"},
		{1, "1B"},
		{8192, "8kB"},
		{262144, "256kB"},
		{128 << 20, "128MB"},
		{1536 << 20, "1536MB"},
		{1 << 30, "1GB"},
		{3 << 40, "3TB"},
		{1<<40 + 1<<30, "1025GB"},
		{1000, "1000B"},
	}
	for _, c := range cases {
		if got := Format(c.bytes); got != c.want {
			t.Errorf("Format(%d) = %q, want %q", c.bytes, got, c.want)
		}
	}
	// Every whole number of blocks round-trips.
	for _, n := range []int64{1, 16, 17, 1000, 16384, 131072, 1 << 24, 1<<27 + 3} {
		if got, err := Blocks(Format(n*BlockSize), 1<<40); err != nil || got != n {
			t.Errorf("Blocks(Format(%d blocks) = %q) = %d, %v", n, Format(n*BlockSize), got, err)
		}
	}
}
