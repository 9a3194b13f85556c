package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"bufferlab/engine/runs"
	"bufferlab/engine/sched"
	"bufferlab/engine/trace"
)

// Schedules in the scenario language.
//
// `schedule A B A*2031 B*10009` names who runs at each yield point of the
// next run: A, then B, then A 2031 times, then B 10009 times; then the
// configured policy (rr or random) takes over. Schedule lines before one
// run add up, so a schedule longer than a line (64 KiB) spans lines, and
// the steps they name together are bounded by MaxScheduleSteps. The
// schedule is kept as runs, never one entry per step, so its memory is
// that of the lines. `run --json` writes each recorded schedule this way
// (Runner.ScheduleLines): pasted before the run, the lines replay it.

// ScheduleRun is NAME*Count in a schedule line (Count 1 for NAME).
type ScheduleRun struct {
	Name  string
	Count int
	Pos   Pos
}

// Steps is the number of steps the statement names.
func (s *ScheduleStmt) Steps() int {
	n := 0
	for _, r := range s.Runs {
		n += r.Count
	}
	return n
}

// scriptPolicy resumes the backends of a schedule's runs in order, then
// defers to then. It is sched.Script over runs instead of steps.
type scriptPolicy struct {
	runs  []ScheduleRun
	actor []trace.Actor // runs[i]'s backend
	run   int           // the run being used
	used  int           // steps of runs[run] used
	steps int           // steps of the schedule used in all
	then  sched.Policy
}

func (r *Runner) newScript(st *ScheduleStmt, then sched.Policy) *scriptPolicy {
	s := &scriptPolicy{runs: st.Runs, then: then}
	for _, x := range st.Runs {
		s.actor = append(s.actor, r.backendByName[x.Name].b.Actor)
	}
	return s
}

// Name implements sched.Policy.
func (s *scriptPolicy) Name() string {
	return fmt.Sprintf("schedule(%d runs, then %s)", len(s.runs), s.then.Name())
}

// inScript reports whether the last step picked came from the schedule.
func (s *scriptPolicy) inScript() bool { return s.steps > 0 && s.run < len(s.runs) && s.used > 0 }

// pos is the position of the schedule token of the last step picked.
func (s *scriptPolicy) pos() Pos { return s.runs[s.run].Pos }

// Pick implements sched.Policy. Naming a backend that has finished is an
// error, since a schedule that does so does not say what it means.
func (s *scriptPolicy) Pick(live []*sched.Proc, step int) (int, error) {
	for s.run < len(s.runs) && s.used == s.runs[s.run].Count {
		s.run++
		s.used = 0
	}
	if s.run == len(s.runs) {
		return s.then.Pick(live, step)
	}
	s.used++
	s.steps++
	a := s.actor[s.run]
	for i, p := range live {
		if p.Actor == a {
			return i, nil
		}
	}
	return 0, fmt.Errorf("schedule step %d names %s, which has no operation left to run", s.steps, s.runs[s.run].Name)
}

// scheduleLineMax bounds the lines ScheduleLines writes, well under the
// 64 KiB a scenario line may have.
const scheduleLineMax = 4000

// ScheduleLines writes a recorded schedule (one of Schedules) as the
// schedule lines that replay it: a backend resumed N times in a row is
// NAME*N, and a line holds at most about 4000 bytes.
func (r *Runner) ScheduleLines(rec []trace.Actor) []string {
	names := r.BackendNames()
	var lines []string
	var b strings.Builder
	for i, j := range runs.Of(len(rec), func(k int) bool { return rec[k] == rec[k-1] }) {
		word := trace.ActorName(rec[i])
		if int(rec[i]) < len(names) {
			word = names[rec[i]]
		}
		if j > i {
			word += "*" + strconv.Itoa(j-i+1)
		}
		if b.Len() > 0 && b.Len()+1+len(word) > scheduleLineMax {
			lines = append(lines, b.String())
			b.Reset()
		}
		if b.Len() == 0 {
			b.WriteString("schedule")
		}
		b.WriteString(" " + word)
	}
	if b.Len() > 0 {
		lines = append(lines, b.String())
	}
	return lines
}
