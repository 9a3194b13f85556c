package precompress

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/andybalholm/brotli"

	"bufferlab/internal/atomicfile"
)

// An Encoding is a content coding the server offers.
type Encoding struct {
	Name string // the Content-Encoding token: "br", "gzip"
	Ext  string // the suffix of the precompressed file: ".br", ".gz"
}

// Encodings are the codings, in the order the server prefers them.
var Encodings = []Encoding{{"br", ".br"}, {"gzip", ".gz"}}

// BrotliLevel and BrotliWindow are the brotli settings of the copies
// `make wasm` writes (WriteFiles): quality 11, the best, with a window of
// 2^24 bytes (16 MB), the largest that standard brotli (RFC 7932) allows.
// Browsers decode only standard brotli for Content-Encoding: br, so
// brotli's large-window mode is not an option. For the wasm this is 13%
// smaller than level 9 (4.02 MB instead of 4.62 MB) and takes about 80 s
// of CPU instead of 6 (docs/wasm-size.md); it is done once per build of
// the wasm, and never by the server.
const (
	BrotliLevel  = 11
	BrotliWindow = 24
)

// ServeBrotliLevel is the brotli quality of CompressQuick: what `bufferlab
// serve` uses when it must compress a file itself, at start-up.
const ServeBrotliLevel = 9

// Compress returns raw compressed with enc as `make wasm` does it
// (BrotliLevel, BrotliWindow; gzip's best compression): about 100 s for
// the wasm's 24 MB with brotli.
func Compress(enc Encoding, raw []byte) []byte {
	return compress(enc, raw, brotli.WriterOptions{Quality: BrotliLevel, LGWin: BrotliWindow})
}

// CompressQuick returns raw compressed with enc at ServeBrotliLevel (and
// gzip's best compression): 10–30 s for the wasm with brotli, for a
// server that has no precompressed copy.
func CompressQuick(enc Encoding, raw []byte) []byte {
	return compress(enc, raw, brotli.WriterOptions{Quality: ServeBrotliLevel})
}

func compress(enc Encoding, raw []byte, br brotli.WriterOptions) []byte {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch enc.Name {
	case "br":
		w = brotli.NewWriterOptions(&buf, br)
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
	fmt.Fprintf(log, "compressing %s (%s) with brotli level %d (window 2^%d) and gzip%s\n", path, MB(len(raw)), BrotliLevel, BrotliWindow, slowNote(len(raw)))
	start := time.Now()
	// The codings in parallel: brotli takes most of the time, gzip is
	// done in its shadow on a second core.
	out := make([][]byte, len(Encodings))
	var wg sync.WaitGroup
	for i, enc := range Encodings {
		wg.Go(func() { out[i] = Compress(enc, raw) })
	}
	wg.Wait()
	var sizes []any
	for i, enc := range Encodings {
		if err := atomicfile.Write(path+enc.Ext, out[i]); err != nil {
			return err
		}
		sizes = append(sizes, path+enc.Ext, MB(len(out[i])))
	}
	fmt.Fprintf(log, "wrote %s (%s) and %s (%s) in %.1f s\n", append(sizes, time.Since(start).Seconds())...)
	return nil
}

// slowNote says how long compressing n bytes takes, when it is long
// enough to be worth saying: about 4 s of CPU per MB at brotli level 11
// on this project's machine.
func slowNote(n int) string {
	if n < 1<<20 {
		return ""
	}
	return fmt.Sprintf(": about %d s on an idle machine (more on a busy one), once per change of the file", 4*n/1e6)
}

// MB formats a size in bytes as megabytes with one decimal, or as kB
// below 100 kB.
func MB(n int) string {
	if n < 100_000 {
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}
