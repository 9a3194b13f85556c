package scenario

import (
	"strings"
	"testing"
)

func TestWithConfig(t *testing.T) {
	// Every case's text is its head (a config line, comments) before the
	// same body; so is the new text.
	const body = "relation t blocks=4\nbackend A: touch t 0..3\nrun\n"
	for _, c := range []struct {
		name, head, key, value string
		want                   string // the new text's head, or the error
	}{
		{"replace", "# a comment\nconfig shared_buffers=128kB schedule=rr # keep me\n", "shared_buffers", "1MB", "# a comment\nconfig shared_buffers=1MB schedule=rr # keep me\n"},
		{"append", "config shared_buffers=128kB\n", "schedule", "random", "config shared_buffers=128kB schedule=random\n"},
		{"append before a comment", "config shared_buffers=128kB  # small\n", "seed", "7", "config shared_buffers=128kB seed=7  # small\n"},
		{"remove", "config shared_buffers=1MB schedule=random seed=7\n", "seed", "", "config shared_buffers=1MB schedule=random\n"},
		{"remove the first", "config seed=7 shared_buffers=1MB\n", "seed", "", "config shared_buffers=1MB\n"},
		{"insert a config line", "# prose\n\n", "drop", "scan,lookup,dlist", "# prose\n\nconfig drop=scan,lookup,dlist\n"},
		{"remove from none", "", "seed", "", ""},
		{"a refused value", "config shared_buffers=128kB\n", "shared_buffers", "12", "whatif:1:8: shared_buffers"},
		{"an unknown key", "", "colour", "red", `whatif: unknown config key "colour"`},
		{"two words", "", "seed", "1 2", `whatif: seed="1 2": a config value is one word`},
	} {
		src := c.head + body
		got, err := WithConfig("whatif", src, c.key, c.value)
		if err != nil {
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%s: error %q, want one starting %q", c.name, err, c.want)
			}
			if got != src {
				t.Errorf("%s: an error changed the text", c.name)
			}
			continue
		}
		if want := c.want + body; got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, want)
		}
	}
}
