package exptest

import (
	"testing"

	"bufferlab/engine/bufmgr"
)

// Sizes are the sizes the benchmarks run at, as bench pool and limits
// (128MB, 1GB, 20GB; -short: 128MB, 1GB). The twins are run with
//
//	go test -run - -bench . ./fastmode/exp/...
func Sizes() []string {
	if testing.Short() {
		return []string{"128MB", "1GB"}
	}
	return []string{"128MB", "1GB", "20GB"}
}

// NBuffers converts a shared_buffers size to buffers, failing b on a bad
// one.
func NBuffers(b *testing.B, size string) int {
	n, err := bufmgr.ParseSharedBuffers(size)
	if err != nil {
		b.Fatal(err)
	}
	return n
}
