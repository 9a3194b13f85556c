package lessons

import "bytes"

// MaxNesting is how deep a lesson's Markdown may nest its containers: list
// items and block quotes, counted together ("> - > x" is three deep).
//
// Why 32: the embedded lessons nest at most one deep (a list), and every
// level is drawn indented, so a page nested 32 deep is already wider than
// any screen; no real lesson comes near it. A bound is needed at all because the work
// grows with the square of the depth: goldmark matches every open container
// again on each line and walks the container stack for each new one, and
// one line of 160,000 '>' took 15 s before this check. Rejecting the text
// before goldmark sees it keeps a hostile lesson as cheap as a long one.
const MaxNesting = 32

// column is a column of a line, as a range: a tab is one to four columns
// wide (CommonMark sets tab stops every 4 columns, but goldmark measures
// some from where a container's content starts), so the scan keeps the
// narrowest and the widest reading and decides each question the way that
// opens more containers.
type column struct{ lo, hi int }

func (c column) add(n int) column { return column{c.lo + n, c.hi + n} }

// indented reports whether a line's text at c is indented four or more
// columns past base under every reading: indented code, which opens no
// container.
func (c column) indented(base column) bool { return c.lo-base.hi > 3 }

// flush reports whether a line's text at c is surely indented at most
// three columns past base, so that it may open a fence or a heading, which
// end the containers that a lazy line would keep. A tab before it on the
// line leaves that in doubt: goldmark reads "*\t```" as no fence, where
// CommonMark has one.
func (c column) flush(base column) bool { return c.lo == c.hi && c.hi-base.lo <= 3 }

// mdContainer is an open list item or block quote in nestingScan.
type mdContainer struct {
	quote bool
	// width is a list item's marker and the spaces after it: a later line
	// stays in the item when it is indented that far past the containers
	// around the item (the quote's '>', the outer item's indentation).
	width column
}

// nestingScan finds the first place where src nests Markdown containers
// deeper than limit, without parsing it: a linear pass over the line
// prefixes that follows CommonMark's container rules closely enough to
// count every level goldmark would open (quotes: up to three spaces, then
// '>'; list items: "-", "+", "*", "1." or "1)" followed by a space, a tab or
// the end of the line; a later line stays inside a list item when it is
// indented to the item's content column, so lists nested by indentation
// count too). Indented code and thematic breaks ("- - -") open nothing.
// Where it cannot tell cheaply (a lazy continuation line, a tab's width), it
// takes the reading with more containers, so it may count a level more than
// goldmark, never fewer (TestNestingScanNeverUndercounts). So it reads the
// lines of fenced code as if they were prose: a fence's end is where
// goldmark reads the containers around it differently (tabs), and a wrong
// guess there would hide the nesting after it; a code block showing 33
// nested '>' is refused as well.
//
// It returns -1 if src stays within limit. Otherwise it returns the byte
// offset of the container that goes past the limit, and the depth of the
// line it is on.
func nestingScan(src []byte, limit int) (off, depth int) {
	var stack []mdContainer
	var opened []mdContainer
	lazyOK := false // the line before was paragraph text, which a lazy line may continue
	for start := 0; start <= len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := bytes.TrimSuffix(src[start:end], []byte("\r"))
		lineStart := start
		start = end + 1

		// Match the open containers.
		var base column // the column that indentation is measured from
		ns, nsCol := skipBlank(line, 0, column{})
		m := 0
		for ; m < len(stack); m++ {
			if c := stack[m]; c.quote {
				if ns < len(line) && line[ns] == '>' && !nsCol.indented(base) {
					base = column{nsCol.lo + 1, nsCol.hi + 2} // after '>' and its optional space
					ns, nsCol = skipBlank(line, ns+1, nsCol.add(1))
					continue
				}
				break
			} else if ns == len(line) || nsCol.hi-base.lo >= c.width.lo {
				// A blank line does not end a list item.
				base = column{base.lo + c.width.lo, base.hi + c.width.hi}
				continue
			}
			break
		}
		blank := ns == len(line)

		// Open new containers.
		opened = opened[:0]
		tbFrom, tbTo := thematicSuffix(line)
		firstOff := -1
		for ns < len(line) && !nsCol.indented(base) {
			if line[ns] == '>' {
				opened = append(opened, mdContainer{quote: true})
				base = column{nsCol.lo + 1, nsCol.hi + 2}
				if m+len(opened) == limit+1 {
					firstOff = lineStart + ns
				}
				ns, nsCol = skipBlank(line, ns+1, nsCol.add(1))
				continue
			}
			if ns >= tbFrom && ns <= tbTo {
				break // "- - -" is a rule, not three list items
			}
			w := listMarker(line[ns:])
			if w == 0 {
				break
			}
			markerEnd := nsCol.add(w) // marker bytes are one column each
			j, jCol := skipBlank(line, ns+w, markerEnd)
			content := jCol
			switch {
			case j == len(line) || jCol.lo == jCol.hi && jCol.lo-markerEnd.lo > 4:
				// An empty item, or one starting with indented code.
				content = markerEnd.add(1)
			case jCol.lo != jCol.hi:
				content.lo = markerEnd.lo + 1 // a tab: its item may start anywhere in it
			}
			width := column{max(w+1, content.lo-base.hi), content.hi - base.lo}
			opened = append(opened, mdContainer{width: width})
			if m+len(opened) == limit+1 {
				firstOff = lineStart + ns
			}
			base = content
			ns, nsCol = j, jCol
		}
		if firstOff >= 0 {
			return firstOff, m + len(opened)
		}

		rest := line[ns:]
		interrupts := !blank && nsCol.flush(base) && (isATXHeading(rest) || ns >= tbFrom && ns <= tbTo)
		if !blank && nsCol.flush(base) && isFence(rest) {
			interrupts = true
		}
		if len(opened) == 0 && m < len(stack) && lazyOK && !blank && !interrupts {
			// Perhaps a lazy continuation of the paragraph: the containers
			// may stay open, so keep them.
			continue
		}
		stack = append(stack[:m], opened...)
		lazyOK = !blank && !interrupts
	}
	return -1, 0
}

