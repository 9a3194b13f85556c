package classroom

import (
	"crypto/subtle"
	"fmt"
	"slices"
	"strings"

	"bufferlab/lessons"
)

// ConnID names one connection to a Room; the server numbers them from 1
// (0 is none).
type ConnID uint64

// The roles of a hello.
const (
	RoleTeacher = "teacher"
	RoleStudent = "student"
)

// MaxRounds bounds the rounds of one question (a reask beyond it is an
// error), so that a teacher's page gone wrong cannot grow the room
// without end.
const MaxRounds = 20

// KnownPerSeat bounds the students a room remembers: KnownPerSeat times
// the cap (connected or not; a student who left is remembered so that it
// can resume). A join beyond it is refused like a full class.
const KnownPerSeat = 4

// RoomConfig configures a Room.
type RoomConfig struct {
	Code, Token string
	Lessons     []*lessons.Lesson
	MaxStudents int
	// NewID makes a student's resume id; it must not repeat (a repeat is
	// drawn again).
	NewID func() string
}

// Room is one class without its sockets: who is connected (by ConnID),
// the students and their answers, where the class is, every question's
// rounds and counts, and the version v of the state everyone sees. Every
// rule of docs/classroom.md except the transport's (message size, rate)
// is here. It is not safe for concurrent use: the server holds a lock
// around each call. Every call costs O(1) but Each (O(connections)) and
// WriteCSV (O(answers)).
type Room struct {
	code, token string
	order       []string                       // lesson names, in the given order
	lessons     map[string][]*lessons.Question // lesson → its steps' questions (nil: none)
	max         int
	newID       func() string

	v                     int
	lesson                string // "" until the teacher's first goto
	step, pos             int
	playing, ended        bool
	conns                 map[ConnID]*student // nil value: the teacher
	teacher               ConnID
	students              map[string]*student
	joined                []*student // in join order (the CSV's per-name rows)
	connected, answersAll int
	qs                    map[qkey]*question
}

type student struct {
	id, name string
	conn     ConnID // 0: not connected
	answers  map[akey]int
}

type qkey struct {
	lesson string
	step   int
}

type akey struct {
	lesson      string
	step, round int
}

// question is a step's question as the class has asked it: its current
// round (1-based) and, per round, the counts per choice and how many
// answered.
type question struct {
	q                *lessons.Question
	round            int
	locked, revealed bool
	counts           [][]int // [round-1][choice-1]
	answered         []int   // [round-1]
}

// NewRoom makes an empty room at v 1: no teacher, no students, no lesson
// yet.
func NewRoom(cfg RoomConfig) *Room {
	r := &Room{
		code: cfg.Code, token: cfg.Token, max: cfg.MaxStudents, newID: cfg.NewID,
		lessons: map[string][]*lessons.Question{}, v: 1,
		conns: map[ConnID]*student{}, students: map[string]*student{}, qs: map[qkey]*question{},
	}
	for _, l := range cfg.Lessons {
		qs := make([]*lessons.Question, len(l.Steps))
		for i := range l.Steps {
			qs[i] = l.Steps[i].Predict
		}
		if _, dup := r.lessons[l.Name]; !dup {
			r.order = append(r.order, l.Name)
		}
		r.lessons[l.Name] = qs
	}
	return r
}

// Code is the room code students join with.
func (r *Room) Code() string { return r.code }

// V is the version of the state: it grows by one on every change.
func (r *Room) V() int { return r.v }

// Connected counts the students connected now.
func (r *Room) Connected() int { return r.connected }

// Answers counts the answers accepted (a replaced answer counts again).
func (r *Room) Answers() int { return r.answersAll }

// Kick is another connection that a hello replaced: the server sends it
// Reason as a fatal error and closes it.
type Kick struct {
	Conn   ConnID
	Reason string
}

// Outcome is what one message did.
type Outcome struct {
	// Reply goes to the sender, in order: a *Welcome or an *Error.
	Reply []any
	// Fatal: close the sender once Reply is sent.
	Fatal bool
	// Joined: the sender's hello was accepted; it gets the current state
	// at once (after the welcome).
	Joined bool
	// Kick: a connection this hello replaced.
	Kick *Kick
	// Changed: the state changed (v grew); everyone gets it.
	Changed bool
}

func fail(fatal bool, format string, args ...any) Outcome {
	return Outcome{Reply: []any{&Error{T: "error", Reason: fmt.Sprintf(format, args...), Fatal: fatal}}, Fatal: fatal}
}

func (r *Room) changed() Outcome {
	r.v++
	return Outcome{Changed: true}
}

