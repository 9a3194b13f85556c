package classroom

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"bufferlab/internal/goldentest"
	"bufferlab/lessons"
)

// The golden room's code and token.
const (
	testCode  = "ABC234"
	testToken = "TOKEN"
)

// testLessons parses the room directive's input: one lesson a line,
// "name: step step ...", each step "-" (no question) or "C/R" (C
// choices, the right one R, 1-based); step i's prompt is "name i?".
func testLessons(t *testing.T, d *goldentest.Case) []*lessons.Lesson {
	t.Helper()
	var ls []*lessons.Lesson
	for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
		name, steps, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("%s: %q: want name: steps", d.Pos, line)
		}
		l := &lessons.Lesson{Name: name}
		for i, s := range strings.Fields(steps) {
			var st lessons.Step
			if s != "-" {
				cs, rs, _ := strings.Cut(s, "/")
				c, err1 := strconv.Atoi(cs)
				r, err2 := strconv.Atoi(rs)
				if err1 != nil || err2 != nil || r < 1 || r > c {
					t.Fatalf("%s: step %q: want - or C/R", d.Pos, s)
				}
				st.Predict = &lessons.Question{Prompt: fmt.Sprintf("%s %d?", name, i), Choices: make([]string, c), Answer: r - 1}
			}
			l.Steps = append(l.Steps, st)
		}
		ls = append(ls, l)
	}
	return ls
}

// roomTest is one golden file's room and its connections by name.
type roomTest struct {
	r     *Room
	ids   map[string]ConnID
	names map[ConnID]string
	last  ConnID // the last ConnID given
}

func (rt *roomTest) conn(name string) ConnID {
	if c, ok := rt.ids[name]; ok {
		return c
	}
	rt.last++
	rt.ids[name], rt.names[rt.last] = rt.last, name
	return rt.last
}

func jsonLine(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// send runs each input line, "conn: message", and prints what it did.
func (rt *roomTest) send(t *testing.T, d *goldentest.Case) (string, error) {
	if rt.r == nil {
		return "", fmt.Errorf("send before room")
	}
	var b strings.Builder
	for _, line := range strings.Split(d.Input, "\n") {
		name, msg, ok := strings.Cut(line, ": ")
		if !ok {
			return "", fmt.Errorf("%q: want conn: message", line)
		}
		c := rt.conn(name)
		out := rt.r.Receive(c, []byte(msg))
		for _, rep := range out.Reply {
			fmt.Fprintf(&b, "%s <- %s\n", name, jsonLine(rep))
		}
		if k := out.Kick; k != nil {
			fmt.Fprintf(&b, "%s <- error (fatal): %s; closed\n", rt.names[k.Conn], k.Reason)
		}
		if out.Fatal {
			fmt.Fprintf(&b, "%s closed\n", name)
			rt.r.Leave(c)
			delete(rt.ids, name)
		}
		if out.Joined && !out.Changed {
			fmt.Fprintf(&b, "%s <- state v=%d\n", name, rt.r.V())
		}
		if out.Changed {
			rt.printState(&b)
		}
		if !out.Changed && !out.Joined && len(out.Reply) == 0 {
			fmt.Fprintf(&b, "(no change)\n")
		}
	}
	return b.String(), nil
}

// printState prints the state everyone gets and each student's mine.
func (rt *roomTest) printState(b *strings.Builder) {
	fmt.Fprintf(b, "all <- %s\n", jsonLine(rt.r.State()))
	var mines []string
	rt.r.Each(func(c ConnID) {
		if m, ok := rt.r.Mine(c); ok {
			mines = append(mines, fmt.Sprintf("%s=%d", rt.names[c], m))
		}
	})
	if len(mines) > 0 {
		slices.Sort(mines)
		fmt.Fprintf(b, "mine: %s\n", strings.Join(mines, " "))
	}
}

// TestRoomGolden runs testdata/room.txt, the room's rules one case at a
// time:
//
//	room [max=N]           a new room (code ABC234, token TOKEN) with the
//	                       lessons of its input ("name: - 3/2 ...")
//	send                   each line "conn: message" received from conn;
//	                       prints the replies, kicks, closes and the state
//	leave                  each line a connection that closes
//	csv [names]            the results file
//
// Regenerate with: go test ./internal/classroom -run RoomGolden -rewrite
func TestRoomGolden(t *testing.T) {
	var rt roomTest
	goldentest.RunFile(t, "testdata/room.txt", goldentest.Directives{
		"room": func(t *testing.T, d *goldentest.Case) (string, error) {
			n := 0
			rt = roomTest{ids: map[string]ConnID{}, names: map[ConnID]string{}}
			rt.r = NewRoom(RoomConfig{Code: testCode, Token: testToken, Lessons: testLessons(t, d),
				MaxStudents: goldentest.Int(t, d, "max", 500),
				NewID:       func() string { n++; return "id" + strconv.Itoa(n) }})
			return jsonLine(rt.r.State()) + "\n", nil
		},
		"send": rt.sendHandler(),
		"leave": func(t *testing.T, d *goldentest.Case) (string, error) {
			var b strings.Builder
			for _, name := range strings.Fields(d.Input) {
				c, ok := rt.ids[name]
				if !ok {
					return "", fmt.Errorf("leave %s: no such connection", name)
				}
				delete(rt.ids, name)
				if rt.r.Leave(c) {
					rt.printState(&b)
				} else {
					fmt.Fprintf(&b, "(no change)\n")
				}
			}
			return b.String(), nil
		},
		"csv": func(t *testing.T, d *goldentest.Case) (string, error) {
			var b strings.Builder
			err := rt.r.WriteCSV(&b, d.HasArg("names"))
			return b.String(), err
		},
	})
}

// sendHandler is send bound to rt as it is when the case runs (the room
// directive replaces rt's room).
func (rt *roomTest) sendHandler() goldentest.Handler {
	return func(t *testing.T, d *goldentest.Case) (string, error) { return rt.send(t, d) }
}
