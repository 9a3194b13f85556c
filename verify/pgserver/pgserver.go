package pgserver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoServer says that no PostgreSQL server binaries were found.
var ErrNoServer = errors.New("pgserver: PostgreSQL server binaries (initdb, postgres, pg_ctl) not found")

// ErrUnsupported says that this platform cannot run a server (js/wasm,
// Windows).
var ErrUnsupported = errors.New("pgserver: starting a PostgreSQL server is not supported on this platform")

// DirPrefix starts the name of every temporary directory Start makes.
const DirPrefix = "bufferlab-pg-"

// Options describe the server to start. The zero value is usable.
type Options struct {
	// BinDir holds initdb, postgres and pg_ctl. Empty: see FindBinDir.
	BinDir string
	// Settings are passed to postgres as -c NAME=VALUE, over
	// DefaultSettings (a value of "" removes a default). listen_addresses,
	// port and unix_socket_directories are always set by Start.
	Settings map[string]string
	// NextXid, when not 0, is given to pg_resetwal -x after initdb: the
	// first transaction id the server hands out. PostgreSQL's manual says
	// a value that starts a commit-log segment (a multiple of 1048576) is
	// safe, because the server zeroes the first page of a new segment.
	NextXid uint32
	// Extensions are created in the postgres database once the server is
	// up; nil means DefaultExtensions.
	Extensions []string
	// StartTimeout bounds initdb plus the wait for connections (0: 60 s).
	StartTimeout time.Duration
	// TempDir is where the temporary directory is made (empty: os.TempDir,
	// or /tmp when the postgres user could not reach that).
	TempDir string
}

// DefaultSettings are the small, known settings of a throwaway server:
// a 16MB pool (2048 buffers), no autovacuum to touch tables behind a
// check's back, no fsync (nothing here must survive a crash), no JIT (it
// only costs time), no timed checkpoint during a run. Everything that
// decides what the buffer manager, the free space map and the commit log
// do (wal_level, synchronous_commit, checksums) keeps its default.
func DefaultSettings() map[string]string {
	return map[string]string{
		"shared_buffers":       "16MB",
		"autovacuum":           "off",
		"fsync":                "off",
		"jit":                  "off",
		"max_connections":      "20",
		"checkpoint_timeout":   "1h",
		"synchronize_seqscans": "on",
	}
}

// DefaultExtensions are the contrib modules BufferLab's checks read the
// engine's state through.
var DefaultExtensions = []string{"pg_buffercache", "pg_freespacemap", "pageinspect"}

// Server is a running throwaway PostgreSQL server.
type Server struct {
	// Dir is the temporary directory: data/ (PGDATA), the socket and
	// postmaster.log. Stop removes it.
	Dir string
	// DataDir is the data directory (Dir/data).
	DataDir string
	// BinDir holds the server programs used.
	BinDir string
	// Port is the TCP port on 127.0.0.1; the unix socket is in Dir.
	Port int
	// Settings are the -c settings the server runs with.
	Settings map[string]string
	// Version is SHOW server_version.
	Version string
	// NextXid is Options.NextXid.
	NextXid uint32

	stopOnce sync.Once
	stopErr  error
	proc     *process // the postmaster (platform specific)
}

// ConnString is the connection string of database db (empty: postgres) as
// the superuser postgres over the unix socket.
func (s *Server) ConnString(db string) string {
	if db == "" {
		db = "postgres"
	}
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable application_name=bufferlab", s.Dir, s.Port, db)
}

// Connect opens a new connection to the postgres database.
func (s *Server) Connect(ctx context.Context) (*pgx.Conn, error) {
	return pgx.Connect(ctx, s.ConnString(""))
}

// Stop stops the server and removes its directory. It is safe to call more
// than once and from several goroutines; every call returns the first
// call's result once it is done. While the process is dying of a signal
// (see the package documentation) Stop does not return: the signal
// handler stops the servers and re-raises the signal, so the process ends
// as the signal says rather than through whatever the caller does next.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() { s.stopErr = s.stop() })
	if signalled() {
		select {}
	}
	return s.stopErr
}

// settingArgs turns settings into postgres arguments in a fixed order.
func settingArgs(settings map[string]string) []string {
	var args []string
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		args = append(args, "-c", k+"="+settings[k])
	}
	return args
}

// mergeSettings lays over on DefaultSettings; "" removes a key.
func mergeSettings(over map[string]string) map[string]string {
	m := DefaultSettings()
	for k, v := range over {
		if v == "" {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	return m
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
