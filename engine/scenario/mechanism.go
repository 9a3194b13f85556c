package scenario

import (
	"fmt"
	"strings"

	"bufferlab/engine/trace"
)

// A Mechanism is what one simulated mechanism adds to the scenario
// language: its config keys (and the variants its key names, side by
// side), its backend operations, its expect and show subjects, and how
// its ERRORs read. The parser's error lists, the variant titles the
// screens show and the summary's error lines all come from the
// registered mechanisms, so they cannot disagree.
//
// The built-in mechanisms register in this package, each beside the code
// that parses and runs it (pool.go's poolMechanism, pins, drop, slru.go,
// fsm.go); a mechanism outside it registers with Register from its own
// package and gives its keys a Parse function (its settings reach the
// runner in ConfigStmt.Ext). The layers above the engine key their own
// registrations (views, scenes, experiments, checks) by Name: see
// viz/mech and docs/adding-a-mechanism.md.
type Mechanism struct {
	// Name is how config and panes call it: "pins", "drop", "slru",
	// "fsm". For a mechanism with variants it is also the config key that
	// names them (pins=atomic,spinlock).
	Name string
	// Title is a phrase for headings: "the commit log's SLRU".
	Title string
	// Owner is the trace mechanism whose event classes it emits
	// (trace.ObjClass.Owner); pins and drop emit the pool's.
	Owner trace.Mechanism
	// Keys are its config keys, in the order errors list them.
	Keys []Key
	// Ops are its backend operations (backend A: OP …).
	Ops []OpSpec
	// Subjects are its expect and show subjects.
	Subjects []Subject
	// absent, for a built-in mechanism a scenario turns on in its config,
	// says what the config lacks when it is off ("" when on).
	absent func(p *parser) string
	// describes reports whether an event is this mechanism's to describe
	// (describe prints it with the scenario's names); nil for the pool,
	// whose descriptions are the default.
	describes func(e trace.Event) bool
	describe  func(r *Runner, e trace.Event) string
	// ErrorText describes the PostgreSQL-level ERROR of a KError event of
	// a class it owns (the code in Arg); nil when it raises none.
	ErrorText func(e trace.Event) string
	// Caption says event i of evs in plain English, in one line, with the
	// scenario's names (Caption, `bufferlab run --narrate`, the player's
	// caption line): for an event of a class it owns. It may read earlier
	// events for context (who changed a word first); nil when another
	// mechanism with the same owner captions them.
	Caption func(evs []trace.Event, i int, n Names) string
	// Moment says which lesson moment an event of a class it owns is
	// (trace.MomentNone for most); nil when another mechanism with the same
	// owner classifies them.
	Moment func(e trace.Event) trace.Moment
}

// Key is one config key.
type Key struct {
	Name string
	// Values is its grammar for errors and docs: "atomic|spinlock",
	// "on|off", "N".
	Values string
	// Doc is one line on what it sets.
	Doc string
	// Variants, for the key that names variants, lists its values with
	// their titles, in the order panes usually take them.
	Variants []VariantInfo
	// parse parses a built-in key into st.
	parse func(p *parser, st *ConfigStmt, t token, v string) error
	// Parse parses the value of a key registered from outside this
	// package; the result is kept in ConfigStmt.Ext[Name].
	Parse func(v string) (any, error)
}

// VariantInfo titles one variant: Long in a pane wide enough for it,
// Short otherwise.
type VariantInfo struct {
	Name, Long, Short string
}

// OpSpec is one backend operation of a mechanism.
type OpSpec struct {
	Name    string
	Kind    OpKind
	Grammar string // "read REL B[..E] [fork=F]"
	// parse parses the operation's words (toks[0] is its name) into op,
	// whose Pos and Kind are set; run runs it in a backend.
	parse func(p *parser, op Op, toks []token) (Op, error)
	run   func(r *Runner, be *backendState, op Op) error
}

// Subject is an expect or show subject of a mechanism.
type Subject struct {
	Name   string
	Expect bool // expect NAME …
	Show   bool // show NAME
	// Keys are the keys expect NAME accepts.
	Keys []string
}

var registry struct {
	mechs []*Mechanism
	keys  map[string]*Key
	ops   map[string]*OpSpec
}

// Register adds a mechanism. It panics on a name, key or operation
// another mechanism has (a programming error found at start-up, by every
// test).
func Register(m Mechanism) {
	if registry.keys == nil {
		registry.keys, registry.ops = map[string]*Key{}, map[string]*OpSpec{}
		for i := range scenarioKeys {
			registry.keys[scenarioKeys[i].Name] = &scenarioKeys[i]
		}
	}
	mp := &m
	if m.Name == "" {
		panic("scenario: a mechanism without a name")
	}
	for _, o := range registry.mechs {
		if o.Name == m.Name {
			panic(fmt.Sprintf("scenario: mechanism %q registered twice", m.Name))
		}
	}
	for i := range mp.Keys {
		k := &mp.Keys[i]
		if _, dup := registry.keys[k.Name]; dup {
			panic(fmt.Sprintf("scenario: config key %q of %s is taken", k.Name, m.Name))
		}
		if k.parse == nil && k.Parse == nil {
			panic(fmt.Sprintf("scenario: config key %q of %s has no parser", k.Name, m.Name))
		}
		registry.keys[k.Name] = k
	}
	for i := range mp.Ops {
		o := &mp.Ops[i]
		if o.parse == nil || o.run == nil {
			panic(fmt.Sprintf("scenario: operation %q of %s has no parser or runner (operations are built in)", o.Name, m.Name))
		}
		if _, dup := registry.ops[o.Name]; dup {
			panic(fmt.Sprintf("scenario: operation %q of %s is taken", o.Name, m.Name))
		}
		registry.ops[o.Name] = o
	}
	registry.mechs = append(registry.mechs, mp)
}

