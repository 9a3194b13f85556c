package lessons

import (
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"

	"bufferlab/engine/scenario"
)

// Lesson is a parsed lesson file.
type Lesson struct {
	// Name comes from the file name (see the package documentation):
	// "01-shared-buffers.md" is the lesson "shared-buffers".
	Name string
	// Title and Summary come from the front matter.
	Title, Summary string
	// File is the file name given to Parse; every error names it.
	File string
	// Order sorts lessons: the front matter's order, else the file name's
	// numeric prefix, else 0.
	Order int
	// Config is the front matter's config value ("" when absent: the
	// scenario defaults, shared_buffers=128kB).
	Config string
	// Intro is the prose before the first step.
	Intro []Block
	// IntroMarkdown is the Markdown source of Intro.
	IntroMarkdown string
	// Steps are the "## " sections, in order.
	Steps []Step
	// Script is the lesson's whole scenario: the config line and the lines
	// of every scenario and expect block, at their own line numbers.
	Script *scenario.Script
	// ScenarioSource is the text Script was parsed from: line N of it is line
	// N of the lesson file, blank where the file has no scenario text.
	ScenarioSource string
}

// Step is one "## " section of a lesson.
type Step struct {
	Title string
	// Line is the line of the step's heading.
	Line int
	// Prose is the step's text before its scenario block (all of it when
	// the step has none), without its predict and expect blocks: a player
	// shows it before the scenario runs.
	Prose []Block
	// Markdown is the Markdown source of Prose: the lines after the heading
	// (up to the scenario block) with the predict and expect blocks removed.
	Markdown string
	// After is the step's text after its scenario block, for a player to
	// show once the scenario has run (say, what just happened);
	// AfterMarkdown is its source.
	After         []Block
	AfterMarkdown string
	// Predict is the question to ask before the scenario runs, or nil.
	Predict *Question
	// Scenario is the step's scenario block, or nil.
	Scenario *Fence
	// Expect is the step's expect block (checked after the scenario ran),
	// or nil.
	Expect *Fence
	// Stops are the key moments of its ```stops block (none without
	// one): the player stops just before each, as it does before the
	// question's moment (Question.At). StopsLine is the block's line.
	Stops     []Stop
	StopsLine int
}

// Questions counts the steps with a predict block.
func (l *Lesson) Questions() int {
	n := 0
	for _, s := range l.Steps {
		if s.Predict != nil {
			n++
		}
	}
	return n
}

// Fence is a scenario or expect block of a step.
type Fence struct {
	// Line and EndLine are the lines of the opening and closing fences.
	Line, EndLine int
	// Text is the block's content, its lines joined by "\n".
	Text string
	// Stmts are the block's statements (from Lesson.Script).
	Stmts []scenario.Stmt
}

// Question is a predict block: a multiple-choice question asked before the
// step's scenario runs; Explain is revealed after the guess.
type Question struct {
	// Line is the line of the opening ```predict fence.
	Line int
	// Prompt is the question as written (continuation lines joined with
	// spaces); PromptSpans is its rich text.
	Prompt      string
	PromptSpans []Span
	// Choices are the choices as written; ChoiceSpans their rich text.
	Choices     []string
	ChoiceSpans [][]Span
	// Answer is the 0-based index of the right choice in Choices. (The file
	// writes it 1-based: "answer: 1" is the first choice.)
	Answer int
	// Explain is the explanation shown after the guess; ExplainMarkdown its
	// source.
	Explain         []Block
	ExplainMarkdown string
	// At is the moment the question is about (its at: line): the player
	// stops just before that event and asks the question there. Nil for
	// at: none, a question in a step without events (asked as the step
	// opens). AtLine and AtCol are where the at: value is written.
	At            *Stop
	AtLine, AtCol int
}

// MaxLessonBytes bounds the size of one lesson file.
const MaxLessonBytes = 1 << 20

// The fenced block kinds a lesson plays.
const (
	fencePredict  = "predict"
	fenceScenario = "scenario"
	fenceExpect   = "expect"
	fenceStops    = "stops"
)

func isSpecialFence(lang string) bool {
	return lang == fencePredict || lang == fenceScenario || lang == fenceExpect || lang == fenceStops
}

// errorf makes a positioned format error. Lessons report every error as a
// *scenario.Error, so that one type covers format errors, scenario errors
// and failed expects (Check set).
func errorf(file string, line, col int, format string, args ...any) error {
	if col < 1 {
		col = 1
	}
	return &scenario.Error{File: file, Pos: scenario.Pos{Line: line, Col: col}, Msg: fmt.Sprintf(format, args...)}
}

