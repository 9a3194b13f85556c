package aio

import "bufferlab/engine/readstream"

// HeapScanSerial is heap_scan_stream_read_next_serial (heapam.c), the
// same in 18 as in 17: engine/readstream's.
func HeapScanSerial(nblocks, startBlock BlockNumber) Callback {
	return readstream.HeapScanSerial(nblocks, startBlock)
}

// BlockList returns blocks in order, then InvalidBlockNumber.
func BlockList(blocks []BlockNumber) Callback {
	return readstream.BlockList(blocks)
}

// HeapSequentialScanConfig is what heap_beginscan (heapam.c, PG 18.4)
// gives a sequential scan's stream over nblocks blocks: flags
// READ_STREAM_SEQUENTIAL | READ_STREAM_USE_BATCHING (the batching flag is
// new in 18), and GetAccessStrategy(BAS_BULKREAD) only above NBuffers/4
// blocks (initscan); otherwise no strategy.
func HeapSequentialScanConfig(cfg Config, nblocks int) Config {
	cfg.Flags = readstream.Sequential | readstream.UseBatching
	cfg.Strategy = Strategy{}
	if nblocks > cfg.NBuffers/4 {
		cfg.Strategy = GetAccessStrategy(BulkRead, cfg.NBuffers, cfg.MaxBackends, cfg.IOCombineLimit(), cfg.EffectiveIOConcurrency)
	}
	return cfg
}

// Consume drives the stream as heap_fetch_next_buffer does (release the
// previous buffer, then read_stream_next_buffer), letting the system's
// scheduler take bg steps after each buffer (the workers or the kernel
// running while the backend processes the page), until the stream ends or
// limit buffers were taken (limit < 0: no limit). It returns the blocks
// in the order received.
func Consume(s *ReadStream, limit, bg int) []BlockNumber {
	be := s.BufferManager().(streamBackend).be
	return readstream.ConsumeEach(s, limit, func() { be.Background(bg) })
}
