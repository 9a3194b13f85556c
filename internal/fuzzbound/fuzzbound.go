package fuzzbound

const (
	// MaxBuffers is the largest pool run: 128MB, the pool of the SLRU and
	// FSM lessons. Building it and printing it stay in milliseconds.
	MaxBuffers = 16384
	// MaxClogPages bounds clog_pages (pg_xact pages formatted at the
	// start: about 8kB each).
	MaxClogPages = 1024
	// MaxShown bounds the buffers printed: show statements × NBuffers.
	MaxShown = 1 << 20
)

// Skip says why an input with a pool of nbuffers buffers, clogPages pages
// of pg_xact and shows show statements is beyond the bounds, or "" when
// it is within them.
func Skip(nbuffers, clogPages, shows int) string {
	switch {
	case nbuffers > MaxBuffers:
		return "pool larger than 128MB"
	case clogPages > MaxClogPages:
		return "too many clog_pages"
	case shows*nbuffers > MaxShown:
		return "too many buffers shown"
	}
	return ""
}
