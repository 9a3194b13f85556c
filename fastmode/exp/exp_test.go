package exp

import (
	"testing"
)

func TestFaster(t *testing.T) {
	if got := Faster(10, 35); got != "×3.5 faster" {
		t.Fatal(got)
	}
}
