//go:build !js

package classroom

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/exp/stats"

	"bufferlab/fastmode/exp"
	"bufferlab/fastmode/harness"
	cls "bufferlab/internal/classroom"
	"bufferlab/internal/classroom/classclient"
	"bufferlab/lessons"
)

// Timeout bounds a run, plus PerStudent for each student (dialling and
// fan-out grow with the class).
const (
	Timeout    = 60 * time.Second
	PerStudent = 20 * time.Millisecond
)

// QuestionsLesson is the lesson whose questions the class answers.
const QuestionsLesson = "pinning"

// playingGotos is how many gotos while playing follow each step's goto.
const playingGotos = 3

func init() {
	exp.Register(&exp.Experiment{
		Name:          "classroom",
		Doc:           "the classroom server on loopback with N simulated students: goto fan-out latency, lost updates, answers counted, heap",
		TakesStudents: true,
		SummaryKeys:   []string{"students", "step_to_all_p50_ms", "step_to_all_p99_ms", "answers_sent", "answers_counted", "lost_updates", "server_peak_heap_mb", "server_peak_goroutines"},
		SignedKeys:    []string{"lost_updates"},
		Measure:       measure,
		Table:         table,
	})
}

// Result is one run's measurements.
type Result struct {
	Students                      int
	StepToAll                     []float64 // ms, one per goto
	AnswersSent, AnswersCounted   int
	LostUpdates                   int
	PeakHeapBytes                 uint64
	PeakGoroutines, Gotos, FinalV int
}

func measure(o exp.Options, r *exp.Report) error {
	n := o.Students
	if n == 0 {
		n = DefaultStudents
	}
	p := harness.NewProgressFunc(o.Progress, "bench classroom", 3, o.OnStep)
	defer p.Done()
	res, err := Run(n, 1, p)
	if err != nil {
		return err
	}
	q := stats.Quantiles(res.StepToAll, 0.5, 0.99)
	r.Rows = append(r.Rows, exp.Row{Name: "step_to_all", Unit: "ms", Summary: harness.Summarise(res.StepToAll),
		Note: fmt.Sprintf("%d gotos to %d students", res.Gotos, n)})
	r.Summary["students"] = float64(n)
	r.Summary["step_to_all_p50_ms"] = q[0]
	r.Summary["step_to_all_p99_ms"] = q[1]
	r.Summary["answers_sent"] = float64(res.AnswersSent)
	r.Summary["answers_counted"] = float64(res.AnswersCounted)
	r.Summary["lost_updates"] = float64(res.LostUpdates)
	r.Summary["server_peak_heap_mb"] = float64(res.PeakHeapBytes) / (1 << 20)
	r.Summary["server_peak_goroutines"] = float64(res.PeakGoroutines)
	if res.LostUpdates != 0 || res.AnswersCounted != res.AnswersSent {
		return fmt.Errorf("%d students of %d did not end with the server's last state (v %d), and the server counted %d answers of %d sent; want none lost",
			res.LostUpdates, n, res.FinalV, res.AnswersCounted, res.AnswersSent)
	}
	return nil
}

func table(r *exp.Report, w io.Writer) {
	exp.QuantileTable(w, r.Rows, " ms", "gotos", func(row exp.Row) string { return fmt.Sprint(row.Samples) })
}

// class is one run's server, teacher and students.
type class struct {
	srv      *cls.Server
	url      string
	teacher  *classclient.Client
	students []*classclient.Client
	seq      int                     // the last goto's pos: every goto's is new
	wave     atomic.Pointer[arrival] // the goto the students are being timed on
}

// arrival times one goto: from sent to the last student holding it.
type arrival struct {
	pos     int
	left    atomic.Int64 // students yet to receive it
	lastAt  atomic.Int64 // unix ns of the latest arrival
	allDone chan struct{}
}

// Run runs the class with n students (answers drawn from seed) and
// returns its measurements; p, if not nil, is told each phase.
func Run(n int, seed uint64, p *harness.Progress) (*Result, error) {
	if n < 1 || n > MaxStudents {
		return nil, fmt.Errorf("%d students: want 1..%d", n, MaxStudents)
	}
	all, err := lessons.All()
	if err != nil {
		return nil, err
	}
	limit := Timeout + time.Duration(n)*PerStudent
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	k, stop, err := start(all, n)
	if err != nil {
		return nil, err
	}
	defer stop()
	res := &Result{Students: n}
	heapDone := sampleHeap(&res.PeakHeapBytes)
	err = k.drive(ctx, all, n, seed, res, p)
	heapDone()
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("the class of %d students did not finish within %v: %w", n, limit, err)
	}
	if err != nil {
		return nil, err
	}
	st := k.srv.Stats()
	res.AnswersCounted, res.PeakGoroutines, res.FinalV = st.Answers, st.PeakGoroutines, st.V
	return res, nil
}

// start serves a class on 127.0.0.1 (a real socket) sized for n.
func start(all []*lessons.Lesson, n int) (*class, func(), error) {
	srv, err := cls.New(cls.Config{Lessons: all, MaxStudents: max(n, 500)})
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("listening on 127.0.0.1: %w", err)
	}
	hs := &http.Server{Handler: srv.Handler()}
	go hs.Serve(ln)
	k := &class{srv: srv, url: "ws://" + ln.Addr().String() + cls.Path}
	return k, func() {
		for _, s := range k.students {
			s.CloseNow()
		}
		if k.teacher != nil {
			k.teacher.CloseNow()
		}
		srv.Close()
		hs.Close()
	}, nil
}

