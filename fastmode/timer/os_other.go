//go:build !(linux && !android) && !darwin && !windows && !(js && wasm)

package timer

import "errors"

func platformClock() (*osClock, error) {
	return nil, errors.New("no OS raw clock for this platform")
}
