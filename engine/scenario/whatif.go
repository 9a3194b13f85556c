package scenario

import (
	"fmt"
	"strings"
)

// WithConfig returns src with one config setting changed: key=value on the
// config line (replacing the key's value where it is given, or appended to
// the line), or, with value "", the key removed (back to its default). A
// scenario without a config line gets one before its first statement.
// This is the browser sandbox's what-if: the same scenario run again with
// one change (shared_buffers, schedule, seed, a variant list such as
// drop=scan,lookup,dlist), written into the text so that the editor, the
// run and a link all say the same thing. The result is parsed: a value the
// scenario language refuses is the parser's positioned error, about the
// new text, and src is returned unchanged with it.
//
// Only the config line is rewritten, token by token (comments and the
// other keys keep their places); cost O(len(src)).
func WithConfig(name, src, key, value string) (string, error) {
	if _, ok := registry.keys[key]; !ok {
		return src, fmt.Errorf("%s: unknown config key %q: expected %s", name, key, keyList())
	}
	if strings.ContainsAny(value, " \t\n#;:\"") {
		return src, fmt.Errorf("%s: %s=%q: a config value is one word", name, key, value)
	}
	lines := strings.Split(src, "\n")
	at, first := -1, -1 // the config line, the first statement line
	var toks []token
	for i, line := range lines {
		ts, err := lexLine(name, i+1, line)
		if err != nil {
			return src, err
		}
		if len(ts) == 0 {
			continue
		}
		if ts[0].Text == "config" {
			at, toks = i, ts
		}
		if first < 0 {
			first = i
		}
		break
	}
	setting := key + "=" + value
	switch {
	case at < 0 && value == "":
		return src, nil // no config line: the key is at its default already
	case at < 0:
		if first < 0 {
			first = len(lines)
		}
		lines = append(lines[:first], append([]string{"config " + setting}, lines[first:]...)...)
	default:
		lines[at] = rewriteConfig(lines[at], toks, key, setting, value == "")
	}
	out := strings.Join(lines, "\n")
	if _, err := Parse(name, out); err != nil {
		return src, err
	}
	return out, nil
}

// rewriteConfig rewrites config line line (lexed as toks) so that key is
// setting, or is gone with remove. A token's Pos.Col is 1-based in bytes;
// its text is the line's bytes from there (tokens of a config line are
// bare key=value words).
func rewriteConfig(line string, toks []token, key, setting string, remove bool) string {
	for _, t := range toks[1:] {
		k, _, _ := splitKV(t)
		if k != key {
			continue
		}
		start, end := t.Pos.Col-1, t.Pos.Col-1+len(t.Text)
		if remove {
			for start > 0 && (line[start-1] == ' ' || line[start-1] == '\t') {
				start--
			}
			return line[:start] + line[end:]
		}
		return line[:start] + setting + line[end:]
	}
	if remove {
		return line
	}
	last := toks[len(toks)-1]
	end := last.Pos.Col - 1 + len(last.Text)
	return line[:end] + " " + setting + line[end:]
}
