package viewkit

import "bufferlab/engine/trace"

// SiteCounts maps code sites to the counter of C (a view's Counters) that
// an event logged there feeds: how a view counts what the engine counts
// by where it happens (the pool's relation drops, the FSM's searches,
// extensions and finished operations) rather than by the event's kind.
// It is built once, at package initialization, and only read after.
type SiteCounts[C any] map[trace.Site]func(*C) *uint64

// Add makes the events at the sites named feed field (trace.SiteOf
// resolves each name).
func (m SiteCounts[C]) Add(field func(*C) *uint64, sites ...string) {
	for _, s := range sites {
		m[trace.SiteOf(s)] = field
	}
}

// Count adds d (1, or −1 as a wrapped uint64, or a multiple) to the
// counter e's site feeds, if there is one: one map lookup.
func (m SiteCounts[C]) Count(c *C, e trace.Event, d uint64) {
	if f, ok := m[e.Site]; ok {
		*f(c) += d
	}
}
