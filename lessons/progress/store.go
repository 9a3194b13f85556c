package progress

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Store keeps one Progress between runs.
type Store interface {
	// Load returns the stored progress: New() when nothing is stored
	// yet. On an error (a file that is not progress, a store that cannot
	// be read) it returns nil and an error that names where it looked.
	Load() (*Progress, error)
	// Save stores p in place of what was stored.
	Save(p *Progress) error
	// Reset forgets everything stored.
	Reset() error
}

// DefaultPath is where the desktop app keeps progress:
// os.UserConfigDir()/bufferlab/progress.json ($XDG_CONFIG_HOME or
// ~/.config on Linux).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration directory to keep progress in: %w", err)
	}
	return filepath.Join(dir, "bufferlab", "progress.json"), nil
}

// FileStore keeps progress in the file Path.
type FileStore struct {
	Path string
	// write writes data to the temporary file (f.Write; a test replaces
	// it to fail half-way).
	write func(f *os.File, data []byte) error
}

// NewFileStore returns a store keeping progress in path.
func NewFileStore(path string) *FileStore { return &FileStore{Path: path} }

// Load reads the file: New() when it does not exist. A file that is not
// progress (Decode's errors) is renamed to Path+".corrupt", so that the
// next Save does not destroy what may be a hand-edited file or a newer
// BufferLab's, and the error says where it went.
func (s *FileStore) Load() (*Progress, error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return New(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading progress: %w", err)
	}
	p, err := Decode(s.Path, data)
	if err != nil {
		aside := s.Path + ".corrupt"
		if rerr := os.Rename(s.Path, aside); rerr != nil {
			return nil, fmt.Errorf("%w (and it could not be moved aside: %v)", err, rerr)
		}
		return nil, fmt.Errorf("%w; the file was moved to %s and progress starts afresh", err, aside)
	}
	return p, nil
}

// Save writes p to a temporary file in Path's directory (created 0700),
// syncs it and renames it over Path: the old file stays whole until the
// new one is complete.
func (s *FileStore) Save(p *Progress) (err error) {
	data, err := Encode(p)
	if err != nil {
		return fmt.Errorf("saving progress to %s: %w", s.Path, err)
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("saving progress: %w", err)
	}
	f, err := os.CreateTemp(dir, ".progress-*.tmp")
	if err != nil {
		return fmt.Errorf("saving progress to %s: %w", s.Path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("saving progress to %s: %w", s.Path, err)
		}
	}()
	write := s.write
	if write == nil {
		write = func(f *os.File, data []byte) error { _, err := f.Write(data); return err }
	}
	if err := write(f, data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, s.Path)
}

// Reset removes the file (nothing to do when there is none).
func (s *FileStore) Reset() error {
	if err := os.Remove(s.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("resetting progress: %w", err)
	}
	return nil
}

// MemoryStore keeps progress for the life of the process, encoded as a
// file store would keep it (so a save and a load round-trip through the
// same format). Its zero value is empty and ready to use.
type MemoryStore struct {
	mu   sync.Mutex
	data []byte
}

// NewMemoryStore returns an empty memory store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{} }

// Load decodes what was saved (New() when nothing was).
func (s *MemoryStore) Load() (*Progress, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.data == nil {
		return New(), nil
	}
	return Decode("progress in memory", s.data)
}

// Save keeps p, encoded.
func (s *MemoryStore) Save(p *Progress) error {
	data, err := Encode(p)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data = data
	return nil
}

// Reset forgets what was saved.
func (s *MemoryStore) Reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data = nil
	return nil
}