// Mechanisms lists the registered mechanisms in registration order.
func Mechanisms() []*Mechanism { return registry.mechs }

// Lookup returns the mechanism of that name.
func Lookup(name string) (*Mechanism, bool) {
	for _, m := range registry.mechs {
		if m.Name == name {
			return m, true
		}
	}
	return nil, false
}

// Owning returns the mechanisms whose events are of trace mechanism o.
func Owning(o trace.Mechanism) []*Mechanism {
	var out []*Mechanism
	for _, m := range registry.mechs {
		if m.Owner == o {
			out = append(out, m)
		}
	}
	return out
}

// ErrorText describes an ERROR event by the mechanism that owns its class.
func ErrorText(e trace.Event) string {
	for _, m := range Owning(e.Class.Owner()) {
		if m.ErrorText != nil {
			return m.ErrorText(e)
		}
	}
	return fmt.Sprintf("error %d", e.Arg)
}

// keyList names every config key: the scenario's own, then each
// mechanism's in registration order.
func keyList() string {
	var names []string
	for _, k := range scenarioKeys {
		names = append(names, k.Name)
	}
	for _, m := range registry.mechs {
		for _, k := range m.Keys {
			names = append(names, k.Name)
		}
	}
	return orList(names)
}

// opList names every operation, in registration order.
func opList() string {
	var names []string
	for _, m := range registry.mechs {
		for _, o := range m.Ops {
			names = append(names, o.Name)
		}
	}
	return strings.Join(names, ", ")
}

// subjectList names the subjects of expect (or show) in registration
// order.
func subjectList(show bool) []string {
	var names []string
	for _, m := range registry.mechs {
		for _, s := range m.Subjects {
			if show && s.Show || !show && s.Expect {
				names = append(names, s.Name)
			}
		}
	}
	return names
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// variantKeys names the keys that name variants, as "pins=, drop= …".
func variantKeys() string {
	var names []string
	for _, m := range registry.mechs {
		for _, k := range m.Keys {
			if len(k.Variants) > 0 {
				names = append(names, k.Name+"=")
			}
		}
	}
	return orList(names)
}

// variantKeyOf returns the variant key one of whose variants is called
// name ("scan": drop), or "" when none is.
func variantKeyOf(name string) string {
	for _, m := range registry.mechs {
		for _, k := range m.Keys {
			for _, vi := range k.Variants {
				if vi.Name == name {
					return k.Name
				}
			}
		}
	}
	return ""
}

// Choice is one (mechanism, variant) pair: (drop, lookup), (pins,
// spinlock).
type Choice struct {
	Mech, Name string
}

func (c Choice) String() string { return c.Mech + "=" + c.Name }

// Variant is one way of running a scenario's statements: a list of
// (mechanism, variant) choices. The first is the pane's own (the one that
// differs between panes: drop=lookup of drop=scan,lookup,dlist); the rest
// are single-valued variant keys that every pane shares (pins=spinlock
// beside drop=scan,lookup). A scenario with no variant key runs
// {(pins, atomic)}.
type Variant struct {
	Choices []Choice
}

// Of returns the variant the pane runs of mechanism mech, if it chose one.
func (v Variant) Of(mech string) (string, bool) {
	for _, c := range v.Choices {
		if c.Mech == mech {
			return c.Name, true
		}
	}
	return "", false
}

// Has reports whether the variant chose one of mechanism mech.
func (v Variant) Has(mech string) bool {
	_, ok := v.Of(mech)
	return ok
}

// Key is the mechanism (and config key) of the pane's own choice.
func (v Variant) Key() string {
	if len(v.Choices) == 0 {
		return "pins"
	}
	return v.Choices[0].Mech
}

// Name is how the config and `expect NAME:` call the variant: atomic,
// spinlock, the drop strategy, the FSM or the SLRU variant.
func (v Variant) Name() string {
	if len(v.Choices) == 0 {
		return "atomic"
	}
	return v.Choices[0].Name
}

// String is the config setting: pins=atomic, drop=scan, slru=banks.
func (v Variant) String() string { return v.Key() + "=" + v.Name() }

// chosen is the pane's choice for mechanism mech, by the mechanism's own
// parse, if it made one (the zero T otherwise).
func chosen[T any](v Variant, mech string, parse func(string) (T, bool)) (T, bool) {
	n, ok := v.Of(mech)
	if !ok {
		var zero T
		return zero, false
	}
	x, _ := parse(n)
	return x, true
}

// Info is the variant's titles, from its mechanism's registration
// (the setting itself when it has none).
func (v Variant) Info() VariantInfo {
	if m, ok := Lookup(v.Key()); ok {
		for _, k := range m.Keys {
			for _, vi := range k.Variants {
				if k.Name == v.Key() && vi.Name == v.Name() {
					return vi
				}
			}
		}
	}
	return VariantInfo{Name: v.Name(), Long: v.String(), Short: v.String()}
}

// opSpecOf returns the registered operation of kind k (nil for none:
// release all is release's).
func opSpecOf(k OpKind) *OpSpec {
	for _, m := range registry.mechs {
		for i := range m.Ops {
			if m.Ops[i].Kind == k {
				return &m.Ops[i]
			}
		}
	}
	return nil
}

// subject finds an expect (show false) or show subject by name, with
// its mechanism.
func subject(name string, show bool) (*Mechanism, *Subject) {
	for _, m := range registry.mechs {
		for i := range m.Subjects {
			s := &m.Subjects[i]
			if s.Name == name && (show && s.Show || !show && s.Expect) {
				return m, s
			}
		}
	}
	return nil, nil
}
