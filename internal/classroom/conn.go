//go:build !js

package classroom

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// maxQueued bounds the errors waiting for one connection's writer: a
// client sending bad messages faster than it reads loses the errors
// beyond it (the rate limit bounds how fast it can send).
const maxQueued = 16

// conn is one WebSocket: its handler goroutine reads and applies
// messages (serve), its writer goroutine (writeLoop) writes what the room
// hands it. The hand-over never blocks the room: setState replaces the
// pending state (only the newest is ever sent), queue appends an error
// (or drops it past maxQueued), fatal marks the last message; each then
// wakes the writer without waiting.
type conn struct {
	id   ConnID
	ws   *websocket.Conn
	wake chan struct{} // capacity 1: a pending wake-up
	quit chan struct{} // closed by the reader when it is done

	mu      sync.Mutex
	queue   [][]byte
	state   *outState
	closing *closing
}

// outState is a state for one connection: the shared JSON and its own
// answer.
type outState struct {
	snap    *snapshot
	mine    int
	hasMine bool
}

// bytes is the state as sent: the shared JSON, with ,"mine":N spliced
// before its closing brace for a student.
func (o *outState) bytes() []byte {
	if !o.hasMine {
		return o.snap.json
	}
	b := make([]byte, 0, len(o.snap.json)+12)
	b = append(b, o.snap.json[:len(o.snap.json)-1]...)
	b = append(b, `,"mine":`...)
	b = strconv.AppendInt(b, int64(o.mine), 10)
	return append(b, '}')
}

// closing is how a connection ends: a last error message (none for an
// empty reason), then a close frame.
type closing struct {
	code   websocket.StatusCode
	reason string
}

func (c *conn) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *conn) setState(o outState) {
	c.mu.Lock()
	c.state = &o
	c.mu.Unlock()
	c.poke()
}

// send queues a message (a welcome or an error); it reports false when
// the queue is full and the message was dropped.
func (c *conn) send(msg any) bool {
	b, err := json.Marshal(msg)
	if err != nil {
		panic(err) // our messages always encode
	}
	c.mu.Lock()
	ok := len(c.queue) < maxQueued && c.closing == nil
	if ok {
		c.queue = append(c.queue, b)
	}
	c.mu.Unlock()
	c.poke()
	return ok
}

// fatal makes the writer send reason as a fatal error after what is
// pending, then close with code. The first call wins.
func (c *conn) fatal(code websocket.StatusCode, reason string) {
	c.mu.Lock()
	if c.closing == nil {
		c.closing = &closing{code: code, reason: reason}
	}
	c.mu.Unlock()
	c.poke()
}

// writeLoop writes what is handed to c until the reader quits, a write
// fails or times out (the client is dropped), or a fatal close is sent.
// Each wake-up writes the queued messages, then the newest state, so the
// last thing a connection is sent is always the newest state it was
// handed.
func (s *Server) writeLoop(c *conn, done chan<- struct{}) {
	defer close(done)
	defer s.goroutines(-1)
	ping := time.NewTimer(s.cfg.PingEvery)
	defer ping.Stop()
	for {
		select {
		case <-c.wake:
		case <-c.quit:
			return
		case <-ping.C:
			ctx, cancel := context.WithTimeout(context.Background(), s.cfg.WriteTimeout)
			err := c.ws.Ping(ctx)
			cancel()
			if err != nil {
				c.ws.CloseNow()
				return
			}
			ping.Reset(s.cfg.PingEvery)
			continue
		}
		for {
			c.mu.Lock()
			queue, st, cl := c.queue, c.state, c.closing
			c.queue, c.state = nil, nil
			c.mu.Unlock()
			if len(queue) == 0 && st == nil && cl == nil {
				break
			}
			for _, b := range queue {
				if !s.write(c, b) {
					return
				}
			}
			if st != nil && !s.write(c, st.bytes()) {
				return
			}
			if cl != nil {
				if cl.reason != "" {
					b, _ := json.Marshal(&Error{T: "error", Reason: cl.reason, Fatal: true})
					s.write(c, b)
				}
				c.ws.Close(cl.code, closeReason(cl.reason))
				return
			}
		}
		ping.Reset(s.cfg.PingEvery)
	}
}

// write writes one message within the write timeout; on failure the
// connection is dropped (the reader then sees its end).
func (s *Server) write(c *conn, b []byte) bool {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.WriteTimeout)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.ws.CloseNow()
		return false
	}
	return true
}

