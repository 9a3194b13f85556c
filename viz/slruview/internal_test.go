package slruview

import (
	"reflect"
	"testing"
)

// Equal and Fingerprint encode every field of Lookup and Counters by hand:
// a new field must be added there too.
func TestEncodingsCoverEveryField(t *testing.T) {
	var words int
	lookupWords(Lookup{}, func(uint64) { words++ })
	// One word per field, Candidates as its length.
	if n := reflect.TypeOf(Lookup{}).NumField(); words != n {
		t.Errorf("lookupWords writes %d words for Lookup's %d fields", words, n)
	}
	if n := reflect.TypeOf(Counters{}).NumField(); len(Counters{}.fields()) != n {
		t.Errorf("Counters.fields lists %d of %d fields", len(Counters{}.fields()), n)
	}
}
