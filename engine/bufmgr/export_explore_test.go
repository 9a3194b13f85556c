package bufmgr

// PinForTest is PinBuffer on buffer id with the default strategy.
func PinForTest(b *Backend, id int) bool { return b.pinBuffer(&b.pool.descs[id], nil) }

// UnpinForTest is UnpinBuffer on buffer id.
func UnpinForTest(b *Backend, id int) { b.unpinBuffer(&b.pool.descs[id]) }
