package precompress

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/andybalholm/brotli"
)

// An Encoding is a content coding the server offers.
type Encoding struct {
	Name string // the Content-Encoding token: "br", "gzip"
	Ext  string // the suffix of the precompressed file: ".br", ".gz"
}

// Encodings are the codings, in the order the server prefers them.
var Encodings = []Encoding{{"br", ".br"}, {"gzip", ".gz"}}

// BrotliLevel is the brotli quality used: about 20% smaller than gzip for
// the WebAssembly, in 10–30 s (level 11 takes minutes).
const BrotliLevel = 9

// Compress returns raw compressed with enc.
func Compress(enc Encoding, raw []byte) []byte {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch enc.Name {
	case "br":
		w = brotli.NewWriterLevel(&buf, BrotliLevel)
	case "gzip":
		w, _ = gzip.NewWriterLevel(&buf, gzip.BestCompression)
	default:
		panic("precompress: unknown encoding " + enc.Name)
	}
	w.Write(raw) // writes to a bytes.Buffer do not fail
	w.Close()
	return buf.Bytes()
}

// Matches reports whether compressed is a valid enc stream that
// decompresses to exactly raw. It decompresses in chunks and stops at the
// first difference.
func Matches(enc Encoding, compressed, raw []byte) bool {
	var r io.Reader
	switch enc.Name {
	case "br":
		r = brotli.NewReader(bytes.NewReader(compressed))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(compressed))
		if err != nil {
			return false
		}
		r = zr
	default:
		return false
	}
	buf := make([]byte, 256<<10)
	off := 0
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if off+n > len(raw) || !bytes.Equal(buf[:n], raw[off:off+n]) {
				return false
			}
			off += n
		}
		if err == io.EOF {
			return off == len(raw)
		}
		if err != nil {
			return false
		}
	}
}

// UpToDate reports whether path's precompressed copies all exist and
// decompress to path's contents.
func UpToDate(path string, raw []byte) bool {
	for _, enc := range Encodings {
		c, err := os.ReadFile(path + enc.Ext)
		if err != nil || !Matches(enc, c, raw) {
			return false
		}
	}
	return true
}

// WriteFiles writes path.br and path.gz, each through a temporary file
// renamed into place, unless both are already up to date. It says what
// it does on log.
func WriteFiles(path string, log io.Writer) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if UpToDate(path, raw) {
		fmt.Fprintf(log, "%s.br and %s.gz are up to date\n", path, path)
		return nil
	}
	fmt.Fprintf(log, "compressing %s (%s) with brotli level %d and gzip: 10–30 s for the WebAssembly\n", path, MB(len(raw)), BrotliLevel)
	start := time.Now()
	var sizes []any
	for _, enc := range Encodings {
		c := Compress(enc, raw)
		if err := writeAtomic(path+enc.Ext, c); err != nil {
			return err
		}
		sizes = append(sizes, path+enc.Ext, MB(len(c)))
	}
	fmt.Fprintf(log, "wrote %s (%s) and %s (%s) in %.1f s\n", append(sizes, time.Since(start).Seconds())...)
	return nil
}

func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// MB formats a size in bytes as megabytes with one decimal, or as kB
// below 100 kB.
func MB(n int) string {
	if n < 100_000 {
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