// Receive applies one message from connection c. A connection's first
// message must be a hello; a bad hello is fatal, any other bad message
// only earns an error.
func (r *Room) Receive(c ConnID, msg []byte) Outcome {
	st, member := r.conns[c]
	m, err := decode(msg)
	if err != nil {
		return fail(!member, "%v", err)
	}
	t := *m.T
	if !member {
		if t != "hello" {
			return fail(true, "expected hello first, found %q", t)
		}
		return r.hello(c, m)
	}
	switch t {
	case "hello":
		return fail(false, "hello: this connection already said hello")
	case "goto", "lock", "unlock", "reveal", "reask", "end":
		if st != nil {
			return fail(false, "%s is the teacher's message; a student sends answer", t)
		}
	case "answer":
		if st == nil {
			return fail(false, "answer is a student's message; the teacher sends goto, lock, unlock, reveal, reask or end")
		}
	default:
		return fail(false, "unknown message type %q; expected hello, goto, lock, unlock, reveal, reask, end or answer", t)
	}
	if r.ended {
		return fail(false, "%s: the class has ended", t)
	}
	switch t {
	case "goto":
		return r.goTo(m)
	case "answer":
		return r.answer(st, m)
	case "end":
		r.ended, r.playing = true, false
		return r.changed()
	}
	return r.teach(t)
}

// hello admits connection c as the teacher or a student.
func (r *Room) hello(c ConnID, m *in) Outcome {
	if m.Role == nil {
		return fail(true, `hello: expected field role ("teacher" or "student")`)
	}
	switch *m.Role {
	case RoleTeacher:
		if m.Token == nil || subtle.ConstantTimeCompare([]byte(*m.Token), []byte(r.token)) != 1 {
			return fail(true, "hello: wrong teacher token; the teacher's link is the one bufferlab serve printed")
		}
		out := Outcome{Joined: true, Reply: []any{&Welcome{T: "welcome", Role: RoleTeacher, Room: r.code}}}
		if r.teacher != 0 {
			out.Kick = &Kick{Conn: r.teacher, Reason: "the teacher's link was opened on another page, which now drives the class; this one is closed"}
			delete(r.conns, r.teacher)
		}
		r.teacher = c
		r.conns[c] = nil
		return out
	case RoleStudent:
		return r.studentHello(c, m)
	}
	return fail(true, `hello: role %q; expected "teacher" or "student"`, *m.Role)
}

func (r *Room) studentHello(c ConnID, m *in) Outcome {
	if m.Room == nil || strings.ToUpper(strings.TrimSpace(*m.Room)) != r.code {
		room := ""
		if m.Room != nil {
			room = *m.Room
		}
		return fail(true, "hello: no class with code %q here; expected the code shown on the projector", room)
	}
	name := ""
	if m.Name != nil {
		var err error
		if name, err = trimName(*m.Name); err != nil {
			return fail(true, "%v", err)
		}
	}
	st := (*student)(nil)
	if m.ID != nil {
		st = r.students[*m.ID]
	}
	out := Outcome{Joined: true}
	switch {
	case st != nil && st.conn != 0:
		// The same student on a new page: the new one takes over.
		out.Kick = &Kick{Conn: st.conn, Reason: "this student joined again from another page; this one is closed"}
		delete(r.conns, st.conn)
	case r.connected >= r.max:
		return fail(true, "the class is full (%d students)", r.max)
	case st == nil && len(r.students) >= KnownPerSeat*r.max:
		return fail(true, "the class is full: %d students have joined; one who left comes back with its id", len(r.students))
	default:
		r.connected++
		out.Changed = true
		r.v++
	}
	if st == nil {
		st = &student{id: r.freshID(), answers: map[akey]int{}}
		r.students[st.id] = st
		r.joined = append(r.joined, st)
	}
	if name != "" || st.name == "" {
		st.name = name
	}
	st.conn = c
	r.conns[c] = st
	out.Reply = []any{&Welcome{T: "welcome", ID: st.id, Role: RoleStudent, Room: r.code}}
	return out
}

func (r *Room) freshID() string {
	for {
		id := r.newID()
		if _, dup := r.students[id]; !dup {
			return id
		}
	}
}

// Leave forgets connection c (closed, dropped or kicked); a student's
// answers are kept for when it comes back with its id. It reports whether
// the state changed (a student left). Leaving twice, or a connection a
// hello replaced, changes nothing.
func (r *Room) Leave(c ConnID) bool {
	st, ok := r.conns[c]
	if !ok {
		return false
	}
	delete(r.conns, c)
	if st == nil {
		r.teacher = 0
		return false
	}
	st.conn = 0
	r.connected--
	r.v++
	return true
}

// goTo moves the class.
func (r *Room) goTo(m *in) Outcome {
	switch {
	case m.Lesson == nil:
		return fail(false, "%v", need("goto", "lesson", "a lesson's name"))
	case m.Step == nil:
		return fail(false, "%v", need("goto", "step", "a 0-based step number"))
	}
	qs, ok := r.lessons[*m.Lesson]
	if !ok {
		return fail(false, "goto: no lesson %q; expected one of %s", *m.Lesson, strings.Join(r.order, ", "))
	}
	step := *m.Step
	if step < 0 || step >= len(qs) {
		return fail(false, "goto: step %d is out of range: lesson %s has steps 0..%d", step, *m.Lesson, len(qs)-1)
	}
	pos, playing := 0, false
	if m.Pos != nil {
		pos = *m.Pos
	}
	if m.Playing != nil {
		playing = *m.Playing
	}
	if pos < 0 {
		return fail(false, "goto: pos %d; expected 0 or more", pos)
	}
	if r.lesson == *m.Lesson && r.step == step && r.pos == pos && r.playing == playing {
		return Outcome{}
	}
	r.lesson, r.step, r.pos, r.playing = *m.Lesson, step, pos, playing
	if q := qs[step]; q != nil && r.qs[qkey{r.lesson, step}] == nil {
		r.qs[qkey{r.lesson, step}] = &question{q: q, round: 1, counts: [][]int{make([]int, len(q.Choices))}, answered: []int{0}}
	}
	return r.changed()
}

