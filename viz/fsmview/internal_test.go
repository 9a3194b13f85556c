package fsmview

import (
	"testing"

	"bufferlab/viz/viewkit/viewtest"
)

// Diff and Fingerprint encode every field of Search and Counters by hand:
// a new field must be added there too. (One word per field, a list as its
// length, Reads packed in one.)
func TestEncodingsCoverEveryField(t *testing.T) {
	viewtest.EncodesEveryField(t, searchWords, Counters.fields)
}
