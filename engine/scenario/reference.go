package scenario

import (
	"fmt"
	"strings"
)

// statementGrammar is each statement's form, in the order a scenario
// writes them (doc.go explains them at length).
var statementGrammar = [][2]string{
	{"config KEY=VALUE …", "first, at most once: the keys below"},
	{"relation NAME blocks=N [fsm=N] [vm=N] [init=N] [unlogged]", "a relation and its forks' sizes"},
	{"backend NAME: OP; OP; …", "queue operations for a backend"},
	{"schedule NAME[*N] …", "who runs at each yield point of the next run"},
	{"run [steps=N]", "run the queued operations"},
	{"show [SUBJECT]", "print a picture"},
	{"expect [VARIANT:] SUBJECT KEY=VALUE …", "check the engine's state"},
}

// Reference is the scenario language on one card, for the browser
// sandbox's "grammar at hand" and `bufferlab help scenario`: the
// statements, then every config key, operation and expect/show subject of
// the registered mechanisms, from the registry, so it cannot disagree with
// the parser. Plain text, lines of at most about 100 characters.
func Reference() string {
	var b strings.Builder
	b.WriteString("Statements (one per line; # starts a comment):\n")
	for _, s := range statementGrammar {
		fmt.Fprintf(&b, "  %-58s %s\n", s[0], s[1])
	}
	b.WriteString("\nConfig keys:\n")
	key := func(k Key) {
		vals := k.Values
		if len(k.Variants) > 0 {
			vals += " (several, comma-separated: side by side)"
		}
		fmt.Fprintf(&b, "  %s=%s\n      %s\n", k.Name, vals, k.Doc)
	}
	for _, k := range scenarioKeys {
		key(k)
	}
	for _, m := range registry.mechs {
		for _, k := range m.Keys {
			key(k)
		}
	}
	b.WriteString("\nOperations (backend NAME: OP; OP; …):\n")
	for _, m := range registry.mechs {
		for _, o := range m.Ops {
			form, what, _ := strings.Cut(o.Grammar, ": ")
			fmt.Fprintf(&b, "  %-40s %s\n", form, what)
		}
	}
	b.WriteString("\nexpect and show subjects:\n")
	for _, m := range registry.mechs {
		for _, s := range m.Subjects {
			var how []string
			if s.Expect {
				how = append(how, "expect")
			}
			if s.Show {
				how = append(how, "show")
			}
			fmt.Fprintf(&b, "  %-8s (%s)", s.Name, strings.Join(how, ", "))
			if len(s.Keys) > 0 {
				fmt.Fprintf(&b, " %s", strings.Join(s.Keys, " "))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}
