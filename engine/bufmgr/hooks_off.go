//go:build bufferlab_nohooks

package bufmgr

// hooks is false under the bufferlab_nohooks build tag, which exists only to
// measure the cost of the trace and scheduler hooks against code without them.
const hooks = false
