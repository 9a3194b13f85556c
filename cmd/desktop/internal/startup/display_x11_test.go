//go:build (linux && !android) || freebsd || netbsd || openbsd || dragonfly

package startup

import (
	"net"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckDisplay(t *testing.T) {
	env := func(d string) func(string) string {
		return func(k string) string {
			if k == "DISPLAY" {
				return d
			}
			return ""
		}
	}
	for _, c := range []struct{ display, want string }{
		{"", "no display: set DISPLAY or run under xvfb-run"},
		{"garbage", `no display: DISPLAY="garbage" is not a display name (expected :0 or host:0)`},
		{":x", `no display: DISPLAY=":x" is not a display name`},
		{":98765", `no display: DISPLAY=":98765", but /tmp/.X11-unix/X98765: `},
		{"unix:98765.0", `no display: DISPLAY="unix:98765.0", but /tmp/.X11-unix/X98765: `},
	} {
		err := CheckDisplay(env(c.display))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("DISPLAY=%q: %v, want %q…", c.display, err, c.want)
		}
	}
	// Another host's display is left to GLFW.
	if err := CheckDisplay(env("otherhost:0")); err != nil {
		t.Errorf("otherhost:0: %v", err)
	}
}

// dialUnix connects to a listening socket and fails on a missing one.
func TestDialUnix(t *testing.T) {
	path := filepath.Join(t.TempDir(), "X0")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := dialUnix(path); err != nil {
		t.Errorf("listening socket: %v", err)
	}
	if err := dialUnix(path + "-missing"); err == nil {
		t.Error("missing socket: no error")
	}
}
