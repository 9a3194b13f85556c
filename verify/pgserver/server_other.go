//go:build !unix

package pgserver

import "context"

// process is empty where no server can run.
type process struct{}

// FindBinDir returns ErrUnsupported on this platform.
func FindBinDir(string) (string, error) { return "", ErrUnsupported }

// Start returns ErrUnsupported on this platform (js/wasm, Windows).
func Start(context.Context, Options) (*Server, error) { return nil, ErrUnsupported }

// Pid is 0: no server runs here.
func (s *Server) Pid() int { return 0 }

// Running is false: no server runs here.
func (s *Server) Running() bool { return false }

// Live returns nothing: no server runs here.
func Live() []string { return nil }

func (s *Server) stop() error { return nil }

func signalled() bool { return false }
