package readstream

// HeapScanSerial is the callback of a serial, forward heap scan of a
// relation of nblocks blocks starting at startBlock:
// heap_scan_stream_read_next_serial (heapam.c, PG 17.9), which gives
// heapgettup_initial_block first (rs_startblock; nothing for an empty
// relation) and then heapgettup_advance_block: the next block, wrapping
// from the last to 0, until it is back at the start. startBlock is 0
// unless synchronized scanning placed the scan elsewhere (only for a
// relation over NBuffers/4 blocks, initscan). heap_setscanlimits and
// backward scans are not modelled.
func HeapScanSerial(nblocks, startBlock BlockNumber) Callback {
	inited := false
	var block BlockNumber
	return func() BlockNumber {
		if !inited {
			inited = true
			if nblocks == 0 {
				block = InvalidBlockNumber
				return block
			}
			block = startBlock
			return block
		}
		if block == InvalidBlockNumber {
			return InvalidBlockNumber
		}
		block++
		if block >= nblocks {
			block = 0
		}
		if block == startBlock {
			block = InvalidBlockNumber
		}
		return block
	}
}

// BlockList is a callback that returns blocks in order, then
// InvalidBlockNumber (for instance ANALYZE's sampled blocks,
// block_sampling_read_stream_next in analyze.c, or any test sequence).
func BlockList(blocks []BlockNumber) Callback {
	i := 0
	return func() BlockNumber {
		if i >= len(blocks) {
			return InvalidBlockNumber
		}
		i++
		return blocks[i-1]
	}
}

// HeapSequentialScanConfig is the configuration heap_beginscan (heapam.c,
// PG 17.9) gives a sequential scan's stream over a relation of nblocks
// blocks in a pool of nBuffers: flags READ_STREAM_SEQUENTIAL, and the
// BULKREAD ring as its strategy only when the relation has more than
// NBuffers/4 blocks (initscan); otherwise no strategy. The GUCs are
// DefaultConfig's.
func HeapSequentialScanConfig(nblocks, nBuffers int) Config {
	cfg := DefaultConfig(Sequential)
	cfg.NBuffers = nBuffers
	if nblocks > nBuffers/4 {
		cfg.Strategy = RingStrategy(BulkRead, nBuffers)
	}
	return cfg
}

// Consume drives the stream as heap_fetch_next_buffer (heapam.c, PG 17.9
// and 18.4) does: release the previous buffer, then
// read_stream_next_buffer, until the stream ends or limit buffers were
// taken (limit < 0: no limit). It releases the last buffer too, and
// returns the blocks received in order. At most one consumer pin is held
// at any time, so the pool's pins are the stream's pinned_buffers plus at
// most one.
func Consume(s *ReadStream, limit int) []BlockNumber { return ConsumeEach(s, limit, nil) }

// ConsumeEach is Consume calling each (unless nil) after every buffer it
// receives, while it holds it: the time the scan spends on the page, in
// which engine/aio lets its I/O workers run.
func ConsumeEach(s *ReadStream, limit int, each func()) []BlockNumber {
	var got []BlockNumber
	cur := InvalidBuffer
	for limit < 0 || len(got) < limit {
		if cur != InvalidBuffer {
			s.bm.ReleaseBuffer(cur)
			cur = InvalidBuffer
		}
		cur = s.NextBuffer()
		if cur == InvalidBuffer {
			break
		}
		got = append(got, s.bm.BufferGetBlockNumber(cur))
		if each != nil {
			each()
		}
	}
	if cur != InvalidBuffer {
		s.bm.ReleaseBuffer(cur)
	}
	return got
}
