//go:build !js

package classroom_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"bufferlab/internal/classroom"
	"bufferlab/internal/classroom/classclient"
	"bufferlab/internal/goldentest"
	"bufferlab/lessons"
)

const (
	code  = "ABC234"
	token = "0123456789abcdef0123456789abcdef"
)

// demo is a lesson of four steps: 1 asks a question of three choices
// (the second right), 3 one of two (the first right).
func demo() []*lessons.Lesson {
	q := func(prompt string, n, right int) *lessons.Question {
		return &lessons.Question{Prompt: prompt, Choices: make([]string, n), Answer: right - 1}
	}
	return []*lessons.Lesson{{Name: "demo", Steps: []lessons.Step{{}, {Predict: q("Which buffer, and why?", 3, 2)}, {}, {Predict: q("Pinned?", 2, 1)}}}}
}

// class is a server on a loopback socket and its address.
type class struct {
	s   *classroom.Server
	url string
}

func newClass(t *testing.T, cfg classroom.Config) *class {
	t.Helper()
	if cfg.Lessons == nil {
		cfg.Lessons = demo()
	}
	cfg.Code, cfg.Token = code, token
	s, err := classroom.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		s.Close()
		hs.Close()
	})
	return &class{s: s, url: "ws" + strings.TrimPrefix(hs.URL, "http") + classroom.Path}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func (k *class) dial(t *testing.T, h classclient.Hello) *classclient.Client {
	t.Helper()
	c, err := classclient.Dial(ctx(t), k.url, h, classclient.Options{})
	if err != nil {
		t.Fatalf("dial %+v: %v", h, err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func (k *class) teacher(t *testing.T) *classclient.Client {
	return k.dial(t, classclient.Hello{Role: "teacher", Token: token})
}

func (k *class) student(t *testing.T, name string) *classclient.Client {
	return k.dial(t, classclient.Hello{Role: "student", Room: code, Name: name})
}

// rejected dials with h and returns the refusal.
func (k *class) rejected(t *testing.T, h classclient.Hello) *classclient.RejectedError {
	t.Helper()
	c, err := classclient.Dial(ctx(t), k.url, h, classclient.Options{})
	var rej *classclient.RejectedError
	if !errors.As(err, &rej) {
		if c != nil {
			c.CloseNow()
		}
		t.Fatalf("dial %+v: %v; want a refused hello", h, err)
	}
	return rej
}

// settled waits until every client holds the server's last state and
// returns its v: no update lost.
func (k *class) settled(t *testing.T, cs ...*classclient.Client) int {
	t.Helper()
	v := k.s.Stats().V
	for i, c := range cs {
		if _, err := c.WaitV(ctx(t), v); err != nil {
			t.Fatalf("client %d: waiting for v %d: %v (last %+v)", i, v, err, c.State())
		}
	}
	return v
}

// send sends msg from c and waits until the server has read it.
func (k *class) send(t *testing.T, c *classclient.Client, msg string) {
	t.Helper()
	n := k.s.Stats().Messages
	if err := c.SendRaw(ctx(t), []byte(msg)); err != nil {
		t.Fatalf("send %s: %v", msg, err)
	}
	k.waitStats(t, func(s classroom.Stats) bool { return s.Messages > n })
}

// waitStats polls the server's counters until ok holds (a test's 30 s
// deadline bounds it).
func (k *class) waitStats(t *testing.T, ok func(classroom.Stats) bool) {
	t.Helper()
	c := ctx(t)
	for !ok(k.s.Stats()) {
		select {
		case <-c.Done():
			t.Fatalf("waiting for the server: %+v", k.s.Stats())
		case <-time.After(time.Millisecond):
		}
	}
}

// A class over real sockets: join, answer, lock, reveal, reask, a late
// joiner, a student who drops and comes back with its id; every client
// ends with the server's last state.
func TestClass(t *testing.T) {
	k := newClass(t, classroom.Config{})
	tc := k.teacher(t)
	a, b := k.student(t, "Ada"), k.student(t, "")
	k.send(t, tc, `{"t":"goto","lesson":"demo","step":1,"pos":5,"playing":false}`)
	k.send(t, a, `{"t":"answer","step":1,"round":1,"choice":2}`)
	k.send(t, b, `{"t":"answer","step":1,"round":1,"choice":3}`)
	k.settled(t, tc, a, b)
	if st := a.State(); st.Q == nil || st.Q.Answered != 2 || *st.Mine != 2 || st.Q.Counts != nil {
		t.Fatalf("after two answers, a sees %+v (q %+v): want 2 answered, mine 2, no counts", st, st.Q)
	}
	k.send(t, tc, `{"t":"reveal"}`)
	k.send(t, b, `{"t":"answer","step":1,"round":1,"choice":1}`)
	if errs, err := b.WaitErrors(ctx(t), 1); err != nil || !strings.Contains(errs[0].Reason, "locked") {
		t.Fatalf("an answer after reveal: errors %v (%v); want one saying the round is locked", errs, err)
	}
	late := k.student(t, "Late")
	k.settled(t, tc, a, b, late)
	if st := late.State(); !slices.Equal(st.Q.Counts, []int{0, 1, 1}) || st.Q.Right != 2 || *st.Mine != 0 || st.Students != 3 {
		t.Fatalf("the late joiner sees %+v (q %+v): want counts [0 1 1], right 2, mine 0, 3 students", st, st.Q)
	}
	k.send(t, tc, `{"t":"reask"}`)
	k.send(t, a, `{"t":"answer","step":1,"round":2,"choice":1}`)
	id := a.Welcome().ID
	a.CloseNow() // a vanishes
	k.waitStats(t, func(s classroom.Stats) bool { return s.Students == 2 })
	a2 := k.dial(t, classclient.Hello{Role: "student", Room: code, ID: id})
	v := k.settled(t, tc, a2, b, late)
	if st := a2.State(); a2.Welcome().ID != id || *st.Mine != 1 || st.Q.Round != 2 || st.Students != 3 {
		t.Fatalf("a back with its id sees %+v (q %+v), id %q: want its answer 1 in round 2, 3 students, id %q", st, st.Q, a2.Welcome().ID, id)
	}
	if s := k.s.Stats(); s.Answers != 3 || s.Students != 3 || s.V != v {
		t.Fatalf("stats %+v: want 3 answers, 3 students, v %d", s, v)
	}
}

// The teacher who reloads: the new page takes over, the old one is
// closed with a reason; the class goes on where it was.
func TestTeacherReconnects(t *testing.T) {
	k := newClass(t, classroom.Config{})
	t1 := k.teacher(t)
	s := k.student(t, "")
	k.send(t, t1, `{"t":"goto","lesson":"demo","step":3}`)
	t2 := k.teacher(t)
	if code := t1.Ended(ctx(t)); code != websocket.StatusPolicyViolation {
		t.Fatalf("the old teacher page ended with %d; want 1008", code)
	}
	if errs := t1.Errors(); len(errs) != 1 || !errs[0].Fatal || !strings.Contains(errs[0].Reason, "another page") {
		t.Fatalf("the old teacher page got %+v; want one fatal error naming the other page", errs)
	}
	k.send(t, t2, `{"t":"lock"}`)
	k.settled(t, t2, s)
	if st := s.State(); st.Step != 3 || !st.Q.Locked {
		t.Fatalf("after the new teacher's lock the student sees %+v; want step 3 locked", st)
	}
}

// Refused hellos: a wrong token, an unknown room, a full class. Each
// gets a reason and a close with 1008; the class goes on.
func TestRefused(t *testing.T) {
	k := newClass(t, classroom.Config{MaxStudents: 2})
	tc := k.teacher(t)
	k.student(t, "")
	last := k.student(t, "")
	for _, c := range []struct {
		h    classclient.Hello
		want string
	}{
		{classclient.Hello{Role: "teacher", Token: "guess"}, "wrong teacher token"},
		{classclient.Hello{Role: "student", Room: "ZZZZZZ"}, `no class with code "ZZZZZZ"`},
		{classclient.Hello{Role: "student", Room: code}, "the class is full (2 students)"},
	} {
		rej := k.rejected(t, c.h)
		if !strings.Contains(rej.Reason, c.want) || rej.Status != websocket.StatusPolicyViolation {
			t.Errorf("hello %+v: %v; want %q and status 1008", c.h, rej, c.want)
		}
	}
	k.send(t, tc, `{"t":"goto","lesson":"demo","step":1}`)
	k.settled(t, tc, last)
}

// A message over 4096 bytes closes its connection with 1009 and a
// reason; the others go on.
func TestOversized(t *testing.T) {
	k := newClass(t, classroom.Config{})
	tc := k.teacher(t)
	big, other := k.student(t, ""), k.student(t, "")
	msg := `{"t":"answer","pad":"` + strings.Repeat("x", classroom.MaxMessage) + `"}`
	if err := big.SendRaw(ctx(t), []byte(msg)); err != nil {
		t.Fatal(err)
	}
	if code := big.Ended(ctx(t)); code != websocket.StatusMessageTooBig {
		t.Fatalf("after %d bytes the connection ended with %d; want 1009", len(msg), code)
	}
	if errs := big.Errors(); len(errs) != 1 || !strings.Contains(errs[0].Reason, "at most 4096 bytes") {
		t.Fatalf("errors %+v: want one naming the 4096-byte limit", errs)
	}
	// Exactly 4096 bytes is a message like any other.
	ok := `{"t":"goto","lesson":"demo","step":1,"pad":"` + strings.Repeat("x", classroom.MaxMessage-46) + `"}`
	if len(ok) != classroom.MaxMessage {
		t.Fatalf("test message is %d bytes", len(ok))
	}
	k.waitStats(t, func(s classroom.Stats) bool { return s.Students == 1 }) // the server has forgotten big
	k.send(t, tc, ok)
	k.settled(t, tc, other)
	if st := other.State(); st.Step != 1 || st.Students != 1 {
		t.Fatalf("the other student sees %+v; want step 1, 1 student", st)
	}
}

// ticking is a clock that moves 10 ms each time it is read: a client's
// messages arrive 100 a second, whatever the machine's speed.
type ticking struct {
	mu sync.Mutex
	t  time.Time
}

func (c *ticking) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(10 * time.Millisecond)
	return c.t
}

// A client flooding at 100 messages a second against 20 (bursts of 40):
// one error when its messages start to be dropped, then, 5 s into the
// flood, a last error and a close with 1008. The others go on.
func TestFlood(t *testing.T) {
	clock := &ticking{t: time.Unix(0, 0)}
	k := newClass(t, classroom.Config{Now: clock.now})
	tc := k.teacher(t)
	k.send(t, tc, `{"t":"goto","lesson":"demo","step":1}`)
	flood, calm := k.student(t, ""), k.student(t, "")
	msg := []byte(`{"t":"answer","step":1,"round":1,"choice":1}`)
	sent := 0
	for ; sent < 5000; sent++ {
		if flood.SendRaw(ctx(t), msg) != nil {
			break // closed
		}
	}
	if code := flood.Ended(ctx(t)); code != websocket.StatusPolicyViolation {
		t.Fatalf("after %d messages the flood ended with %d; want 1008", sent, code)
	}
	errs := flood.Errors()
	if len(errs) != 2 || !strings.Contains(errs[0].Reason, "at most 20 a second (bursts of 40)") || errs[0].Fatal ||
		!strings.Contains(errs[1].Reason, "too many messages for 5s") || !errs[1].Fatal {
		t.Fatalf("the flood got %+v; want a warning naming the limit, then a fatal error", errs)
	}
	s := k.s.Stats()
	// Counted: the burst (40) and what 20 a second refills over the ~5.5 s
	// of clock the flood's messages took (each read moves it 10 ms).
	if s.RateDropped < 400 || s.Answers > 40+20*6 {
		t.Fatalf("stats %+v: want hundreds of messages dropped, at most a burst and 6 s of refill counted", s)
	}
	k.waitStats(t, func(s classroom.Stats) bool { return s.Students == 1 }) // the server has forgotten the flood
	k.send(t, calm, `{"t":"answer","step":1,"round":1,"choice":2}`)
	k.settled(t, tc, calm)
	if st := calm.State(); *st.Mine != 2 || st.Students != 1 {
		t.Fatalf("the calm student sees %+v: want its answer 2, 1 student", st)
	}
}

// A client that drops in the middle of a message is forgotten; the
// others go on.
func TestDropMidMessage(t *testing.T) {
	k := newClass(t, classroom.Config{})
	tc := k.teacher(t)
	other := k.student(t, "")
	ws, _, err := websocket.Dial(ctx(t), k.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.Write(ctx(t), websocket.MessageText, []byte(`{"t":"hello","role":"student","room":"`+code+`"}`))
	k.waitStats(t, func(s classroom.Stats) bool { return s.Students == 2 })
	w, err := ws.Writer(ctx(t), websocket.MessageText)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(`{"t":"answer","step":1,`)) // a frame without FIN...
	ws.CloseNow()                              // ...and the connection is gone
	k.waitStats(t, func(s classroom.Stats) bool { return s.Students == 1 && s.Connections == 2 })
	k.send(t, tc, `{"t":"goto","lesson":"demo","step":1}`)
	k.settled(t, tc, other)
}

// Only same-origin upgrades: a page of another site is refused (403);
// the server's own origin and no Origin at all are let in.
func TestOrigin(t *testing.T) {
	k := newClass(t, classroom.Config{})
	host := strings.TrimPrefix(strings.TrimSuffix(k.url, classroom.Path), "ws://")
	for origin, want := range map[string]int{"http://evil.example": http.StatusForbidden, "http://" + host: http.StatusSwitchingProtocols} {
		ws, resp, err := websocket.Dial(ctx(t), k.url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {origin}}})
		if resp == nil || resp.StatusCode != want {
			t.Errorf("Origin %s: %v (%v); want HTTP %d", origin, resp, err, want)
		}
		if ws != nil {
			ws.CloseNow()
		}
	}
	resp, err := http.Get(strings.Replace(k.url, "ws://", "http://", 1) + "x")
	if err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("another path: %v %v; want 404", resp, err)
	}
}

