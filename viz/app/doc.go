// Package app is BufferLab's player as an Ebitengine game, shared by the
// desktop app (cmd/desktop) and the browser build (cmd/wasm): the lesson
// menu, the pool scene, the code, narration and counter panels, the
// timeline bar, keyboard, mouse and touch input, presentation mode, the
// light and dark themes (theme.go), and frame capture for screenshots.
//
// Keys: Space play/pause (at a key moment, go on: Continue), ←/→ one
// event, Shift+←/→ ten, +/− speed (1/s to 64×), A auto-slow near key
// moments (Options.NoAutoSlow starts without it), Home/End, PageUp/PageDown (or B/N) previous/next step, O to the end of
// the operation, ↑/↓ scroll the lesson text, 1–9 answer a question, Enter
// reveal or go on, F fullscreen, P presentation mode, D dark or light
// theme, ? help, Esc back to the menu. At the end of a lesson, Enter
// opens the next lesson and R replays it; in the menu, R twice forgets all
// progress.
//
// Progress (progress.go) is kept through Options.Progress, a
// lessons/progress Store: every answer as it is given, the furthest step
// and the lesson's completion, saved when they change. At the end of a
// lesson's last step the lesson text goes on, below the step's own words,
// with the end panel (viz/scene's LayoutLessonEnd: the score, what was
// covered, Next lesson, Replay, Menu); a strip at the foot of the text
// points to it while it is out of view. The menu shows each lesson's
// state and opens a started lesson where it was left.
//
// Accessibility (a11y.go): where Options.A11y is set (the browser), each
// Update hands it viz/a11y's mirror of what the app shows when that may
// have changed, and what the live region is to say; Press is what the
// mirror's buttons do, through the same hooks as the canvas's. Reduced
// motion (Options.ReducedMotion, SetReducedMotion) keeps a playing
// player's picture for half a second at a time and draws the spinner
// still.
//
// The App's methods are safe to call from another goroutine (the browser's
// JavaScript API calls them); Update and Draw take the same lock.
package app
