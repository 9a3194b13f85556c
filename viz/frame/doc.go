// Package frame lays out the whole window: the menu, a lesson's frame
// (its top bar, the scene, the lesson text, the code, the counters, the
// caption of the current event or the key moment the player stopped
// before, and the timeline), the help overlay and the messages, as one
// layout.List with its click targets. It is pure (no Ebitengine): viz/app paints the list
// and dispatches clicks to its targets, and the tests lay out every step
// of every lesson at every viewport without a display.
//
// The frame adapts to the viewport (Plan):
//
//	class   when                         arrangement
//	Phone   narrower than 600 px         one region at a time, tabs: Scene | Lesson | Code
//	Tablet  narrower than 1000 px, or    two columns: the scene; the lesson over
//	        lower than 600 px            the code, tabs: Lesson | Code
//	Desk    otherwise                    the scene, the lesson, the side panels and
//	                                     the code at once
//
// Type scales with the window within floors: every text run is at least
// Plan.Theme.MinPx pixels (14 on a phone or laptop, 24 in presentation mode
// at 1280×720, more on a larger screen), and on a touch screen (Phone and
// Tablet, or Input.Touch) every target is at least 44 px on its smaller
// side.
//
// Invariants (tested for every step of every lesson at 390×844, 844×390,
// 1280×720, 1280×800, 1920×1080 and 3840×2160, in both modes):
//   - A text run that does not fit its box is recorded in the list's
//     Overflows (layout's invariant); Build adds none of its own silently,
//     and the lesson text, which scrolls, reports what is below the fold
//     as a scroll bar, not as an overflow.
//   - An open question's prompt and every choice are on screen where it
//     is asked (the stop of its moment, or its step's start): the
//     question is pinned at the bottom of the lesson panel, and the
//     lesson text scrolls above it. framecheck lays out every stop too.
//   - The caption bar is one line, the same height whatever it says; at
//     a stop, the stop box (caption.go) is at the foot of the right
//     column, so the scene keeps its size (on a phone, in the caption
//     bar's place).
//   - The same input lays out the same list.
package frame
