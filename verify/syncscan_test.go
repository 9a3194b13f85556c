package verify

import (
	"context"
	"os"
	"testing"

	"bufferlab/verify/pgserver"
)

// The sync-scan check against a fresh PostgreSQL server (skipped when the
// server binaries are missing, except in CI): the engine's synchronized
// scan leaves the blocks the server leaves.
func TestSyncScanCheck(t *testing.T) {
	if _, err := pgserver.FindBinDir(""); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is missing (%v); CI must run the verify checks", err)
		}
		t.Skipf("PostgreSQL is not installed: %v", err)
	}
	ctx := context.Background()
	srv, err := pgserver.Start(ctx, ServerOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	var checks []Check
	for _, c := range Checks() {
		if c.Name == "sync-scan" || c.Name == "bulkread-rescan" {
			checks = append(checks, c)
		}
	}
	if len(checks) != 2 {
		t.Fatalf("%d checks named sync-scan or bulkread-rescan", len(checks))
	}
	_, res, err := Run(ctx, Target{Connect: srv.Connect, Own: true, AllowWrites: true}, checks, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		t.Logf("%s: engine %q, server %q", r.Name, r.Engine, r.Server)
		if !r.Match {
			t.Errorf("%s differs: engine %q, server %q (%s)", r.Name, r.Engine, r.Server, r.Detail)
		}
	}
}
