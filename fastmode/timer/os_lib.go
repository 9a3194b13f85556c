//go:build darwin || (linux && !android) || windows

package timer

import "fmt"

// libClock is how each platform with a raw clock in a system library
// builds its osClock through purego: load the library, then build the
// clock from it (register the functions, check one call). A panic in
// purego, which is how it reports a symbol it cannot find, becomes an
// error named after what, like any other failure. It runs once per
// process (Best caches the clock).
func libClock(what string, load func() (uintptr, error), build func(lib uintptr) (*osClock, error)) (oc *osClock, err error) {
	defer func() {
		if r := recover(); r != nil {
			oc, err = nil, fmt.Errorf("%s: %v", what, r)
		}
	}()
	lib, err := load()
	if err != nil {
		return nil, err
	}
	return build(lib)
}
