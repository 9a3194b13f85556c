package main

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"bufferlab/engine/scenario"
	"bufferlab/lessons"
)

// The scenario sandbox's Go half that needs no browser: what the editor
// shows while one types (diagnose), the gallery of embedded scenarios to
// start from. sandbox_js.go puts them on window.bufferlab.

// diag is one error for the editor: where (1-based line and column, in
// characters of the line as the editor counts them) and what.
type diag struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	// Check is set for an expect that failed when the scenario ran (not a
	// mistake in the text).
	Check bool `json:"check,omitempty"`
}

// sandboxFile is the name a scenario typed in the sandbox or carried in a
// link has: its errors and its title (when it has no comment line) say it.
const sandboxFile = "scenario.scn"

// diagnose parses text as the CLI does (scenario.Parse, and a scenario must
// say something) and returns its error for the editor, or none. The
// parser stops at the first error, so there is at most one. Cost: one
// parse, O(len(text)): cheap enough for every keystroke (the editor waits
// for a pause in typing anyway).
func diagnose(text string) []diag {
	s, err := scenario.Parse(sandboxFile, text)
	if err == nil {
		err = s.RequireStatements()
	}
	if err == nil {
		return nil
	}
	return diagsOf(text, err)
}

// diagsOf turns an error from parsing or running text into diagnostics:
// a positioned scenario.Error at its place (its column, in bytes, turned
// into characters of its line), anything else at 1:1.
func diagsOf(text string, err error) []diag {
	var se *scenario.Error
	if !errors.As(err, &se) {
		return []diag{{Line: 1, Col: 1, Message: err.Error()}}
	}
	lines := strings.Split(text, "\n")
	line, col := max(se.Pos.Line, 1), max(se.Pos.Col, 1)
	if line <= len(lines) {
		l := lines[line-1]
		col = len([]rune(l[:min(col-1, len(l))])) + 1
	}
	return []diag{{Line: line, Col: col, Message: se.Msg, Check: se.Check}}
}

// galleryEntry is an embedded scenario offered as a start.
type galleryEntry struct {
	Name  string `json:"name"`  // its file name without .scn
	Title string `json:"title"` // its first comment line
	Text  string `json:"text"`
}

// gallery lists the embedded scenarios (lessons.Scenarios), by file name.
func gallery() ([]galleryEntry, error) {
	names, err := fs.Glob(lessons.Scenarios, "scenarios/*.scn")
	if err != nil {
		return nil, err
	}
	var out []galleryEntry
	for _, n := range names {
		b, err := fs.ReadFile(lessons.Scenarios, n)
		if err != nil {
			return nil, err
		}
		text := string(b)
		title, _, _ := strings.Cut(text, "\n")
		title = strings.TrimSpace(strings.TrimPrefix(title, "#"))
		out = append(out, galleryEntry{Name: strings.TrimSuffix(path.Base(n), ".scn"), Title: title, Text: text})
	}
	return out, nil
}
