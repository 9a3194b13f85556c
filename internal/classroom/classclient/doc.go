// Package classclient is a Go client of the classroom's protocol
// (docs/classroom.md), for the server's tests and `bufferlab bench
// classroom`: Dial says hello and waits for the welcome; Send sends a
// message; one goroutine a client reads, keeps the newest state (by v)
// and every error, and wakes whoever waits for a state (WaitState) or an
// error (WaitErrors). It sends no Origin header, which the server lets
// in as a same-origin request.
package classclient
