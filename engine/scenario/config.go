package scenario

import (
	"fmt"
	"slices"
	"strings"

	"bufferlab/engine/bufmgr"
)

// ConfigStmt is `config KEY=VALUE …`.
type ConfigStmt struct {
	Pos           Pos
	SharedBuffers string // as written, e.g. "128kB"
	NBuffers      int
	Policy        string // "rr" or "random"
	Seed          uint64
	MaxSteps      int
	MaxStepsPos   Pos             // where max_steps= was given (zero if not)
	Pins          bufmgr.PinsMode // pins=atomic (default) or spinlock: the first variant
	// Variants lists every variant the scenario runs, in pane order, when
	// a variant key (pins=, drop=, slru=, fsm=) names more than one
	// (pins=atomic,spinlock or drop=scan,lookup,dlist run the same
	// statements, schedule and seed once per variant, side by side); nil
	// for one variant.
	Variants []Variant
	// Shared are the choices of single-valued variant keys beside a key
	// that names several (drop=lookup beside pins=atomic,spinlock): every
	// pane makes them. A single drop= strategy alone is the one variant.
	Shared []Choice
	// InRecovery (in_recovery=on) models a server replaying WAL: the
	// backend dropping relations is the startup process, for which
	// relation sizes are cached, so a drop may take the per-block lookup.
	InRecovery bool
	// DropList (dlist=on) keeps the per-relation buffer lists of the dlist
	// drop variant, updated on every buffer allocation.
	DropList bool
	// NoSyncScans is synchronize_seqscans=off; on, PostgreSQL's default, a
	// scan of a relation over NBuffers/4 blocks starts where the last scan
	// of it reported being (bufmgr/syncscan.go).
	NoSyncScans bool
	// SLRU configures the commit log's SLRU (slru=…, see slru.go).
	SLRU slruConfig
	// FSM configures the free space map model (fsm=…, see fsm.go).
	FSM fsmConfig
	// PG is the config's single pg= value (0: none given, PostgreSQL 15);
	// IOCombineLimit (blocks; 0: the default) and EffectiveIOConcurrency
	// (given when EffectiveIOConcurrencySet) are PostgreSQL 17's read
	// stream settings (pg.go).
	PG                        PGVersion
	IOCombineLimit            int
	EffectiveIOConcurrency    int
	EffectiveIOConcurrencySet bool
	// IOLatencyUS and IOBlockUS are the latency model (io_latency=,
	// io_block_time=): simulated microseconds per I/O call and per block.
	IOLatencyUS, IOBlockUS int
	// IOMethod and IOWorkers are PostgreSQL 18's io_method and io_workers
	// ("" and 0: the defaults, worker and 3); IOMethodPos is where the
	// config wrote either.
	IOMethod    string
	IOWorkers   int
	IOMethodPos Pos
	// Ext holds the settings of keys registered from outside this package
	// (Key.Parse), by key.
	Ext map[string]any
}

// Shares returns the value of a single-valued variant key of mechanism
// mech that every pane shares, if the config gave one.
func (c *ConfigStmt) Shares(mech string) (string, bool) {
	return Variant{Choices: c.Shared}.Of(mech)
}

// severalVariants ends the error for a config line where two keys name
// several variants: the panes differ in one respect only.
func severalVariants() string {
	return "only one of " + variantKeys() + " may name several variants (the panes differ in one respect); expected one value for one of them"
}

// addVariants records the values a variant key names. A single value of
// pins=, fsm= or slru= sets no variant (the caller keeps it in st: the
// mechanism's own setting). A single drop= strategy is the scenario's one
// variant when no other key names several, and otherwise a choice every
// pane shares (st.Shared).
func (p *parser) addVariants(st *ConfigStmt, t token, key string, names []string) error {
	vs := make([]Variant, len(names))
	for i, n := range names {
		vs[i] = Variant{Choices: []Choice{{key, n}}}
	}
	alone := key == "drop" // a single value alone makes the one variant
	if len(vs) == 1 && !alone {
		return nil
	}
	if len(vs) == 1 {
		if len(st.Variants) > 1 {
			st.Shared = append(st.Shared, vs[0].Choices[0])
			return nil
		}
		st.Variants, p.varKey, p.varPos = vs, key, t.Pos
		return nil
	}
	if len(st.Variants) == 1 && st.Variants[0].Key() == "drop" {
		// drop=S came first: it now applies to every pane of this key.
		st.Shared = append(st.Shared, st.Variants[0].Choices[0])
		st.Variants = nil
	}
	if len(st.Variants) > 0 {
		return p.errf(t.Pos, "%s: names several variants, and so does %s= at %d:%d; %s", key, p.varKey, p.varPos.Line, p.varPos.Col, severalVariants())
	}
	st.Variants, p.varKey, p.varPos = vs, key, t.Pos
	return nil
}

