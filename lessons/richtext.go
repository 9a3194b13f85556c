package lessons

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	gmparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// BlockKind says what a Block is.
type BlockKind uint8

// The kinds of rich-text blocks.
const (
	Paragraph BlockKind = iota + 1
	Heading             // a "### " (or deeper) heading inside a step
	ListItem            // one item of a bulleted or numbered list
	CodeBlock           // a display code block (```sql, ```text, an indented block, …)
	Rule                // a thematic break (---, ***)
)

var blockKindNames = [...]string{Paragraph: "P", Heading: "H", ListItem: "LI", CodeBlock: "CODE", Rule: "HR"}

func (k BlockKind) String() string {
	if int(k) < len(blockKindNames) && blockKindNames[k] != "" {
		return blockKindNames[k]
	}
	return "BlockKind(" + strconv.Itoa(int(k)) + ")"
}

// Style is a set of inline styles; the zero Style is plain text.
type Style uint8

// Inline styles. Emphasis inside strong text has both bits.
const (
	Emphasis Style = 1 << iota // *text* or _text_
	Strong                     // **text**
	Code                       // `text`
)

// Span is a run of text in one style.
type Span struct {
	Text  string
	Style Style
	// URL is the destination when the span is (part of) a link's text.
	URL string
}

// Block is one block of rich text, the unit a text renderer lays out.
//
// Lists are flattened: each item is a ListItem block whose Spans are its
// first paragraph; further paragraphs and code blocks of the same item follow
// as Paragraph or CodeBlock blocks with the item's Indent. Block quotes are
// flattened the same way, with Quote counting the nesting.
type Block struct {
	Kind BlockKind
	// Level is a Heading's level (3 for "###", …).
	Level int
	// Indent is the list nesting depth: 0 outside lists, 1 for the items
	// of a top-level list and the blocks inside them, and so on.
	Indent int
	// Marker is a ListItem's marker: "•" for a bulleted list, "1." (or "1)")
	// for a numbered one.
	Marker string
	// Quote is the block-quote nesting depth (0 outside quotes).
	Quote int
	// Lang is a CodeBlock's info word ("sql", "text", or "").
	Lang string
	// Spans is the text. A CodeBlock has one plain span holding its lines
	// joined by "\n" (no final newline). Soft line breaks in prose become
	// one space; hard line breaks (two trailing spaces or a backslash) a "\n".
	Spans []Span
	// Line is the block's first line in the lesson file.
	Line int
}

// Text returns the block's text without styles.
func (b Block) Text() string { return SpansText(b.Spans) }

// SpansText returns the text of spans without styles.
func SpansText(spans []Span) string {
	var s strings.Builder
	for _, sp := range spans {
		s.WriteString(sp.Text)
	}
	return s.String()
}

// String renders a block in a compact markup for tests and debugging:
// the kind, then the spans with *emphasis*, **strong**, `code` and
// [text](url), e.g. `LI1 • a **strong** word`.
func (b Block) String() string {
	var s strings.Builder
	s.WriteString(b.Kind.String())
	switch b.Kind {
	case Heading:
		s.WriteString(strconv.Itoa(b.Level))
	case ListItem:
		s.WriteString(strconv.Itoa(b.Indent))
	default:
		if b.Indent > 0 {
			s.WriteString("+" + strconv.Itoa(b.Indent))
		}
	}
	if b.Quote > 0 {
		s.WriteString(strings.Repeat(">", b.Quote))
	}
	if b.Kind == CodeBlock && b.Lang != "" {
		s.WriteString("[" + b.Lang + "]")
	}
	if b.Marker != "" {
		s.WriteString(" " + b.Marker)
	}
	if len(b.Spans) == 0 {
		return s.String()
	}
	s.WriteString(" ")
	s.WriteString(SpansMarkup(b.Spans))
	return s.String()
}

// SpansMarkup renders spans as Markdown-like markup (see Block.String).
func SpansMarkup(spans []Span) string {
	var s strings.Builder
	for _, sp := range spans {
		t := sp.Text
		if sp.Style&Code != 0 {
			t = "`" + t + "`"
		}
		if sp.Style&Emphasis != 0 {
			t = "*" + t + "*"
		}
		if sp.Style&Strong != 0 {
			t = "**" + t + "**"
		}
		if sp.URL != "" {
			t = "[" + t + "](" + sp.URL + ")"
		}
		s.WriteString(t)
	}
	return s.String()
}

