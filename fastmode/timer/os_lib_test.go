//go:build darwin || (linux && !android) || windows

package timer

import (
	"errors"
	"strings"
	"testing"
)

// libClock: a failed load is returned as it is, a panic while building
// (purego's missing symbol) becomes an error named after the clock.
func TestLibClockErrors(t *testing.T) {
	noLib := errors.New("no such library")
	if _, err := libClock("x", func() (uintptr, error) { return 0, noLib }, nil); err != noLib {
		t.Errorf("load failure: %v, want %v", err, noLib)
	}
	oc, err := libClock("my_clock", func() (uintptr, error) { return 1, nil }, func(uintptr) (*osClock, error) {
		panic("symbol not found")
	})
	if oc != nil || err == nil || !strings.Contains(err.Error(), "my_clock: symbol not found") {
		t.Errorf("panic while building: %v, %v", oc, err)
	}
	want := &osClock{name: "ok"}
	if oc, err := libClock("ok", func() (uintptr, error) { return 1, nil }, func(uintptr) (*osClock, error) { return want, nil }); oc != want || err != nil {
		t.Errorf("success: %v, %v", oc, err)
	}
}
