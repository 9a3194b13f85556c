package scene

import (
	"reflect"
	"testing"
)

// Code wraps at the last space in the second half of the line; without
// one, after punctuation there; else (one long name) at the limit; no
// part is longer than the limit.
func TestWrapCode(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want []string
	}{
		{"if buf == nil", 20, []string{"if buf == nil"}},
		{"if !BufferIsValid(buffer): elog(ERROR)", 20, []string{"if !BufferIsValid(", "buffer): elog(ERROR)"}},
		{"state = pg_atomic_read_u32(&buf->state)", 16, []string{"state = pg_atomi", "c_read_u32(&", "buf->state)"}},
		{"abcdefghijklmnopqrstuvwxyz", 10, []string{"abcdefghij", "klmnopqrst", "uvwxyz"}},
		{"x = foo(a, b) + bar(c)", 16, []string{"x = foo(a, b) +", "bar(c)"}},
		{"a b c d e f", 5, []string{"a b c", "d e f"}},
	} {
		got := wrapCode(c.s, c.n)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("wrapCode(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
		for _, p := range got {
			if len([]rune(p)) > c.n {
				t.Errorf("wrapCode(%q, %d): part %q is longer than %d", c.s, c.n, p, c.n)
			}
		}
	}
}

func TestTitleForms(t *testing.T) {
	for _, c := range []struct {
		title string
		want  []string
	}{
		{"Lesson", []string{"Lesson"}},
		{"Mapping table: 128 partitions", []string{"Mapping table: 128 partitions", "Mapping table"}},
		{"FSM block 0 of t: a max-tree · the path lit", []string{"FSM block 0 of t: a max-tree · the path lit", "FSM block 0 of t: a max-tree", "FSM block 0 of t"}},
		{"a · b · c", []string{"a · b · c", "a · b", "a"}},
	} {
		if got := TitleForms(c.title); !reflect.DeepEqual(got, c.want) {
			t.Errorf("TitleForms(%q) = %q, want %q", c.title, got, c.want)
		}
	}
}
