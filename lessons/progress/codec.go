package progress

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Error is a progress file that cannot be read: File names it (a path, or
// where else it was kept), Line and Col, when known, the place in it
// (from 1), and Msg says what was found and what was expected.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Encode returns p as JSON (indented, with a final newline), with the
// format version this package writes.
func Encode(p *Progress) ([]byte, error) {
	out := Progress{Version: Version, Lessons: p.Lessons}
	if out.Lessons == nil {
		out.Lessons = map[string]*Lesson{}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Decode reads progress from data, the content of file (a name for
// errors). It checks the version first, then decodes strictly (a field it
// does not know is an error) and checks the values: every error is an
// *Error naming file and saying what was expected.
func Decode(file string, data []byte) (*Progress, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{File: file, Msg: fmt.Sprintf(`empty: expected a JSON object with "version": %d`, Version)}
	}
	// The version before anything else: a newer format may have fields
	// this one does not know, and its error should be about the version.
	// (Unmarshal also checks that data is one JSON value and nothing
	// after it.)
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, jsonError(file, data, err)
	}
	switch {
	case head.Version == nil:
		return nil, &Error{File: file, Msg: fmt.Sprintf(`no "version": expected "version": %d at the top level`, Version)}
	case *head.Version > Version:
		return nil, &Error{File: file, Msg: fmt.Sprintf("format version %d, newer than this BufferLab reads (%d): a newer BufferLab wrote it", *head.Version, Version)}
	case *head.Version != Version:
		return nil, &Error{File: file, Msg: fmt.Sprintf("format version %d: expected %d", *head.Version, Version)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	p := New()
	if err := dec.Decode(p); err != nil {
		return nil, jsonError(file, data, err)
	}
	if p.Lessons == nil {
		p.Lessons = map[string]*Lesson{}
	}
	if err := check(p); err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	if err := normalize(p); err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	return p, nil
}

// normalize gives p the one form Encode and Decode agree on, so that
// progress read from a file encodes and decodes to itself. Every time is
// brought to UTC: a time is an instant, and the offset a file wrote it
// with ("+02:00", or "+00:00" for UTC) carries no meaning here (a zero
// instant written "+00:00" would be omitted by the next Encode; "+00:00"
// comes back as "Z"). A time whose UTC year is outside 0 to 9999 cannot
// be written back (RFC 3339 has four digits): an error. An empty list of
// answers is no list (Encode omits it).
func normalize(p *Progress) error {
	utc := func(t *time.Time, what string) error {
		*t = t.UTC()
		if y := t.Year(); y < 0 || y > 9999 {
			return fmt.Errorf("%s is %s in UTC: expected a time in the years 0000 to 9999", what, t.Format(time.RFC3339))
		}
		return nil
	}
	for _, name := range p.names() {
		rec := p.Lessons[name]
		at := fmt.Sprintf("lessons[%q]", name)
		if err := utc(&rec.CompletedAt, at+".completedAt"); err != nil {
			return err
		}
		if err := utc(&rec.UpdatedAt, at+".updatedAt"); err != nil {
			return err
		}
		for i := range rec.Answers {
			if err := utc(&rec.Answers[i].At, fmt.Sprintf("%s.answers[%d].at", at, i)); err != nil {
				return err
			}
		}
		if len(rec.Answers) == 0 {
			rec.Answers = nil
		}
	}
	return nil
}

// check checks the values JSON cannot: names, steps, choices. It reports
// the first problem, in name order.
func check(p *Progress) error {
	for _, name := range p.names() {
		rec := p.Lessons[name]
		at := fmt.Sprintf("lessons[%q]", name)
		switch {
		case name == "":
			return errors.New(`a lesson record with an empty name: expected the name of a lesson ("pinning")`)
		case rec == nil:
			return fmt.Errorf("%s is null: expected an object", at)
		case rec.FurthestStep < 0:
			return fmt.Errorf("%s.furthestStep is %d: expected a step number, 0 or more", at, rec.FurthestStep)
		}
		for i, a := range rec.Answers {
			if a.Step < 0 {
				return fmt.Errorf("%s.answers[%d].step is %d: expected a step number, 0 or more", at, i, a.Step)
			}
			if a.Choice < 1 {
				return fmt.Errorf("%s.answers[%d].choice is %d: expected a choice number, 1 or more (choices count from 1)", at, i, a.Choice)
			}
		}
	}
	return nil
}

// jsonError turns an error of encoding/json into an *Error with the place
// in data where the decoder stopped and a sentence of what was expected.
func jsonError(file string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var tpe *time.ParseError
	switch {
	case errors.As(err, &syn) && syn.Offset >= int64(len(data)):
		line, col := position(data, len(data))
		return &Error{File: file, Line: line, Col: col, Msg: "the JSON ends too early (a cut file?): expected the rest of it"}
	case errors.As(err, &syn):
		// Offset counts the bytes read, the bad one included.
		line, col := position(data, int(syn.Offset)-1)
		return &Error{File: file, Line: line, Col: col, Msg: "not valid JSON: " + syn.Error()}
	case errors.As(err, &typ):
		// Offset is just past the value of the wrong type.
		line, col := position(data, int(typ.Offset)-1)
		what := "the top level"
		if typ.Field != "" {
			what = typ.Field
		}
		return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf("%s is %s: expected %s", what, article(typ.Value), expected(typ.Type))}
	case errors.As(err, &tpe):
		return &Error{File: file, Msg: fmt.Sprintf("a time %q: expected a time such as \"2026-03-01T10:15:00Z\" (RFC 3339)", tpe.Value)}
	}
	// DisallowUnknownFields: `json: unknown field "x"`.
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if strings.HasPrefix(msg, "unknown field") {
		msg += ": expected only version and lessons at the top level; furthestStep, completed, completedAt, updatedAt and answers in a lesson; step, choice, right and at in an answer"
	}
	return &Error{File: file, Msg: msg}
}

// article is a JSON value kind with its article ("a string", "an array").
func article(kind string) string {
	if kind == "" {
		return "a value"
	}
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// expected names what a Go type wants in JSON words.
func expected(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "an object"
	}
	return t.String()
}

// position is the line and column (from 1, in bytes) of the byte at
// index off of data (len(data): just past its end).
func position(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data)))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = off - bytes.LastIndexByte(before, '\n')
	return line, col
}

// names are p's lesson names in order: the order check and normalize
// report the first problem in.
func (p *Progress) names() []string {
	var names []string
	for name := range p.Lessons {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
