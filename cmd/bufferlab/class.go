//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"

	qrcode "github.com/skip2/go-qrcode"

	"bufferlab/internal/classroom"
	"bufferlab/lessons"
)

// serveClass starts the class serve --classroom runs beside the lessons
// (web), whose students join at base: it prints where the teacher and the
// students go, and returns the handler to serve and what to run when the
// server stops.
func serveClass(o *classOpts, base string, web http.Handler, stdout io.Writer) (http.Handler, func() error, error) {
	c, err := newClass(o, base)
	if err != nil {
		return nil, nil, err
	}
	c.banner(stdout, base, o.lan)
	return c.handler(web), c.finish, nil
}

// class is a running class beside the lessons: its server, the join
// link and its QR code.
type class struct {
	srv    *classroom.Server
	join   string
	qr     []byte
	opts   *classOpts
	saving sync.Mutex // save runs on end and at stop
}

// newClass starts a class whose students join at base (http://host:port/).
func newClass(o *classOpts, base string) (*class, error) {
	all, err := lessons.All()
	if err != nil {
		return nil, err
	}
	c := &class{opts: o}
	// The results are written when the teacher ends the class, and again
	// when the server stops (a class that was never ended, or answers
	// after the end: none are taken).
	c.srv, err = classroom.New(classroom.Config{Lessons: all, MaxStudents: o.max, SaveNames: o.names,
		OnEnd: func() {
			if err := c.save(); err != nil {
				fmt.Fprintf(os.Stderr, "bufferlab serve: %v\n", err)
			}
		}})
	if err != nil {
		return nil, err
	}
	srv := c.srv
	c.join = base + "#join=" + srv.Code()
	if c.qr, err = qrcode.Encode(c.join, qrcode.Medium, 320); err != nil {
		srv.Close()
		return nil, fmt.Errorf("the join link's QR code: %v", err)
	}
	return c, nil
}

// handler serves the class beside web: the WebSocket, the join link's QR
// code and the join link itself (never the teacher's token).
func (c *class) handler(web http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", web)
	c.route(mux)
	return mux
}

// routes is the class's part of handler alone.
func (c *class) routes() http.Handler {
	mux := http.NewServeMux()
	c.route(mux)
	return mux
}

func (c *class) route(mux *http.ServeMux) {
	mux.Handle("/class/ws", c.srv.Handler())
	mux.HandleFunc("GET /class/qr.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(c.qr)
	})
	mux.HandleFunc("GET /class/info", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(map[string]string{"room": c.srv.Code(), "join": c.join})
	})
}

// banner says where the teacher and the students go, and what is exposed.
func (c *class) banner(w io.Writer, teacherBase string, lan bool) {
	fmt.Fprintf(w, "BufferLab classroom, room %s\n", c.srv.Code())
	fmt.Fprintf(w, "  Teacher (keep this link to yourself): %s#teach=%s\n", teacherBase, c.srv.TeacherToken())
	fmt.Fprintf(w, "  Students join at:                     %s   (the projector shows it with a QR code)\n", c.join)
	if lan {
		fmt.Fprintf(w, "  Exposed to the local network: the lessons, the join page and the class's WebSocket (no files but the app's, no accounts); at most %d students.\n", c.opts.max)
	} else {
		fmt.Fprintln(w, "  Only this machine can join: run with --lan for students' devices on the same network.")
	}
	if c.opts.save != "" {
		what := "the answer counts per question and round"
		if c.opts.names {
			what += ", and each student's answers by nickname"
		}
		fmt.Fprintf(w, "  When the server stops, %s go to %s.\n", what, c.opts.save)
	}
}

// finish closes the class and writes its results if asked.
func (c *class) finish() error {
	c.srv.Close()
	return c.save()
}

// save writes the results to --save's file (nothing without one).
func (c *class) save() error {
	c.saving.Lock()
	defer c.saving.Unlock()
	if c.opts.save == "" {
		return nil
	}
	f, err := os.Create(c.opts.save)
	if err != nil {
		return fmt.Errorf("--save: %v", err)
	}
	if err := c.srv.WriteCSV(f); err != nil {
		f.Close()
		return fmt.Errorf("--save %s: %v", c.opts.save, err)
	}
	return f.Close()
}