// displayLangs are the info words a fenced block may have to be shown as
// code rather than played: a lesson rejects any other, so that a typo such
// as ```scenaro is an error instead of a silently skipped scenario.
var displayLangs = []string{"", "text", "sql", "psql", "console", "shell", "sh", "bash", "c", "go", "diff", "ini", "conf"}

func isDisplayLang(lang string) bool {
	for _, l := range displayLangs {
		if l == lang {
			return true
		}
	}
	return false
}

// markdown is the CommonMark parser (no extensions) used for prose: the
// parser goldmark.New() would build (goldmark.DefaultParser, the same
// three option lists), made here without importing the goldmark package.
// That package's init builds a default Markdown with the HTML renderer,
// which nothing here uses: it cost the browser build 200 KB raw, 28 KB
// brotli (renderer/html and the code it keeps alive; docs/wasm-size.md).
// TestMarkdownParserIsGoldmarks checks the two parse alike.
var markdown = gmparser.NewParser(
	gmparser.WithBlockParsers(gmparser.DefaultBlockParsers()...),
	gmparser.WithInlineParsers(gmparser.DefaultInlineParsers()...),
	gmparser.WithParagraphTransformers(gmparser.DefaultParagraphTransformers()...),
)

// parseMarkdown parses src into goldmark's AST.
func parseMarkdown(src []byte) ast.Node {
	return markdown.Parse(text.NewReader(src))
}

// checkNesting rejects c.src if it nests lists and block quotes deeper than
// MaxNesting; call it before parseMarkdown, which would take time growing
// with the square of the depth.
func (c *converter) checkNesting() error {
	if off, depth := nestingScan(c.src, MaxNesting); off >= 0 {
		return c.errAt(off, "lists and block quotes nested %d deep: expected at most %d levels (each level is drawn indented)", depth, MaxNesting)
	}
	return nil
}

// converter turns goldmark block nodes into Blocks. Positions are byte
// offsets into src; lines maps them to 1-based lines of the lesson file
// (plus lineBase).
type converter struct {
	file     string
	src      []byte
	lines    *lineIndex
	lineBase int // added to every line number (0 for the lesson file itself)
	colBase  func(line int) int
}

// errAt reports a format error at a byte offset of c.src.
func (c *converter) errAt(off int, format string, args ...any) error {
	line, col := c.lines.pos(off)
	if c.colBase != nil {
		col += c.colBase(line)
	}
	return errorf(c.file, line+c.lineBase, col, format, args...)
}

func (c *converter) line(off int) int {
	l, _ := c.lines.pos(off)
	return l + c.lineBase
}

// nodeStart returns the byte offset where a block node starts.
func nodeStart(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if p := nodeStart(ch); p >= 0 {
			return p
		}
	}
	return -1
}

// blocks converts one block node (and its children) to Blocks, appending
// them to out.
func (c *converter) blocks(n ast.Node, indent, quote int, out []Block) ([]Block, error) {
	from := len(out)
	out, err := c.convert(n, indent, quote, out)
	if err != nil {
		return nil, err
	}
	// Drop the list-item placeholders that convert left unused: one pass
	// over the new blocks, however deep the lists nest.
	keep := from
	for _, b := range out[from:] {
		if b.Kind != 0 {
			out[keep] = b
			keep++
		}
	}
	return out[:keep], nil
}

