//go:build js

package main

import (
	"errors"
	"io"
	"net/http"
)

// serveClass: the classroom's server (internal/classroom, on
// coder/websocket) runs natively only; this command is not run in a
// browser, but it builds there for go vet.
func serveClass(*classOpts, string, http.Handler, io.Writer) (http.Handler, func() error, error) {
	return nil, nil, errors.New("--classroom: the classroom server runs only in a native build of bufferlab")
}
