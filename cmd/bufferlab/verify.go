package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/jackc/pgx/v5"

	"bufferlab/verify"
	"bufferlab/verify/pgserver"
	"bufferlab/viz/mech"
	_ "bufferlab/viz/mech/all" // every mechanism's registration
)

// cmdVerify is `bufferlab verify`: the paired checks of package verify
// against a PostgreSQL server it starts (and stops, leaving nothing
// behind), or against the user's own (--dsn), where only the read-only
// checks run unless --allow-writes. Exit status 0 when every check that
// ran matches, 1 when one differs or the checks could not run, 2 on bad
// flags.
func cmdVerify(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("verify", stderr)
	asJSON := fs.Bool("json", false, `print {"server": {...}, "checks": [...]} as JSON`)
	dsn := fs.String("dsn", "", "check against this server (a libpq connection string or URL) instead of starting one")
	allowWrites := fs.Bool("allow-writes", false, "with --dsn: also run the checks that create tables, VACUUM, CHECKPOINT and use transaction ids")
	binDir := fs.String("bindir", "", "directory of initdb, postgres and pg_ctl (default: found by pg_config or under /usr/lib/postgresql)")
	list := fs.Bool("list", false, "list the checks and exit")
	mechanism := fs.String("mechanism", "", "run (or list) only the checks of this mechanism (pool, pins, drop, slru, fsm: the registry's)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitBadInput
	}
	if len(pos) != 0 {
		fmt.Fprintf(stderr, "bufferlab verify: expected no arguments, found %q\n", pos)
		return exitBadInput
	}
	if *allowWrites && *dsn == "" {
		fmt.Fprintln(stderr, "bufferlab verify: --allow-writes applies to --dsn only (a server bufferlab starts is always written to)")
		return exitBadInput
	}
	if *dsn != "" && *binDir != "" {
		fmt.Fprintln(stderr, "bufferlab verify: --bindir starts a server; it cannot be combined with --dsn")
		return exitBadInput
	}
	checks, owner, err := checksOf(*mechanism)
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab verify: --mechanism: %v\n", err)
		return exitBadInput
	}
	if *list {
		w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "CHECK\tMECHANISM\tWRITES\tWHAT")
		for _, c := range checks {
			writes := "no"
			if c.Writes {
				writes = "yes"
			}
			if c.OwnOnly {
				writes += ", own server only"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", c.Name, owner[c.Name], writes, c.What)
		}
		w.Flush()
		return exitOK
	}

	ctx := context.Background()
	target := verify.Target{}
	if *dsn == "" {
		opt := verify.ServerOptions()
		opt.BinDir = *binDir
		srv, err := pgserver.Start(ctx, opt)
		if err != nil {
			fmt.Fprintf(stderr, "bufferlab verify: could not start a PostgreSQL server: %v\n", err)
			if errors.Is(err, pgserver.ErrNoServer) {
				fmt.Fprintln(stderr, "  install it (Debian: apt-get install postgresql-15 postgresql-contrib), or point --bindir at its bin directory")
			}
			return exitCheck
		}
		defer func() {
			if err := srv.Stop(); err != nil {
				fmt.Fprintf(stderr, "bufferlab verify: stopping the server: %v\n", err)
				return
			}
			fmt.Fprintf(stderr, "bufferlab verify: server stopped, %s removed\n", srv.Dir)
		}()
		fmt.Fprintf(stderr, "bufferlab verify: started PostgreSQL %s in %s (pid %d, port %d)\n", srv.Version, srv.Dir, srv.Pid(), srv.Port)
		target = verify.Target{Connect: srv.Connect, Own: true, AllowWrites: true}
	} else {
		cfg, err := verify.ParseDSN(*dsn)
		if err != nil {
			fmt.Fprintf(stderr, "bufferlab verify: --dsn: %v\n", err)
			return exitBadInput
		}
		target = verify.Target{Connect: func(ctx context.Context) (*pgx.Conn, error) { return pgx.ConnectConfig(ctx, cfg.Copy()) }, AllowWrites: *allowWrites}
		var writing, own []string
		for _, c := range checks {
			switch {
			case c.OwnOnly:
				own = append(own, c.Name)
			case c.Writes:
				writing = append(writing, c.Name)
			}
		}
		if *allowWrites {
			fmt.Fprintf(stderr, "bufferlab verify: WARNING: --allow-writes: %d checks will write to the server behind --dsn: they create and drop tables named %s*, "+
				"VACUUM and CHECKPOINT, read files of the data directory (superuser) and use transaction ids (%s)\n",
				len(writing), verify.TablePrefix, strings.Join(writing, ", "))
		} else {
			fmt.Fprintf(stderr, "bufferlab verify: read-only against --dsn: skipping the %d checks that write (%s); --allow-writes runs them\n",
				len(writing), strings.Join(writing, ", "))
		}
		fmt.Fprintf(stderr, "bufferlab verify: skipping %d checks that need a fresh server bufferlab starts (%s)\n", len(own), strings.Join(own, ", "))
	}

	inf, results, err := verify.Run(ctx, target, checks, nil)
	if *asJSON {
		if code := printVerifyJSON(inf, results, stdout, stderr); code != exitOK {
			return code
		}
	} else if err == nil || len(results) > 0 {
		printVerifyTable(inf, results, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bufferlab verify: %v\n", err)
		return exitCheck
	}
	for _, r := range results {
		if r.Skipped == "" && !r.Match {
			return exitCheck
		}
	}
	return exitOK
}

