package progress

import "os"

// SetWrite replaces how s writes the temporary file's content (tests make
// it fail half-way).
func (s *FileStore) SetWrite(f func(f *os.File, data []byte) error) { s.write = f }
