package lessons

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"pgregory.net/rapid"
)

// Markdown nested past MaxNesting is refused with the position of the
// container that goes past it, the depth of its line and the limit, before
// goldmark sees it: 40,000 levels of "- " took minutes, 160,000 of '>'
// took 15 s.
func TestNestingTooDeep(t *testing.T) {
	indented := []string{}
	for k := 0; k < 100; k++ {
		indented = append(indented, strings.Repeat("  ", k)+"- x")
	}
	quotedList := []string{}
	for k := 0; k < 50; k++ {
		quotedList = append(quotedList, strings.Repeat("> ", 20)+strings.Repeat("  ", k)+"- x")
	}
	for _, c := range []struct {
		name string
		body []string
		want string // body line 1 is file line 5
	}{
		{"40000 bullets", []string{strings.Repeat("- ", 40000) + "x"}, "r.md:5:65: lists and block quotes nested 40000 deep"},
		{"160000 quotes", []string{strings.Repeat(">", 160000) + " x"}, "r.md:5:33: lists and block quotes nested 160000 deep"},
		{"quotes and items", []string{strings.Repeat("> 1. ", 20) + "x"}, "r.md:5:81: lists and block quotes nested 40 deep"},
		{"lists by indentation", indented, "r.md:37:65: lists and block quotes nested 33 deep"},
		{"lists by indentation in quotes", quotedList, "r.md:17:65: lists and block quotes nested 33 deep"},
		{"in a step", []string{"## S", "", "text", "", strings.Repeat("* ", 33) + "x"}, "r.md:9:65: lists and block quotes nested 33 deep"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("r.md", withFront(append(c.body, "", "## S")...))
			want := c.want + fmt.Sprintf(": expected at most %d levels", MaxNesting)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("error %v, want %s…", err, want)
			}
		})
	}
}

// A predict field's Markdown is checked too, at its place in the file.
func TestNestingTooDeepInPredict(t *testing.T) {
	_, err := Parse("r.md", withFront("## S", "```predict", "question: Q?", "choices:", "- a", "- b", "answer: 1",
		"explain: "+strings.Repeat("> ", 1000)+"x", "at: none", "```"))
	want := "r.md:12:74: lists and block quotes nested 1000 deep: expected at most 32 levels"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want %s…", err, want)
	}
}

// Up to the limit, and what only looks nested, parses.
func TestNestingWithinLimit(t *testing.T) {
	quotes20 := strings.Repeat("> ", 20) + "x"
	var deep []string
	for k := 0; k < MaxNesting; k++ {
		deep = append(deep, strings.Repeat("  ", k)+"- x")
	}
	for _, c := range []struct {
		name string
		body []string
		want string // the last block, as Block.String writes it
	}{
		{"32 bullets on a line", []string{strings.Repeat("- ", MaxNesting) + "x"}, fmt.Sprintf("LI%d • x", MaxNesting)},
		{"32 by indentation", deep, fmt.Sprintf("LI%d • x", MaxNesting)},
		{"32 quotes", []string{strings.Repeat(">", MaxNesting) + " x"}, "P" + strings.Repeat(">", MaxNesting) + " x"},
		{"rule of dashes", []string{"x", "", strings.Repeat("- ", 100)}, "HR"},
		{"rule after items", []string{strings.Repeat("- ", 10) + strings.Repeat("* ", 100)}, "HR+10"},
		{"fenced", []string{"```text", quotes20, quotes20, "```"}, "CODE[text] " + quotes20 + "\n" + quotes20},
		{"indented code", []string{"    " + strings.Repeat("- ", 50)}, "CODE " + strings.Repeat("- ", 50)},
		{"quoted fence", []string{"> ~~~", "> " + strings.Repeat("- ", 50), "> ~~~"}, "CODE> " + strings.Repeat("- ", 50)},
		{"not markers", []string{strings.Repeat("-x ", 50) + strings.Repeat("1.x ", 10)}, "P " + strings.Repeat("-x ", 50) + strings.TrimSuffix(strings.Repeat("1.x ", 10), " ")},
	} {
		t.Run(c.name, func(t *testing.T) {
			bs := prose(t, c.body...)
			if got := bs[len(bs)-1].String(); got != c.want {
				t.Errorf("last block %q, want %q", got, c.want)
			}
		})
	}
}

// scanDepth is the depth nestingScan counts in src: the least limit it
// accepts.
func scanDepth(src []byte) int {
	for k := 0; ; k++ {
		if off, _ := nestingScan(src, k); off < 0 {
			return k
		}
	}
}

