package slru

// Internals exported to the tests.

// HashPage is hashPage.
var HashPage = hashPage

// DynaTable is the banks+hash table, for its own tests.
type DynaTable struct{ t dynaTable }

// NewDynaTable sizes a table for nelem entries.
func NewDynaTable(nelem int) *DynaTable { return &DynaTable{newDynaTable(nelem)} }

// Find, Lookup, Insert, Delete, Len and Entries wrap the table's methods.
func (d *DynaTable) Find(p int64) int32         { return d.t.find(p) }
func (d *DynaTable) Lookup(p int64) (int, int)  { return d.t.lookup(p) }
func (d *DynaTable) Insert(p int64, slot int32) { d.t.insert(p, slot) }
func (d *DynaTable) Delete(p int64)             { d.t.delete(p) }
func (d *DynaTable) Len() int                   { return d.t.nentries }
func (d *DynaTable) Entries() [][2]int64        { return d.t.entries() }
func (d *DynaTable) Buckets() (maxBucket, high, low uint32) {
	return d.t.maxBucket, d.t.highMask, d.t.lowMask
}
