package scenario

import (
	"fmt"
	"strings"
)

// Pos is a 1-based line and column (in bytes) of a scenario file.
type Pos struct {
	Line, Col int
}

// Error is a positioned scenario error.
type Error struct {
	File string
	Pos  Pos
	Msg  string
	// Check is set when the scenario was well formed but an expect
	// statement found the engine in another state.
	Check bool
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// token is a word of a line: a bare word, key=value, a ';' or ':', or a
// double-quoted string (Quoted set, quotes removed).
type token struct {
	Text   string
	Pos    Pos
	Quoted bool
}

// maxLineLen bounds one line; longer input is rejected with an error.
const maxLineLen = 1 << 16

// lexLine splits one line into tokens. ':' and ';' are tokens of their own;
// '#' outside quotes ends the line.
func lexLine(file string, lineNo int, line string) ([]token, error) {
	if len(line) > maxLineLen {
		return nil, &Error{File: file, Pos: Pos{lineNo, 1}, Msg: fmt.Sprintf("line is %d bytes long; the limit is %d", len(line), maxLineLen)}
	}
	var toks []token
	i := 0
	for i < len(line) {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			return toks, nil
		case c == ':' || c == ';':
			toks = append(toks, token{Text: string(c), Pos: Pos{lineNo, i + 1}})
			i++
		default:
			start := i
			var b strings.Builder
			quoted := false
			for i < len(line) {
				c := line[i]
				if c == '"' {
					// A quoted part; \" and \\ are escapes.
					open := i
					i++
					for {
						if i >= len(line) {
							return nil, &Error{File: file, Pos: Pos{lineNo, open + 1}, Msg: "unterminated string: expected a closing '\"'"}
						}
						if line[i] == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
							b.WriteByte(line[i+1])
							i += 2
							continue
						}
						if line[i] == '"' {
							i++
							break
						}
						b.WriteByte(line[i])
						i++
					}
					quoted = true
					continue
				}
				if c == ' ' || c == '\t' || c == '\r' || c == ':' || c == ';' || c == '#' {
					break
				}
				b.WriteByte(c)
				i++
			}
			toks = append(toks, token{Text: b.String(), Pos: Pos{lineNo, start + 1}, Quoted: quoted})
		}
	}
	return toks, nil
}
