//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"bufferlab/verify"
	"bufferlab/verify/pgserver"
)

// needPostgres skips a test when the PostgreSQL server binaries are
// missing, except in CI (the environment variable CI set), where it fails:
// CI must run the checks against a real server (`make test` installs it).
func needPostgres(t *testing.T) {
	t.Helper()
	_, err := pgserver.FindBinDir("")
	if err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("PostgreSQL is missing (%v); CI must run the verify checks (apt-get install -y postgresql-15)", err)
	}
	t.Skipf("PostgreSQL is not installed (%v); `make test` installs it (apt-get install -y postgresql-15)", err)
}

var startedRE = regexp.MustCompile(`started PostgreSQL .* in (\S+) \(pid (\d+), port (\d+)\)`)

// startedServer reads the directory and postmaster pid the command
// reported on stderr.
func startedServer(t *testing.T, stderr string) (string, int) {
	t.Helper()
	m := startedRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no 'started PostgreSQL' line on stderr:\n%s", stderr)
	}
	pid, _ := strconv.Atoi(m[2])
	return m[1], pid
}

// assertGone checks that nothing of a server is left: its directory, its
// postmaster, any process whose command line names the directory.
func assertGone(t *testing.T, dir string, pid int) {
	t.Helper()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the server's directory %s is still there (%v)", dir, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("the postmaster (pid %d) is still running", pid)
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), dir) {
			t.Errorf("process %s still names %s: %q", filepath.Dir(p), dir, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
}

// The acceptance run: a server of its own, every check, all matching, a
// table, and nothing left behind.
func TestVerifyOwnServer(t *testing.T) {
	needPostgres(t)
	code, out, errOut := cli(t, "", "verify")
	dir, pid := startedServer(t, errOut)
	assertGone(t, dir, pid)
	if code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	checks := verify.Checks()
	if len(checks) < 15 {
		t.Fatalf("only %d checks", len(checks))
	}
	for _, c := range checks {
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(c.Name) + `\s.*\syes$`)
		if !re.MatchString(out) {
			t.Errorf("no matching row for %s", c.Name)
		}
	}
	for _, want := range []string{"CHECK", "ENGINE SAYS", "SERVER SAYS", "MATCH", "PostgreSQL 15.",
		strconv.Itoa(len(checks)) + " checks: " + strconv.Itoa(len(checks)) + " match, 0 differ, 0 skipped"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "server stopped, "+dir+" removed") {
		t.Errorf("stderr does not say the server was stopped:\n%s", errOut)
	}
}

