// Package classroom is the classroom server of `bufferlab serve
// --classroom` (docs/classroom.md is the protocol and its rules): one
// teacher drives a lesson, every student follows on its own device and
// answers the lesson's questions, the teacher reveals the distribution.
//
// It has two layers:
//
//   - Room, the pure model (no sockets, no clock, no goroutines): the room
//     code and teacher token, who is connected (by ConnID), the students
//     and their answers per step and round, where the class is, each
//     question's rounds and counts, and the version v of the state
//     everyone sees. Receive applies one message and says what to send
//     and to whom (Outcome); every validation rule and its reason is
//     there, so testdata/room.txt shows them one case at a time. WriteCSV
//     writes the results.
//   - Server (not in js/wasm builds: coder/websocket accepts nothing
//     there), the WebSocket transport around one Room: GET /class/ws,
//     messages of at most MaxMessage bytes, a token bucket per
//     connection, and one writer goroutine per connection that always
//     sends the newest state and never blocks the room (see conn.go).
//
// Package classclient is the Go client the tests and `bufferlab bench
// classroom` speak it with.
package classroom