// variantNames splits a variant key's value into names in pane order,
// each checked by parse, none named twice; want is the grammar for the
// error ("atomic, spinlock or both in pane order (atomic,spinlock)").
func (p *parser) variantNames(t token, key, v, want string, parse func(string) (string, bool)) ([]string, error) {
	var names []string
	for _, name := range strings.Split(v, ",") {
		n, ok := parse(name)
		if !ok {
			return nil, p.errf(t.Pos, "%s: expected %s, found %q", key, want, v)
		}
		if slices.Contains(names, n) {
			return nil, p.errf(t.Pos, "%s: %s is named twice in %q", key, n, v)
		}
		names = append(names, n)
	}
	return names, nil
}

// variantKey is the parse function of a mechanism's variant key (pins=,
// drop=, slru=, fsm=): the value's names in pane order, each one parse
// accepts, none named twice (want is the grammar for the error); set keeps
// the first in st as the mechanism's own setting (nil for drop=, whose
// single strategy is a variant of its own: see addVariants), and
// addVariants records them all.
func variantKey[T fmt.Stringer](key, want string, parse func(string) (T, bool), set func(st *ConfigStmt, first T)) func(p *parser, st *ConfigStmt, t token, v string) error {
	return func(p *parser, st *ConfigStmt, t token, v string) error {
		names, err := p.variantNames(t, key, v, want, func(s string) (string, bool) {
			x, ok := parse(s)
			return x.String(), ok
		})
		if err != nil {
			return err
		}
		if set != nil {
			first, _ := parse(names[0])
			set(st, first)
		}
		return p.addVariants(st, t, key, names)
	}
}

// variantsKey is the key of a mechanism whose values name variants: its
// grammar is its variants' names ("atomic|spinlock[,…]"), so the two
// cannot disagree; want ends its errors, parse and set as for
// variantKey.
func variantsKey[T fmt.Stringer](name, doc, want string, vs []VariantInfo, parse func(string) (T, bool), set func(st *ConfigStmt, first T)) Key {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return Key{Name: name, Values: strings.Join(names, "|") + "[,…]", Doc: doc, Variants: vs, parse: variantKey(name, want, parse, set)}
}

// onOffKey is a boolean config key (values on|off), named once for its
// grammar and its errors; set stores the value (false when it is not
// one).
func onOffKey(name, doc string, set func(st *ConfigStmt, on bool)) Key {
	return Key{Name: name, Values: "on|off", Doc: doc, parse: func(p *parser, st *ConfigStmt, t token, v string) error {
		on, err := p.onOff(t, name, v)
		set(st, on)
		return err
	}}
}

// countKey is a config key whose value is a count from 1 to max (values
// N); set stores it and where the statement wrote it.
func countKey(name, doc string, max uint64, set func(st *ConfigStmt, n int, pos Pos)) Key {
	return Key{Name: name, Values: "N", Doc: doc, parse: func(p *parser, st *ConfigStmt, t token, v string) error {
		n, err := p.uint(t, v, max, name)
		if err != nil {
			return err
		}
		if n == 0 {
			return p.errf(t.Pos, "%s: expected at least 1, found 0", name)
		}
		set(st, int(n), t.Pos)
		return nil
	}}
}

// AllVariants returns the variants the scenario runs: Variants, or the
// one the config describes, each with the choices every pane shares.
func (c *ConfigStmt) AllVariants() []Variant {
	vs := c.Variants
	if len(vs) == 0 {
		vs = []Variant{{Choices: []Choice{{"pins", c.Pins.String()}}}}
	}
	if len(c.Shared) == 0 {
		return vs
	}
	out := make([]Variant, len(vs))
	for i, v := range vs {
		out[i] = Variant{Choices: append(slices.Clip(v.Choices), c.Shared...)}
	}
	return out
}

