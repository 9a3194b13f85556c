//go:build !bufferlab_nohooks

package bufmgr

// hooks is true in every normal build: events are appended when the pool has
// a log, and backends yield when they have a scheduler. The build tag
// bufferlab_nohooks compiles both out, to measure what the nil checks cost
// (see README, "What the hooks cost").
const hooks = true
