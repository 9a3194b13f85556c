package timer

func rdtsc() uint64

func cpuid(leaf uint32) (eax, ebx, ecx, edx uint32)

// cycleCounter returns RDTSC when the CPU says its TSC is invariant
// (CPUID leaf 0x80000007, EDX bit 8): constant rate across P-, C- and
// T-states.
func cycleCounter() (func() uint64, bool) {
	if maxExt, _, _, _ := cpuid(0x80000000); maxExt < 0x80000007 {
		return nil, false
	}
	if _, _, _, edx := cpuid(0x80000007); edx&(1<<8) == 0 {
		return nil, false
	}
	return rdtsc, true
}
