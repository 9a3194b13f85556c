//go:build !js

package classroom

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"bufferlab/lessons"
)

// Path is where Handler serves the WebSocket.
const Path = "/class/ws"

// CodeAlphabet is the room code's alphabet: no look-alikes (0/O, 1/I/L).
const CodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// TeacherRateFactor multiplies the rate limit of the teacher's
// connection (once its hello is accepted): the teacher's page sends a
// goto on every step and up to 4 a second while playing, and the token
// already vouches for it; the limit only stops a page gone wrong.
const TeacherRateFactor = 10

// Config configures a Server. Zero fields take the defaults given.
type Config struct {
	// Lessons are the lessons the class may go to (lessons.All()).
	Lessons []*lessons.Lesson
	// MaxStudents is the cap on connected students (default 500).
	MaxStudents int
	// SaveNames: WriteCSV adds one row per student's answer with its
	// nickname (--save-names).
	SaveNames bool
	// Rate and Burst are each connection's rate limit: messages a second
	// (default 20) and the burst (default 40). The teacher gets
	// TeacherRateFactor times both.
	Rate  float64
	Burst int
	// Patience is how long a connection may flood (send messages the
	// limit drops) before it is closed (default 5 s).
	Patience time.Duration
	// WriteTimeout bounds one message's write (default 10 s): a client
	// that does not read is dropped after it.
	WriteTimeout time.Duration
	// PingEvery is how often an idle connection is pinged (default 30 s),
	// so that a dead client is dropped even when the class is quiet.
	PingEvery time.Duration
	// Now is the rate limit's clock (default time.Now); tests pass their
	// own. Timeouts use the real clock.
	Now func() time.Time
	// Code and Token fix the room code and teacher token (tests); empty:
	// random (crypto/rand).
	Code, Token string
	// OnEnd, when set, is called once, on its own goroutine, when the
	// teacher ends the class (serve writes --save then).
	OnEnd func()
}

func (c *Config) fill() {
	if c.MaxStudents == 0 {
		c.MaxStudents = 500
	}
	if c.Rate == 0 {
		c.Rate = 20
	}
	if c.Burst == 0 {
		c.Burst = 40
	}
	if c.Patience == 0 {
		c.Patience = 5 * time.Second
	}
	if c.WriteTimeout == 0 {
		c.WriteTimeout = 10 * time.Second
	}
	if c.PingEvery == 0 {
		c.PingEvery = 30 * time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Server is one class over WebSockets: a Room behind a lock, and its
// connections. Each connection costs two goroutines (its handler reads,
// its writer writes) and holds at most one pending state (the newest)
// and a few pending errors; a change to the room costs O(connections)
// under the lock (one pointer handed to each writer), the state's JSON
// is encoded once per change, and a student's own answer is spliced into
// its copy by its writer.
type Server struct {
	cfg     Config
	mu      sync.Mutex
	room    *Room
	conns   map[ConnID]*conn
	next    ConnID
	snap    *snapshot // the state's JSON at room.V()
	closed  bool
	endOnce sync.Once
	wg      sync.WaitGroup

	messages, rejected, dropped, gor, peakGor, peakConns atomic.Int64
}

// snapshot is one state as sent: the shared JSON (no mine).
type snapshot struct {
	v    int
	json []byte
}

// New makes a server and its room: a random code and token unless cfg
// fixes them.
func New(cfg Config) (*Server, error) {
	cfg.fill()
	if len(cfg.Lessons) == 0 {
		return nil, errors.New("classroom: no lessons: Config.Lessons is empty")
	}
	if cfg.MaxStudents < 1 || cfg.Rate < 0 || cfg.Burst < 1 {
		return nil, fmt.Errorf("classroom: MaxStudents %d, Rate %g, Burst %d: expected at least 1, 0 and 1", cfg.MaxStudents, cfg.Rate, cfg.Burst)
	}
	if cfg.Code == "" {
		cfg.Code = randomCode()
	}
	if cfg.Token == "" {
		cfg.Token = randomHex(16)
	}
	s := &Server{cfg: cfg, conns: map[ConnID]*conn{}}
	s.room = NewRoom(RoomConfig{Code: cfg.Code, Token: cfg.Token, Lessons: cfg.Lessons, MaxStudents: cfg.MaxStudents,
		NewID: func() string { return randomHex(8) }})
	s.snap = s.encode()
	return s, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand panics rather)
	return hex.EncodeToString(b)
}

func randomCode() string {
	b := make([]byte, 6)
	for i := range b {
		b[i] = CodeAlphabet[randomInt(len(CodeAlphabet))]
	}
	return string(b)
}

// randomInt is uniform in [0, n) for a small n, from crypto/rand
// (rejection sampling: no modulo bias).
func randomInt(n int) int {
	var b [1]byte
	for {
		rand.Read(b[:])
		if int(b[0]) < 256/n*n {
			return int(b[0]) % n
		}
	}
}

// Code is the room code (students' #join=CODE).
func (s *Server) Code() string { return s.cfg.Code }

// TeacherToken is the teacher's token (#teach=TOKEN): print it to the
// teacher alone.
func (s *Server) TeacherToken() string { return s.cfg.Token }

// WriteCSV writes the results so far (Room.WriteCSV; the per-name table
// only with Config.SaveNames).
func (s *Server) WriteCSV(w io.Writer) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.room.WriteCSV(w, s.cfg.SaveNames)
}