// A student that never reads does not hold the others up: every other
// client gets every change's end state (the slow one's writer waits on
// its own goroutine until its write timeout drops it).
func TestSlowStudent(t *testing.T) {
	k := newClass(t, classroom.Config{WriteTimeout: 200 * time.Millisecond, Rate: 1000, Burst: 1000})
	tc := k.teacher(t)
	ws, _, err := websocket.Dial(ctx(t), k.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.Write(ctx(t), websocket.MessageText, []byte(`{"t":"hello","role":"student","room":"`+code+`"}`))
	others := []*classclient.Client{tc, k.student(t, ""), k.student(t, "")}
	for i := range 300 {
		k.send(t, tc, fmt.Sprintf(`{"t":"goto","lesson":"demo","step":0,"pos":%d,"playing":true}`, i+1))
	}
	k.settled(t, others...)
	if st := others[1].State(); st.Pos != 300 {
		t.Fatalf("a student sees pos %d; want 300", st.Pos)
	}
}

// TestServerGolden runs testdata/server.txt: classes over real sockets,
// one message at a time (each line waits until the server has read it),
// what each client was told, and the results file.
//
//	class [names] [max=N]  a server (code ABC234, token TOKEN) with the
//	                       demo lesson; each input line is "conn: JSON"
//	                       (a new conn dials with it as its hello;
//	                       $id(x) is x's resume id) or "drop conn"
//
// Regenerate with: go test ./internal/classroom -run ServerGolden -rewrite
func TestServerGolden(t *testing.T) {
	goldentest.RunFile(t, "testdata/server.txt", goldentest.Directives{"class": runClass})
}

func runClass(t *testing.T, d *goldentest.Case) (string, error) {
	k := newClass(t, classroom.Config{SaveNames: d.HasArg("names"), MaxStudents: goldentest.Int(t, d, "max", 500)})
	var b strings.Builder
	cs := map[string]*classclient.Client{}
	seen := map[string]int{} // errors printed per conn
	for _, line := range strings.Split(d.Input, "\n") {
		if name, ok := strings.CutPrefix(line, "drop "); ok {
			n := k.s.Stats().Connections
			cs[name].CloseNow()
			delete(cs, name)
			k.waitStats(t, func(s classroom.Stats) bool { return s.Connections == n-1 })
			continue
		}
		name, msg, ok := strings.Cut(line, ": ")
		if !ok {
			return "", fmt.Errorf("%q: want conn: JSON or drop conn", line)
		}
		for other, c := range cs {
			msg = strings.ReplaceAll(msg, "$id("+other+")", c.Welcome().ID)
		}
		msg = strings.ReplaceAll(msg, "TOKEN", token)
		c := cs[name]
		if c == nil {
			c2, err := classclient.DialRaw(ctx(t), k.url, []byte(msg), classclient.Options{})
			var rej *classclient.RejectedError
			if errors.As(err, &rej) {
				fmt.Fprintf(&b, "%s refused (%d): %s\n", name, int(rej.Status), rej.Reason)
				continue
			} else if err != nil {
				return "", err
			}
			cs[name] = c2
			continue
		}
		rejected := k.s.Stats().Rejected
		k.send(t, c, msg)
		if n := k.s.Stats().Rejected - rejected; n > 0 {
			errs, err := c.WaitErrors(ctx(t), seen[name]+n)
			if err != nil {
				return "", fmt.Errorf("%s: waiting for its error: %v", name, err)
			}
			for _, e := range errs[seen[name]:] {
				fmt.Fprintf(&b, "%s <- error: %s\n", name, e.Reason)
			}
			seen[name] = len(errs)
		}
	}
	var open []*classclient.Client
	var names []string
	for name, c := range cs {
		open = append(open, c)
		names = append(names, name)
	}
	v := k.settled(t, open...)
	slices.Sort(names)
	for _, name := range names {
		st := cs[name].State()
		mine := "-"
		if st.Mine != nil {
			mine = strconv.Itoa(*st.Mine)
		}
		fmt.Fprintf(&b, "%s: v=%d step=%d students=%d mine=%s\n", name, st.V, st.Step, st.Students, mine)
	}
	fmt.Fprintf(&b, "server: v=%d\n", v)
	if err := k.s.WriteCSV(&b); err != nil {
		return "", err
	}
	return b.String(), nil
}
