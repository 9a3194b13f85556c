package enum

import (
	"fmt"
	"strings"
)

// Value is the underlying type of an enumeration.
type Value interface {
	~uint8 | ~int32 | ~uint64
}

// Name returns names[v], or kind(v) when v is negative, past the table,
// or has the empty name (a value the table leaves unnamed).
func Name[T Value](names []string, v T, kind string) string {
	if i := int64(v); i >= 0 && i < int64(len(names)) && names[i] != "" {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", kind, int64(v))
}

// Parse returns the value named s; the empty name matches nothing.
func Parse[T Value](names []string, s string) (T, bool) {
	for i, n := range names {
		if n != "" && n == s {
			return T(i), true
		}
	}
	return 0, false
}

// Bits names the set bits of v from names, where names[i] names bit i,
// joined by "|" in bit order (as PostgreSQL writes flag sets); none is
// what an empty set reads. A set bit without a name is written as its
// value in hex.
func Bits[T Value](names []string, v T, none string) string {
	if v == 0 {
		return none
	}
	var parts []string
	for i := 0; i < 64 && uint64(v)>>i != 0; i++ {
		if uint64(v)&(1<<i) == 0 {
			continue
		}
		if i < len(names) && names[i] != "" {
			parts = append(parts, names[i])
		} else {
			parts = append(parts, fmt.Sprintf("0x%x", uint64(1)<<i))
		}
	}
	return strings.Join(parts, "|")
}