// sampleHeap records the peak HeapAlloc every 20 ms until the returned
// function is called.
func sampleHeap(peak *uint64) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapAlloc)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// drive joins the class and takes it through the lessons.
func (k *class) drive(ctx context.Context, all []*lessons.Lesson, n int, seed uint64, res *Result, p *harness.Progress) error {
	p.Step(fmt.Sprintf("%d students join", n))
	var err error
	k.teacher, err = classclient.Dial(ctx, k.url, classclient.Hello{Role: cls.RoleTeacher, Token: k.srv.TeacherToken()}, classclient.Options{})
	if err != nil {
		return fmt.Errorf("the teacher: %w", err)
	}
	if err := k.join(ctx, n); err != nil {
		return err
	}
	p.Step("the lessons")
	rng := rand.New(rand.NewPCG(seed, 2))
	for _, l := range all {
		for step, s := range l.Steps {
			for i := 0; i <= playingGotos; i++ {
				ms, err := k.goTo(ctx, l.Name, step, i > 0)
				if err != nil {
					return fmt.Errorf("lesson %s step %d: %w", l.Name, step, err)
				}
				res.StepToAll = append(res.StepToAll, ms)
				res.Gotos++
			}
			if s.Predict != nil && l.Name == QuestionsLesson {
				if err := k.ask(ctx, step, len(s.Predict.Choices), rng, res); err != nil {
					return fmt.Errorf("lesson %s step %d: %w", l.Name, step, err)
				}
			}
		}
	}
	p.Step("the end")
	if err := k.teacher.Send(ctx, map[string]string{"t": "end"}); err != nil {
		return err
	}
	for i, s := range k.students {
		if _, err := s.WaitState(ctx, func(st *cls.State) bool { return st.Ended }); err != nil {
			return fmt.Errorf("student %d waiting for the end: %w", i, err)
		}
	}
	// Every student must now hold the server's last state; give the
	// writers a moment to finish, then count those that do not.
	v := k.srv.Stats().V
	settle, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for _, s := range k.students {
		if st, _ := s.WaitV(settle, v); st == nil || st.V != v {
			res.LostUpdates++
		}
	}
	return nil
}

// join dials n students, 16 at a time; each times the gotos (onState).
func (k *class) join(ctx context.Context, n int) error {
	k.students = make([]*classclient.Client, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	sem := make(chan struct{}, 16)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			reached := 0 // the last goto pos this student was counted for
			c, err := classclient.Dial(ctx, k.url, classclient.Hello{Role: cls.RoleStudent, Room: k.srv.Code()}, classclient.Options{
				OnState: func(st *cls.State, at time.Time) {
					w := k.wave.Load()
					if w == nil || st.Pos < w.pos || reached >= w.pos {
						return
					}
					reached = w.pos
					for t := at.UnixNano(); ; {
						last := w.lastAt.Load()
						if t <= last || w.lastAt.CompareAndSwap(last, t) {
							break
						}
					}
					if w.left.Add(-1) == 0 {
						close(w.allDone)
					}
				}})
			if err != nil {
				errs <- fmt.Errorf("student %d of %d: %w (each student is two sockets in this process: is ulimit -n high enough?)", i+1, n, err)
				return
			}
			k.students[i] = c
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs // nil when none
}

// goTo moves the class to a new position and returns, in ms, how long
// until every student held it.
func (k *class) goTo(ctx context.Context, lesson string, step int, playing bool) (float64, error) {
	k.seq++
	w := &arrival{pos: k.seq, allDone: make(chan struct{})}
	w.left.Store(int64(len(k.students)))
	k.wave.Store(w)
	sent := time.Now()
	if err := k.teacher.Send(ctx, map[string]any{"t": "goto", "lesson": lesson, "step": step, "pos": k.seq, "playing": playing}); err != nil {
		return 0, err
	}
	select {
	case <-w.allDone:
	case <-ctx.Done():
		return 0, fmt.Errorf("%d students never got goto pos %d: %w (the teacher's errors: %v)", w.left.Load(), w.pos, ctx.Err(), k.teacher.Errors())
	}
	return float64(w.lastAt.Load()-sent.UnixNano()) / 1e6, nil
}

// ask runs a question: two rounds of every student answering, lock,
// reveal (a reask between).
func (k *class) ask(ctx context.Context, step, choices int, rng *rand.Rand, res *Result) error {
	for round := 1; round <= 2; round++ {
		for i, s := range k.students {
			msg := map[string]any{"t": "answer", "step": step, "round": round, "choice": 1 + rng.IntN(choices)}
			if err := s.Send(ctx, msg); err != nil {
				return fmt.Errorf("student %d: %w", i, err)
			}
			res.AnswersSent++
		}
		n := len(k.students)
		if _, err := k.teacher.WaitState(ctx, func(st *cls.State) bool {
			return st.Q != nil && st.Q.Step == step && st.Q.Round == round && st.Q.Answered == n
		}); err != nil {
			return fmt.Errorf("round %d: waiting for %d answers: %w (last state %+v)", round, n, err, k.teacher.State())
		}
		for _, t := range []string{"lock", "reveal"} {
			if err := k.teacher.Send(ctx, map[string]string{"t": t}); err != nil {
				return err
			}
		}
		if _, err := k.teacher.WaitState(ctx, func(st *cls.State) bool { return st.Q.Round == round && st.Q.Revealed }); err != nil {
			return fmt.Errorf("round %d: waiting for the reveal: %w", round, err)
		}
		if round == 1 {
			// The students answer round 2 once the server has made it:
			// their connections are not ordered with the teacher's.
			if err := k.teacher.Send(ctx, map[string]string{"t": "reask"}); err != nil {
				return err
			}
			if _, err := k.teacher.WaitState(ctx, func(st *cls.State) bool { return st.Q.Round == 2 }); err != nil {
				return fmt.Errorf("waiting for the reask: %w", err)
			}
		}
	}
	return nil
}
