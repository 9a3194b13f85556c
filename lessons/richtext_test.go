package lessons

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"bufferlab/internal/linediff"
)

// prose parses body lines as a lesson's introduction and returns its blocks.
func prose(t *testing.T, body ...string) []Block {
	t.Helper()
	l := mustParse(t, "r.md", withFront(append(body, "", "## S")...))
	return l.Intro
}

func TestRichText(t *testing.T) {
	for _, c := range []struct {
		name string
		md   []string
		want string
	}{
		{"styles", []string{"Plain *emph* **strong** `code` ***both*** _u_ __s__."},
			"P Plain *emph* **strong** `code` ***both*** *u* **s**."},
		{"nested", []string{"**a *b* `c`**"}, "P **a *****b***** ****`c`**"},
		{"soft break", []string{"one", "two"}, "P one two"},
		{"hard break", []string{"one  ", "two\\", "three"}, "P one\ntwo\nthree"},
		{"escapes and entities", []string{`\*not emph\* &amp; &lt; &#65; \_`}, "P *not emph* & < A _"},
		{"code span spacing", []string{"`` a`b ``"}, "P `a`b`"},
		{"link", []string{"See [the *docs*](https://www.postgresql.org/docs/) and <https://x.org>."},
			"P See [the ](https://www.postgresql.org/docs/)[*docs*](https://www.postgresql.org/docs/) and [https://x.org](https://x.org)."},
		{"heading", []string{"### Sub *head*"}, "H3 Sub *head*"},
		{"two paragraphs", []string{"A", "", "B"}, "P A\nP B"},
		{"bullets", []string{"- one", "- **two**", "  more"}, "LI1 • one\nLI1 • **two** more"},
		{"ordered from 3", []string{"3. three", "4. four"}, "LI1 3. three\nLI1 4. four"},
		{"ordered paren", []string{"1) a"}, "LI1 1) a"},
		{"nested list", []string{"- a", "  - b", "    1. c", "- d"}, "LI1 • a\nLI2 • b\nLI3 1. c\nLI1 • d"},
		{"loose item", []string{"- first", "", "  second para", "", "- next"}, "LI1 • first\nP+1 second para\nLI1 • next"},
		{"item starting with code", []string{"- ```sql", "  SELECT 1;", "  ```"}, "LI1 •\nCODE+1[sql] SELECT 1;"},
		{"empty item", []string{"-", "- x"}, "LI1 •\nLI1 • x"},
		{"fenced", []string{"```sql", "SELECT 1;", "", "SELECT 2;", "```"}, "CODE[sql] SELECT 1;\n\nSELECT 2;"},
		{"tilde fence", []string{"~~~text", "a", "~~~"}, "CODE[text] a"},
		{"indented code", []string{"    x := 1", "    y := 2"}, "CODE x := 1\ny := 2"},
		{"quote", []string{"> a *quoted*", "> line", ">", "> - item"}, "P> a *quoted* line\nLI1> • item"},
		{"rule", []string{"a", "", "***", "", "b"}, "P a\nHR\nP b"},
		{"html comment", []string{"<!--", "a note", "-->", "", "text"}, "P text"},
		{"link reference", []string{"[pg]: https://postgresql.org", "", "see [pg]"}, "P see [pg](https://postgresql.org)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := blocksString(prose(t, c.md...)); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func TestRichTextLinesAndText(t *testing.T) {
	bs := prose(t, "First para", "continues.", "", "- item", "", "```sql", "SELECT 1;", "```")
	// Body line k is file line k+4.
	wantLines := []int{5, 8, 10}
	if len(bs) != len(wantLines) {
		t.Fatalf("%d blocks: %s", len(bs), blocksString(bs))
	}
	for i, b := range bs {
		if b.Line != wantLines[i] {
			t.Errorf("block %d (%s) at line %d, want %d", i, b, b.Line, wantLines[i])
		}
	}
	if bs[0].Text() != "First para continues." || bs[2].Text() != "SELECT 1;" || bs[2].Kind != CodeBlock || bs[2].Lang != "sql" {
		t.Errorf("%+v", bs)
	}
	if bs[1].Kind != ListItem || bs[1].Marker != "•" || bs[1].Indent != 1 {
		t.Errorf("%+v", bs[1])
	}
	if s := BlockKind(99).String(); s != "BlockKind(99)" {
		t.Errorf("%s", s)
	}
	// Spans merge when they share a style.
	sp := prose(t, "a *b* *c*")[0].Spans
	if len(sp) != 4 || sp[1].Style != Emphasis || sp[2].Style != 0 || sp[3].Style != Emphasis {
		t.Errorf("%+v", sp)
	}
	sp = prose(t, "`x` **y *z***")[0].Spans
	if len(sp) != 4 || sp[0].Style != Code || sp[2].Style != Strong || sp[3].Style != Strong|Emphasis || sp[3].Text != "z" {
		t.Errorf("%+v", sp)
	}
}

func TestDisplayLanguages(t *testing.T) {
	for _, lang := range displayLangs {
		bs := prose(t, "```"+lang, "x", "```")
		if len(bs) != 1 || bs[0].Kind != CodeBlock || bs[0].Lang != lang {
			t.Errorf("```%s: %s", lang, blocksString(bs))
		}
	}
	_, err := Parse("r.md", withFront("## S", "```python", "x", "```"))
	if err == nil || !strings.Contains(err.Error(), "r.md:6:1: expected ```predict, ```scenario, ```expect, ```stops or a block of code to show") || !strings.Contains(err.Error(), "found ```python") {
		t.Errorf("%v", err)
	}
}

// TestMarkdownParserIsGoldmarks checks that markdown, built from goldmark's
// parser package alone (so that the browser build does not link goldmark's
// HTML renderer), parses as goldmark.New's parser does: the same tree of
// node kinds, each with the same source lines, for every embedded lesson
// file and a few shapes the lessons do not use.
func TestMarkdownParserIsGoldmarks(t *testing.T) {
	ref := goldmark.New().Parser()
	srcs := map[string][]byte{
		"shapes": []byte("# H\n\n> quote *em* **strong** `code` [link](http://x) <http://auto>\n\n" +
			"1. one\n   - two\n\n     para\n\n```sql\nSELECT 1;\n```\n\n    indented\n\n---\n\n" +
			"| a | b |\n|---|---|\n| no tables: a paragraph |\n\n~~no strikethrough~~ www.no-linkify.org\n\n<div>html</div>\n\n[ref]: http://r\n\n[ref] and ![img](x.png) &amp; \\* hard  \nbreak\n"),
	}
	names, err := fs.Glob(Files, "*.md")
	if err != nil || len(names) == 0 {
		t.Fatalf("the embedded lessons: %v %v", names, err)
	}
	for _, n := range names {
		b, err := fs.ReadFile(Files, n)
		if err != nil {
			t.Fatal(err)
		}
		srcs[n] = b
	}
	for name, src := range srcs {
		want := dumpTree(ref.Parse(text.NewReader(src)), src)
		if got := dumpTree(parseMarkdown(src), src); got != want {
			for line, d := range linediff.Differing(want, got) {
				t.Errorf("%s parses differently, line %d of the dump: goldmark.New %q, markdown %q", name, line, d[0], d[1])
				break
			}
		}
	}
}

// dumpTree writes a goldmark tree as one line per node: its depth, kind,
// and its source lines (block nodes) or its text (inline ones).
func dumpTree(doc ast.Node, src []byte) string {
	var b strings.Builder
	depth := 0
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			depth--
			return ast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "%*s%s", 2*depth, "", n.Kind())
		if n.Type() == ast.TypeBlock {
			for i := 0; i < n.Lines().Len(); i++ {
				s := n.Lines().At(i)
				fmt.Fprintf(&b, " [%d,%d)", s.Start, s.Stop)
			}
		} else if tx, ok := n.(*ast.Text); ok {
			fmt.Fprintf(&b, " %q", tx.Segment.Value(src))
		}
		b.WriteByte('\n')
		depth++
		return ast.WalkContinue, nil
	})
	return b.String()
}