// convert appends the Blocks of one block node (and its children) to out.
// A list item first appends a placeholder ListItem for its marker; when the
// item's first block is a paragraph, that paragraph becomes the ListItem
// and the placeholder is marked unused (Kind 0) for blocks to drop. (Inserting
// the marker in front of the item's blocks instead would move every block of
// the nested lists below it, once per level.)
func (c *converter) convert(n ast.Node, indent, quote int, out []Block) ([]Block, error) {
	at := nodeStart(n)
	line := 0
	if at >= 0 {
		line = c.line(at)
	}
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		spans, err := c.inlines(n, 0, "", nil)
		if err != nil {
			return nil, err
		}
		return append(out, Block{Kind: Paragraph, Indent: indent, Quote: quote, Spans: spans, Line: line}), nil
	case *ast.Heading:
		spans, err := c.inlines(n, 0, "", nil)
		if err != nil {
			return nil, err
		}
		return append(out, Block{Kind: Heading, Level: n.Level, Indent: indent, Quote: quote, Spans: spans, Line: line}), nil
	case *ast.ThematicBreak:
		return append(out, Block{Kind: Rule, Indent: indent, Quote: quote, Line: line}), nil
	case *ast.FencedCodeBlock:
		lang := ""
		if n.Info != nil {
			lang = string(n.Language(c.src))
		}
		if isSpecialFence(lang) {
			return nil, c.errAt(at, "expected the ```%s block at the top level of a step, found it inside a list or a quote", lang)
		}
		if !isDisplayLang(lang) {
			return nil, c.errAt(at, "expected ```predict, ```scenario, ```expect, ```stops or a block of code to show (``` or ```%s), found ```%s", strings.Join(displayLangs[1:], ", ```"), lang)
		}
		return append(out, Block{Kind: CodeBlock, Lang: lang, Indent: indent, Quote: quote, Spans: codeSpans(n, c.src), Line: line}), nil
	case *ast.CodeBlock:
		return append(out, Block{Kind: CodeBlock, Indent: indent, Quote: quote, Spans: codeSpans(n, c.src), Line: line}), nil
	case *ast.List:
		num := n.Start
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			marker := "•"
			if n.IsOrdered() {
				marker = strconv.Itoa(num) + string(n.Marker)
				num++
			}
			// The placeholder is the item's line when it is empty or starts
			// with a code block or a nested list.
			placeholder := len(out)
			out = append(out, Block{Kind: ListItem, Indent: indent + 1, Quote: quote, Marker: marker, Line: c.line(nodeStart(item))})
			var err error
			for ch := item.FirstChild(); ch != nil; ch = ch.NextSibling() {
				if out, err = c.convert(ch, indent+1, quote, out); err != nil {
					return nil, err
				}
			}
			if first := placeholder + 1; len(out) > first && out[first].Kind == Paragraph && out[first].Indent == indent+1 {
				out[first].Kind, out[first].Marker = ListItem, marker
				out[placeholder].Kind = 0
			}
		}
		return out, nil
	case *ast.Blockquote:
		var err error
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			if out, err = c.convert(ch, indent, quote+1, out); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *ast.HTMLBlock:
		if n.HTMLBlockType == ast.HTMLBlockType2 { // <!-- a comment -->
			return out, nil
		}
		return nil, c.errAt(at, "expected Markdown prose, found raw HTML (the lesson renderer draws text itself; HTML comments <!-- … --> are allowed)")
	case *ast.LinkReferenceDefinition:
		return out, nil
	}
	return nil, c.errAt(at, "unsupported Markdown block %s", n.Kind())
}

func codeSpans(n ast.Node, src []byte) []Span {
	var b bytes.Buffer
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(src))
	}
	t := strings.TrimRight(b.String(), "\n")
	if t == "" {
		return nil
	}
	return []Span{{Text: t}}
}

