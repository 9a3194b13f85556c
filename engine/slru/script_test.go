package slru_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"bufferlab/engine/sched"
	"bufferlab/engine/slru"
	"bufferlab/engine/trace"
)

// A small script for the tests: a config line of key=value settings, then
// one operation per line prefixed by its backend ("A: get 100000").
//
//	variant=banks|single|banks+hash  slots=N  bank=N  rule=modulo|mask
//	hash=dynahash|gomap  disk=FIRST..LAST (zeroed pages on disk)
//	latest=PAGE (StartupCLOG's latest_page_number)
//	schedule=A,A*3,B,… (run under sched with this script, A*3 meaning A
//	three times, then round-robin; without it the operations run one
//	after another, unscheduled)
type script struct {
	cfg       slru.Config
	diskFirst int64
	diskLast  int64
	latest    int64
	hasLatest bool
	schedule  []string
	ops       []scriptOp
}

type scriptOp struct {
	backend string
	op      slru.Op
}

func parseScript(args []string, input string) (*script, error) {
	sc := &script{cfg: slru.Config{Slots: 32}, diskFirst: 0, diskLast: -1}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("setting %q: want key=value", a)
		}
		var err error
		switch k {
		case "variant":
			sc.cfg.Variant, err = slru.ParseVariant(v)
		case "slots":
			sc.cfg.Slots, err = strconv.Atoi(v)
		case "bank":
			sc.cfg.BankSize, err = strconv.Atoi(v)
		case "rule":
			if v == "mask" {
				sc.cfg.BankRule = slru.BankMask
			} else if v != "modulo" {
				err = fmt.Errorf("rule %q", v)
			}
		case "hash":
			if v == "gomap" {
				sc.cfg.HashTable = slru.HashGoMap
			} else if v != "dynahash" {
				err = fmt.Errorf("hash %q", v)
			}
		case "disk":
			f, l, ok := strings.Cut(v, "..")
			if !ok {
				return nil, fmt.Errorf("disk=%s: want FIRST..LAST", v)
			}
			if sc.diskFirst, err = strconv.ParseInt(f, 10, 64); err == nil {
				sc.diskLast, err = strconv.ParseInt(l, 10, 64)
			}
		case "latest":
			sc.latest, err = strconv.ParseInt(v, 10, 64)
			sc.hasLatest = true
		case "schedule":
			for _, e := range strings.Split(v, ",") {
				name, times, rep := strings.Cut(e, "*")
				n := 1
				if rep {
					if n, err = strconv.Atoi(times); err != nil || n < 1 {
						return nil, fmt.Errorf("%s: bad repeat %q", a, e)
					}
				}
				for ; n > 0; n-- {
					sc.schedule = append(sc.schedule, name)
				}
			}
		default:
			err = fmt.Errorf("unknown setting")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a, err)
		}
	}
	for _, line := range strings.Split(input, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, text, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%q: want BACKEND: OPERATION", line)
		}
		op, err := slru.ParseOp(text)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", line, err)
		}
		sc.ops = append(sc.ops, scriptOp{backend: strings.TrimSpace(name), op: op})
	}
	return sc, nil
}

// run executes the script on a fresh SLRU with log (which may be nil),
// checking the invariants after every event when t is not nil. It returns
// the SLRU and one result line per operation, in script order.
func (sc *script) run(t testing.TB, log *trace.Log) (*slru.SLRU, []string, error) {
	s, err := slru.New(sc.cfg, log)
	if err != nil {
		return nil, nil, err
	}
	if sc.diskLast >= sc.diskFirst {
		s.Disk().FormatPages(sc.diskFirst, sc.diskLast)
	}
	if sc.hasLatest {
		s.SetLatestPageNumber(sc.latest)
	}
	if log != nil && t != nil {
		log.OnAppend = func(e trace.Event) {
			if err := s.CheckInvariants(); err != nil {
				t.Fatalf("after event %s: %v\n%s", slru.Describe(e), err, s.Picture())
			}
		}
	}
	backends := map[string]*slru.Backend{}
	var order []string
	for _, o := range sc.ops {
		if backends[o.backend] == nil {
			b, err := s.NewBackend(o.backend)
			if err != nil {
				return nil, nil, err
			}
			backends[o.backend] = b
			order = append(order, o.backend)
		}
	}
	results := make([]string, len(sc.ops))
	do := func(i int) {
		o := sc.ops[i]
		res, err := backends[o.backend].Do(o.op)
		if err != nil {
			res = err.Error()
		}
		results[i] = fmt.Sprintf("%s: %s -> %s", o.backend, o.op, res)
	}
	if sc.schedule == nil {
		for i := range sc.ops {
			do(i)
		}
		return s, results, nil
	}
	var actors []trace.Actor
	for _, n := range sc.schedule {
		b := backends[n]
		if b == nil {
			return nil, nil, fmt.Errorf("schedule names %q, which has no operation", n)
		}
		actors = append(actors, b.Actor)
	}
	sch := sched.New(&sched.Script{Actors: actors, Then: &sched.RoundRobin{}})
	sch.MaxSteps = 100000
	for _, n := range order {
		b := backends[n]
		b.Spawn(sch, func(sched.Yield) error {
			for i, o := range sc.ops {
				if o.backend == n {
					do(i)
				}
			}
			return nil
		})
	}
	return s, results, sch.Run()
}

// eventText is the golden text of a log.
func eventText(l *trace.Log) string {
	var b strings.Builder
	for _, e := range l.Events() {
		b.WriteString(slru.Describe(e))
		b.WriteByte('\n')
	}
	return b.String()
}
