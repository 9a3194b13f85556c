//go:build unix

package pgserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// process is the running postmaster: its pid and a channel closed when it
// has exited (and been reaped).
type process struct {
	pid    int
	exited chan struct{}
	err    error // cmd.Wait's result, valid once exited is closed
	log    string
}

// runAs is who runs the server programs: nil for the caller, else the
// credential of the postgres user (when the caller is root).
type runAs struct {
	cred     *syscall.Credential
	uid, gid int
}

func (r *runAs) attr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if r != nil {
		a.Credential = r.cred
	}
	return a
}

// serverUser decides who runs the server: PostgreSQL refuses root, so a
// root caller hands over to the postgres user.
func serverUser() (*runAs, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgserver: running as root, and PostgreSQL refuses root: need a postgres user to run the server as: %w", err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("pgserver: postgres user has uid %q gid %q", u.Uid, u.Gid)
	}
	return &runAs{cred: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, uid: uid, gid: gid}, nil
}

// FindBinDir returns the directory holding initdb, postgres and pg_ctl:
// dir if not empty, else $BUFFERLAB_PG_BINDIR, else `pg_config --bindir`,
// else the newest /usr/lib/postgresql/*/bin, else the directory of initdb
// on the PATH. It returns ErrNoServer when none holds all three.
func FindBinDir(dir string) (string, error) {
	has := func(d string) bool {
		for _, p := range []string{"initdb", "postgres", "pg_ctl"} {
			if st, err := os.Stat(filepath.Join(d, p)); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
				return false
			}
		}
		return true
	}
	if dir != "" {
		if has(dir) {
			return dir, nil
		}
		return "", fmt.Errorf("%w in %s", ErrNoServer, dir)
	}
	var cands []string
	if d := os.Getenv("BUFFERLAB_PG_BINDIR"); d != "" {
		cands = append(cands, d)
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		cands = append(cands, strings.TrimSpace(string(out)))
	}
	if ds, _ := filepath.Glob("/usr/lib/postgresql/*/bin"); len(ds) > 0 {
		slices.SortFunc(ds, func(a, b string) int { return versionOf(b) - versionOf(a) })
		cands = append(cands, ds...)
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		cands = append(cands, filepath.Dir(p))
	}
	for _, d := range cands {
		if has(d) {
			return d, nil
		}
	}
	return "", ErrNoServer
}

// versionOf reads the major version out of /usr/lib/postgresql/N/bin.
func versionOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// Start initialises and starts a server; see the package documentation.
// On any error everything made so far is removed again.
func Start(ctx context.Context, opt Options) (s *Server, err error) {
	bin, err := FindBinDir(opt.BinDir)
	if err != nil {
		return nil, err
	}
	who, err := serverUser()
	if err != nil {
		return nil, err
	}
	timeout := opt.StartTimeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	base := opt.TempDir
	if base == "" {
		base = os.TempDir()
		if who != nil && !reachable(base) {
			base = "/tmp"
		}
	}
	sweepStale(base)
	dir, err := os.MkdirTemp(base, DirPrefix)
	if err != nil {
		return nil, fmt.Errorf("pgserver: %w", err)
	}
	s = &Server{Dir: dir, DataDir: filepath.Join(dir, "data"), BinDir: bin, NextXid: opt.NextXid}
	defer func() {
		if err != nil {
			s.Stop()
			s = nil
		}
	}()
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return s, fmt.Errorf("pgserver: %w", err)
	}
	if who != nil {
		if err := os.Chown(dir, who.uid, who.gid); err != nil {
			return s, fmt.Errorf("pgserver: giving %s to the postgres user: %w", dir, err)
		}
	}
	// From here the directory is in the registry, so that a signal during
	// initdb removes it too.
	register(s)

	if err := s.runTool(ctx, who, "initdb", "-D", s.DataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8",
		"--locale=C", "--no-sync", "--no-instructions"); err != nil {
		return s, err
	}
	if opt.NextXid != 0 {
		if err := s.runTool(ctx, who, "pg_resetwal", "-x", strconv.FormatUint(uint64(opt.NextXid), 10), "-D", s.DataDir); err != nil {
			return s, err
		}
	}
	s.Settings = mergeSettings(opt.Settings)
	exts := opt.Extensions
	if exts == nil {
		exts = DefaultExtensions
	}
	// A port that was free a moment ago may be taken before the server
	// binds it: try a few.
	for try := 0; ; try++ {
		port, err := freePort()
		if err != nil {
			return s, err
		}
		s.Port = port
		s.Settings["listen_addresses"] = "127.0.0.1"
		s.Settings["port"] = strconv.Itoa(port)
		s.Settings["unix_socket_directories"] = dir
		err = s.startPostmaster(ctx, who)
		if err == nil {
			break
		}
		if try < 3 && strings.Contains(err.Error(), "could not") && strings.Contains(err.Error(), "bind") {
			continue
		}
		return s, err
	}
	conn, err := s.Connect(ctx)
	if err != nil {
		return s, fmt.Errorf("pgserver: connecting: %w", err)
	}
	defer conn.Close(context.Background())
	for _, e := range exts {
		if _, err := conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS "+pgx.Identifier{e}.Sanitize()); err != nil {
			return s, fmt.Errorf("pgserver: CREATE EXTENSION %s: %w", e, err)
		}
	}
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&s.Version); err != nil {
		return s, fmt.Errorf("pgserver: %w", err)
	}
	return s, nil
}

