// Package pgserver starts a throwaway PostgreSQL server for BufferLab's
// checks against the real thing (package verify, `bufferlab verify` and
// its tests), and makes sure nothing of it is left behind.
//
// Start does, in order:
//
//   - find the server binaries (Options.BinDir, else $BUFFERLAB_PG_BINDIR,
//     else `pg_config --bindir`, else the newest /usr/lib/postgresql/*/bin,
//     else initdb on the PATH); none found is ErrNoServer, which tests
//     turn into a skip outside CI and a failure inside it;
//   - make a temporary directory (bufferlab-pg-*, mode 0700) holding the
//     data directory, the unix socket and the server's log. PostgreSQL
//     refuses to run as root, so when the caller is root every server
//     program (initdb, pg_resetwal, postgres, pg_ctl) runs as the
//     `postgres` user (syscall.Credential) and the directory is chowned to
//     it; otherwise they run as the caller;
//   - initdb (trust authentication, superuser postgres, UTF8, C locale,
//     --no-sync), then optionally pg_resetwal -x to move the next
//     transaction id (Options.NextXid), as pg_resetwal's manual describes;
//   - start `postgres` as a child process in its own process group, with
//     small known settings (Settings: shared_buffers 16MB, autovacuum off,
//     fsync off, jit off, listen_addresses 127.0.0.1 on a free port,
//     unix_socket_directories the temporary directory), and wait until it
//     accepts connections;
//   - CREATE EXTENSION pg_buffercache, pg_freespacemap and pageinspect.
//
// Stop (idempotent, safe from several goroutines) runs `pg_ctl stop -m
// fast`, waits for the postmaster to exit, kills its process group if it
// does not, and removes the temporary directory. Callers defer it. Three
// further nets catch what a defer cannot:
//
//   - a SIGINT, SIGTERM or SIGHUP while a server is running stops every
//     server this process started, then re-raises the signal so the
//     process still dies of it (the handler is removed again when the last
//     server stops);
//   - on Linux the postmaster gets SIGQUIT (immediate shutdown) if this
//     process dies without cleaning up (SIGKILL, a crash): it is started
//     from a goroutine locked to its OS thread that lives as long as the
//     server, so the parent-death signal fires only when the process goes;
//   - Start removes the directories of earlier runs whose owning process
//     and postmaster are both gone.
//
// The server programs need Linux or another Unix; elsewhere (js/wasm,
// Windows) Start returns ErrUnsupported, so that packages using this one
// still build there.
package pgserver