// NameFromFile returns the lesson name and order prefix a file name gives:
// the base name without ".md", less a numeric prefix and its separator
// ("01-shared-buffers.md" → "shared-buffers", 1). hasOrder reports whether
// there was a prefix.
func NameFromFile(file string) (name string, order int, hasOrder bool) {
	base := path.Base(filepath.ToSlash(file))
	base = strings.TrimSuffix(base, ".md")
	i := 0
	for i < len(base) && base[i] >= '0' && base[i] <= '9' {
		i++
	}
	if i > 0 && i < len(base) && (base[i] == '-' || base[i] == '_') {
		if n, err := strconv.Atoi(base[:i]); err == nil {
			return base[i+1:], n, true
		}
	}
	return base, 0, false
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// parser holds the state of one Parse.
type parser struct {
	file  string
	lines []string // the file's lines, without "\n" or a final "\r"
	l     *Lesson
	conv  *converter
	scn   []string // the combined scenario, one entry per file line

	configLine int
	// cut marks the lines of predict, stops, scenario and expect blocks
	// (fences included), left out of Step.Markdown.
	cut []bool
	// owner maps a line inside a scenario or expect block to its step and
	// fence.
	owner map[int]*Fence
	// kind maps a fence to its kind (scenario or expect).
	kind map[*Fence]string
}

func (p *parser) errf(line, col int, format string, args ...any) error {
	return errorf(p.file, line, col, format, args...)
}

// Parse parses a lesson. file names the lesson in errors and gives its name
// (see NameFromFile). Every error is a *scenario.Error naming file:line:col.
func Parse(file string, src []byte) (*Lesson, error) {
	if len(src) > MaxLessonBytes {
		return nil, errorf(file, 1, 1, "the lesson is %d bytes long; the limit is %d", len(src), MaxLessonBytes)
	}
	name, order, _ := NameFromFile(file)
	if !validName(name) {
		return nil, errorf(file, 1, 1, "the file name gives the lesson name %q: expected letters, digits, '-' and '_' (as in 01-shared-buffers.md)", name)
	}
	p := &parser{file: file, l: &Lesson{Name: name, File: file, Order: order},
		owner: map[int]*Fence{}, kind: map[*Fence]string{}}
	text := string(src)
	p.lines = strings.Split(text, "\n")
	for i, ln := range p.lines {
		p.lines[i] = strings.TrimSuffix(ln, "\r")
	}
	p.scn = make([]string, len(p.lines))
	p.cut = make([]bool, len(p.lines)+2)
	fmEnd, err := p.frontMatter()
	if err != nil {
		return nil, err
	}
	// Blank the front matter (keeping every byte offset) so that Markdown
	// sees only the body.
	body := []byte(text)
	for i, n := 0, 0; i < len(body) && n < fmEnd; i++ {
		if body[i] == '\n' {
			n++
		} else {
			body[i] = ' '
		}
	}
	p.conv = &converter{file: file, src: body, lines: newLineIndex(body)}
	if err := p.conv.checkNesting(); err != nil {
		return nil, err
	}
	if err := p.body(parseMarkdown(body), fmEnd); err != nil {
		return nil, err
	}
	if err := p.scenario(); err != nil {
		return nil, err
	}
	if err := p.checkPanes(); err != nil {
		return nil, err
	}
	return p.l, nil
}

// frontMatter parses the lines between the two "---" lines and returns the
// line number of the closing one.
func (p *parser) frontMatter() (int, error) {
	if strings.TrimRight(p.lines[0], " \t") != "---" {
		return 0, p.errf(1, 1, "expected front matter: a first line '---', then key: value lines (title: …), then '---'; found %q", clip(p.lines[0]))
	}
	end := 0
	for i := 1; i < len(p.lines); i++ {
		if strings.TrimRight(p.lines[i], " \t") == "---" {
			end = i + 1
			break
		}
	}
	if end == 0 {
		return 0, p.errf(1, 1, "the front matter opened here is not closed: expected a '---' line after its key: value lines")
	}
	seen := map[string]int{}
	sawTitle := false
	for ln := 2; ln < end; ln++ {
		line := p.lines[ln-1]
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok || !isKey(k) {
			return 0, p.errf(ln, 1, "front matter: expected key: value (title, order, config or summary), found %q", clip(line))
		}
		if prev, dup := seen[k]; dup {
			return 0, p.errf(ln, 1, "front matter: %s given twice (first at line %d): expected each key once", k, prev)
		}
		seen[k] = ln
		col := len(k) + 2 + len(v) - len(strings.TrimLeft(v, " \t"))
		v = unquote(strings.TrimSpace(v))
		switch k {
		case "title":
			if v == "" {
				return 0, p.errf(ln, col, "title: expected the lesson's title, found nothing")
			}
			p.l.Title, sawTitle = v, true
		case "summary":
			if v == "" {
				return 0, p.errf(ln, col, "summary: expected one sentence for the lesson list, found nothing")
			}
			p.l.Summary = v
		case "order":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return 0, p.errf(ln, col, "order: expected a whole number (0, 1, 2, …), found %q", v)
			}
			p.l.Order = n
		case "config":
			if v == "" {
				return 0, p.errf(ln, col, "config: expected scenario settings such as shared_buffers=128kB, found nothing")
			}
			p.l.Config = v
			p.configLine = ln
			// "config: X" becomes "config  X": the scenario parser sees a
			// config statement whose words keep their columns.
			p.scn[ln-1] = "config " + line[len("config:"):]
		default:
			return 0, p.errf(ln, 1, "front matter: unknown key %q: expected title, order, config or summary", k)
		}
	}
	if !sawTitle {
		return 0, p.errf(1, 1, "front matter: expected a title: line, found none")
	}
	return end, nil
}

func isKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c == '_') {
			return false
		}
	}
	return true
}

func unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return v[1 : len(v)-1]
	}
	return v
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// body walks the Markdown document: "## " headings start steps, the
// predict, scenario and expect blocks are taken out, everything else is
// prose.
func (p *parser) body(doc ast.Node, fmEnd int) error {
	var cur *Step
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		at := nodeStart(n)
		line := p.conv.line(at)
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 1 {
				return p.errf(line, 1, "expected '## ' to start a step, found a level-1 heading (the lesson's title is the front matter's title:)")
			}
			if n.Level == 2 {
				spans, err := p.conv.inlines(n, 0, "", nil)
				if err != nil {
					return err
				}
				title := strings.TrimSpace(SpansText(spans))
				if title == "" {
					return p.errf(line, 1, "expected a step title after '## ', found nothing")
				}
				p.l.Steps = append(p.l.Steps, Step{Title: title, Line: line})
				cur = &p.l.Steps[len(p.l.Steps)-1]
				continue
			}
		case *ast.FencedCodeBlock:
			info := ""
			if n.Info != nil {
				info = strings.TrimSpace(string(n.Info.Segment.Value(p.conv.src)))
			}
			word, rest, _ := strings.Cut(info, " ")
			if isSpecialFence(word) {
				if cur == nil {
					return p.errf(line, 1, "expected a '## ' step heading before this ```%s block (the introduction has prose only)", word)
				}
				if rest = strings.TrimSpace(rest); rest != "" {
					return p.errf(line, 1, "expected nothing after ```%s, found %q", word, rest)
				}
				if err := p.special(cur, word, n, line); err != nil {
					return err
				}
				continue
			}
		}
		var err error
		switch {
		case cur == nil:
			p.l.Intro, err = p.conv.blocks(n, 0, 0, p.l.Intro)
		case cur.Scenario != nil:
			cur.After, err = p.conv.blocks(n, 0, 0, cur.After)
		default:
			cur.Prose, err = p.conv.blocks(n, 0, 0, cur.Prose)
		}
		if err != nil {
			return err
		}
	}
	if len(p.l.Steps) == 0 {
		return p.errf(min(fmEnd+1, len(p.lines)), 1, "expected at least one step (a '## Title' heading), found none")
	}
	first := p.l.Steps[0].Line
	p.l.IntroMarkdown = p.markdown(fmEnd+1, first-1)
	for i := range p.l.Steps {
		s := &p.l.Steps[i]
		end := len(p.lines)
		if i+1 < len(p.l.Steps) {
			end = p.l.Steps[i+1].Line - 1
		}
		start := s.Line + 1
		if !strings.HasPrefix(strings.TrimSpace(p.lines[s.Line-1]), "#") {
			start++ // a setext heading: its underline
		}
		if s.Scenario != nil {
			s.Markdown = p.markdown(start, s.Scenario.Line-1)
			s.AfterMarkdown = p.markdown(s.Scenario.EndLine+1, end)
		} else {
			s.Markdown = p.markdown(start, end)
		}
	}
	return nil
}

// markdown returns lines from..to (1-based, inclusive) less the cut ones,
// trimmed of blank lines at both ends.
func (p *parser) markdown(from, to int) string {
	var keep []string
	for ln := from; ln <= to && ln <= len(p.lines); ln++ {
		if !p.cut[ln] {
			keep = append(keep, p.lines[ln-1])
		}
	}
	for len(keep) > 0 && strings.TrimSpace(keep[0]) == "" {
		keep = keep[1:]
	}
	for len(keep) > 0 && strings.TrimSpace(keep[len(keep)-1]) == "" {
		keep = keep[:len(keep)-1]
	}
	return strings.Join(keep, "\n")
}