// reachable reports whether every directory from dir up is searchable by
// others, so that the postgres user can reach a directory made in it.
func reachable(dir string) bool {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		st, err := os.Stat(dir)
		if err != nil || st.Mode().Perm()&0o001 == 0 {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return true
		}
		dir = parent
	}
}

// ownerFile records the pid of the process that made a directory.
const ownerFile = "bufferlab-owner.pid"

// sweepStale removes directories of earlier runs in base whose owner and
// postmaster are both gone (a process killed with SIGKILL could not clean
// up; its postmaster died of the parent-death signal).
func sweepStale(base string) {
	ds, _ := filepath.Glob(filepath.Join(base, DirPrefix+"*"))
	for _, d := range ds {
		owner, err := readPid(filepath.Join(d, ownerFile))
		if err != nil || alive(owner) {
			continue
		}
		if pm, err := readPid(filepath.Join(d, "data", "postmaster.pid")); err == nil && alive(pm) {
			continue
		}
		os.RemoveAll(d)
	}
}

func readPid(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}

// alive reports whether a process with that pid exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgserver: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// runTool runs one of the server programs to completion as the server's
// user, in the server's directory.
func (s *Server) runTool(ctx context.Context, who *runAs, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, filepath.Join(s.BinDir, name), args...)
	cmd.Dir = s.Dir
	cmd.SysProcAttr = who.attr()
	cmd.Env = serverEnv()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pgserver: %s: %w\n%s", name, err, tail(out.String(), 15))
	}
	return nil
}

// serverEnv is the environment of the server programs: the caller's less
// the libpq and locale variables that would change what they do.
func serverEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "PG") || strings.HasPrefix(k, "LC_") || k == "LANG" || k == "LANGUAGE" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C")
}

// startPostmaster starts postgres and waits until it accepts connections.
func (s *Server) startPostmaster(ctx context.Context, who *runAs) error {
	logPath := filepath.Join(s.Dir, "postmaster.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("pgserver: %w", err)
	}
	args := append([]string{"-D", s.DataDir}, settingArgs(s.Settings)...)
	cmd := exec.Command(filepath.Join(s.BinDir, "postgres"), args...)
	cmd.Dir = s.Dir
	cmd.Env = serverEnv()
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = who.attr()
	setParentDeathSignal(cmd.SysProcAttr)

	p := &process{exited: make(chan struct{})}
	started := make(chan error, 1)
	// The goroutine that starts the postmaster keeps its OS thread for as
	// long as the postmaster runs: Linux sends the parent-death signal when
	// the thread that forked the child exits, and the runtime never ends a
	// thread that a goroutine holds locked. The thread is unlocked again
	// once the postmaster is gone, never left to exit with the goroutine:
	// a locked goroutine that ends takes its thread with it, and with
	// Go 1.26 and cgo linked in (purego), that thread exit crashed the
	// whole process with SIGSEGV about one run in four (seen under gdb: the
	// exiting thread returned into the Go heap).
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		p.pid = cmd.Process.Pid
		started <- nil
		p.err = cmd.Wait()
		logf.Close()
		close(p.exited)
	}()
	if err := <-started; err != nil {
		logf.Close()
		return fmt.Errorf("pgserver: starting postgres: %w", err)
	}
	s.setProc(p)
	readLog := func() string { b, _ := os.ReadFile(logPath); return tail(string(b), 20) }
	for {
		select {
		case <-p.exited:
			return fmt.Errorf("pgserver: postgres exited at start (%v):\n%s", p.err, readLog())
		case <-ctx.Done():
			return fmt.Errorf("pgserver: postgres did not accept connections in time:\n%s", readLog())
		case <-time.After(50 * time.Millisecond):
		}
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		conn, err := s.Connect(cctx)
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
	}
}

