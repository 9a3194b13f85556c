package linediff

import (
	"fmt"
	"testing"
)

func TestDiffering(t *testing.T) {
	var got []string
	for n, d := range Differing("a\nb\nc", "a\nB\nc\nd") {
		got = append(got, fmt.Sprintf("%d:%q/%q", n, d[0], d[1]))
	}
	want := []string{`2:"b"/"B"`, `4:""/"d"`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for range Differing("same\ntext", "same\ntext") {
		t.Fatal("equal texts yielded a difference")
	}
	for n := range Differing("x\ny", "1\n2") {
		if n != 1 {
			t.Fatalf("stopping after the first: yielded line %d", n)
		}
		break
	}
}
