//go:build js

package spillfile

import (
	"errors"

	"bufferlab/engine/trace"
)

// Open fails in the browser, which has no files: a log there keeps its
// chunks in memory (trace.Log.SpillErr says why).
func Open(dir string) (trace.SpillFile, error) {
	return nil, errors.New("a browser tab has no files to spill to")
}
