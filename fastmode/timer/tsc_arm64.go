package timer

func cntvct() uint64

// cycleCounter returns the virtual counter CNTVCT_EL0, which the
// architecture guarantees runs at a constant rate.
func cycleCounter() (func() uint64, bool) { return cntvct, true }
