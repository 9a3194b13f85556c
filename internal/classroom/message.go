package classroom

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// MaxMessage is the largest message, in bytes, a client may send
// (docs/classroom.md): a larger one closes its connection with status
// 1009.
const MaxMessage = 4096

// MaxName is the longest nickname, in characters, after trimming.
const MaxName = 32

// in is a client's message as decoded: every field a pointer, so that a
// missing field (or JSON null) is told from a zero one. Unknown fields
// are ignored (a newer client may send more).
type in struct {
	T       *string `json:"t"`
	Role    *string `json:"role"`
	Token   *string `json:"token"`
	Room    *string `json:"room"`
	Name    *string `json:"name"`
	ID      *string `json:"id"`
	Lesson  *string `json:"lesson"`
	Step    *int    `json:"step"`
	Pos     *int    `json:"pos"`
	Playing *bool   `json:"playing"`
	Round   *int    `json:"round"`
	Choice  *int    `json:"choice"`
}

// decode parses one message; the error is a sentence saying what was
// wrong and what was expected.
func decode(msg []byte) (*in, error) {
	var m in
	if err := json.Unmarshal(msg, &m); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te) && te.Field == "":
			return nil, fmt.Errorf("a message is one JSON object, found a JSON %s", te.Value)
		case errors.As(err, &te):
			return nil, fmt.Errorf("field %s: expected %s, found %s", te.Field, kind(te.Type.Kind().String()), te.Value)
		case errors.As(err, &se):
			return nil, fmt.Errorf("malformed JSON at byte %d: %v; a message is one JSON object", se.Offset, se)
		default:
			return nil, fmt.Errorf("malformed JSON: %v; a message is one JSON object", err)
		}
	}
	if m.T == nil {
		return nil, errors.New(`no field t: every message names its type, e.g. {"t":"hello",...}`)
	}
	return &m, nil
}

// kind names a Go kind as a JSON value.
func kind(k string) string {
	switch k {
	case "int":
		return "a whole number"
	case "bool":
		return "true or false"
	case "string":
		return "a string"
	}
	return k
}

// need is the error of a message that lacks a required field.
func need(t, field, what string) error {
	return fmt.Errorf("%s: expected field %s (%s)", t, field, what)
}

// Welcome answers a hello.
type Welcome struct {
	T    string `json:"t"`            // "welcome"
	ID   string `json:"id,omitempty"` // a student's resume id; none for the teacher (its token is its resume)
	Role string `json:"role"`
	Room string `json:"room"`
}

// Error tells one client what was wrong with its message.
type Error struct {
	T      string `json:"t"` // "error"
	Reason string `json:"reason"`
	// Fatal: the server closes the connection after this message.
	Fatal bool `json:"fatal,omitempty"`
}

// State is where the class is, the same for everyone; a student's copy
// adds Mine (see Room.AppendState).
type State struct {
	T        string `json:"t"` // "state"
	V        int    `json:"v"`
	Lesson   string `json:"lesson"`
	Step     int    `json:"step"`
	Pos      int    `json:"pos"`
	Playing  bool   `json:"playing"`
	Students int    `json:"students"`
	Ended    bool   `json:"ended"`
	Q        *Q     `json:"q,omitempty"`
	// Mine is a student's answer in the current round (0: none); absent
	// for the teacher and when the step has no question.
	Mine *int `json:"mine,omitempty"`
}

// Q is the question of the step the class is on.
type Q struct {
	Step     int  `json:"step"`
	Round    int  `json:"round"`
	Choices  int  `json:"choices"`
	Locked   bool `json:"locked"`
	Revealed bool `json:"revealed"`
	Answered int  `json:"answered"`
	// Counts, Right and Rounds only once Revealed.
	Counts []int   `json:"counts,omitempty"`
	Right  int     `json:"right,omitempty"`
	Rounds [][]int `json:"rounds,omitempty"`
}

// trimName is a nickname as kept: trimmed; an error when it is too long
// or holds control characters.
func trimName(s string) (string, error) {
	s = strings.TrimSpace(s)
	if n := len([]rune(s)); n > MaxName {
		return "", fmt.Errorf("hello: name is %d characters; expected at most %d", n, MaxName)
	}
	for _, c := range s {
		if c < ' ' || c == 0x7f {
			return "", errors.New("hello: name holds a control character; expected plain text")
		}
	}
	return s, nil
}
