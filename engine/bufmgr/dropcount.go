package bufmgr

import "bufferlab/engine/trace"

// The drop counters: Stats' Drop* and DList* fields, kept by the helpers
// that emit the events they count, and DropResult's per-call copy.

// count fills the per-call counters from the backend's before and after.
func (r *DropResult) count(before, after Stats) {
	r.DescsTouched = after.DropDescsTouched - before.DropDescsTouched
	r.Lookups = after.DropLookups - before.DropLookups
	r.PartitionLocks = after.DropPartitionLocks - before.DropPartitionLocks
	r.ListHops = after.DropListHops - before.DropListHops
	r.Invalidated = after.DropInvalidated - before.DropInvalidated
	r.PinWaits = after.DropPinWaits - before.DropPinWaits
}

// dropCounted adds to the drop counters that belong to an event at site,
// called by the helpers that emit lock and lookup events just before they
// emit (and on their fast paths), so that Stats matches the trace after
// every event.
func (b *Backend) dropCounted(site trace.Site) {
	switch site {
	case sLookupLock, sInvalLockPart:
		b.Stats.DropPartitionLocks++
	case sLookupLookup:
		b.Stats.DropLookups++
	case sInvalRelease:
		b.Stats.DropInvalidated++
	case sDListAllocLock, sDListLock, sDListRelock, sInvalLockList:
		b.Stats.DListLocks++
	}
}
