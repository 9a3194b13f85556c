package slruview

import (
	"testing"

	"bufferlab/viz/viewkit/viewtest"
)

// Equal and Fingerprint encode every field of Lookup and Counters by hand:
// a new field must be added there too. (One word per field, Candidates
// as its length.)
func TestEncodingsCoverEveryField(t *testing.T) {
	viewtest.EncodesEveryField(t, lookupWords, Counters.fields)
}
