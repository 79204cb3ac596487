package check

import (
	"errors"
	"fmt"
	"iter"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// Input is one multi-trace to judge. Read runs on a worker, so that reading
// and parsing run in parallel too; a reader of logs that holds many
// sessions per file makes one Input per session, with Read returning the
// session it has already parsed.
type Input struct {
	Name string // the file the multi-trace comes from
	// Session is the session's id in a log that holds several (as
	// written), "" for a file that is one multi-trace.
	Session string
	// Files names every file that holds events of a session joined across
	// the logs of a run, when there are more than one (Name is the first).
	Files []string
	// Ignored counts the events of the session that the reader left out
	// (outside the signature): reported with the outcome.
	Ignored int
	// Read returns the multi-trace.
	Read func() (*multitrace.MultiTrace, error)
	// Explore asks for the runtime engine's explored graph (Outcome.Graph).
	Explore bool
	// Incomplete, when set, says that the reader lost events of the
	// multi-trace (malformed lines): judged without them, a Fail could
	// pass, so it is not judged, and its verdict is Inconc with this reason.
	Incomplete string
}

// Outcome is the judgment of one Input.
type Outcome struct {
	Index   int // of the input, from 0
	Name    string
	Session string   // Input.Session
	Files   []string // Input.Files
	Ignored int      // Input.Ignored
	// AllIgnored flags a session whose events were all ignored (outside
	// the signature): judged empty, its verdict says nothing of the log.
	AllIgnored bool
	Result     verdict.Result
	Engine     Engine // the engine that answered
	Graph      *Graph // with Input.Explore
	// Elapsed is the time of the check alone: reading excluded, setup too.
	Elapsed time.Duration
	// Setup is the one-time work this input caused: for the first input,
	// Checker.Setup (the compilation), and for any input, building the
	// checker of a partition of the lifelines not seen before, or a
	// worker's analyzer.
	Setup time.Duration
	// Err is why the input could not be judged (unreadable, or an
	// internal error, a *PanicError); Result is then the zero value.
	Err error
}

// PanicError is a panic recovered while judging an input: a bug of ivc,
// never the user's. The other inputs are still judged.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error: %v (please report this bug, with the input files)", e.Value)
}

// Files returns the inputs of the named .htf files, in order.
func Files(c *Checker, files []string) iter.Seq[Input] {
	return func(yield func(Input) bool) {
		for _, f := range files {
			if !yield(c.FileInput(f)) {
				return
			}
		}
	}
}

// FileInput returns the input of one .htf file.
func (c *Checker) FileInput(f string) Input {
	return Input{Name: f, Read: func() (*multitrace.MultiTrace, error) {
		return multitrace.ReadLimit(f, c.sp.Sig, c.opt.MaxInput)
	}}
}

// Run judges the inputs with jobs workers (at least 1) and calls emit with
// each outcome, in input order, from the calling goroutine. At most a few
// outcomes per worker wait for a slower earlier one, so memory stays bounded
// however many inputs there are. A panic while judging an input is its
// outcome's *PanicError.
func (c *Checker) Run(inputs iter.Seq[Input], jobs int, emit func(Outcome)) {
	run(inputs, jobs, c.judge, c.setup, emit)
}

// run is Run for any kind of input: judge judges the input of each index,
// and the first outcome's setup includes the checker's own.
func run[I any](inputs iter.Seq[I], jobs int, judge func(int, I) Outcome, setup time.Duration, emit func(Outcome)) {
	if jobs <= 1 {
		// One worker: judged in order here, with no hand-over between
		// goroutines (which costs more than a small session's check).
		i := 0
		for in := range inputs {
			o := judge(i, in)
			if i == 0 {
				o.Setup += setup
			}
			emit(o)
			i++
		}
		return
	}
	type job struct {
		i  int
		in I
	}
	todo := make(chan job)
	done := make(chan Outcome, jobs)
	window := make(chan struct{}, 4*jobs) // inputs taken and not yet emitted
	stop := make(chan struct{})
	go func() {
		defer close(todo)
		i := 0
		for in := range inputs {
			select {
			case window <- struct{}{}:
			case <-stop:
				return
			}
			todo <- job{i, in}
			i++
		}
	}()
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for j := range todo {
				done <- judge(j.i, j.in)
			}
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	defer close(stop)
	pending := map[int]Outcome{}
	next := 0
	for o := range done {
		pending[o.Index] = o
		for {
			o, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if next == 0 {
				o.Setup += setup
			}
			emit(o)
			<-window
			next++
		}
	}
}

// Judge reads and checks one input as Run does each (Outcome.Index is 0),
// panics recovered: for a caller that hands out inputs itself, as the
// workers of a pipeline do.
func (c *Checker) Judge(in Input) Outcome { return c.judge(0, in) }

// judge reads and checks one input.
func (c *Checker) judge(i int, in Input) (o Outcome) {
	o = Outcome{Index: i, Name: in.Name, Session: in.Session, Files: in.Files, Ignored: in.Ignored}
	defer recovered(&o)
	switch {
	case in.Incomplete != "":
		o.Result = verdict.Result{Verdict: verdict.Inconc, Mode: c.opt.Mode, Detail: in.Incomplete}
	case in.Read != nil:
		mt, err := in.Read()
		if err != nil {
			o.Err = err
			return o
		}
		o.AllIgnored = in.Ignored > 0 && mt.Len() == 0
		t0 := time.Now()
		if in.Explore && c.engine != EngineRuntime {
			o.Err = errors.New("the explored graph is the runtime engine's: use the runtime engine")
			return o
		}
		o.Result, o.Graph, o.Setup, o.Engine = c.check(mt, in.Explore)
		o.Elapsed = time.Since(t0) - o.Setup
	default:
		o.Err = errors.New("nothing to read")
	}
	return o
}

// recovered, deferred by a judge, turns a panic into the outcome *o of
// the input, with a *PanicError: the other inputs are still judged.
func recovered(o *Outcome) {
	if v := recover(); v != nil {
		*o = Outcome{Index: o.Index, Name: o.Name, Session: o.Session, Files: o.Files, Ignored: o.Ignored,
			Err: &PanicError{Value: v, Stack: debug.Stack()}}
	}
}
