package poolview

import (
	"reflect"
	"testing"
)

// Fingerprint hashes Counters.fields: it must list every counter.
func TestCounterFields(t *testing.T) {
	var c Counters
	v := reflect.ValueOf(&c).Elem()
	if n := v.NumField(); n != len(c.fields()) {
		t.Fatalf("Counters has %d fields, fields() lists %d", n, len(c.fields()))
	}
	for i := 0; i < v.NumField(); i++ {
		v.Field(i).SetUint(uint64(i + 1))
	}
	seen := map[uint64]bool{}
	for _, f := range c.fields() {
		seen[f] = true
	}
	if len(seen) != v.NumField() {
		t.Fatalf("fields() repeats a counter or misses one: %v", c.fields())
	}
}
