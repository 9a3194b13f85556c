package pgsize

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// BlockSize is BLCKSZ, PostgreSQL's default page size.
const BlockSize = 8192

// ErrorKind says what is wrong with a size.
type ErrorKind uint8

// Error kinds.
const (
	// Syntax: no number where one was expected, or a malformed one.
	Syntax ErrorKind = iota + 1
	// BadUnit: a unit that is not B, kB, MB, GB or TB.
	BadUnit
	// Range: more blocks than the caller's maximum.
	Range
)

// Error is a size that does not parse or is too large. Callers turn it
// into their own message (the setting's name, its limits).
type Error struct {
	Kind  ErrorKind
	Input string // the setting as given
	Unit  string // the unknown unit (BadUnit)
	Max   int64  // the caller's maximum (Range)
}

func (e *Error) Error() string {
	switch e.Kind {
	case BadUnit:
		return fmt.Sprintf("invalid unit %q in %q (valid units are %s)", e.Unit, e.Input, Units)
	case Range:
		return fmt.Sprintf("size %q is more than %d blocks", e.Input, e.Max)
	}
	return fmt.Sprintf("invalid size %q: want a number of 8kB blocks or a size such as 256kB", e.Input)
}

// Units lists the accepted units, for messages.
const Units = "B, kB, MB, GB, TB"

// units are the memory units of guc.c's memory_unit_conversion_table, in
// bytes.
var units = []struct {
	name  string
	bytes float64
}{{"B", 1}, {"kB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"TB", 1 << 40}}

// Blocks parses s (see the package comment) and returns its size in
// blocks, rounded to the nearest block, half to even (rint). A size over
// max blocks, however large, is a Range error; every error is an *Error.
func Blocks(s string, max int64) (int64, error) {
	in := strings.TrimSpace(s)
	end := 0
	for end < len(in) && (in[end] >= '0' && in[end] <= '9' || in[end] == '.') {
		end++
	}
	num, unit := in[:end], strings.TrimSpace(in[end:])
	v, err := strconv.ParseFloat(num, 64)
	if num == "" || err != nil || v < 0 {
		return 0, &Error{Kind: Syntax, Input: s}
	}
	mult := -1.0
	if unit == "" {
		mult = BlockSize
	}
	for _, u := range units {
		if u.name == unit {
			mult = u.bytes
		}
	}
	if mult < 0 {
		return 0, &Error{Kind: BadUnit, Input: s, Unit: unit}
	}
	blocks := math.RoundToEven(v * mult / BlockSize)
	if math.IsInf(blocks, 0) || blocks > float64(max) {
		return 0, &Error{Kind: Range, Input: s, Max: max}
	}
	return int64(blocks), nil
}

// Format prints a byte count the way SHOW prints a memory setting: in the
// largest unit that divides it (262144 → "256kB"), in bytes otherwise;
// 0 is "0B".
func Format(bytes int64) string {
	for i := len(units) - 1; i >= 1; i-- {
		n := int64(units[i].bytes)
		if bytes != 0 && bytes%n == 0 {
			return fmt.Sprintf("%d%s", bytes/n, units[i].name)
		}
	}
	return fmt.Sprintf("%dB", bytes)
}