func TestVerifyJSON(t *testing.T) {
	needPostgres(t)
	code, out, errOut := cli(t, "", "verify", "--json")
	dir, pid := startedServer(t, errOut)
	assertGone(t, dir, pid)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var j struct {
		Server struct {
			Version  string            `json:"version"`
			NBuffers int               `json:"nbuffers"`
			Settings map[string]string `json:"settings"`
			Own      bool              `json:"started_by_bufferlab"`
		} `json:"server"`
		Checks []struct {
			Name, Engine, Server string
			Match                bool
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if !strings.HasPrefix(j.Server.Version, "15.") || j.Server.NBuffers != 2048 || !j.Server.Own ||
		j.Server.Settings["shared_buffers"] != "16MB" || j.Server.Settings["autovacuum"] != "off" {
		t.Errorf("server: %+v", j.Server)
	}
	if len(j.Checks) != len(verify.Checks()) {
		t.Errorf("%d checks in the JSON, want %d", len(j.Checks), len(verify.Checks()))
	}
	for _, c := range j.Checks {
		if !c.Match || c.Engine == "" || c.Engine != c.Server {
			t.Errorf("%s: engine %q, server %q, match %v", c.Name, c.Engine, c.Server, c.Match)
		}
	}
}

// --dsn against a server the test starts: read-only, nothing written (no
// xid used, no table made); with --allow-writes a warning first, then the
// writing checks too, and their tables dropped again.
func TestVerifyDSN(t *testing.T) {
	needPostgres(t)
	ctx := context.Background()
	srv, err := pgserver.Start(ctx, verify.ServerOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	conn, err := srv.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	state := func() (next int64, tables int64) {
		t.Helper()
		if err := conn.QueryRow(ctx, "SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint").Scan(&next); err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_class WHERE relname LIKE 'bufferlab_verify%'").Scan(&tables); err != nil {
			t.Fatal(err)
		}
		return
	}
	next0, _ := state()
	code, out, errOut := cli(t, "", "verify", "--dsn", srv.ConnString(""))
	if code != exitOK {
		t.Fatalf("read-only: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "read-only against --dsn") || strings.Contains(errOut, "WARNING") || strings.Contains(errOut, "started PostgreSQL") {
		t.Errorf("read-only stderr:\n%s", errOut)
	}
	var ran int
	for _, c := range verify.Checks() {
		row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(c.Name) + `\s.*\s(yes|skipped|NO)$`).FindStringSubmatch(out)
		want := "yes"
		if c.Writes || c.OwnOnly {
			want = "skipped"
		} else {
			ran++
		}
		if row == nil || row[1] != want {
			t.Errorf("%s: %v, want %s", c.Name, row, want)
		}
	}
	if ran < 3 {
		t.Errorf("only %d read-only checks", ran)
	}
	if next, tables := state(); next != next0 || tables != 0 {
		t.Errorf("the read-only run wrote: next xid %d -> %d, %d tables", next0, next, tables)
	}

	code, out, errOut = cli(t, "", "verify", "--json", "--dsn", srv.ConnString(""), "--allow-writes")
	if code != exitOK {
		t.Fatalf("--allow-writes: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "WARNING: --allow-writes") {
		t.Errorf("no warning before writing:\n%s", errOut)
	}
	var j struct {
		Server struct {
			Own bool `json:"started_by_bufferlab"`
		} `json:"server"`
		Checks  []struct{ Name string }
		Skipped []struct{ Name, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	var own int
	for _, c := range verify.Checks() {
		if c.OwnOnly {
			own++
		}
	}
	if j.Server.Own || len(j.Skipped) != own || len(j.Checks) != len(verify.Checks())-own {
		t.Errorf("--allow-writes: %d checks ran, %d skipped (%v), own %v", len(j.Checks), len(j.Skipped), j.Skipped, j.Server.Own)
	}
	if _, tables := state(); tables != 0 {
		t.Errorf("%d bufferlab_verify tables left", tables)
	}
}

func TestVerifyFlags(t *testing.T) {
	for _, args := range [][]string{
		{"verify", "--nope"},
		{"verify", "extra"},
		{"verify", "--allow-writes"},
		{"verify", "--dsn", "host=/tmp port=notaport"},
		{"verify", "--dsn", "host=/tmp", "--bindir", "/usr/bin"},
	} {
		if code, _, _ := cli(t, "", args...); code != exitBadInput {
			t.Errorf("%v: exit %d, want %d", args, code, exitBadInput)
		}
	}
	code, out, _ := cli(t, "", "verify", "--list")
	if code != exitOK {
		t.Fatalf("--list: exit %d", code)
	}
	for _, c := range verify.Checks() {
		if !strings.Contains(out, c.Name) {
			t.Errorf("--list lacks %s", c.Name)
		}
	}
	code, _, errOut := cli(t, "", "verify", "--bindir", t.TempDir())
	if code != exitCheck || !strings.Contains(errOut, "could not start a PostgreSQL server") {
		t.Errorf("--bindir without a server: exit %d, %s", code, errOut)
	}
}

// A malformed --dsn is refused before connecting, with exit 2 and the
// parse error: pgx alone took "garbage==" as a server setting named
// garbage, and the error was about the default socket.
func TestVerifyBadDSN(t *testing.T) {
	for _, c := range []struct{ dsn, want string }{
		{"garbage==", `bufferlab verify: --dsn: invalid connection option "garbage": expected libpq keywords`},
		{"host='x", "bufferlab verify: --dsn: cannot parse `host='x`: failed to parse as keyword/value (unterminated quoted string in connection info string)"},
	} {
		code, out, errOut := cli(t, "", "verify", "--dsn", c.dsn)
		if code != exitBadInput || out != "" || !strings.HasPrefix(errOut, c.want) || strings.Count(errOut, "\n") != 1 ||
			strings.Contains(errOut, "socket") || strings.Contains(errOut, "/var/run") {
			t.Errorf("--dsn %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.dsn, code, out, errOut, c.want)
		}
	}
}

// An interrupted run (SIGINT in the middle of the checks) still stops its
// server and removes its directory. The test runs the command in a child
// process: this test binary again, which TestMain turns into the command.
func TestVerifyInterrupted(t *testing.T) {
	needPostgres(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "BUFFERLAB_VERIFY_CHILD=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(stderr)
	var dir string
	var pid int
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if m := startedRE.FindStringSubmatch(sc.Text()); m != nil {
			dir = m[1]
			pid, _ = strconv.Atoi(m[2])
			break
		}
	}
	if dir == "" {
		t.Fatalf("the child never started a server:\n%s", strings.Join(seen, "\n"))
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		seen = append(seen, sc.Text())
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("the child ended with %v, want killed by SIGINT", err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("the child ended with %v, want killed by SIGINT", err)
	}
	assertGone(t, dir, pid)
	if !strings.Contains(strings.Join(seen, "\n"), "stopping 1 PostgreSQL server") {
		t.Errorf("the child did not say it stopped its server:\n%s", strings.Join(seen, "\n"))
	}
}

// TestMain runs the test binary as TestVerifyInterrupted's child (a plain
// `bufferlab verify`) when that test starts it with BUFFERLAB_VERIFY_CHILD
// set, and the tests otherwise (and then removes the page the browser
// tests built).
func TestMain(m *testing.M) {
	if os.Getenv("BUFFERLAB_VERIFY_CHILD") != "" {
		os.Exit(run([]string{"verify"}, strings.NewReader(""), os.Stdout, os.Stderr))
	}
	code := m.Run()
	if web.dir != "" {
		os.RemoveAll(web.dir) // browser_test.go's buildWeb
	}
	os.Exit(code)
}

// --mechanism takes the checks a mechanism claims in the registry: the
// list names each check's mechanism, a mechanism's list has its checks
// alone (in verify's order), and a name with no checks is bad input that
// lists the names that have some.
func TestVerifyByMechanism(t *testing.T) {
	all := cliOK(t, "", "verify", "--list")
	fsm := cliOK(t, "", "verify", "--list", "--mechanism", "fsm")
	rows := func(out string) []string { return strings.Split(strings.TrimSpace(out), "\n")[1:] }
	if len(rows(fsm)) == 0 || len(rows(fsm)) >= len(rows(all)) {
		t.Fatalf("fsm lists %d checks of %d", len(rows(fsm)), len(rows(all)))
	}
	for _, r := range rows(fsm) {
		if f := strings.Fields(r); len(f) < 2 || f[1] != "fsm" {
			t.Errorf("--mechanism fsm lists %q", r)
		}
	}
	owners := map[string]bool{}
	for _, r := range rows(all) {
		owners[strings.Fields(r)[1]] = true
	}
	for _, m := range []string{"pool", "pins", "drop", "slru", "fsm"} {
		if !owners[m] {
			t.Errorf("no check of %s in the list:\n%s", m, all)
		}
	}
	code, _, stderr := cli(t, "", "verify", "--mechanism", "wal")
	if code != exitBadInput || !strings.Contains(stderr, `expected a mechanism with checks (pool, pins, drop, slru, fsm), found "wal"`) {
		t.Fatalf("--mechanism wal: exit %d, %q", code, stderr)
	}
}