// serve runs one connection on the handler's goroutine: registers it,
// starts its writer, reads and applies messages until the client goes,
// a write fails or a fatal error, then forgets it.
func (s *Server) serve(ws *websocket.Conn) {
	ws.SetReadLimit(MaxMessage) // a backstop: read below stops at MaxMessage+1
	s.mu.Lock()
	s.next++
	c := &conn{id: s.next, ws: ws, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	s.conns[c.id] = c
	if n := int64(len(s.conns)); n > s.peakConns.Load() {
		s.peakConns.Store(n)
	}
	if s.closed {
		c.fatal(websocket.StatusGoingAway, "the server is stopping")
	}
	s.mu.Unlock()
	s.goroutines(2)
	defer s.goroutines(-1)
	done := make(chan struct{})
	go s.writeLoop(c, done)

	s.readLoop(c)

	c.mu.Lock()
	closing := c.closing != nil
	c.mu.Unlock()
	if !closing {
		close(c.quit) // else the writer sends the last error, closes and ends
	}
	<-done
	ws.CloseNow()
	s.mu.Lock()
	delete(s.conns, c.id)
	if s.room.Leave(c.id) {
		s.broadcast()
	}
	s.mu.Unlock()
}

// readLoop reads and applies c's messages until the connection ends or
// one of them is fatal (the writer then sends the error and closes).
func (s *Server) readLoop(c *conn) {
	lim := newBucket(s.cfg.Rate, s.cfg.Burst, s.cfg.Patience, s.cfg.Now())
	ctx := context.Background()
	for {
		_, r, err := c.ws.Reader(ctx)
		if err != nil {
			return // closed, dropped, or the writer gave up on it
		}
		msg, err := io.ReadAll(io.LimitReader(r, MaxMessage+1))
		if err != nil {
			return // dropped mid-message
		}
		if len(msg) > MaxMessage {
			s.rejected.Add(1)
			s.messages.Add(1)
			c.fatal(websocket.StatusMessageTooBig, fmt.Sprintf("a message is at most %d bytes; this one was longer", MaxMessage))
			return
		}
		ok, warn, kill := lim.take(s.cfg.Now())
		if !ok {
			s.dropped.Add(1)
			switch {
			case kill:
				c.fatal(websocket.StatusPolicyViolation, fmt.Sprintf("too many messages for %v: closed", s.cfg.Patience))
			case warn:
				c.send(&Error{T: "error", Reason: fmt.Sprintf("too many messages: at most %g a second (bursts of %d); yours are dropped until you slow down", lim.rate, int(lim.burst))})
			}
			s.messages.Add(1)
			if kill {
				return
			}
			continue
		}
		if s.apply(c, msg, lim) {
			return
		}
	}
}

// apply hands one message to the room and sends what it says; it
// reports whether the connection is to end.
func (s *Server) apply(c *conn, msg []byte, lim *bucket) (end bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.room.Receive(c.id, msg)
	defer s.messages.Add(1) // last: a test that waits for it sees the outcome
	for _, rep := range out.Reply {
		if e, ok := rep.(*Error); ok {
			s.rejected.Add(1)
			if out.Fatal {
				c.fatal(websocket.StatusPolicyViolation, e.Reason)
				continue
			}
		}
		if w, ok := rep.(*Welcome); ok && w.Role == RoleTeacher {
			lim.rate *= TeacherRateFactor
			lim.burst *= TeacherRateFactor
			lim.tokens = lim.burst
		}
		c.send(rep)
	}
	if k := out.Kick; k != nil {
		if old := s.conns[k.Conn]; old != nil {
			old.fatal(websocket.StatusPolicyViolation, k.Reason)
		}
	}
	if out.Changed {
		s.broadcast()
	} else if out.Joined {
		s.sendState(c.id)
	}
	return out.Fatal
}

// closeReason is reason cut to the 123 bytes a close frame may carry (on
// a character boundary); the full reason goes in the error message
// before it.
func closeReason(reason string) string {
	if len(reason) <= maxCloseReason {
		return reason
	}
	cut := maxCloseReason
	for cut > 0 && !utf8.RuneStart(reason[cut]) {
		cut--
	}
	return reason[:cut]
}

// maxCloseReason is the longest reason a close frame carries: 125 bytes
// of payload less the 2-byte status code.
const maxCloseReason = 123
