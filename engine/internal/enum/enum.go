package enum

import "fmt"

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
