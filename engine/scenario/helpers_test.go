package scenario

import (
	"strings"
	"testing"
)

// What this package's tests share: parsing and running a scenario with
// any error failing the test, the text of a run's outputs, the check that
// a replay logged what the original did.

// mustParse parses src (as drop.scn); an error fails the test.
func mustParse(t *testing.T, src string) *Script {
	t.Helper()
	s, err := Parse("drop.scn", src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustRun is Run (every variant, traced or not) with an error failing the
// test; it returns the first variant's runner.
func mustRun(t *testing.T, name, src string, traced bool) *Runner {
	t.Helper()
	r, _, err := Run(name, src, traced)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// runVariant runs variant v of src traced to its end and returns its
// runner and its outputs; an error fails the test.
func runVariant(t *testing.T, src string, v int) (*Runner, []Output) {
	t.Helper()
	r, err := NewVariantRunner(mustParse(t, src), true, v)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := r.RunAll()
	if err != nil {
		t.Fatalf("variant %s: %v", r.Variant(), err)
	}
	return r, outs
}

// runVariants runs every variant of src traced and returns each one's
// runner; any error fails the test.
func runVariants(t *testing.T, src string) []*Runner {
	t.Helper()
	var rs []*Runner
	for v := range Variants(mustParse(t, src)) {
		r, _ := runVariant(t, src, v)
		rs = append(rs, r)
	}
	return rs
}

// outputText joins the text of the outputs whose statement keep accepts
// (every output's with a nil keep).
func outputText(outs []Output, keep func(Stmt) bool) string {
	var b strings.Builder
	for _, o := range outs {
		if keep == nil || keep(o.Stmt) {
			b.WriteString(o.Text)
		}
	}
	return b.String()
}

// sameRun fails the test unless replay logged the same events as orig
// (the same hash over the same number).
func sameRun(t *testing.T, what string, replay, orig *Runner) {
	t.Helper()
	if replay.Log().Hash() != orig.Log().Hash() || replay.Log().Len() != orig.Log().Len() {
		t.Errorf("%s: replay has %d events (hash %016x), the original %d (hash %016x)", what,
			replay.Log().Len(), replay.Log().Hash(), orig.Log().Len(), orig.Log().Hash())
	}
}
