package check

import (
	"errors"
	"fmt"
	"iter"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ivc-project/ivc/internal/engine/automata"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/verdict"
)

// Outcome is the judgment of one session (or .htf multi-trace).
type Outcome struct {
	Index int // of the session among those judged, from 0
	// Meta is the session's, as it was handed to the checker: where its
	// events come from and their counts.
	session.Meta
	// MT is the multi-trace judged: nil when it was not (an error, or
	// events lost: Meta.Incomplete).
	MT     *multitrace.MultiTrace
	Result verdict.Result
	Engine Engine // the engine that answered
	Graph  *Graph // with RunOptions.Explore
	// Elapsed is the time of the check alone: reading excluded, setup too;
	// 0 for a verdict the checker remembered for a shared multi-trace
	// (session.Session.Shared), a look-up of well under the microsecond.
	Elapsed time.Duration
	// Setup is the one-time work this input caused: for the first input,
	// Checker.Setup (the compilation), and for any input, building the
	// checker of a partition of the lifelines not seen before, or a
	// worker's analyzer.
	Setup time.Duration
	// Err is why the session could not be judged (its own Err: an
	// *session.InputError for an input that could not be read; or an
	// internal error, a *PanicError); Result is then the zero value.
	Err error
	// Live is set by ivc monitor's session table (package monitor), nil
	// elsewhere: what a session judged live adds.
	Live *Live
	// traceURL is the checker's Options.TraceURL, for Stops.
	traceURL string
	// auto is the automata engine that answered, for Unfinished.
	auto *automata.Engine
	// Repair is the repair of a Fail (Checker.Repair), when the checker
	// repairs Fails (Options.RepairFails); nil otherwise. RepairElapsed is
	// its time, apart from Elapsed.
	Repair        *verdict.Repair
	RepairElapsed time.Duration
	// At is when the session was judged: when a failure pattern was seen
	// (Summary.Patterns). It is the checker's creation time plus the
	// monotonic time since, so a step of the wall clock after New is not
	// in it.
	At time.Time
}

// Pattern returns the failure pattern of a Fail (PatternOf), with no count
// and no example; ok is false for any other verdict.
func (o *Outcome) Pattern() (Pattern, bool) {
	if o.Err != nil || o.Result.Verdict != verdict.Fail { // no copy of the result
		return Pattern{}, false
	}
	return PatternOf(o.Result, o.Repair)
}

// Unfinished returns, for a WeakPass of the automata engine, the locations
// whose logs look unfinished (their projections stop in a state that is
// not final) and what each could do next; nil otherwise. It is worked out
// when asked (the text and the record of o ask it), not by the check.
func (o *Outcome) Unfinished() []verdict.Unfinished {
	if o.Result.Verdict != verdict.WeakPass || o.auto == nil || o.MT == nil {
		return nil
	}
	return o.auto.Unfinished(o.MT)
}

// AllIgnored reports whether the events of a session judged were all
// outside the signature: judged empty, its verdict says nothing of the log.
func (o *Outcome) AllIgnored() bool { return o.Ignored > 0 && o.MT != nil && o.MT.Len() == 0 }

// PanicError is a panic recovered while judging an input: a bug of ivc,
// never the user's. The other inputs are still judged.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error: %v (please report this bug, with the input files)", e.Value)
}

// Files returns the sessions of the named .htf files, in order, each read
// when it is judged (or, with one worker, a few ahead: Run).
func Files(c *Checker, files []string) iter.Seq[session.Session] {
	return func(yield func(session.Session) bool) {
		for _, f := range files {
			if !yield(session.HTF(f, logs.Options{Sig: c.sp.Sig, MaxBytes: c.opt.MaxInput})) {
				return
			}
		}
	}
}

// RunOptions are how Run judges a batch.
type RunOptions struct {
	// Jobs is the number of workers (at least 1).
	Jobs int
	// Explore asks for the runtime engine's explored graph of each session
	// (Outcome.Graph): slow, for review.
	Explore bool
}

// Run is the judging pipeline: it judges the sessions (read from the logs
// of a run by a session.Source, or .htf files: Files) with opt.Jobs
// workers (one worker reads the .htf files in batches: readAhead), calls
// emit with each outcome, in input order, from the calling goroutine, and
// returns the summary of the batch: what it judged, and how
// (its Counts, what the inputs held, are their reader's: a Source's). At
// most a few outcomes per worker wait for a slower earlier one (4 of .htf
// files, 256 of a log's sessions, which several workers take in batches),
// so memory stays bounded however many sessions there are. A panic while judging a
// session is its outcome's *PanicError. Once emit has returned, the
// session is released (session.Meta.Release): the storage of a session of
// a session.Source that reuses it (Source.Reuse) then serves a session
// after it, so such an emit keeps nothing of an outcome's MT and Origins
// past its call unless it copies it (MultiTrace.Clone).
func (c *Checker) Run(sessions iter.Seq[session.Session], opt RunOptions, emit func(Outcome)) Summary {
	var sum Summary
	judge := c.judge
	if opt.Explore {
		judge = func(i int, s *session.Session, o *Outcome) { c.judgeExplored(i, s, true, o) }
	}
	run(sessions, opt.Jobs, judge, readAhead, readAlready, c.setup, func(o *Outcome) {
		sum.Add(o)
		emit(*o)
		o.Release()
	})
	return sum
}

