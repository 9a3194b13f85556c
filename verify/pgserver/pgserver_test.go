//go:build unix

package pgserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needServer skips outside CI when the server binaries are missing, and
// fails in CI (the environment variable CI set).
func needServer(t *testing.T) {
	t.Helper()
	if _, err := FindBinDir(""); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is missing (%v); CI must run these tests (apt-get install -y postgresql-15)", err)
		}
		t.Skipf("PostgreSQL is not installed: %v", err)
	}
}

// baseDir is a directory the postgres user can reach (t.TempDir's parent
// is private to the caller).
func baseDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "pgserver-test-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(d, 0o755)
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func waitDead(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return syscall.Kill(pid, 0) != nil
}

func TestStartStop(t *testing.T) {
	needServer(t)
	ctx := context.Background()
	s, err := Start(ctx, Options{NextXid: 1 << 20, Settings: map[string]string{"work_mem": "8MB"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	if !s.Running() || s.Pid() == 0 || !strings.HasPrefix(s.Dir, filepath.Join(os.TempDir(), DirPrefix)) && !strings.HasPrefix(s.Dir, "/tmp/"+DirPrefix) {
		t.Fatalf("running %v pid %d dir %s", s.Running(), s.Pid(), s.Dir)
	}
	if live := Live(); len(live) != 1 || live[0] != s.Dir {
		t.Errorf("Live() = %v", live)
	}
	conn, err := s.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for setting, want := range map[string]string{"shared_buffers": "16MB", "autovacuum": "off", "fsync": "off",
		"listen_addresses": "127.0.0.1", "port": strconv.Itoa(s.Port), "unix_socket_directories": s.Dir, "work_mem": "8MB"} {
		var got string
		if err := conn.QueryRow(ctx, "SELECT current_setting($1)", setting).Scan(&got); err != nil || got != want {
			t.Errorf("%s = %q (%v), want %q", setting, got, err, want)
		}
	}
	var exts int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_extension WHERE extname IN ('pg_buffercache', 'pg_freespacemap', 'pageinspect')").Scan(&exts); err != nil || exts != 3 {
		t.Errorf("%d of the 3 extensions (%v)", exts, err)
	}
	var xid int64
	if err := conn.QueryRow(ctx, "SELECT txid_current()").Scan(&xid); err != nil || xid < 1<<20 || xid > 1<<20+10000 {
		t.Errorf("txid_current() = %d (%v), want just past 1048576", xid, err)
	}
	conn.Close(ctx)
	pid, dir := s.Pid(), s.Dir
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if !waitDead(pid, 5*time.Second) {
		t.Errorf("postmaster %d still running", pid)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s still there", dir)
	}
	if s.Running() || len(Live()) != 0 {
		t.Errorf("running %v, live %v after Stop", s.Running(), Live())
	}
}

func TestStartFailsCleanly(t *testing.T) {
	needServer(t)
	base := baseDir(t)
	_, err := Start(context.Background(), Options{TempDir: base, Settings: map[string]string{"shared_buffers": "nonsense"}})
	if err == nil || !strings.Contains(err.Error(), "shared_buffers") {
		t.Fatalf("a server with shared_buffers=nonsense: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(base, DirPrefix+"*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	if _, err := FindBinDir(t.TempDir()); !errors.Is(err, ErrNoServer) {
		t.Errorf("FindBinDir of an empty directory: %v", err)
	}
}

// A process that dies without cleaning up (SIGKILL) takes its postmaster
// with it (the parent-death signal); the next Start removes the directory
// it left. A SIGTERM is handled: the server is stopped and the directory
// removed before the process dies of the signal.
func TestOwnerDies(t *testing.T) {
	needServer(t)
	if runtime.GOOS != "linux" {
		t.Skip("the parent-death signal is Linux's")
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			base := baseDir(t)
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "PGSERVER_CHILD_BASE="+base)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			sc := bufio.NewScanner(out)
			var dir string
			var pid int
			for sc.Scan() {
				if _, err := fmt.Sscanf(sc.Text(), "SERVER %s %d", &dir, &pid); err == nil {
					break
				}
			}
			if dir == "" {
				t.Fatal("the child started no server")
			}
			cmd.Process.Signal(sig)
			cmd.Wait()
			if !waitDead(pid, 15*time.Second) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("postmaster %d outlived its owner (%v)", pid, sig)
			}
			if sig == syscall.SIGTERM {
				if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("SIGTERM: %s still there", dir)
				}
				return
			}
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("SIGKILL: expected %s to be left: %v", dir, err)
			}
			sweepStale(base)
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the stale %s was not swept", dir)
			}
		})
	}
}

// TestMain turns the test binary into TestOwnerDies's child when that test
// starts it with PGSERVER_CHILD_BASE set: it starts a server, says where,
// and waits to be killed. Otherwise it runs the tests.
func TestMain(m *testing.M) {
	base := os.Getenv("PGSERVER_CHILD_BASE")
	if base == "" {
		os.Exit(m.Run())
	}
	s, err := Start(context.Background(), Options{TempDir: base})
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(1)
	}
	fmt.Printf("SERVER %s %d\n", s.Dir, s.Pid())
	time.Sleep(time.Minute)
	s.Stop()
	os.Exit(1)
}
