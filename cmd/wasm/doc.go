// Command wasm is BufferLab's browser build: the lesson player compiled to
// WebAssembly (GOOS=js GOARCH=wasm), loaded by web/index.html and
// web/boot.js and served by `bufferlab serve`.
//
// It exposes a JavaScript API on window.bufferlab for embedding and tests:
//
//	ready        a promise, resolved when the first frame is drawn
//	lessons()    the lessons: [{name, title, summary, steps, questions}]
//	open(name)   open a lesson at its first step
//	goto(k)      go to the start of lesson step k (0-based)
//	step(n)      move n events (negative: back), stopping at a key moment
//	             (the player stops just before it) and at an open question
//	seek(i)      move to event position i
//	answer(c)    answer the open question with choice c (1-based)
//	continue()   go on from the key moment the player is stopped at: apply
//	             its event and play on (an error when not at a stop, or
//	             while its question is unanswered)
//	autoslow(on) slow down near key moments while playing (true, the
//	             default) or not (false)
//	menu()       back to the lesson list
//	fast(name)   open the fast-mode panel running experiment name (pool,
//	             limits) with quick settings; state().fast has its progress
//	             and, when done, its summary
//	layout()     the frame on screen: {overflow, min_text_px, min_target_px,
//	             viewport: [w, h], mode} (text runs that do not fit, the
//	             smallest text and target in CSS px; mode phone, tablet or
//	             desk, with -presentation), laid out for the state now
//	targets()    the frame's clickable regions: [{role, label, x, y, w, h}]
//	presentation(on)  presentation mode on (true) or off (false)
//	play(on)     start (true) or stop (false) playing, as Space does
//	classHold(on)  a student in a class: answers are held, not revealed,
//	             until classReveal(); Enter does not skip
//	classReveal()  reveal the current step's question (the held answer
//	             marked beside the right one)
//	classReask()   open the current step's question again, unanswered
//	theme(name)  switch to the light or dark theme (state().theme names the
//	             one in use); the app starts in the one the system's
//	             prefers-color-scheme asks for, and D switches it too
//	state()      {mode, lesson, step, steps, event, events, speed, gated,
//	             stop, autoSlow, end, counters, fps, theme, …} (speed:
//	             "1/s" … "30/s", "1×" … "64×"; gated: an open question
//	             holds the player; stop, when the player is stopped just
//	             before a key moment: {moment, title, pane, question,
//	             caption}; end: the lesson is at the end of its last step,
//	             where its text shows the score and the way on)
//	progress()   the student's progress: {version, lessons: {NAME:
//	             {furthestStep, completed, completedAt, answers: [{step,
//	             choice, right, at}]}}} (see lessons/progress)
//	resetProgress()  forget all progress; returns the (empty) progress
//	mirror()     the screen-reader text view's content (viz/a11y's Doc):
//	             {mode, title, heading, menu, prose, question, after, end,
//	             controls, status, captions}
//	motion()     reduced motion: {reduced, held, source, holdTicks} (held:
//	             frames that kept a playing player's last picture; source:
//	             media, link or api)
//	reducedMotion(on)  force reduced motion on (true) or off (false), or
//	             follow prefers-reduced-motion again (null)
//
// The page has a text view of the app for screen readers (index.html's
// #mirror, written by mirror_js.go) and a polite live region
// (#mirror-live) with the captions; Tab moves from the canvas into it,
// Escape back. Reduced motion follows the page's prefers-reduced-motion
// media query unless ?motion=reduce or ?motion=full, or reducedMotion(),
// forces it (motion_js.go).
//
// Progress is kept in the page's localStorage under "bufferlab.progress",
// and survives a reload. Where the browser refuses localStorage (storage
// blocked for the site, a private window, a full quota) a notice says so
// once and progress lasts until the page is closed.
//
// Functions throw an Error with a message on bad arguments. The page's
// address can name a state: #lesson=NAME&step=N opens lesson NAME at step N
// (from 0). A step past the last opens the last, a negative or garbled one
// the first, an unknown lesson the list, each with a notice above the
// canvas (state().notice has it too). F asks for fullscreen; where the page
// is in a frame that does not allow it, a notice says so.
package main
