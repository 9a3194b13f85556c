package a11y

import (
	"strconv"
	"strings"

	"bufferlab/lessons"
)

// Node is one element of the mirror's text: Tag is the HTML element it
// becomes (p, h3 to h6, ul, ol, li, pre, hr, blockquote), Text its text,
// written before its children (a list item's own words, then a list
// nested in it).
type Node struct {
	Tag      string `json:"tag"`
	Text     string `json:"text,omitempty"`
	Children []Node `json:"children,omitempty"`
}

// tnode is a Node while Nodes builds the tree (by pointer, so that an
// open list can be appended to after a child was added to it).
type tnode struct {
	tag, text string
	kids      []*tnode
}

func (t *tnode) node() Node {
	n := Node{Tag: t.tag, Text: t.text}
	for _, k := range t.kids {
		n.Children = append(n.Children, k.node())
	}
	return n
}

// Nodes turns a lesson's rich-text blocks into the mirror's elements.
// The blocks are flat (lessons.Block): a run of list items at one indent
// becomes one list (ol when its marker is a number), an item at a deeper
// indent a list nested in the item before it, a paragraph or code block
// with an item's indent part of that item, blocks inside a block quote one
// blockquote (nested quotes are flattened into it). A "###" heading is an
// h3 (h1 and h2 are the lesson and the step), at most h6. Inline styles
// are dropped: code, emphasis and links are read as their words.
func Nodes(blocks []lessons.Block) []Node {
	root := &tnode{}
	var quote *tnode   // the open block quote
	var lists []*tnode // the open lists, lists[d-1] at indent d
	for _, b := range blocks {
		parent := root
		switch {
		case b.Quote > 0 && quote == nil:
			quote, lists = &tnode{tag: "blockquote"}, nil
			root.kids = append(root.kids, quote)
			parent = quote
		case b.Quote > 0:
			parent = quote
		case quote != nil:
			quote, lists = nil, nil
		}
		if b.Kind == lessons.ListItem {
			d := max(1, b.Indent)
			tag := "ul"
			if ordered(b.Marker) {
				tag = "ol"
			}
			if len(lists) > d {
				lists = lists[:d]
			}
			if len(lists) == d && lists[d-1].tag != tag {
				// A bulleted list right after a numbered one: a new list.
				lists = lists[:d-1]
			}
			for len(lists) < d {
				host := parent
				if n := len(lists); n > 0 {
					host = lastItem(lists[n-1])
				}
				l := &tnode{tag: tag}
				host.kids = append(host.kids, l)
				lists = append(lists, l)
			}
			lists[d-1].kids = append(lists[d-1].kids, &tnode{tag: "li", text: b.Text()})
			continue
		}
		host := parent
		if d := b.Indent; d > 0 && len(lists) >= d {
			// A further paragraph or code block of an item.
			lists = lists[:d]
			host = lastItem(lists[d-1])
		} else {
			lists = nil
		}
		host.kids = append(host.kids, blockNode(b))
	}
	return root.node().Children
}

// lastItem is a list's last item (the list itself while it has none).
func lastItem(list *tnode) *tnode {
	if n := len(list.kids); n > 0 {
		return list.kids[n-1]
	}
	return list
}

// ordered reports whether a list item's marker is a number ("1.", "2)").
func ordered(marker string) bool {
	m := strings.TrimRight(marker, ".)")
	_, err := strconv.Atoi(m)
	return m != marker && err == nil
}

// blockNode is the element of a block that is not a list item.
func blockNode(b lessons.Block) *tnode {
	switch b.Kind {
	case lessons.Heading:
		return &tnode{tag: "h" + strconv.Itoa(min(6, max(3, b.Level))), text: b.Text()}
	case lessons.CodeBlock:
		return &tnode{tag: "pre", text: b.Text()}
	case lessons.Rule:
		return &tnode{tag: "hr"}
	}
	return &tnode{tag: "p", text: b.Text()}
}
