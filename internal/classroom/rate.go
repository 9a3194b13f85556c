package classroom

import "time"

// FloodGap is the longest pause between two dropped messages that still
// counts as one flood (see bucket.take).
const FloodGap = time.Second

// bucket is one connection's rate limit: a token bucket of burst tokens
// refilled at rate a second, and the flood it may be in. A flood starts
// with a dropped message and goes on while messages are dropped less
// than FloodGap apart; a connection flooding for patience is closed. It
// reads no clock: the caller passes now.
type bucket struct {
	rate, burst, tokens  float64
	patience             time.Duration
	last                 time.Time // when tokens was computed
	floodStart, lastDrop time.Time // zero: not flooding
}

func newBucket(rate float64, burst int, patience time.Duration, now time.Time) *bucket {
	return &bucket{rate: rate, burst: float64(burst), tokens: float64(burst), patience: patience, last: now}
}

// take spends a token for a message arriving at now. ok: the message
// goes on. warn: it is dropped and starts a flood (the sender gets one
// error). kill: it is dropped and the connection has flooded for
// patience or longer (close it).
func (b *bucket) take(now time.Time) (ok, warn, kill bool) {
	if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = min(b.burst, b.tokens+dt*b.rate)
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, false, false
	}
	if b.floodStart.IsZero() || now.Sub(b.lastDrop) > FloodGap {
		b.floodStart, warn = now, true
	}
	b.lastDrop = now
	return false, warn, now.Sub(b.floodStart) >= b.patience
}