var procMu sync.Mutex

func (s *Server) setProc(p *process) { procMu.Lock(); s.proc = p; procMu.Unlock() }
func (s *Server) getProc() *process  { procMu.Lock(); defer procMu.Unlock(); return s.proc }

// Pid is the postmaster's process id (0 before it started).
func (s *Server) Pid() int {
	if p := s.getProc(); p != nil {
		return p.pid
	}
	return 0
}

// Running reports whether the postmaster is still running.
func (s *Server) Running() bool {
	p := s.getProc()
	if p == nil {
		return false
	}
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// stop is Stop's body: pg_ctl stop -m fast, then SIGKILL to the process
// group if the postmaster is still there, then the directory.
func (s *Server) stop() error {
	defer unregister(s)
	var errs []error
	if p := s.getProc(); p != nil {
		select {
		case <-p.exited:
		default:
			who, _ := serverUser()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			if err := s.runTool(ctx, who, "pg_ctl", "stop", "-D", s.DataDir, "-m", "fast", "-w", "-t", "20"); err != nil {
				errs = append(errs, err)
				syscall.Kill(p.pid, syscall.SIGINT) // fast shutdown, as pg_ctl would have asked
			}
			cancel()
			select {
			case <-p.exited:
			case <-time.After(20 * time.Second):
				errs = append(errs, fmt.Errorf("pgserver: postmaster %d still running after a fast shutdown; killed", p.pid))
				syscall.Kill(-p.pid, syscall.SIGKILL)
				syscall.Kill(p.pid, syscall.SIGKILL)
				select {
				case <-p.exited:
				case <-time.After(10 * time.Second):
					errs = append(errs, fmt.Errorf("pgserver: postmaster %d did not die", p.pid))
				}
			}
		}
		// Backends the postmaster left (it waits for them, so normally
		// none): its process group.
		syscall.Kill(-p.pid, syscall.SIGKILL)
	}
	if s.Dir != "" {
		if err := os.RemoveAll(s.Dir); err != nil {
			errs = append(errs, fmt.Errorf("pgserver: removing %s: %w", s.Dir, err))
		}
	}
	return errors.Join(errs...)
}

// The registry of running servers, for the signal handler.
var (
	regMu   sync.Mutex
	live    = map[*Server]struct{}{}
	sigCh   chan os.Signal
	sigDone chan struct{}
	dying   = make(chan struct{}) // closed when a signal arrives
)

// signalled reports whether the process is dying of a signal.
func signalled() bool {
	select {
	case <-dying:
		return true
	default:
		return false
	}
}

func register(s *Server) {
	regMu.Lock()
	defer regMu.Unlock()
	live[s] = struct{}{}
	if sigCh != nil {
		return
	}
	sigCh, sigDone = make(chan os.Signal, 1), make(chan struct{})
	signal.Notify(sigCh, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go handleSignals(sigCh, sigDone)
}

func unregister(s *Server) {
	regMu.Lock()
	defer regMu.Unlock()
	delete(live, s)
	if len(live) == 0 && sigCh != nil {
		signal.Stop(sigCh)
		close(sigDone)
		sigCh, sigDone = nil, nil
	}
}

// handleSignals stops every running server on a signal, then re-raises it
// with the default behaviour restored, so the process dies of it as it
// would have without servers.
func handleSignals(ch chan os.Signal, done chan struct{}) {
	select {
	case <-done:
		return
	case sig := <-ch:
		close(dying)
		regMu.Lock()
		servers := make([]*Server, 0, len(live))
		for s := range live {
			servers = append(servers, s)
		}
		regMu.Unlock()
		fmt.Fprintf(os.Stderr, "pgserver: %v: stopping %d PostgreSQL server(s) and removing their directories\n", sig, len(servers))
		var wg sync.WaitGroup
		for _, s := range servers {
			wg.Add(1)
			go func() { defer wg.Done(); s.stopOnce.Do(func() { s.stopErr = s.stop() }) }()
		}
		wg.Wait()
		signal.Reset(sig)
		if ss, ok := sig.(syscall.Signal); ok {
			syscall.Kill(os.Getpid(), ss)
		}
		time.Sleep(time.Second)
		os.Exit(130)
	}
}

// Live returns the directories of the servers this process is running.
func Live() []string {
	regMu.Lock()
	defer regMu.Unlock()
	var ds []string
	for s := range live {
		ds = append(ds, s.Dir)
	}
	slices.Sort(ds)
	return ds
}
