package a11y

// HoldTicks is how long a picture stays while the player plays under
// reduced motion: half a second.
const HoldTicks = 30

// Motion is the app's reduced-motion setting and what it does to
// playing. Nothing in the frame tweens or eases: every picture is drawn
// from the position alone. What moves by itself is playing (up to 64
// events a tick, so the pool, the lanes, the state word and the scrub bar
// change up to 60 times a second) and the spin-delay spinner, which
// turns a dot with each spin. Under reduced motion a playing player's
// picture is laid out anew only every Every ticks, in between the frame
// shows the last picture again, so the scene changes in discrete steps;
// the spinner is drawn as a still ring (viz/scene, from the theme's
// ReducedMotion). Stepping, pausing and every key or click on a still
// player show the new state at once, as without it.
//
// The zero Motion is full motion; Every 0 is HoldTicks.
type Motion struct {
	Reduced bool
	Every   int
	n       int // ticks since the picture was laid out, while playing
}

// Tick takes one tick of the app, playing or not, and reports whether
// the next frame keeps the last frame's picture.
func (m *Motion) Tick(playing bool) (hold bool) {
	every := m.Every
	if every <= 0 {
		every = HoldTicks
	}
	if !m.Reduced || !playing {
		m.n = 0
		return false
	}
	hold = m.n%every != 0
	m.n++
	return hold
}