// fenceBounds finds the closing fence of the block opened at line open and
// returns its line.
func (p *parser) fenceBounds(n *ast.FencedCodeBlock, open int, word string) (int, error) {
	last := open
	if segs := n.Lines(); segs.Len() > 0 {
		last = p.conv.line(segs.At(segs.Len() - 1).Start)
	}
	opener := strings.TrimLeft(p.lines[open-1], " ")
	if opener == "" || opener[0] != '`' && opener[0] != '~' {
		return 0, p.errf(open, 1, "internal: expected the ```%s fence on this line, found %q", word, clip(opener))
	}
	ch := opener[0]
	width := len(opener) - len(strings.TrimLeft(opener, string(ch)))
	closing := last + 1
	if closing <= len(p.lines) {
		c := strings.TrimLeft(p.lines[closing-1], " ")
		run := len(c) - len(strings.TrimLeft(c, string(ch)))
		if run >= width && strings.TrimSpace(c[run:]) == "" {
			return closing, nil
		}
	}
	return 0, p.errf(open, 1, "the ```%s block opened here is not closed: expected a closing %s line", word, strings.Repeat(string(ch), width))
}

// special takes in a predict, stops, scenario or expect block of step cur.
func (p *parser) special(cur *Step, word string, n *ast.FencedCodeBlock, open int) error {
	closing, err := p.fenceBounds(n, open, word)
	if err != nil {
		return err
	}
	for ln := open; ln <= closing; ln++ {
		p.cut[ln] = true
	}
	switch word {
	case fencePredict:
		if cur.Predict != nil {
			return p.errf(open, 1, "a step has at most one ```predict block: found a second one (the first is at line %d)", cur.Predict.Line)
		}
		q, err := p.predict(open, closing)
		if err != nil {
			return err
		}
		cur.Predict = q
		return nil
	case fenceStops:
		if cur.StopsLine != 0 {
			return p.errf(open, 1, "a step has at most one ```stops block: found a second one (the first is at line %d)", cur.StopsLine)
		}
		st, err := p.stops(open, closing)
		if err != nil {
			return err
		}
		cur.Stops, cur.StopsLine = st, open
		return nil
	case fenceScenario:
		if cur.Scenario != nil {
			return p.errf(open, 1, "a step has at most one ```scenario block: found a second one (the first is at line %d); start a new '## ' step", cur.Scenario.Line)
		}
		if cur.Expect != nil {
			return p.errf(open, 1, "expected the ```scenario block before the step's ```expect block (line %d), found it after", cur.Expect.Line)
		}
	case fenceExpect:
		if cur.Expect != nil {
			return p.errf(open, 1, "a step has at most one ```expect block: found a second one (the first is at line %d)", cur.Expect.Line)
		}
	}
	f := &Fence{Line: open, EndLine: closing}
	var body []string
	for ln := open + 1; ln < closing; ln++ {
		body = append(body, p.lines[ln-1])
		p.scn[ln-1] = p.lines[ln-1]
		p.owner[ln] = f
	}
	f.Text = strings.Join(body, "\n")
	p.kind[f] = word
	if word == fenceScenario {
		cur.Scenario = f
	} else {
		cur.Expect = f
	}
	return nil
}

// scenario parses the lesson's combined scenario and hands each statement
// to its block.
func (p *parser) scenario() error {
	p.l.ScenarioSource = strings.Join(p.scn, "\n")
	script, err := scenario.Parse(p.file, p.l.ScenarioSource)
	if err != nil {
		return err
	}
	for _, st := range script.Stmts {
		pos := st.At()
		f := p.owner[pos.Line]
		if _, ok := st.(*scenario.ConfigStmt); ok {
			if pos.Line != p.configLine {
				return p.errf(pos.Line, pos.Col, "expected the configuration in the front matter (config: %s), found a config statement in a ```scenario block", strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p.lines[pos.Line-1]), "config")))
			}
			continue
		}
		if f == nil {
			return p.errf(pos.Line, pos.Col, "internal: statement outside any block")
		}
		if _, ok := st.(*scenario.ExpectStmt); !ok && p.kind[f] == fenceExpect {
			word, _, _ := strings.Cut(strings.TrimSpace(p.lines[pos.Line-1]), " ")
			return p.errf(pos.Line, pos.Col, "expected only expect statements in an ```expect block, found %q (put it in the step's ```scenario block)", word)
		}
		f.Stmts = append(f.Stmts, st)
	}
	p.l.Script = script
	return nil
}
