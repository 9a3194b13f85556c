//go:build linux && !android

package timer

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"testing"
)

// threadExitChild is the environment variable that turns this test binary
// into TestOSClockThenThreadExit's child.
const threadExitChild = "BUFFERLAB_TIMER_THREADEXIT_CHILD"

// clockThenThreadExit reads the C library's clock through purego on many
// threads, then lets goroutines that locked their thread end, so the
// runtime ends those threads: each returns from the top of its system
// stack. purego v0.8.0 left that stack damaged after a call, and the
// thread exit jumped into the Go heap (SIGSEGV, no Go trace): it killed
// `go test ./cmd/bufferlab` in CI one run in three, where pgserver's
// locked goroutine ended after the bench tests had read the clock.
func clockThenThreadExit() error {
	o, err := platformClock()
	if err != nil {
		return fmt.Errorf("clock_gettime through purego: %w", err)
	}
	for round := 0; round < 300; round++ {
		var wg sync.WaitGroup
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < 100; j++ {
					o.read()
				}
			}()
		}
		wg.Wait()
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
			}()
		}
		wg.Wait()
	}
	return nil
}

// Threads that called the C clock can end without crashing the process.
// The workload runs in a child (this test binary again) so that a crash
// is reported as a failure with its cause instead of killing the run.
func TestOSClockThenThreadExit(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), threadExitChild+"=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Fatalf("the child died of %v after reading clock_gettime through purego and ending locked threads: "+
				"purego damaged the thread's stack (fixed in purego v0.11; check go.mod)\n%s", ws.Signal(), out)
		}
	}
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if string(out) != "threads ended cleanly\n" {
		t.Fatalf("the child printed %q, want %q", out, "threads ended cleanly\n")
	}
}

func TestMain(m *testing.M) {
	if os.Getenv(threadExitChild) != "" {
		if err := clockThenThreadExit(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("threads ended cleanly")
		os.Exit(0)
	}
	os.Exit(m.Run())
}
