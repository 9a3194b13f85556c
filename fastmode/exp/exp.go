package exp

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"bufferlab/fastmode/harness"
	"bufferlab/fastmode/timer"
)

// Options configure a run.
type Options struct {
	Sizes    []string     // shared_buffers values; nil: the experiment's default (or quick) set
	Quick    bool         // reduced sizes and fewer samples
	Clock    *timer.Clock // nil: timer.Best()
	Progress io.Writer    // where a progress bar may be drawn (if a terminal)
	// OnStep, if set, is called after each measured point with the points
	// done, the total and what comes next (the app draws its bar from it;
	// in the browser it also lets a frame be drawn).
	OnStep func(done, total int, what string)
	Config harness.Config // zero: harness.Default or harness.Quick
	// Workers is the largest worker count of an experiment that takes one
	// (pin); 0: the experiment's default.
	Workers int
	// Full makes an experiment that samples long cells and extrapolates
	// (drop) time every operation instead (--full).
	Full bool
	// Students is the simulated class size of an experiment that takes one
	// (classroom, --students); 0: the experiment's default.
	Students int
}

// Fill sets what o leaves zero to e's defaults: the clock, the harness
// configuration (quick or not) and the sizes.
func (o *Options) Fill(e *Experiment) {
	if o.Clock == nil {
		o.Clock = timer.Best()
	}
	if o.Config.Samples == 0 {
		o.Config = harness.Default
		if o.Quick {
			o.Config = harness.Quick
		}
	}
	o.Config.Clock = o.Clock
	if len(o.Sizes) == 0 {
		o.Sizes = e.DefaultSizes
		if o.Quick {
			o.Sizes = e.QuickSizes
		}
	}
}

// Machine describes where a report was measured.
type Machine struct {
	GOOS     string `json:"goos"`
	GOARCH   string `json:"goarch"`
	CPUs     int    `json:"cpus"`
	CPUModel string `json:"cpu_model"`
}

// Row is one measured point.
type Row struct {
	Name          string `json:"name"`
	SharedBuffers string `json:"shared_buffers,omitempty"`
	NBuffers      int    `json:"nbuffers,omitempty"`
	Bytes         int64  `json:"bytes,omitempty"` // size of the array measured (limits)
	Unit          string `json:"unit"`
	harness.Summary
	Workers int                `json:"workers,omitempty"` // goroutines (pin)
	PerOp   map[string]float64 `json:"per_op,omitempty"`  // event counts per operation (pin)
	Note    string             `json:"note,omitempty"`
}

// Report is the result of one experiment.
type Report struct {
	Experiment string             `json:"experiment"`
	Timer      timer.Info         `json:"timer"`
	Machine    Machine            `json:"machine"`
	Rows       []Row              `json:"rows"`
	Summary    map[string]float64 `json:"summary"`
}

// Experiment is one named experiment.
type Experiment struct {
	Name         string
	Doc          string
	TakesSizes   bool
	TakesWorkers bool // Options.Workers applies (--workers)
	TakesFull    bool // Options.Full applies (--full)
	// TakesStudents: Options.Students applies (--students).
	TakesStudents bool
	DefaultSizes  []string
	QuickSizes    []string
	SummaryKeys   []string
	// SignedKeys are the summary keys that may be zero or negative (a
	// percentage change); every other key is a positive measurement.
	SignedKeys []string
	// Measure runs the experiment into r (Run fills the options and the
	// report's header first).
	Measure func(o Options, r *Report) error
	// Table prints the report's rows (WriteTable adds the header and the
	// summary).
	Table func(r *Report, w io.Writer)
}

var registry = map[string]*Experiment{}

// Register adds e to the experiments Lookup and Names know; each
// experiment's package calls it in its init. A second experiment of the
// same name is a bug and panics.
func Register(e *Experiment) {
	if _, dup := registry[e.Name]; dup {
		panic("exp: experiment " + e.Name + " registered twice")
	}
	registry[e.Name] = e
}

// Lookup returns the experiment called name.
func Lookup(name string) (*Experiment, bool) { e, ok := registry[name]; return e, ok }

// Names lists the experiments.
func Names() []string {
	var s []string
	for n := range registry {
		s = append(s, n)
	}
	sort.Strings(s)
	return s
}

// Run runs the experiment.
func (e *Experiment) Run(o Options) (*Report, error) {
	o.Fill(e)
	r := &Report{Experiment: e.Name, Timer: o.Clock.Info(), Machine: ThisMachine(), Summary: map[string]float64{}}
	if err := e.Measure(o, r); err != nil {
		return nil, err
	}
	return r, nil
}

// WriteTable prints the report as an aligned table.
func (e *Experiment) WriteTable(r *Report, w io.Writer) {
	fmt.Fprintf(w, "bench %s\ntimer:   %v\nmachine: %s/%s, %d CPUs, %s\n\n", r.Experiment, r.Timer, r.Machine.GOOS, r.Machine.GOARCH, r.Machine.CPUs, orUnknown(r.Machine.CPUModel))
	e.Table(r, w)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "summary (medians):")
	width := 18
	for _, k := range e.SummaryKeys {
		width = max(width, len(k))
	}
	for _, k := range e.SummaryKeys {
		fmt.Fprintf(w, "  %-*s %s\n", width, k, Num(r.Summary[k]))
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown CPU"
	}
	return s
}

// Num formats a measurement with three significant digits.
func Num(v float64) string {
	switch {
	case v >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// Faster writes how much faster fast is than slow (both times): "×N faster".
func Faster(fastNs, slowNs float64) string {
	if !(fastNs > 0) || !(slowNs > 0) {
		return "-"
	}
	return "×" + strconv.FormatFloat(slowNs/fastNs, 'f', 1, 64) + " faster"
}

// ThisMachine describes this machine.
func ThisMachine() Machine {
	return Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), CPUModel: cpuModel()}
}

func cpuModel() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// MemTotal returns the machine's memory in bytes from /proc/meminfo (Linux
// only; ok false elsewhere).
func MemTotal() (bytes int64, ok bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && fs[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fs[1], 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

// BytesPerBuffer estimates the memory one simulated buffer needs: about 100
// bytes for the pool (descriptor, mapping entry, bookkeeping) and 64 for the
// limits' descriptor-sized arrays.
const BytesPerBuffer = 100 + DescBytes
