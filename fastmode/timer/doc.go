// Package timer reads the fastest trustworthy clock the machine offers and
// says what it is.
//
// The sources, best first:
//
//   - "tsc": the CPU cycle counter (RDTSC on amd64 when CPUID leaf
//     0x80000007 reports an invariant TSC, CNTVCT_EL0 on arm64), calibrated
//     against the best OS clock below;
//   - the operating system's raw monotonic clock, read from the system C
//     library through github.com/ebitengine/purego (no cgo needed):
//     "clock_gettime" (CLOCK_MONOTONIC_RAW) on Linux, "mach_absolute_time"
//     on macOS, "QueryPerformanceCounter" on Windows;
//   - "performance.now" in the browser (js/wasm);
//   - "time.Now", the Go runtime's monotonic clock, always present and used
//     when none of the above works (Info.Note then says so).
//
// Every Clock reports an Info: its source, its resolution (the smallest
// non-zero difference between two successive reads) and the cost of one
// read, both in nanoseconds.
package timer