// skipBlank skips spaces and tabs from line[i] (at column col) and returns
// the next byte's index and column. A tab is 1 to 4 columns wide (see
// column).
func skipBlank(line []byte, i int, col column) (int, column) {
	for ; i < len(line); i++ {
		switch line[i] {
		case ' ':
			col = col.add(1)
		case '\t':
			col = column{col.lo + 1, col.hi + 4}
		default:
			return i, col
		}
	}
	return i, col
}

// listMarker returns the length of the list marker that s starts with
// ("-", "+", "*", or up to nine digits and '.' or ')'), or 0 if s does not
// start with one followed by a space, a tab or the end of the line.
func listMarker(s []byte) int {
	n := 0
	switch {
	case len(s) > 0 && (s[0] == '-' || s[0] == '+' || s[0] == '*'):
		n = 1
	default:
		for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(s) || s[n] != '.' && s[n] != ')' {
			return 0
		}
		n++
	}
	if n < len(s) && s[n] != ' ' && s[n] != '\t' {
		return 0
	}
	return n
}

// thematicSuffix returns the range [from, to] of indexes i for which
// line[i:] is a thematic break (three or more of one of '-', '*', '_',
// with only spaces and tabs between), or an empty range (from > to).
func thematicSuffix(line []byte) (from, to int) {
	var c byte
	count := 0
	from, to = len(line), -1
	for i := len(line) - 1; i >= 0; i-- {
		b := line[i]
		if b == ' ' || b == '\t' {
			continue
		}
		if c == 0 && (b == '-' || b == '*' || b == '_') {
			c = b
		}
		if b != c {
			break
		}
		count++
		if count == 3 {
			to = i
		}
		if count >= 3 {
			from = i
		}
	}
	return from, to
}

// isATXHeading reports whether s starts with a "#" to "######" heading.
func isATXHeading(s []byte) bool {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(s) || s[n] == ' ' || s[n] == '\t')
}

// isFence reports whether s opens a fenced code block (three or more '`'
// or '~'; a '`' fence's info has no '`').
func isFence(s []byte) bool {
	if len(s) == 0 || s[0] != '`' && s[0] != '~' {
		return false
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return n >= 3 && (s[0] == '~' || bytes.IndexByte(s[n:], '`') < 0)
}
