//go:build !js

package spillfile

import (
	"os"

	"bufferlab/engine/trace"
)

// file is an unlinked temporary file; name is set only while the file
// still has one (the unlink was refused).
type file struct {
	*os.File
	name string
}

// Open makes a spill file in dir ("": the system's temporary directory).
func Open(dir string) (trace.SpillFile, error) {
	f, err := os.CreateTemp(dir, "bufferlab-events-*")
	if err != nil {
		return nil, err
	}
	sf := &file{File: f}
	if os.Remove(f.Name()) != nil {
		sf.name = f.Name()
	}
	return sf, nil
}

// Close closes the file and removes it if it still has a name.
func (f *file) Close() error {
	err := f.File.Close()
	if f.name != "" {
		os.Remove(f.name)
	}
	return err
}
