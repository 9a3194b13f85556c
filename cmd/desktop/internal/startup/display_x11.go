//go:build (linux && !android) || freebsd || netbsd || openbsd || dragonfly

package startup

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"
)

// CheckDisplay reports whether GLFW can find an X display: DISPLAY is set
// and, for a local display (":0", "unix:0.1"), its socket accepts a
// connection. A display on another host ("host:0") is left to GLFW.
func CheckDisplay(getenv func(string) string) error {
	d := getenv("DISPLAY")
	if d == "" {
		return fmt.Errorf("no display: set DISPLAY or run under xvfb-run")
	}
	host, num, ok := strings.Cut(d, ":")
	num, _, _ = strings.Cut(num, ".")
	if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
		return fmt.Errorf("no display: DISPLAY=%q is not a display name (expected :0 or host:0): set DISPLAY or run under xvfb-run", d)
	}
	if host != "" && host != "unix" {
		return nil
	}
	path := "/tmp/.X11-unix/X" + num
	err := dialUnix(path)
	if err != nil && runtime.GOOS == "linux" {
		// The X server's socket in the abstract namespace, which a
		// container may share without sharing /tmp.
		if dialUnix("@"+path) == nil {
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("no display: DISPLAY=%q, but %s: %v: set DISPLAY to a running X server or run under xvfb-run", d, path, err)
	}
	return nil
}

// dialUnix connects to a Unix socket ("@…": in the abstract namespace) and
// closes the connection. It uses syscall rather than package net, which
// Ebitengine does not import (see the package comment on init order).
func dialUnix(path string) error {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	return syscall.Connect(fd, &syscall.SockaddrUnix{Name: path})
}