// current is the question of the step the class is on, or nil.
func (r *Room) current() *question { return r.qs[qkey{r.lesson, r.step}] }

// teach applies lock, unlock, reveal and reask to the current question.
func (r *Room) teach(t string) Outcome {
	q := r.current()
	if q == nil {
		if r.lesson == "" {
			return fail(false, "%s: no question is open: the class is on no lesson yet (goto first)", t)
		}
		return fail(false, "%s: step %d of lesson %s has no question", t, r.step, r.lesson)
	}
	switch t {
	case "lock":
		if q.locked {
			return Outcome{}
		}
		q.locked = true
	case "unlock":
		if q.revealed {
			return fail(false, "unlock: round %d is revealed; reask for a new round", q.round)
		}
		if !q.locked {
			return Outcome{}
		}
		q.locked = false
	case "reveal":
		if q.revealed {
			return Outcome{}
		}
		q.locked, q.revealed = true, true
	case "reask":
		if q.round >= MaxRounds {
			return fail(false, "reask: the question has had %d rounds, the most there may be", MaxRounds)
		}
		q.round++
		q.locked, q.revealed = false, false
		q.counts = append(q.counts, make([]int, len(q.q.Choices)))
		q.answered = append(q.answered, 0)
	}
	return r.changed()
}

// answer records a student's answer to the current round.
func (r *Room) answer(st *student, m *in) Outcome {
	switch {
	case m.Step == nil:
		return fail(false, "%v", need("answer", "step", "the 0-based step of the question"))
	case m.Round == nil:
		return fail(false, "%v", need("answer", "round", "the question's round, 1 or more"))
	case m.Choice == nil:
		return fail(false, "%v", need("answer", "choice", "a 1-based choice"))
	}
	step, round, choice := *m.Step, *m.Round, *m.Choice
	if r.lesson == "" {
		return fail(false, "answer: no question is open: the class is on no lesson yet")
	}
	if n := len(r.lessons[r.lesson]); step < 0 || step >= n {
		return fail(false, "answer: step %d is out of range: lesson %s has steps 0..%d", step, r.lesson, n-1)
	}
	if step != r.step {
		return fail(false, "answer: step %d is not the question the class is on (step %d)", step, r.step)
	}
	q := r.current()
	switch {
	case q == nil:
		return fail(false, "answer: step %d of lesson %s has no question", step, r.lesson)
	case round != q.round:
		return fail(false, "answer: round %d is not the current round (%d)", round, q.round)
	case q.locked:
		return fail(false, "answer: round %d is locked; answers are closed", round)
	case choice < 1 || choice > len(q.q.Choices):
		return fail(false, "answer: choice %d is out of range; expected 1..%d", choice, len(q.q.Choices))
	}
	r.answersAll++
	k := akey{r.lesson, step, round}
	prev := st.answers[k]
	if prev == choice {
		return Outcome{}
	}
	counts := q.counts[round-1]
	if prev == 0 {
		q.answered[round-1]++
	} else {
		counts[prev-1]--
	}
	counts[choice-1]++
	st.answers[k] = choice
	return r.changed()
}

// State is the state everyone sees (without Mine).
func (r *Room) State() *State {
	s := &State{T: "state", V: r.v, Lesson: r.lesson, Step: r.step, Pos: r.pos, Playing: r.playing, Students: r.connected, Ended: r.ended}
	q := r.current()
	if q == nil {
		return s
	}
	i := q.round - 1
	s.Q = &Q{Step: r.step, Round: q.round, Choices: len(q.q.Choices), Locked: q.locked, Revealed: q.revealed, Answered: q.answered[i]}
	if q.revealed {
		s.Q.Counts = slices.Clone(q.counts[i])
		s.Q.Right = q.q.Answer + 1
		for _, c := range q.counts[:i] {
			s.Q.Rounds = append(s.Q.Rounds, slices.Clone(c))
		}
	}
	return s
}

// Mine is connection c's answer in the current round (0: none), and
// whether its state carries one (a student's, on a step with a question).
func (r *Room) Mine(c ConnID) (int, bool) {
	st := r.conns[c]
	q := r.current()
	if st == nil || q == nil {
		return 0, false
	}
	return st.answers[akey{r.lesson, r.step, q.round}], true
}

// StateFor is the state connection c sees: State with its Mine.
func (r *Room) StateFor(c ConnID) *State {
	s := r.State()
	if mine, ok := r.Mine(c); ok {
		s.Mine = &mine
	}
	return s
}

// Each calls fn for every connection that said hello, in no set order.
func (r *Room) Each(fn func(c ConnID)) {
	for c := range r.conns {
		fn(c)
	}
}
