//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"syscall/js"

	"bufferlab/lessons/progress"
	"bufferlab/viz/app"
)

// progressKey is the localStorage key the browser keeps progress under
// (lessons/progress's JSON format).
const progressKey = "bufferlab.progress"

// localStore keeps progress in the page's localStorage. localStorage can
// be missing or refuse: reading window.localStorage throws where storage
// is blocked for the site, setItem throws in a full quota (and in some
// private windows, whose quota is 0). Then the store carries on in memory
// for the life of the page and tells the user once, through warn; its
// methods never fail for that reason, so the app does not warn again.
type localStore struct {
	key    string
	warn   func(msg string)
	broken bool
	mem    progress.MemoryStore
}

func newLocalStore(warn func(msg string)) *localStore {
	return &localStore{key: progressKey, warn: warn}
}

// jsCall runs f, turning a JavaScript exception (syscall/js panics with a
// js.Error) into an error that says its name and message
// ("QuotaExceededError: …", "SecurityError: …"): the name is what tells
// a full quota from storage blocked.
func jsCall(f func() js.Value) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(js.Error)
			if !ok {
				panic(r)
			}
			err = errors.New(e.Error())
			if e.Value.Type() == js.TypeObject {
				if name, msg := e.Value.Get("name"), e.Value.Get("message"); name.Type() == js.TypeString && msg.Type() == js.TypeString {
					err = fmt.Errorf("%s: %s", name.String(), msg.String())
				}
			}
		}
	}()
	return f(), nil
}

// storage calls method of window.localStorage with args. The property is
// read with Reflect.get, a call, because a getter that throws
// (SecurityError) through js.Value.Get would stop the Go program, while a
// call's exception comes back as a panic jsCall recovers.
func storage(method string, args ...any) (js.Value, error) {
	return jsCall(func() js.Value {
		ls := js.Global().Get("Reflect").Call("get", js.Global(), "localStorage")
		if !ls.Truthy() {
			panic(js.Error{Value: js.Global().Get("Error").New("this browser has no localStorage")})
		}
		return ls.Call(method, args...)
	})
}

// fail switches to memory after localStorage refused, and tells the user
// the first time.
func (s *localStore) fail(err error) {
	if s.broken {
		return
	}
	s.broken = true
	if s.warn != nil {
		s.warn(fmt.Sprintf("This browser does not let BufferLab keep your progress (localStorage: %v): it is kept until this page is closed.", err))
	}
}

// Load reads the stored progress. A value that is not progress is moved
// to key+".corrupt", as the file store moves a bad file aside, and the
// error says so.
func (s *localStore) Load() (*progress.Progress, error) {
	if s.broken {
		return s.mem.Load()
	}
	v, err := storage("getItem", s.key)
	if err != nil {
		s.fail(err)
		return s.mem.Load()
	}
	if v.IsNull() || v.IsUndefined() {
		return progress.New(), nil
	}
	p, err := progress.Decode(fmt.Sprintf("localStorage[%q]", s.key), []byte(v.String()))
	if err != nil {
		aside := s.key + ".corrupt"
		if _, serr := storage("setItem", aside, v.String()); serr != nil {
			return nil, err
		}
		storage("removeItem", s.key)
		return nil, fmt.Errorf("%w; it was moved to localStorage[%q] and progress starts afresh", err, aside)
	}
	return p, nil
}

// Save stores p (in memory once localStorage has refused).
func (s *localStore) Save(p *progress.Progress) error {
	if s.broken {
		return s.mem.Save(p)
	}
	data, err := progress.Encode(p)
	if err != nil {
		return err
	}
	if _, err := storage("setItem", s.key, string(data)); err != nil {
		s.fail(err)
		return s.mem.Save(p)
	}
	return nil
}

// Reset forgets the stored progress.
func (s *localStore) Reset() error {
	s.mem.Reset()
	if s.broken {
		return nil
	}
	if _, err := storage("removeItem", s.key); err != nil {
		s.fail(err)
	}
	return nil
}

// registerProgress adds progress() and resetProgress() to the Go half of
// window.bufferlab: both return the progress, as stored (the JSON of
// lessons/progress, parsed).
func registerProgress(goAPI js.Value, a *app.App, wrap func(func(args []js.Value) (any, string)) js.Func) {
	get := func() (any, string) {
		b, err := a.ProgressJSON()
		if err != nil {
			return nil, err.Error()
		}
		return b, ""
	}
	goAPI.Set("progress", wrap(func([]js.Value) (any, string) { return get() }))
	goAPI.Set("resetProgress", wrap(func([]js.Value) (any, string) {
		if err := a.ResetProgress(); err != nil {
			return nil, err.Error()
		}
		return get()
	}))
}
