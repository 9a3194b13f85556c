package counters

import (
	"fmt"
	"reflect"
)

// Add adds every counter of src to dst's.
func Add[T any](dst *T, src T) { walk(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src), false) }

// Sub subtracts every counter of src from dst's.
func Sub[T any](dst *T, src T) { walk(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src), true) }

func walk(d, s reflect.Value, sub bool) {
	switch d.Kind() {
	case reflect.Uint64:
		if sub {
			d.SetUint(d.Uint() - s.Uint())
		} else {
			d.SetUint(d.Uint() + s.Uint())
		}
	case reflect.Array:
		for i := range d.Len() {
			walk(d.Index(i), s.Index(i), sub)
		}
	case reflect.Struct:
		for i := range d.NumField() {
			walk(d.Field(i), s.Field(i), sub)
		}
	default:
		panic(fmt.Sprintf("counters: %s is not a counter (uint64, or an array or struct of them)", d.Type()))
	}
}
