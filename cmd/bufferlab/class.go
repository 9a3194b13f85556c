package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	qrcode "github.com/skip2/go-qrcode"

	"bufferlab/internal/classroom"
	"bufferlab/lessons"
)

// defaultMaxStudents is --max-students's default (docs/classroom.md).
const defaultMaxStudents = 500

// classOpts are serve's classroom flags (docs/classroom.md).
type classOpts struct {
	on, lan, names bool
	max            int
	save           string
}

func addClassFlags(fs *flag.FlagSet) *classOpts {
	o := &classOpts{}
	fs.BoolVar(&o.on, "classroom", false, "run a class: one teacher drives a lesson, students follow and answer on their own devices (docs/classroom.md)")
	fs.BoolVar(&o.lan, "lan", false, "classroom: listen on this machine's local-network address (not only 127.0.0.1), so that students' devices can join")
	fs.IntVar(&o.max, "max-students", defaultMaxStudents, "classroom: the most students that may join, 1..5000")
	fs.StringVar(&o.save, "save", "", "classroom: write the answer counts per question and round to `FILE` (CSV) when the server stops")
	fs.BoolVar(&o.names, "save-names", false, "classroom: also write each student's answers by nickname to the --save file (say so to the class)")
	return o
}

// check says what is wrong with the flags together, or nil.
func (o *classOpts) check() error {
	switch {
	case !o.on && (o.lan || o.save != "" || o.names || o.max != defaultMaxStudents):
		return errors.New("--lan, --max-students, --save and --save-names are classroom flags: add --classroom")
	case o.max < 1 || o.max > 5000:
		return fmt.Errorf("--max-students %d: expected 1..5000", o.max)
	case o.names && o.save == "":
		return errors.New("--save-names: expected --save FILE too (where the answers go)")
	}
	if o.save != "" {
		if st, err := os.Stat(filepath.Dir(o.save)); err != nil || !st.IsDir() {
			return fmt.Errorf("--save %s: the folder %s does not exist", o.save, filepath.Dir(o.save))
		}
	}
	return nil
}

// lanIP is the address students' devices reach this machine at: the
// first IPv4 address of an interface that is up and not the loopback,
// preferring private ones (a classroom's network).
func lanIP(ifaces []ifaceAddrs) (net.IP, error) {
	var public net.IP
	for _, ifc := range ifaces {
		for _, ip := range ifc.IPs {
			ip4 := ip.To4()
			if ip4 == nil || ip4.IsLoopback() || ip4.IsLinkLocalUnicast() {
				continue
			}
			if ip4.IsPrivate() {
				return ip4, nil
			}
			if public == nil {
				public = ip4
			}
		}
	}
	if public == nil {
		return nil, errors.New("--lan: this machine has no network address but the loopback (is it on the classroom's network?)")
	}
	return public, nil
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
