// Package a11y is what the browser's screen-reader mirror shows and says,
// as pure data and pure policy, so that it can be tested without a
// browser:
//
//   - Doc is the mirror of the app's state: the lesson's title and the
//     step's heading, the step's text as Nodes (paragraphs, headings,
//     lists, code), the question with its number and its choices, the
//     explanation once revealed, the step's closing text, the end of the
//     lesson, the player's controls with what each can do now, the
//     position and the caption of the event just applied (every pane's,
//     named by its variant). Build makes it from the player; Changed says
//     which of its sections differ from the last Doc shown, so that the
//     page rewrites only those (cmd/wasm's mirror_js.go).
//   - Announcer decides what the live region says and when: a new step's
//     heading at once, the caption of an event stepped to at once (at
//     most one every Settle ticks while a key repeats), at most one
//     caption every Every ticks while the player plays (a key moment's
//     in preference to the event that happens to be current), the caption
//     of the event the player stopped at at once, an answer's verdict and
//     the app's flash line at once.
//   - Motion is the reduced-motion policy of playing: the picture is laid
//     out anew only every Every ticks while the player plays, so that it
//     changes in discrete steps instead of up to 60 times a second.
//
// Ticks are the app's updates: 60 a second (Ebitengine's TPS), so that
// the policies depend on no clock and a test can count them.
package a11y
