// Package app is BufferLab's player as an Ebitengine game, shared by the
// desktop app (cmd/desktop) and the browser build (cmd/wasm): the lesson
// menu, the pool scene, the code, narration and counter panels, the
// timeline bar, keyboard, mouse and touch input, presentation mode, the
// light and dark themes (theme.go), and frame capture for screenshots.
//
// Keys: Space play/pause, ←/→ one event, Shift+←/→ ten, +/− speed,
// Home/End, PageUp/PageDown (or B/N) previous/next step, O to the end of
// the operation, ↑/↓ scroll the lesson text, 1–9 answer a question, Enter
// reveal or go on, F fullscreen, P presentation mode, D dark or light
// theme, ? help, Esc back to the menu.
//
// The App's methods are safe to call from another goroutine (the browser's
// JavaScript API calls them); Update and Draw take the same lock.
package app
