package fsmview

import (
	"reflect"
	"testing"
)

// Diff and Fingerprint encode every field of Search and Counters by hand:
// a new field must be added there too.
func TestEncodingsCoverEveryField(t *testing.T) {
	var words int
	searchWords(Search{}, func(uint64) { words++ })
	// One word per field (a list as its length), Reads packed in one.
	if n := reflect.TypeOf(Search{}).NumField(); words != n {
		t.Errorf("searchWords writes %d words for Search's %d fields", words, n)
	}
	if n := reflect.TypeOf(Counters{}).NumField(); len(Counters{}.fields()) != n {
		t.Errorf("Counters.fields lists %d of %d fields", len(Counters{}.fields()), n)
	}
}