// Stats are a server's counters.
type Stats struct {
	Students        int // students connected now
	Connections     int // WebSockets open now (students, teacher, not yet said hello)
	PeakConnections int
	Messages        int // messages read (applied, refused or dropped)
	Answers         int // answers counted
	Rejected        int // messages answered with an error
	RateDropped     int // messages the rate limit dropped
	Goroutines      int // the server's own goroutines now (two per connection)
	PeakGoroutines  int
	V               int // the state's version now
}

// Stats reads the counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{
		Students: s.room.Connected(), Connections: len(s.conns), PeakConnections: int(s.peakConns.Load()),
		Messages: int(s.messages.Load()), Answers: s.room.Answers(), Rejected: int(s.rejected.Load()), RateDropped: int(s.dropped.Load()),
		Goroutines: int(s.gor.Load()), PeakGoroutines: int(s.peakGor.Load()), V: s.room.V(),
	}
}

// Close closes every connection (status 1001, "the server is stopping")
// and waits for their goroutines; the handler then refuses upgrades
// (503). Each close waits for the client's close frame, up to
// coder/websocket's 5 s.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for _, c := range s.conns {
		c.fatal(websocket.StatusGoingAway, "the server is stopping")
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// Handler serves GET Path: the WebSocket upgrade, same origin only (a
// request with an Origin header whose host is not the request's Host is
// refused with 403 by websocket.Accept; one with no Origin, as the Go
// client sends, is let in). Any other path is 404, another method 405.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path != Path:
			http.NotFound(w, r)
			return
		case r.Method != http.MethodGet:
			w.Header().Set("Allow", http.MethodGet)
			http.Error(w, "the classroom's WebSocket takes GET", http.StatusMethodNotAllowed)
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			http.Error(w, "the class is over: the server is stopping", http.StatusServiceUnavailable)
			return
		}
		s.wg.Add(1)
		s.mu.Unlock()
		defer s.wg.Done()
		ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
		if err != nil {
			return // Accept answered (403 for a foreign origin, 426 for no upgrade)
		}
		s.serve(ws)
	})
}

// encode is the state's JSON now; under s.mu.
func (s *Server) encode() *snapshot {
	b, err := json.Marshal(s.room.State())
	if err != nil {
		panic(err) // a State always encodes
	}
	return &snapshot{v: s.room.V(), json: b}
}

// broadcast hands the newest state to every connection that said hello;
// under s.mu. Cost: one encode, O(connections) hand-overs.
func (s *Server) broadcast() {
	s.snap = s.encode()
	s.room.Each(func(id ConnID) { s.sendState(id) })
	if st := s.room.State(); st.Ended && s.cfg.OnEnd != nil {
		s.endOnce.Do(func() { go s.cfg.OnEnd() })
	}
}

// sendState hands connection id the current state; under s.mu.
func (s *Server) sendState(id ConnID) {
	c := s.conns[id]
	if c == nil {
		return
	}
	mine, has := s.room.Mine(id)
	c.setState(outState{snap: s.snap, mine: mine, hasMine: has})
}

func (s *Server) goroutines(d int64) {
	n := s.gor.Add(d)
	for p := s.peakGor.Load(); n > p && !s.peakGor.CompareAndSwap(p, n); p = s.peakGor.Load() {
	}
}
