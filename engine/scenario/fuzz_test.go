package scenario

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzScenario feeds arbitrary text to the parser and, when it parses, to
// the runner (with small bounds so each input runs quickly). No input may
// panic; every error must be a *Error positioned inside the input; a run
// that finished must leave no lock held.
func FuzzScenario(f *testing.F) {
	seeds := []string{
		"config shared_buffers=128kB\nrelation t1 blocks=17\nbackend A: touch t1 0..16\nrun\nshow",
		"relation t blocks=4\nbackend A: read t 0; dirty t 0\nbackend B: read t 0\nschedule A B A B B A\nrun steps=3\nrun\nexpect backend A pins=t/0",
		"config schedule=random seed=3\nrelation t blocks=40\nbackend A: scan t\nbackend B: touch t 0..20\nrun\nshow map",
		"relation t blocks=2\nbackend A: read t 0..1; read t 0\nrun\nexpect block t 0 rc=1 usage=2\nexpect buffer 0 flags=VALID,TAG_VALID,PERMANENT",
		"expect backend A error=\"x\\\"y\"",
		"config shared_buffers=1MB in_recovery=on dlist=on\nrelation r blocks=1 count=4\nrelation t blocks=3\nbackend A: touch r* 0; read t 1\nbackend S: drop t; drop r* strategy=dlist\nrun\nexpect pool in_use=0",
		"config pins=atomic,spinlock\nrelation t blocks=1\nbackend A: read t 0\nbackend B: read t 0\nrun\nexpect spinlock: pool spins=1",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	_ = filepath.WalkDir("../../lessons/scenarios", func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".scn") {
			if b, err := os.ReadFile(path); err == nil {
				f.Add(string(b))
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, src string) {
		nlines := strings.Count(src, "\n") + 1
		positioned := func(err error) {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T) is not a positioned *Error", err, err)
			}
			if se.Pos.Line < 1 || se.Pos.Line > nlines || se.Pos.Col < 1 {
				t.Fatalf("error %v: position %d:%d outside the input (%d lines)", err, se.Pos.Line, se.Pos.Col, nlines)
			}
			if se.Msg == "" {
				t.Fatalf("error with an empty message at %v", se.Pos)
			}
		}
		s, err := Parse("fuzz", src)
		if err != nil {
			positioned(err)
			return
		}
		if len(s.Stmts) > 0 && isBigPool(s.Stmts[0]) {
			return // parsing is what is fuzzed here; big pools only cost time
		}
		r, err := NewRunner(s, true)
		if err != nil {
			t.Fatalf("NewRunner on a parsed script: %v", err)
		}
		if r.cfg.MaxSteps > 20000 {
			c := *r.cfg
			c.MaxSteps = 20000
			r.cfg = &c
		}
		if _, err := r.RunAll(); err != nil {
			positioned(err)
			return
		}
		if r.sched == nil {
			if err := r.pool.CheckQuiescent(); err != nil {
				t.Fatalf("after a finished run: %v", err)
			}
		} else if err := r.pool.CheckInvariants(); err != nil {
			t.Fatalf("during a paused run: %v", err)
		}
	})
}

func isBigPool(st Stmt) bool {
	c, ok := st.(*ConfigStmt)
	return ok && c.NBuffers > 4096
}
