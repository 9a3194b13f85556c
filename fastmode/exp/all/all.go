package all

import (
	// Each experiment registers itself in its init.
	_ "bufferlab/fastmode/exp/drop"
	_ "bufferlab/fastmode/exp/fsm"
	_ "bufferlab/fastmode/exp/limits"
	_ "bufferlab/fastmode/exp/pin"
	_ "bufferlab/fastmode/exp/pool"
	_ "bufferlab/fastmode/exp/scan"
	_ "bufferlab/fastmode/exp/slru"
)
