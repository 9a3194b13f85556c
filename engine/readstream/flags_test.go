package readstream_test

import (
	"strings"
	"testing"

	"bufferlab/engine/readstream"
)

// ParseFlags reads back every set String writes (lower-cased, "|" as ","),
// the golden files' spellings, and rejects what names no flag.
func TestParseFlags(t *testing.T) {
	for f := readstream.Flags(0); f < 16; f++ {
		s := strings.ToLower(strings.ReplaceAll(f.String(), "|", ","))
		got, err := readstream.ParseFlags(s)
		if err != nil || got != f {
			t.Errorf("ParseFlags(%q) = %v, %v; want %v", s, got, err, f)
		}
	}
	for s, want := range map[string]readstream.Flags{
		"default":             0,
		"sequential,batching": readstream.Sequential | readstream.UseBatching,
		"full, maintenance":   readstream.Full | readstream.Maintenance,
	} {
		if got, err := readstream.ParseFlags(s); err != nil || got != want {
			t.Errorf("ParseFlags(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "seq", "sequential,", "0x10"} {
		if _, err := readstream.ParseFlags(s); err == nil || !strings.Contains(err.Error(), "flags: unknown") {
			t.Errorf("ParseFlags(%q): err %v, want flags: unknown", s, err)
		}
	}
}
