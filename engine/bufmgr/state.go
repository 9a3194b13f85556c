package bufmgr

import (
	"fmt"
	"strings"
)

// The buffer state word (BufferDesc.state), PostgreSQL 9.6–18, buf_internals.h:
//
//	bit  31        22 21   18 17                0
//	     +-----------+-------+------------------+
//	     |  flags    | usage |     refcount     |
//	     +-----------+-------+------------------+
//
// refcount (bits 0–17) counts backends holding at least one pin; usage count
// (bits 18–21) is capped at BM_MAX_USAGE_COUNT = 5 although 4 bits could hold
// 15; the ten flags sit in bits 22–31. While BM_LOCKED is set only the holder
// writes the word.
const (
	BufRefcountOne     uint32 = 1
	BufRefcountMask    uint32 = (1 << 18) - 1 // 0x3FFFF
	BufUsagecountOne   uint32 = 1 << 18       // 0x40000
	BufUsagecountMask  uint32 = 0x003C0000
	BufUsagecountShift        = 18
	BufFlagMask        uint32 = 0xFFC00000

	BmLocked           uint32 = 1 << 22 // buffer header is locked
	BmDirty            uint32 = 1 << 23 // data needs writing
	BmValid            uint32 = 1 << 24 // data is valid
	BmTagValid         uint32 = 1 << 25 // tag is assigned
	BmIOInProgress     uint32 = 1 << 26 // read or write in progress
	BmIOError          uint32 = 1 << 27 // previous I/O failed
	BmJustDirtied      uint32 = 1 << 28 // dirtied since write started
	BmPinCountWaiter   uint32 = 1 << 29 // have waiter for sole pin
	BmCheckpointNeeded uint32 = 1 << 30 // must write for checkpoint
	BmPermanent        uint32 = 1 << 31 // permanent buffer (not unlogged or init fork)

	// BmMaxUsageCount is BM_MAX_USAGE_COUNT.
	BmMaxUsageCount = 5
	// MaxBackends is MAX_BACKENDS (postmaster.h): the refcount field's capacity.
	MaxBackends = 0x3FFFF
)

// StateRefcount is BUF_STATE_GET_REFCOUNT.
func StateRefcount(s uint32) uint32 { return s & BufRefcountMask }

// StateUsagecount is BUF_STATE_GET_USAGECOUNT.
func StateUsagecount(s uint32) uint32 { return (s & BufUsagecountMask) >> BufUsagecountShift }

var flagNames = []struct {
	bit  uint32
	name string
}{
	{BmLocked, "LOCKED"}, {BmDirty, "DIRTY"}, {BmValid, "VALID"}, {BmTagValid, "TAG_VALID"},
	{BmIOInProgress, "IO_IN_PROGRESS"}, {BmIOError, "IO_ERROR"}, {BmJustDirtied, "JUST_DIRTIED"},
	{BmPinCountWaiter, "PIN_COUNT_WAITER"}, {BmCheckpointNeeded, "CHECKPOINT_NEEDED"},
	{BmPermanent, "PERMANENT"},
}

// FlagNames lists the flags set in s, lowest bit first, without the BM_ prefix.
func FlagNames(s uint32) []string {
	var out []string
	for _, f := range flagNames {
		if s&f.bit != 0 {
			out = append(out, f.name)
		}
	}
	return out
}

// ParseFlag returns the bit of a flag name, with or without the BM_ prefix.
func ParseFlag(name string) (uint32, bool) {
	name = strings.TrimPrefix(strings.ToUpper(name), "BM_")
	for _, f := range flagNames {
		if f.name == name {
			return f.bit, true
		}
	}
	return 0, false
}

// StateString decodes a state word: "rc=1 usage=2 VALID|TAG_VALID".
func StateString(s uint32) string {
	fl := strings.Join(FlagNames(s), "|")
	if fl == "" {
		fl = "-"
	}
	return fmt.Sprintf("rc=%d usage=%d %s", StateRefcount(s), StateUsagecount(s), fl)
}
