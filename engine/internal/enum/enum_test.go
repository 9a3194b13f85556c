package enum

import "testing"

type color uint8

var colorNames = []string{"", "red", "green"}

func TestNameAndParse(t *testing.T) {
	for _, c := range []struct {
		v    color
		want string
	}{{1, "red"}, {2, "green"}, {0, "color(0)"}, {3, "color(3)"}, {255, "color(255)"}} {
		if got := Name(colorNames, c.v, "color"); got != c.want {
			t.Errorf("Name(%d) = %q, want %q", c.v, got, c.want)
		}
	}
	if got := Name([]string{"main"}, int32(-1), "fork"); got != "fork(-1)" {
		t.Errorf("Name(-1) = %q, want fork(-1)", got)
	}
	for _, c := range []struct {
		s    string
		want color
		ok   bool
	}{{"red", 1, true}, {"green", 2, true}, {"", 0, false}, {"blue", 0, false}} {
		if got, ok := Parse[color](colorNames, c.s); got != c.want || ok != c.ok {
			t.Errorf("Parse(%q) = %d, %v; want %d, %v", c.s, got, ok, c.want, c.ok)
		}
	}
}

func TestBits(t *testing.T) {
	names := []string{"A", "B", "", "D"}
	for _, c := range []struct {
		v    uint8
		want string
	}{{0, "none"}, {1, "A"}, {3, "A|B"}, {0b1010, "B|D"}, {0b0100, "0x4"}, {0x11, "A|0x10"}} {
		if got := Bits(names, c.v, "none"); got != c.want {
			t.Errorf("Bits(%#x) = %q, want %q", c.v, got, c.want)
		}
	}
}