// goldmarkDepth is the deepest nesting of list items and block quotes in
// goldmark's parse of src.
func goldmarkDepth(src []byte) int {
	deepest := 0
	var walk func(n ast.Node, d int)
	walk = func(n ast.Node, d int) {
		switch n.Kind() {
		case ast.KindListItem, ast.KindBlockquote:
			d++
		}
		deepest = max(deepest, d)
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			if ch.Type() == ast.TypeBlock || ch.Type() == ast.TypeDocument {
				walk(ch, d)
			}
		}
	}
	walk(parseMarkdown(src), 0)
	return deepest
}

// The pre-scan counts what goldmark builds: exactly for the usual shapes,
// and never fewer levels for any text, so nothing nested past the limit
// reaches goldmark.
func TestNestingScanMatchesGoldmark(t *testing.T) {
	for _, src := range []string{
		"- a\n  - b\n    1. c\n- d",
		"> a\n> - b\n>   - c\n>\n> d",
		"- a\n\n  para\n\n  - b\n\n    > c",
		"1) a\n\n   2) b\n      - c",
		"-\tx\n\t- y",
		"- a\n- b\n\nafter",
		"> > a\nb\n> c",
		"- ```\n  - x\n  ```\n  - y",
		"* * *\n- - -\n- x",
		"10. a\n    - b",
		"- a\n      code\n  - b",
	} {
		if s, g := scanDepth([]byte(src)), goldmarkDepth([]byte(src)); s != g {
			t.Errorf("%q: the scan counts %d, goldmark nests %d", src, s, g)
		}
	}
}

// Random texts of markers, indentation and fences: the scan never counts
// fewer levels than goldmark builds.
func TestNestingScanNeverUndercounts(t *testing.T) {
	pieces := []string{"- ", "* ", "+ ", "1. ", "2) ", "> ", ">", "  ", "    ", "\t", " ", "x", "\n", "\n", "\n", "```", "~~~", "# ", "---", "-", "*"}
	rapid.Check(t, func(t *rapid.T) {
		src := strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 60).Draw(t, "pieces"), "")
		if s, g := scanDepth([]byte(src)), goldmarkDepth([]byte(src)); s < g {
			t.Fatalf("%q: the scan counts %d, goldmark nests %d", src, s, g)
		}
	})
}

// BenchmarkConvertDeepList converts lists nested 1000 to 4000 deep, past
// MaxNesting (the converter is called directly): the time per depth should
// double with the depth, not quadruple, now that a list item's marker no
// longer moves the blocks of the lists below it.
func BenchmarkConvertDeepList(b *testing.B) {
	for _, depth := range []int{1000, 2000, 4000} {
		src := []byte(strings.Repeat("- ", depth) + "x\n")
		doc := parseMarkdown(src)
		b.Run(fmt.Sprint(depth), func(b *testing.B) {
			c := &converter{file: "b.md", src: src, lines: newLineIndex(src)}
			for b.Loop() {
				bs, err := c.blocks(doc.FirstChild(), 0, 0, nil)
				if err != nil || len(bs) != depth {
					b.Fatalf("%d blocks, %v", len(bs), err)
				}
			}
		})
	}
}

// convertBytes is the bytes the converter allocates for a list nested
// depth deep (called directly, past MaxNesting).
func convertBytes(t *testing.T, depth int) uint64 {
	src := []byte(strings.Repeat("- ", depth) + "x\n")
	doc := parseMarkdown(src)
	c := &converter{file: "b.md", src: src, lines: newLineIndex(src)}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	bs, err := c.blocks(doc.FirstChild(), 0, 0, nil)
	runtime.ReadMemStats(&after)
	if err != nil || len(bs) != depth || bs[depth-1].String() != fmt.Sprintf("LI%d • x", depth) {
		t.Fatalf("%d blocks, %v", len(bs), err)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// Converting a list four times as deep allocates about four times as much
// (slices grow in steps, so the ratio wobbles), not sixteen times: each
// item's marker no longer copies the blocks of the lists below it (which
// took 8.5 s at 10,000 levels).
func TestConvertDeepListLinear(t *testing.T) {
	small, large := convertBytes(t, 2000), convertBytes(t, 8000)
	t.Logf("2000 levels: %d bytes, 8000 levels: %d bytes", small, large)
	if large > 8*small {
		t.Errorf("converting 2000 levels allocates %d bytes, 8000 levels %d: more than 8 times as much", small, large)
	}
}