// scenarioKeys are the config keys of the scenario itself, not of a
// mechanism: the pool's size, the schedule, the seed and the step bound.
var scenarioKeys = []Key{
	{Name: "shared_buffers", Values: "SIZE", Doc: "the pool's size: 128kB, 1MB, 1GB (8 kB buffers, at least 16)",
		parse: func(p *parser, st *ConfigStmt, t token, v string) error {
			n, err := bufmgr.ParseSharedBuffers(v)
			if err != nil {
				return p.errf(t.Pos, "%v", err)
			}
			st.SharedBuffers, st.NBuffers = v, n
			return nil
		}},
	{Name: "schedule", Values: "rr|random", Doc: "round robin, or a seeded random interleaving",
		parse: func(p *parser, st *ConfigStmt, t token, v string) error {
			if v != "rr" && v != "random" {
				return p.errf(t.Pos, "schedule: expected rr or random, found %q", v)
			}
			st.Policy = v
			return nil
		}},
	{Name: "seed", Values: "N", Doc: "the random schedule's seed",
		parse: func(p *parser, st *ConfigStmt, t token, v string) error {
			n, err := p.uint(t, v, ^uint64(0), "seed")
			st.Seed = n
			return err
		}},
	countKey("max_steps", "the most scheduler steps a run may take", MaxMaxSteps,
		func(st *ConfigStmt, n int, pos Pos) { st.MaxSteps, st.MaxStepsPos = n, pos }),
}

// onOff parses a boolean config value.
func (p *parser) onOff(t token, k, v string) (bool, error) {
	on, err := ParseOnOff(v)
	if err != nil {
		return false, p.errf(t.Pos, "%s: %v", k, err)
	}
	return on, nil
}

// ParseOnOff parses a boolean config value (on, off, true, false), for
// keys registered here and from other packages (Key.Parse).
func ParseOnOff(v string) (bool, error) {
	on, ok := map[string]bool{"on": true, "off": false, "true": true, "false": false}[v]
	if !ok {
		return false, fmt.Errorf("expected on or off, found %q", v)
	}
	return on, nil
}

func (p *parser) config(toks []token) (Stmt, error) {
	st := &ConfigStmt{Pos: toks[0].Pos, SharedBuffers: "128kB", NBuffers: 16, Policy: "rr", MaxSteps: DefaultMaxSteps}
	seen := map[string]Pos{} // where each key was given
	for _, t := range toks[1:] {
		k, v, ok := splitKV(t)
		if !ok {
			return nil, p.errf(t.Pos, "expected KEY=VALUE (%s), found %q", keyList(), t.Text)
		}
		if first, dup := seen[k]; dup {
			return nil, p.errf(t.Pos, "%s given twice (first at %d:%d): expected each config key once", k, first.Line, first.Col)
		}
		seen[k] = t.Pos
		key, ok := registry.keys[k]
		if !ok {
			return nil, p.errf(t.Pos, "unknown config key %q: expected %s", k, keyList())
		}
		if key.parse != nil {
			if err := key.parse(p, st, t, v); err != nil {
				return nil, err
			}
			continue
		}
		val, err := key.Parse(v)
		if err != nil {
			return nil, p.errf(t.Pos, "%s: %v", k, err)
		}
		if st.Ext == nil {
			st.Ext = map[string]any{}
		}
		st.Ext[k] = val
	}
	p.nbuffers = st.NBuffers
	if err := p.checkSLRUConfig(st, toks); err != nil {
		return nil, err
	}
	p.variants = st.AllVariants()
	p.fsm = st.FSM.On
	if st.FSM.Threshold > 0 && !st.FSM.On {
		return nil, p.errf(toks[0].Pos, "fsm_threshold: applies to the free space map model: expected fsm=small-skip too")
	}
	d, ok := st.Shares("drop")
	p.dlist = st.DropList || ok && d == bufmgr.DropDList.String()
	return st, nil
}
