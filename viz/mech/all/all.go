package all

import (
	_ "bufferlab/viz/iostat"
	_ "bufferlab/viz/mech/fsmmech"
	_ "bufferlab/viz/mech/poolmech"
	_ "bufferlab/viz/mech/slrumech"
)
