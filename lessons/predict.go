package lessons

import (
	"strconv"
	"strings"

	"bufferlab/engine/trace"
)

// fragment is the text of one predict field (or one choice): consecutive
// file lines, with the indentation of continuation lines removed.
type fragment struct {
	line int      // file line of the first entry
	text []string // one entry per file line
	cols []int    // bytes removed before each entry (for error columns)
}

func (f *fragment) add(text string, removed int) {
	f.text = append(f.text, text)
	f.cols = append(f.cols, removed)
}

// trimmed drops blank entries at the end, keeping the first.
func (f *fragment) trimmed() *fragment {
	n := len(f.text)
	for n > 1 && strings.TrimSpace(f.text[n-1]) == "" {
		n--
	}
	return &fragment{line: f.line, text: f.text[:n], cols: f.cols[:n]}
}

// markdown is the fragment's Markdown source.
func (f *fragment) markdown() string { return strings.Join(f.text, "\n") }

// oneLine joins the fragment's lines with spaces.
func (f *fragment) oneLine() string {
	var parts []string
	for _, t := range f.text {
		if t = strings.TrimSpace(t); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

func (f *fragment) colOf(line int) int {
	if line-1 < len(f.cols) {
		return f.cols[line-1]
	}
	return 0
}

// predict parses the lines between the fences of a predict block:
//
//	question: TEXT
//	choices:
//	- TEXT
//	- TEXT
//	answer: N        (1-based)
//	explain: TEXT
//	at: MOMENT [BACKEND] [nth=N|nth=last] [pane=VARIANT]   (or: at: none)
//
// Keys and "- " choices start at column 1; an indented line continues the
// field or choice above it; blank lines separate paragraphs.
func (p *parser) predict(open, closing int) (*Question, error) {
	q := &Question{Line: open}
	var question, explain, answer, at *fragment
	var choices []*fragment
	choicesLine := 0
	seen := map[string]int{}
	var cur *fragment
	inChoices := false
	for ln := open + 1; ln < closing; ln++ {
		raw := p.lines[ln-1]
		if strings.TrimSpace(raw) == "" {
			if cur != nil {
				cur.add("", 0)
			}
			continue
		}
		if raw[0] == ' ' || raw[0] == '\t' {
			if cur == nil {
				return nil, p.errf(ln, 1, "predict: expected question:, choices:, answer:, explain: or at: at the start of the line, found an indented line %q", clip(strings.TrimSpace(raw)))
			}
			cur.add(raw, 0) // dedented below
			continue
		}
		if strings.HasPrefix(raw, "- ") || raw == "-" {
			if !inChoices {
				return nil, p.errf(ln, 1, "predict: expected a choice ('- text') only after choices:, found %q", clip(raw))
			}
			text := strings.TrimSpace(strings.TrimPrefix(raw, "-"))
			if text == "" {
				return nil, p.errf(ln, 1, "predict: expected the text of a choice after '- ', found nothing")
			}
			f := &fragment{line: ln}
			f.add(text, len(raw)-len(strings.TrimLeft(raw[1:], " \t"))) // the text starts after "- "
			choices = append(choices, f)
			cur = f
			continue
		}
		k, v, ok := strings.Cut(raw, ":")
		if !ok || !isKey(k) {
			return nil, p.errf(ln, 1, "predict: expected question:, choices:, answer:, explain:, at: or a '- ' choice, found %q", clip(raw))
		}
		if prev, dup := seen[k]; dup {
			return nil, p.errf(ln, 1, "predict: %s given twice (first at line %d): expected each key once", k, prev)
		}
		seen[k] = ln
		col := len(k) + 1 + len(v) - len(strings.TrimLeft(v, " \t"))
		v = strings.TrimSpace(v)
		f := &fragment{line: ln}
		f.add(v, col)
		inChoices = false
		cur = f
		switch k {
		case "question":
			question = f
		case "explain":
			explain = f
		case "answer":
			answer = f
		case "at":
			at = f
		case "choices":
			if v != "" {
				return nil, p.errf(ln, col+1, "choices: expected the choices on the following lines, each as '- text', found %q after choices:", clip(v))
			}
			choicesLine = ln
			inChoices = true
			cur = nil
		default:
			return nil, p.errf(ln, 1, "predict: unknown key %q: expected question, choices, answer, explain or at", k)
		}
	}
	// Dedent continuation lines.
	all := append([]*fragment{question, explain, answer, at}, choices...)
	for _, f := range all {
		if f != nil {
			dedent(f)
		}
	}
	if question == nil {
		return nil, p.errf(open, 1, "predict: expected a question: line, found none")
	}
	if question = question.trimmed(); question.oneLine() == "" {
		return nil, p.errf(question.line, question.cols[0]+1, "question: expected the question's text, found nothing")
	}
	if len(choices) < 2 {
		at := open
		if choicesLine > 0 {
			at = choicesLine
		}
		return nil, p.errf(at, 1, "predict: expected at least two choices ('- text' lines after choices:), found %d", len(choices))
	}
	if answer == nil {
		return nil, p.errf(open, 1, "predict: expected an answer: line (the number of the right choice, 1 for the first), found none")
	}
	answer = answer.trimmed()
	n, err := strconv.Atoi(answer.oneLine())
	if err != nil || n < 1 || n > len(choices) || len(answer.text) > 1 {
		return nil, p.errf(answer.line, answer.cols[0]+1, "answer: expected a choice number from 1 to %d, found %q", len(choices), answer.oneLine())
	}
	q.Answer = n - 1
	if explain == nil {
		return nil, p.errf(open, 1, "predict: expected an explain: line (shown after the guess), found none")
	}
	if explain = explain.trimmed(); explain.oneLine() == "" {
		return nil, p.errf(explain.line, explain.cols[0]+1, "explain: expected the explanation's text, found nothing")
	}
	if at == nil {
		return nil, p.errf(open, 1, "predict: expected an at: line, the moment the question is about (the player stops just before it): one of %s, or none in a step without events", trace.MomentNames())
	}
	at = at.trimmed()
	q.AtLine, q.AtCol = at.line, at.cols[0]+1
	if len(at.text) > 1 {
		return nil, p.errf(at.line+1, 1, "at: expected one line, found a continuation line %q", clip(strings.TrimSpace(at.text[1])))
	}
	if v := strings.TrimSpace(at.text[0]); v != "none" {
		if q.At, err = p.parseStop(at.text[0], at.line, at.cols[0]+1, "at:"); err != nil {
			return nil, err
		}
	}
	q.Prompt = question.oneLine()
	if q.PromptSpans, err = p.conv.inlineSpans(question.markdown(), question.line, question.colOf); err != nil {
		return nil, err
	}
	for _, c := range choices {
		c = c.trimmed()
		q.Choices = append(q.Choices, c.oneLine())
		spans, err := p.conv.inlineSpans(c.markdown(), c.line, c.colOf)
		if err != nil {
			return nil, err
		}
		q.ChoiceSpans = append(q.ChoiceSpans, spans)
	}
	q.ExplainMarkdown = explain.markdown()
	if q.Explain, err = p.conv.fragment(q.ExplainMarkdown, explain.line, explain.colOf); err != nil {
		return nil, err
	}
	return q, nil
}

// dedent removes the common indentation of a fragment's continuation lines
// (every entry after the first), recording it for error columns.
func dedent(f *fragment) {
	indent := -1
	for _, t := range f.text[1:] {
		if strings.TrimSpace(t) == "" {
			continue
		}
		n := len(t) - len(strings.TrimLeft(t, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	if indent <= 0 {
		return
	}
	for i := 1; i < len(f.text); i++ {
		if strings.TrimSpace(f.text[i]) == "" {
			f.text[i] = ""
			continue
		}
		f.text[i] = f.text[i][indent:]
		f.cols[i] = indent
	}
}
