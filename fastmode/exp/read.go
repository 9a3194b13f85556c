package exp

import "bufferlab/engine/bufmgr"

// ReadRelease reads block blk of rel's main fork and releases it: the
// ReadBuffer + ReleaseBuffer that every experiment's read is (a hit or a
// miss, which it reports). A timed loop that calls it pays one function
// call more per read than the two calls alone (about a nanosecond), the
// same in every series that loop's figures are compared with.
func ReadRelease(be *bufmgr.Backend, rel *bufmgr.Relation, blk uint32) (buf bufmgr.Buffer, hit bool, err error) {
	buf, hit, err = be.ReadBuffer(rel, bufmgr.MainForkNum, blk, nil)
	if err != nil {
		return buf, false, err
	}
	return buf, hit, be.ReleaseBuffer(buf)
}
