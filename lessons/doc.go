// Package lessons holds BufferLab's lessons, embedded so that every program
// (the CLI, the desktop app, the browser build) carries them, and the code
// that reads them (Parse, LoadDir, All) and plays them headless (Play).
//
// scenarios/ holds plain scenario files (the language of engine/scenario)
// that the CLI's demo plays; TestScenariosRun runs each. The *.md files
// beside this one are the lessons (DESIGN §5); README.md is the teachers'
// guide, not a lesson.
//
// # The lesson format
//
// A lesson is a Markdown (CommonMark) file. Example:
//
//	---
//	title: Shared buffers: hits, misses and the clock sweep
//	order: 1
//	config: shared_buffers=128kB
//	summary: One sentence shown in the lesson list.
//	---
//
//	Introduction: prose before the first step.
//
//	## The first miss
//
//	Prose for this step: paragraphs, *emphasis*, **strong**, `code`,
//	lists, ### sub-headings, and display code blocks (```sql).
//
//	```predict
//	question: A reads block 0 of a cold pool. Which buffer receives it?
//	choices:
//	- buffer 0
//	- buffer 15
//	answer: 1
//	at: victim
//	explain: The freelist hands out buffers in order, 0 first.
//	```
//
//	```scenario
//	relation t1 blocks=17
//	backend A: touch t1 0
//	run
//	```
//
//	```expect
//	expect block t1 0 in=0
//	```
//
// Front matter. The file starts with a line "---", then "key: value" lines,
// then "---". Keys: title (required), order (a whole number), config (the
// scenario settings, as on a scenario's config line: shared_buffers=128kB
// schedule=rr seed=7 max_steps=N) and summary (one sentence for the lesson
// list). A value may be wrapped in double quotes; blank lines and lines
// starting with # are ignored; any other key is an error.
//
// Name and order. The lesson's name is its file name without ".md" and
// without a numeric prefix and its '-' or '_': "01-shared-buffers.md" is the
// lesson "shared-buffers". The name may hold letters, digits, '-' and '_'.
// Lessons sort by order, then name; without an order key the prefix is the
// order (01 → 1), and without a prefix it is 0.
//
// Steps. Each "## " heading (level 2) starts a step; its text is the step's
// title. The prose between the front matter and the first step is the
// introduction (Lesson.Intro, not a step), and may not hold predict,
// scenario or expect blocks. A level-1 heading is an error (the title comes
// from the front matter); "###" and deeper headings are prose.
//
// A step holds, in any mix with its prose:
//
//   - at most one ```predict block: a multiple-choice question the player
//     asks just before the key moment it is about (at:); its explanation
//     is revealed after the guess;
//   - at most one ```stops block: further key moments the player stops at
//     (see Key moments);
//   - at most one ```scenario block: scenario statements (see package
//     engine/scenario) run when the step is played;
//   - at most one ```expect block, after the scenario block: expect
//     statements only, checked after the step's scenario ran.
//
// A step may have any of them or none. The prose before the scenario block
// (Step.Prose) is shown before it runs, the prose after it (Step.After) once
// it has run: say there what just happened. A step without a scenario block
// has all its prose in Step.Prose. All the scenario and expect blocks
// of a lesson form one scenario, run from the first step to the last: a
// step starts from the engine state the previous step left (relations,
// backends, the pool). The front matter's config is its config line; a
// config statement inside a block is an error. A scenario block may also
// hold expect statements (checked at that point) and show statements.
//
// Predict blocks have five keys, each starting a line at column 1:
//
//	question: the question (Markdown text; may continue on indented lines)
//	choices:
//	- a choice (at column 1; may continue on indented lines)
//	- another choice (at least two)
//	answer: the number of the right choice, 1 for the first
//	at: the key moment the question is about (a stop, below), or none
//	explain: the explanation (Markdown; indented lines continue it, and a
//	  blank line followed by indented lines starts a new paragraph)
//
// All five are required. Question.Answer in the API is 0-based.
//
// # Key moments
//
// A player stops on key moments (trace.Moment: a failed CAS, a victim, a
// dropped buffer, …), just before the moment's event: the event is next.
// A stop is written
//
//	MOMENT [BACKEND] [nth=N|nth=last] [pane=VARIANT]
//
// and names the step's first event that is that moment (by that backend
// when one is named), or its N-th, or its last, in the events of the pane
// that runs VARIANT in a lesson of several variants side by side (the
// first variant's without pane=). A question's at: is a stop: the player
// asks the question there and goes no further until it is answered. at:
// none is for a question in a step that runs no events, asked as the step
// opens. A ```stops block lists further stops, one a line (blank lines and
// # comments are skipped). Play finds every stop in the events
// (Played.Stops); one that does not occur, a backend the lesson does not
// declare, a pane= that names no variant, or at: none in a step with
// events is an error at the stop's position.
//
// Other fenced blocks are shown as code: a fence with no info string or
// with one of text, sql, psql, console, shell, sh, bash, c, go, diff, ini,
// conf. Any other info string is an error, so that a typo such as
// ```scenaro is reported instead of silently shown. Predict, stops, scenario
// and expect blocks must stand at the top level of a step, not inside a list or
// a quote. Raw HTML (other than <!-- comments -->) and images are errors:
// players draw text themselves.
//
// Errors. Every error, whether in the lesson's format, in its scenario, or
// a failed expect when the lesson is played, is a *scenario.Error printed
// as "file:line:col: what was expected, what was found", pointing into the
// Markdown file: Parse builds the lesson's scenario so that its line N is
// the file's line N (the lines of scenario and expect blocks copied, every
// other line blank, the config at the front matter's line), so the scenario
// parser's positions are the file's. A failed expect has Check set.
//
// # Rich text
//
// Prose is parsed with goldmark (CommonMark, no extensions) into Blocks
// (Paragraph, Heading, ListItem, CodeBlock, Rule) made of Spans (plain text
// with a Style: Emphasis, Strong, Code, and a URL for link text), for a
// renderer that draws text itself. Lists and quotes are flattened (see
// Block). Each step also keeps its Markdown source (Step.Markdown and
// Step.AfterMarkdown, without the predict, scenario and expect blocks) for
// an HTML view.
//
// # Playing
//
// Play runs a lesson headless with a traced scenario runner, statement by
// statement, and records for each step the range of its events in the log
// (StepStart, StepEnd), what its show statements printed, the relation and
// backend names, and where its stops are (Stops); it checks every expect
// and every stop. `bufferlab lessons check` and
// TestEmbeddedLessonsPlay do this for every lesson.
package lessons

import "embed"

// Scenarios holds the files under scenarios/.
//
//go:embed scenarios/*.scn
var Scenarios embed.FS

// Files holds the lesson files (*.md, and README.md, which is not a
// lesson: see IsLessonFile).
//
//go:embed *.md
var Files embed.FS
