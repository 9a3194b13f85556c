package verify

import "math/rand/v2"

// seeded is a deterministic random source: PCG with a fixed seed, so a
// random script is the same on every run and platform.
type seeded struct{ r *rand.Rand }

func newRand(seed uint64) seeded { return seeded{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))} }

// intn returns a number in [0, n).
func (s seeded) intn(n int) int { return s.r.IntN(n) }