// Read-ahead bounds: at most aheadSessions .htf multi-traces read before the
// first of them is judged, and no more once they hold aheadEvents events.
const (
	aheadSessions = 32
	aheadEvents   = 1 << 16
)

// readAhead reads s ahead of its judgment when it is still to be read (a
// .htf file: session.HTF, or any session.Later), and returns the events it
// holds; -1 for a session read already (of a log). One worker reads the .htf files in
// batches before judging them (run): a small file read just before its
// check leaves the check about a fifth slower (its system calls, parsing
// and fresh memory evict the checker's), and a batch keeps the checks
// together, on the same goroutine (a reader of its own costs a hand-over
// per session, more than a small check). A panic while reading leaves the
// session to be read when judged, where it is its outcome's.
func readAhead(s *session.Session) (events int) {
	if !s.Pending() {
		return -1
	}
	defer func() { _ = recover() }()
	if mt, _ := s.Read(); mt != nil {
		events = mt.Len()
	}
	return events
}

// readAlready reports whether s is read already (a session of a log), not
// a .htf file that its judgment reads: cheap to hand over with others.
func readAlready(s *session.Session) bool { return !s.Pending() }

// run is Run for any kind of input: judge judges the input of each index
// into the outcome it is given (emit gets that outcome, and must not keep
// the pointer past its call),
// and the first outcome's setup includes the checker's own. With one
// worker, ahead (when not nil) reads an input ahead of its judgment and
// returns its size, -1 for one not to read ahead: such inputs are judged
// in batches (aheadSessions, aheadEvents), each after the batch before it.
// With several, together (when not nil) says which inputs are cheap enough
// to hand over to a worker with others (the sessions of a log, read
// already); the others go alone.
func run[I any](inputs iter.Seq[I], jobs int, judge func(int, *I, *Outcome), ahead func(*I) int, together func(*I) bool, setup time.Duration, emit func(*Outcome)) {
	if jobs <= 1 {
		// One worker: judged in order here, with no hand-over between
		// goroutines (which costs more than a small session's check), each
		// outcome in the room of the one before (an input and its outcome
		// are not copied: they take a few hundred bytes).
		i := 0
		var o Outcome
		one := func(in *I) {
			judge(i, in, &o)
			if i == 0 {
				o.Setup += setup
			}
			emit(&o)
			i++
		}
		var batch []I
		held := 0
		flush := func() {
			for k := range batch {
				one(&batch[k])
			}
			clear(batch)
			batch, held = batch[:0], 0
		}
		var in I // read ahead through its address: one variable, not one on the heap an input
		for in = range inputs {
			n := -1
			if ahead != nil {
				n = ahead(&in)
			}
			if n < 0 {
				if len(batch) > 0 {
					flush()
				}
				one(&in)
				continue
			}
			batch = append(batch, in)
			if held += n; len(batch) == aheadSessions || held >= aheadEvents {
				flush()
			}
		}
		flush()
		return
	}
	type job struct {
		i  int
		in I
	}
	// Inputs go to the workers in batches of consecutive ones: a batch
	// grows while every worker is busy, up to handInputs inputs that
	// together says are cheap, and goes to the first worker free (an input
	// that is not cheap, or a worker waiting, ends it). Handed over one by
	// one, the sessions of a log cost more than their checks: ivc analyze
	// on 400,000 short sessions took 1.4 times the CPU with two workers as
	// with one. window bounds the inputs taken and not yet emitted, a cheap
	// one a unit and another handInputs units: at most 4 a worker of those
	// (a .htf multi-trace held until emitted may be large), as before the
	// batches. An outcome waits for the earlier ones in pending, at its
	// index modulo the window's size, written by its worker before it
	// reports its batch done.
	size := 4 * jobs * handInputs
	window := make(chan struct{}, size) // a unit each
	stop := make(chan struct{})
	todo := make(chan []job)
	done := make(chan [2]int, jobs) // a batch judged: its first index and length
	free := make(chan []job, 2*jobs)
	pending := make([]Outcome, size)
	units := make([]int, size) // of the window, by input as pending
	go func() {
		defer close(todo)
		var b []job
		hand := func() bool {
			select {
			case todo <- b:
				b = nil
				return true
			case <-stop:
				return false
			}
		}
		acquire := func(n int) bool {
			for range n {
				select {
				case window <- struct{}{}:
				case <-stop:
					return false
				}
			}
			return true
		}
		i := 0
		for in := range inputs {
			cheap := together != nil && together(&in)
			n := handInputs
			if cheap {
				n = 1
			}
			// A full window waits for outcomes of inputs handed over
			// already: were the next to emit in b, b would hold every
			// input taken, fewer than the window.
			if !acquire(n) {
				return
			}
			units[i%size] = n
			if b == nil {
				select {
				case b = <-free:
				default:
					b = make([]job, 0, handInputs)
				}
			}
			b = append(b, job{i, in})
			i++
			if len(b) == handInputs || !cheap {
				if !hand() {
					return
				}
				continue
			}
			select {
			case todo <- b: // a worker waits
				b = nil
			default:
			}
		}
		if b != nil {
			hand()
		}
	}()
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for b := range todo {
				for k := range b {
					judge(b[k].i, &b[k].in, &pending[b[k].i%size])
				}
				done <- [2]int{b[0].i, len(b)}
				clear(b)
				select {
				case free <- b[:0]:
				default:
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	defer close(stop)
	waits := make([]bool, size)
	next := 0
	for d := range done {
		for k := d[0]; k < d[0]+d[1]; k++ {
			waits[k%size] = true
		}
		for at := next % size; waits[at]; at = next % size {
			o := &pending[at]
			if next == 0 {
				o.Setup += setup
			}
			emit(o)
			*o, waits[at] = Outcome{}, false
			for range units[at] {
				<-window
			}
			next++
		}
	}
}

// handInputs is the most inputs handed to a worker at once (run).
const handInputs = 64

// Judge judges one session as Run does each (Outcome.Index is 0), panics
// recovered: for a caller that hands out sessions itself, as the workers of
// a pipeline and the session table of ivc monitor do.
func (c *Checker) Judge(s session.Session) Outcome {
	var o Outcome
	c.judge(0, &s, &o)
	return o
}

func (c *Checker) judge(i int, s *session.Session, o *Outcome) { c.judgeExplored(i, s, false, o) }

// judgeExplored reads and checks one session into o, with its explored
// graph when explore.
func (c *Checker) judgeExplored(i int, s *session.Session, explore bool, o *Outcome) {
	*o = Outcome{Index: i, Meta: s.Meta, traceURL: c.opt.TraceURL}
	defer recovered(o)
	mt, err := s.Read()
	switch {
	case err != nil:
		o.Err = err
	case mt == nil:
		o.Err = errors.New("nothing to read")
	case s.Incomplete() != "":
		// Inconc without a search: judged without the events it lost, a
		// Fail could pass.
		o.Result = verdict.Result{Verdict: verdict.Inconc, Mode: c.opt.Mode, Detail: s.Incomplete()}
	case explore && c.engine != EngineRuntime:
		o.Err = errors.New("the explored graph is the runtime engine's: use the runtime engine")
	default:
		o.MT = mt
		// The check is timed on the monotonic clock alone, from the
		// checker's epoch (c.epoch): a reading costs about as much as a
		// remembered verdict, which takes one, for At.
		shared := s.Shared && !explore // its verdict and repair remembered by its pointer
		var ok bool
		if shared {
			o.Result, o.Engine, ok = c.remembered(mt)
		}
		if ok { // a look-up: not timed (Elapsed)
			o.At = c.epoch.Add(time.Since(c.epoch))
		} else {
			t0 := time.Since(c.epoch)
			o.Result, o.Graph, o.Setup, o.Engine = c.check(mt, explore)
			t1 := time.Since(c.epoch)
			o.At = c.epoch.Add(t1)
			o.Elapsed = t1 - t0 - o.Setup
			if shared {
				c.remember(mt, o.Result, o.Engine)
			}
		}
		if o.Engine == EngineAutomata {
			o.auto = c.auto
		}
		if c.opt.RepairFails && o.Result.Verdict == verdict.Fail {
			if ok = false; shared {
				o.Repair, ok = c.rememberedRepair(mt)
			}
			if !ok {
				o.Repair = c.repairOutcome(mt, o.Result)
				if shared {
					c.rememberRepair(mt, o.Repair)
				}
			}
			o.RepairElapsed = time.Since(o.At)
		}
	}
}

// recovered, deferred by a judge, turns a panic into the outcome *o of
// the session, with a *PanicError: the other sessions are still judged.
func recovered(o *Outcome) {
	if v := recover(); v != nil {
		*o = Outcome{Index: o.Index, Meta: o.Meta, Err: &PanicError{Value: v, Stack: debug.Stack()}}
	}
}
