//go:build !js

package classclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/coder/websocket"

	"bufferlab/internal/classroom"
)

// Hello is the first message's fields (see docs/classroom.md).
type Hello struct {
	Role  string `json:"role"`
	Token string `json:"token,omitempty"`
	Room  string `json:"room,omitempty"`
	Name  string `json:"name,omitempty"`
	ID    string `json:"id,omitempty"`
}

// Options are a client's hooks.
type Options struct {
	// OnState, when set, is called on the reading goroutine with each
	// state newer than the last (by v) and when it arrived; it must not
	// block.
	OnState func(st *classroom.State, at time.Time)
}

// Client is one connection to a classroom server.
type Client struct {
	ws      *websocket.Conn
	opts    Options
	welcome classroom.Welcome
	done    chan struct{} // closed when the reading goroutine ends

	mu      sync.Mutex
	last    *classroom.State
	errs    []classroom.Error
	changed chan struct{} // closed and replaced on every new state or error
	endErr  error         // why reading ended
}

// RejectedError is a hello the server refused: its reason and the status
// it closed the connection with.
type RejectedError struct {
	Reason string
	Status websocket.StatusCode
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("hello refused (close status %d): %s", int(e.Status), e.Reason)
}

// Dial connects to url (ws://HOST/class/ws), says hello and waits for
// the welcome. A refused hello is a *RejectedError (after the server's
// close, so that Status is known).
func Dial(ctx context.Context, url string, h Hello, opts Options) (*Client, error) {
	b, err := json.Marshal(struct {
		T string `json:"t"`
		Hello
	}{"hello", h})
	if err != nil {
		return nil, err
	}
	return DialRaw(ctx, url, b, opts)
}

// DialRaw is Dial with the first message as it is sent (a test's bad
// hello).
func DialRaw(ctx context.Context, url string, hello []byte, opts Options) (*Client, error) {
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 20)
	c := &Client{ws: ws, opts: opts, done: make(chan struct{}), changed: make(chan struct{})}
	if err := c.SendRaw(ctx, hello); err != nil {
		ws.CloseNow()
		return nil, err
	}
	_, b, err := ws.Read(ctx)
	if err != nil {
		ws.CloseNow()
		return nil, fmt.Errorf("classclient: waiting for the welcome: %w", err)
	}
	var first struct {
		classroom.Welcome
		Reason string `json:"reason"`
	}
	if err := json.Unmarshal(b, &first); err != nil {
		ws.CloseNow()
		return nil, fmt.Errorf("classclient: the first message %q: %v", b, err)
	}
	if first.T != "welcome" {
		rej := &RejectedError{Reason: first.Reason}
		_, _, err := ws.Read(ctx) // the close that follows a fatal error
		rej.Status = websocket.CloseStatus(err)
		ws.CloseNow()
		return nil, rej
	}
	c.welcome = first.Welcome
	go c.read()
	return c, nil
}

// Welcome is the server's welcome (the resume id for a student).
func (c *Client) Welcome() classroom.Welcome { return c.welcome }

// Send sends one message (any value that encodes to a JSON object).
func (c *Client) Send(ctx context.Context, msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	return c.SendRaw(ctx, b)
}

// SendRaw sends b as one text message, as it is.
func (c *Client) SendRaw(ctx context.Context, b []byte) error {
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// read keeps the newest state and the errors until the connection ends.
func (c *Client) read() {
	defer close(c.done)
	for {
		_, b, err := c.ws.Read(context.Background())
		if err != nil {
			c.mu.Lock()
			c.endErr = err
			c.wake()
			c.mu.Unlock()
			return
		}
		at := time.Now()
		var t struct {
			T string `json:"t"`
		}
		json.Unmarshal(b, &t)
		switch t.T {
		case "state":
			st := new(classroom.State)
			if json.Unmarshal(b, st) != nil {
				continue
			}
			c.mu.Lock()
			newer := c.last == nil || st.V > c.last.V
			if newer {
				c.last = st
				c.wake()
			}
			c.mu.Unlock()
			if newer && c.opts.OnState != nil {
				c.opts.OnState(st, at)
			}
		case "error":
			var e classroom.Error
			json.Unmarshal(b, &e)
			c.mu.Lock()
			c.errs = append(c.errs, e)
			c.wake()
			c.mu.Unlock()
		}
	}
}

// wake tells the waiters something changed; under c.mu.
func (c *Client) wake() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// State is the newest state received (nil before the first).
func (c *Client) State() *classroom.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// Errors are the errors received so far.
func (c *Client) Errors() []classroom.Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]classroom.Error(nil), c.errs...)
}

// ErrEnded is WaitState's and WaitErrors' error when the connection ended
// before what they waited for (Ended says why).
var ErrEnded = errors.New("classclient: the connection ended")

// wait waits until ok holds (checked under c.mu) or ctx ends or the
// connection ends.
func (c *Client) wait(ctx context.Context, ok func() bool) error {
	for {
		c.mu.Lock()
		if ok() {
			c.mu.Unlock()
			return nil
		}
		ch, ended := c.changed, c.endErr != nil
		c.mu.Unlock()
		if ended {
			return ErrEnded
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// WaitState waits for a state that pred accepts and returns it.
func (c *Client) WaitState(ctx context.Context, pred func(*classroom.State) bool) (*classroom.State, error) {
	var st *classroom.State
	err := c.wait(ctx, func() bool {
		st = c.last
		return st != nil && pred(st)
	})
	return st, err
}

// WaitV waits for a state of version v or newer.
func (c *Client) WaitV(ctx context.Context, v int) (*classroom.State, error) {
	return c.WaitState(ctx, func(st *classroom.State) bool { return st.V >= v })
}

// WaitErrors waits until n errors have come and returns them all.
func (c *Client) WaitErrors(ctx context.Context, n int) ([]classroom.Error, error) {
	err := c.wait(ctx, func() bool { return len(c.errs) >= n })
	return c.Errors(), err
}

// Ended waits for the connection to end (or ctx) and returns the close
// status the server sent (-1 when none: dropped, or ctx ended first).
func (c *Client) Ended(ctx context.Context) websocket.StatusCode {
	select {
	case <-c.done:
	case <-ctx.Done():
		return -1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return websocket.CloseStatus(c.endErr)
}

// Close closes the connection normally and waits for the reading
// goroutine.
func (c *Client) Close() error {
	err := c.ws.Close(websocket.StatusNormalClosure, "")
	<-c.done
	return err
}

// CloseNow drops the connection without a close handshake (a client
// that vanishes).
func (c *Client) CloseNow() {
	c.ws.CloseNow()
	<-c.done
}