// printVerifyTable prints the server, then one row per check (check,
// engine says, server says, match), then what differed.
func printVerifyTable(inf verify.Info, results []verify.Result, stdout io.Writer) {
	who := "your server (--dsn)"
	if inf.Own {
		who = "started by bufferlab"
	}
	fmt.Fprintf(stdout, "server: PostgreSQL %s, %s; NBuffers %d\n", inf.Version, who, inf.NBuffers)
	var set []string
	for _, k := range slices.Sorted(maps.Keys(inf.Settings)) {
		set = append(set, k+"="+inf.Settings[k])
	}
	fmt.Fprintf(stdout, "settings: %s\n\n", strings.Join(set, " "))
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "CHECK\tENGINE SAYS\tSERVER SAYS\tMATCH")
	var match, differ, skipped int
	var diffs []string
	for _, r := range results {
		m := "yes"
		switch {
		case r.Skipped != "":
			m, r.Engine, r.Server = "skipped", "-", "-"
			skipped++
		case r.Match:
			match++
		default:
			m = "NO"
			differ++
			diffs = append(diffs, fmt.Sprintf("  %s: %s", r.Name, r.Detail))
		}
		eng, srv := wrapCell(r.Engine, cellWidth), wrapCell(r.Server, cellWidth)
		for i := 0; i < max(len(eng), len(srv)); i++ {
			name, match := r.Name, m
			if i > 0 {
				name, match = "", ""
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", name, line(eng, i), line(srv, i), match)
		}
	}
	w.Flush()
	fmt.Fprintf(stdout, "\n%d checks: %d match, %d differ, %d skipped\n", len(results), match, differ, skipped)
	if len(diffs) > 0 {
		fmt.Fprintf(stdout, "differences:\n%s\n", strings.Join(diffs, "\n"))
	}
}

type verifyJSON struct {
	Server  verify.Info     `json:"server"`
	Checks  []verify.Result `json:"checks"`
	Skipped []verifySkip    `json:"skipped,omitempty"`
}

type verifySkip struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

func printVerifyJSON(inf verify.Info, results []verify.Result, stdout, stderr io.Writer) int {
	j := verifyJSON{Server: inf, Checks: []verify.Result{}}
	for _, r := range results {
		if r.Skipped != "" {
			j.Skipped = append(j.Skipped, verifySkip{r.Name, r.Skipped})
			continue
		}
		j.Checks = append(j.Checks, r)
	}
	if err := writeJSON(stdout, j); err != nil {
		fmt.Fprintln(stderr, err)
		return exitCheck
	}
	return exitOK
}

// cellWidth is where a table cell wraps.
const cellWidth = 52

// wrapCell breaks s into lines of at most width runes, after "; " where it
// can, else at a space.
func wrapCell(s string, width int) []string {
	var out []string
	for len([]rune(s)) > width {
		r := []rune(s)
		cut := -1
		for i := width; i > width/3; i-- {
			if r[i-1] == ';' && r[i] == ' ' {
				cut = i
				break
			}
		}
		if cut < 0 {
			for i := width; i > 0; i-- {
				if r[i] == ' ' {
					cut = i
					break
				}
			}
		}
		if cut <= 0 {
			cut = width
		}
		out = append(out, strings.TrimSpace(string(r[:cut])))
		s = strings.TrimSpace(string(r[cut:]))
	}
	return append(out, s)
}

func line(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// checksOf returns the checks to run, in verify's order: every check, or
// those the named mechanism claims in the registry (viz/mech); and each
// check's mechanism by name.
func checksOf(name string) ([]verify.Check, map[string]string, error) {
	owner := map[string]string{}
	var names []string
	for _, m := range mech.All() {
		if len(m.Checks) > 0 {
			names = append(names, m.Name)
		}
		for _, c := range m.Checks {
			owner[c] = m.Name
		}
	}
	all := verify.Checks()
	if name == "" {
		return all, owner, nil
	}
	if !slices.Contains(names, name) {
		return nil, nil, fmt.Errorf("expected a mechanism with checks (%s), found %q", strings.Join(names, ", "), name)
	}
	var out []verify.Check
	for _, c := range all {
		if owner[c.Name] == name {
			out = append(out, c)
		}
	}
	return out, owner, nil
}
