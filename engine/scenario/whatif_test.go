package scenario

import (
	"strings"
	"testing"
)

func TestWithConfig(t *testing.T) {
	const body = "relation t blocks=4\nbackend A: touch t 0..3\nrun\n"
	for _, c := range []struct {
		name, src, key, value string
		want                  string // the new text, or the error
	}{
		{"replace", "# a comment\nconfig shared_buffers=128kB schedule=rr # keep me\n" + body, "shared_buffers", "1MB",
			"# a comment\nconfig shared_buffers=1MB schedule=rr # keep me\n" + body},
		{"append", "config shared_buffers=128kB\n" + body, "schedule", "random",
			"config shared_buffers=128kB schedule=random\n" + body},
		{"append before a comment", "config shared_buffers=128kB  # small\n" + body, "seed", "7",
			"config shared_buffers=128kB seed=7  # small\n" + body},
		{"remove", "config shared_buffers=1MB schedule=random seed=7\n" + body, "seed", "",
			"config shared_buffers=1MB schedule=random\n" + body},
		{"remove the first", "config seed=7 shared_buffers=1MB\n" + body, "seed", "",
			"config shared_buffers=1MB\n" + body},
		{"insert a config line", "# prose\n\n" + body, "drop", "scan,lookup,dlist",
			"# prose\n\nconfig drop=scan,lookup,dlist\n" + body},
		{"remove from none", body, "seed", "", body},
		{"a refused value", "config shared_buffers=128kB\n" + body, "shared_buffers", "12",
			"whatif:1:8: shared_buffers"},
		{"an unknown key", body, "colour", "red", `whatif: unknown config key "colour"`},
		{"two words", body, "seed", "1 2", `whatif: seed="1 2": a config value is one word`},
	} {
		got, err := WithConfig("whatif", c.src, c.key, c.value)
		if err != nil {
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%s: error %q, want one starting %q", c.name, err, c.want)
			}
			if got != c.src {
				t.Errorf("%s: an error changed the text", c.name)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}
