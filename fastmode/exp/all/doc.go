// Package all links every fast-mode experiment into a program: importing
// it (for its side effects) registers limits, pool, pin, drop, slru and
// fsm with package exp, where exp.Lookup and exp.Names find them. The
// classroom bench is not among them: it opens sockets, and the app and
// the browser build link this package; cmd/bufferlab imports it itself.
package all
