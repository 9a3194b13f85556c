package main

import (
	"strings"
	"testing"

	"bufferlab/engine/scenario"
)

func TestDiagnose(t *testing.T) {
	for _, c := range []struct {
		text string
		want []diag
	}{
		{"relation t blocks=4\nbackend A: touch t 0\nrun\n", nil},
		{"# only a comment\n", []diag{{Line: 1, Col: 1, Message: "the scenario has no statements"}}},
		{"relation t blocks=4\nbackend A: tuch t 0\nrun\n", []diag{{Line: 2, Col: 12, Message: "expected an operation (read, "}}},
		{"relation t blocks=4\nbackend A: touch t 0\nrun\nexpect pool hitz=1\n", []diag{{Line: 4, Col: 13, Message: "expect pool: expected KEY=VALUE"}}},
		// Columns count characters, not bytes: "é" is two bytes.
		{"relation t blocks=4\nbackend A: touch t 0\nrun\nexpect backend A error=\"café\" pinz=1\n", []diag{{Line: 4, Col: 31, Message: "expect backend"}}},
	} {
		got := diagnose(c.text)
		if len(got) != len(c.want) {
			t.Errorf("diagnose(%q) = %+v, want %d diagnostics", c.text, got, len(c.want))
			continue
		}
		for i := range got {
			g, w := got[i], c.want[i]
			if g.Line != w.Line || g.Col != w.Col || !strings.HasPrefix(g.Message, w.Message) {
				t.Errorf("diagnose(%q)[%d] = %+v, want %d:%d %q…", c.text, i, g, w.Line, w.Col, w.Message)
			}
		}
	}
}

// TestGalleryRuns: every scenario offered as a start is titled and runs.
func TestGalleryRuns(t *testing.T) {
	g, err := gallery()
	if err != nil || len(g) == 0 {
		t.Fatalf("gallery: %v (%d entries)", err, len(g))
	}
	for _, e := range g {
		if e.Title == "" || e.Name == "" {
			t.Errorf("%+v: no name or title", e.Name)
		}
		if d := diagnose(e.Text); d != nil {
			t.Errorf("%s: %+v", e.Name, d)
		}
		if _, _, err := scenario.Run(e.Name, e.Text, false); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
	}
}