// inlines converts the inline children of n to spans.
func (c *converter) inlines(n ast.Node, style Style, url string, out []Span) ([]Span, error) {
	skipSpace := false
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		var err error
		switch ch := ch.(type) {
		case *ast.Text:
			v := ch.Segment.Value(c.src)
			if !ch.IsRaw() {
				v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
			}
			t := string(v)
			if skipSpace && len(out) > 0 && strings.HasSuffix(out[len(out)-1].Text, " ") {
				t = strings.TrimLeft(t, " ")
			}
			skipSpace = false
			switch {
			case ch.HardLineBreak():
				t += "\n"
			case ch.SoftLineBreak():
				t += " "
			}
			out = appendSpan(out, Span{Text: t, Style: style, URL: url})
		case *ast.String:
			out = appendSpan(out, Span{Text: string(ch.Value), Style: style, URL: url})
		case *ast.CodeSpan:
			var b strings.Builder
			for t := ch.FirstChild(); t != nil; t = t.NextSibling() {
				switch t := t.(type) {
				case *ast.Text:
					b.Write(bytes.TrimSuffix(t.Segment.Value(c.src), []byte("\n")))
					if bytes.HasSuffix(t.Segment.Value(c.src), []byte("\n")) {
						b.WriteByte(' ')
					}
				case *ast.String:
					b.Write(t.Value)
				}
			}
			out = appendSpan(out, Span{Text: b.String(), Style: style | Code, URL: url})
		case *ast.Emphasis:
			s := Emphasis
			if ch.Level >= 2 {
				s = Strong
			}
			out, err = c.inlines(ch, style|s, url, out)
		case *ast.Link:
			out, err = c.inlines(ch, style, string(ch.Destination), out)
		case *ast.AutoLink:
			u := string(ch.URL(c.src))
			out = appendSpan(out, Span{Text: string(ch.Label(c.src)), Style: style, URL: u})
		case *ast.RawHTML:
			var raw strings.Builder
			for i := 0; i < ch.Segments.Len(); i++ {
				seg := ch.Segments.At(i)
				raw.Write(seg.Value(c.src))
			}
			if strings.HasPrefix(raw.String(), "<!--") {
				skipSpace = true // "a <!-- note --> b" reads "a b"
				continue
			}
			at := 0
			if ch.Segments.Len() > 0 {
				at = ch.Segments.At(0).Start
			}
			return nil, c.errAt(at, "expected Markdown text, found raw HTML %q (the lesson renderer draws text itself)", raw.String())
		case *ast.Image:
			return nil, c.errAt(nodeStart(n), "expected Markdown text, found an image ![…](%s): lessons cannot show images yet", ch.Destination)
		default:
			out, err = c.inlines(ch, style, url, out)
		}
		if err != nil {
			return nil, err
		}
	}
	// Trim the space a soft break leaves at the very end of a block.
	if n.Type() == ast.TypeBlock && len(out) > 0 {
		last := &out[len(out)-1]
		last.Text = strings.TrimRight(last.Text, " \n")
		if last.Text == "" {
			out = out[:len(out)-1]
		}
	}
	return out, nil
}

// appendSpan appends s, merging it into the last span when they share a style.
func appendSpan(out []Span, s Span) []Span {
	if s.Text == "" {
		return out
	}
	if n := len(out); n > 0 && out[n-1].Style == s.Style && out[n-1].URL == s.URL {
		out[n-1].Text += s.Text
		return out
	}
	return append(out, s)
}

// lineIndex maps byte offsets to 1-based lines and columns.
type lineIndex struct {
	starts []int // byte offset of each line's first byte
}

func newLineIndex(src []byte) *lineIndex {
	li := &lineIndex{starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			li.starts = append(li.starts, i+1)
		}
	}
	return li
}

// pos returns the 1-based line and column (in bytes) of offset off.
func (li *lineIndex) pos(off int) (line, col int) {
	lo, hi := 0, len(li.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if li.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1, off - li.starts[lo] + 1
}

// fragment converts a Markdown fragment (an explanation, a prompt) to blocks.
// firstLine is the lesson-file line of the fragment's first line, and
// colOf (which may be nil) the column offset of a fragment line in the file.
func (c *converter) fragment(src string, firstLine int, colOf func(line int) int) ([]Block, error) {
	sub := &converter{file: c.file, src: []byte(src), lines: newLineIndex([]byte(src)), lineBase: firstLine - 1, colBase: colOf}
	if err := sub.checkNesting(); err != nil {
		return nil, err
	}
	doc := parseMarkdown(sub.src)
	var out []Block
	var err error
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			return nil, sub.errAt(nodeStart(h), "expected text, found a heading (level %d)", h.Level)
		}
		if out, err = sub.blocks(n, 0, 0, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// inlineSpans converts a one-paragraph Markdown fragment to spans; several
// blocks are joined with spaces.
func (c *converter) inlineSpans(src string, line int, colOf func(int) int) ([]Span, error) {
	blocks, err := c.fragment(src, line, colOf)
	if err != nil {
		return nil, err
	}
	var out []Span
	for i, b := range blocks {
		if i > 0 {
			out = appendSpan(out, Span{Text: " "})
		}
		if b.Marker != "" {
			out = appendSpan(out, Span{Text: b.Marker + " "})
		}
		for _, s := range b.Spans {
			out = appendSpan(out, s)
		}
	}
	return out, nil
}
