// Package all links every fast-mode experiment into a program: importing
// it (for its side effects) registers limits, pool, pin, drop, slru and
// fsm with package exp, where exp.Lookup and exp.Names find them.
package all

import (
	// Each experiment registers itself in its init.
	_ "bufferlab/fastmode/exp/drop"
	_ "bufferlab/fastmode/exp/fsm"
	_ "bufferlab/fastmode/exp/limits"
	_ "bufferlab/fastmode/exp/pin"
	_ "bufferlab/fastmode/exp/pool"
	_ "bufferlab/fastmode/exp/slru"
)
