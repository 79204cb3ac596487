// Package check is ivc's front door: it takes a specification (spec.Load
// loads one from HIBOU files), layers the settings (defaults, a legacy
// .hsf's option sections, an .hcf file, the caller's own), chooses the
// engine, and judges one multi-trace or a stream of them in parallel, with
// the results in input order. Every driver judges through it: ivc analyze,
// ivc draw and --report, ivc monitor's session table (package monitor) and
// ivc-beam's workers.
//
//	sp, err := spec.Load("abp.hsf", "")
//	c, err := check.New(sp, check.DefaultOptions())
//	res := c.Check(mt)                        // one multi-trace, safe for concurrent use
//
// The one input of its judging pipeline is a session (session.Session: the
// events of one session id of logs, or a .htf multi-trace), and what comes
// out is an Outcome per session, whose Record is the JSON line of ivc
// analyze --format json and whose WriteText its text, and the Summary of
// the batch:
//
//	src := &session.Source{Options: logs.Options{Sig: sp.Sig}}
//	sum := c.Run(src.Sessions(paths), check.RunOptions{Jobs: 4}, func(o check.Outcome) { ... }) // in input order
//	o := c.Judge(s)                           // one session, for a caller that hands them out itself
//
// The engines are the runtime engine (package internal/engine/rewrite: term rewriting, the
// full language) and the automata engine (package internal/engine/automata: the compiled
// path). With EngineAuto the automata engine answers when the interaction
// compiles within a bounded attempt (Options.MaxStates, and
// DefaultAutoBuildTimeout and DefaultAutoMaxMemory for the compilation and
// for the checker of each partition); only an interaction outside the
// compiled sublanguage (synth.LoopError) or one whose automaton is too
// big for the attempt (synth.StateLimitError, nfa.LimitError) falls back
// to the runtime engine, and any other error is returned. A partition of
// the lifelines whose checker is past those limits is judged by the
// runtime engine too, and so is one whose checker would be too big to be
// worth building, by a bound decided before any of its work:
// DefaultAutoMaxCheckerWork on its locations × the NFA's states (many
// lifelines: on a seq of 1,000, half a second of CPU a partition, where
// the runtime engine's check takes milliseconds).
//
// A driver needs no engine: Options are the front door's settings, which
// it maps onto each engine's (options.go), and what a driver shows beyond
// a verdict comes in the front door's types: the explored graph of the
// runtime engine's search (Graph, from Checker.Explore or Input.Explore),
// an accepted interleaving to draw (Witness, from Checker.Witness), and
// the early check of live sessions, one event at a time (Walker, from
// Checker.Walker).
//
// Setup (compiling the interaction, building the checker of a partition of
// the lifelines, preparing a worker's analyzer) is timed apart from the
// check of each multi-trace: Checker.Setup and Outcome.Setup.
//
// A raw NFA (.timbuk) has no interaction: it has its own entry point,
// LoadRawNFA and NewRaw, whose RawChecker judges traces of letters with the
// automata engine to the same Outcome values.
package check

import (
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/automata"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/internal/enum"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/synth"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// DefaultAutoMaxStates bounds the NFA synthesis of EngineAuto when
// Options.MaxStates is 0, so that an interaction whose automaton is huge
// falls back to the runtime engine quickly.
const DefaultAutoMaxStates = 1 << 16

// DefaultAutoBuildTimeout and DefaultAutoMaxMemory bound the compilation of
// EngineAuto's attempt, and the building of each of its checkers (the
// build timeout is Options.Timeout when that is smaller): auto
// decides by a bounded attempt, never by waiting. The compilation of the
// models of the corpus takes milliseconds and a few megabytes.
const (
	DefaultAutoBuildTimeout       = 2 * time.Second
	DefaultAutoMaxMemory    int64 = 512 << 20
)

// DefaultAutoMaxCheckerWork bounds, with EngineAuto, the size of the
// checker of each partition of the lifelines, decided before it is built:
// the automata engine projects its NFA onto every location, and each
// projection holds every state of the NFA, so a checker takes at least
// locations × NFA states of work (nfa.CheckerWork), which the runtime
// engine never pays. Past the bound the runtime engine judges the
// multi-traces of that partition (Outcome.Engine). Measured on a seq of N
// messages along a ring of N lifelines (2N+1 states, a location per
// lifeline; BenchmarkSeqLifelines, CPU time on a loaded 2-core machine):
// building the checker took 6 ms at N = 100, 46 ms at 300 and 0.52 s at
// 1,000, where the runtime engine's first check took 0.5, 1.2 and 6 ms
// (its later checks are within 2-4 times the automata engine's). The bound,
// 2^18, falls at N ≈ 360: about 0.07 s, once per partition. The models of
// the corpus are far below it: the largest, platoon5 (5 locations, 6,440
// states), is 32,200.
const DefaultAutoMaxCheckerWork int64 = 1 << 18

// Engine names a decision engine.
type Engine uint8

const (
	EngineAuto     Engine = iota // automata when the interaction compiles, else runtime
	EngineRuntime                // term rewriting over the interaction (package internal/engine/rewrite)
	EngineAutomata               // the compiled path (package internal/engine/automata)
)

// engineNames are the engines as flags and JSON spell them: not
// stringer's identifiers.
var engineNames = enum.New("Engine", map[Engine]string{EngineAuto: "auto", EngineRuntime: "runtime", EngineAutomata: "automata"})

func (e Engine) String() string { return engineNames.Name(e) }

// ParseEngine reads "auto", "runtime" or "automata".
func ParseEngine(s string) (Engine, error) {
	if e, ok := engineNames.Value(s); ok {
		return e, nil
	}
	return 0, fmt.Errorf("unknown engine %q (expected auto, runtime or automata)", s)
}

// Checker judges multi-traces against one specification. It is safe for
// concurrent use.
type Checker struct {
	sp     *spec.Spec
	opt    Options
	engine Engine // EngineRuntime or EngineAutomata: the one that answers
	setup  time.Duration
	// epoch is when the checker was made, with its monotonic reading: a
	// judgment is timed on the monotonic clock alone (time.Since(epoch),
	// 23 ns on the test VM, time.Now 42), and placed in time as epoch plus
	// the monotonic time since (Outcome.At).
	epoch time.Time

	auto    *automata.Engine // the automata engine, when it answers
	runtime rewrite.Options  // the runtime engine's options, mapped once

	mu   sync.Mutex
	free []*rewrite.Analyzer // idle runtime analyzers (one per concurrent check)

	alphabets sync.Map // the runtime engine's repairs: the events of each partition (repair.go)

	// shared remembers the verdicts of shared multi-traces
	// (session.Session.Shared) by their pointers, direct-mapped by a hash
	// of it: a repeated session of a log is judged in a look-up, without
	// the engine's memo (its key built and compared). It keeps at most
	// sharedSlots of them alive (a joiner's hold at most 64 events each).
	shared [sharedSlots]atomic.Pointer[sharedVerdict]
	seed   maphash.Seed
}

// sharedVerdict is the verdict of a shared multi-trace, and the repair of
// its Fail once found (Options.RepairFails).
type sharedVerdict struct {
	mt     *multitrace.MultiTrace
	res    verdict.Result
	engine Engine
	repair *verdict.Repair
}

const sharedSlots = 1 << 10

// sharedSlot returns the slot of the shared multi-trace mt.
func (c *Checker) sharedSlot(mt *multitrace.MultiTrace) *atomic.Pointer[sharedVerdict] {
	return &c.shared[maphash.Comparable(c.seed, mt)&(sharedSlots-1)]
}

// sharedOf returns what c remembers of mt, a shared multi-trace; nil when
// nothing.
func (c *Checker) sharedOf(mt *multitrace.MultiTrace) *sharedVerdict {
	if v := c.sharedSlot(mt).Load(); v != nil && v.mt == mt {
		return v
	}
	return nil
}

// remembered returns the verdict of mt, a shared multi-trace, when c
// remembers it.
func (c *Checker) remembered(mt *multitrace.MultiTrace) (verdict.Result, Engine, bool) {
	if v := c.sharedOf(mt); v != nil {
		return v.res.Clone(), v.engine, true
	}
	return verdict.Result{}, 0, false
}

// rememberedRepair returns the repair of the Fail of mt, a shared
// multi-trace, when c remembers one.
func (c *Checker) rememberedRepair(mt *multitrace.MultiTrace) (*verdict.Repair, bool) {
	if v := c.sharedOf(mt); v != nil && v.repair != nil {
		r := *v.repair
		r.Edits = slices.Clone(r.Edits)
		return &r, true
	}
	return nil, false
}

// rememberRepair remembers r, the repair of the Fail of mt, a shared
// multi-trace whose verdict c remembers, when it is the one the same
// multi-trace always has: not an incomplete one, which a limit may cut.
func (c *Checker) rememberRepair(mt *multitrace.MultiTrace, r *verdict.Repair) {
	if v := c.sharedOf(mt); v != nil && v.repair == nil && !r.Incomplete {
		with := *v
		with.repair = &verdict.Repair{}
		*with.repair = *r
		with.repair.Edits = slices.Clone(r.Edits)
		c.sharedSlot(mt).CompareAndSwap(v, &with)
	}
}

// remember remembers res, the verdict of mt, a shared multi-trace, when it
// is one the same multi-trace always has: not an Inconc, which a limit of
// time or memory may give.
func (c *Checker) remember(mt *multitrace.MultiTrace, res verdict.Result, e Engine) {
	if res.Verdict != verdict.Inconc {
		c.sharedSlot(mt).Store(&sharedVerdict{mt: mt, res: res.Clone(), engine: e})
	}
}

// New prepares a checker of sp: for the automata engine it compiles the
// interaction (timed as Setup). The errors are those of the settings (a
// *SettingError: a mode the engine does not answer), of the compilation when EngineAutomata
// was asked, or any compilation error but LoopError, StateLimitError and
// nfa.LimitError with EngineAuto.
func New(sp *spec.Spec, opt Options) (*Checker, error) {
	t0 := time.Now()
	c := &Checker{sp: sp, opt: opt, engine: opt.Engine, runtime: opt.runtimeOptions(), epoch: t0, seed: maphash.MakeSeed()}
	defer func() { c.setup = time.Since(t0) }()
	if err := opt.validate(); err != nil {
		return nil, err
	}
	ao := opt.automataOptions()
	ao.File, ao.Syntax = sp.HIFPath, sp.Syntax
	switch opt.Engine {
	case EngineRuntime:
		return c, nil
	case EngineAutomata:
	default:
		c.engine = EngineRuntime
		if automata.Answers(opt.Mode) != nil {
			return c, nil
		}
		opt.autoAttempt(&ao)
	}
	e, err := automata.New(sp.Store, sp.Root, ao)
	var loop *synth.LoopError
	var big *synth.StateLimitError
	var limit *nfa.LimitError
	switch {
	case err == nil:
		c.auto, c.engine = e, EngineAutomata
	case opt.Engine == EngineAuto && (errors.As(err, &loop) || errors.As(err, &big) || errors.As(err, &limit)):
		// Not compilable, or too big for the attempt: the runtime engine
		// answers.
	default:
		return nil, err
	}
	return c, nil
}

// Engine returns the engine that answers: EngineRuntime or EngineAutomata
// (with EngineAuto, the runtime engine still answers for a partition of the
// lifelines whose automata checker is past the attempt's limits: see
// Outcome.Engine).
func (c *Checker) Engine() Engine { return c.engine }

// Spec returns what the checker checks against.
func (c *Checker) Spec() *spec.Spec { return c.sp }

// Mode returns the question the checker answers.
func (c *Checker) Mode() verdict.Mode { return c.opt.Mode }

// Setup returns the time New took (compiling the interaction for the
// automata engine).
func (c *Checker) Setup() time.Duration { return c.setup }

// Check judges mt, a multi-trace over the spec's signature.
func (c *Checker) Check(mt *multitrace.MultiTrace) verdict.Result {
	res, _, _, _ := c.check(mt, false)
	return res
}

// Explore judges mt with the runtime engine and returns the part of its
// analysis graph the search explored (for review: slow).
func (c *Checker) Explore(mt *multitrace.MultiTrace) (verdict.Result, *Graph, error) {
	if c.engine != EngineRuntime {
		return verdict.Result{}, nil, errors.New("the explored graph is the runtime engine's: use the runtime engine")
	}
	res, g, _, _ := c.check(mt, true)
	return res, g, nil
}

// check judges mt and returns the setup it did first: building the checker
// of mt's partition (automata), or a worker's analyzer (runtime), and the
// engine that answered. With EngineAuto, a partition whose checker is too
// big or too slow to build for the automata engine is judged by the runtime
// engine instead.
func (c *Checker) check(mt *multitrace.MultiTrace, record bool) (verdict.Result, *Graph, time.Duration, Engine) {
	var setup time.Duration
	if c.auto != nil {
		res, d, err := c.auto.CheckSetup(mt)
		if c.opt.Engine != EngineAuto || !pastLimits(err) {
			return res, nil, d, EngineAutomata // an error is answered Inconc
		}
		setup = d
	}
	a, made := c.analyzer()
	defer c.release(a)
	setup += made
	if record {
		res, g := a.Explore(mt)
		return res, graphOf(g), setup, EngineRuntime
	}
	return a.Check(mt), nil, setup, EngineRuntime
}

// pastLimits reports whether err is the automata engine's *nfa.LimitError
// (its checker of a partition is too big or too slow to build). Looked for
// only when there is an error: the target errors.As needs escapes, which
// would allocate on every check.
func pastLimits(err error) bool {
	if err == nil {
		return false
	}
	var limit *nfa.LimitError
	return errors.As(err, &limit)
}

// Witness returns an interleaving of mt's events that the interaction
// accepts in mode, and true: the runtime engine's search, with the
// checker's settings, whichever engine judges (a drawing of mt shows it).
// It is false when there is none (the verdict in that mode is Fail), or
// when a limit stopped the search first (Inconc). In accept mode the
// witness is exactly accepted; in prefix mode it is when mt is (a Pass),
// else it is the multi-prefix part (a WeakPass: every event is consumed,
// and lifeline removal completes the rest); in slice mode it may also
// simulate actions before a component's log starts. It costs about one
// more check.
func (c *Checker) Witness(mt *multitrace.MultiTrace, mode verdict.Mode) (Witness, bool) {
	a, _ := c.analyzer()
	defer c.release(a)
	w, ok := a.Witness(mt, mode)
	return witnessOf(w), ok
}

// analyzer takes an idle runtime analyzer, or makes one: each has its own
// Store, so that concurrent checks do not share one. It returns the time
// making one took (setup), 0 for an idle one.
func (c *Checker) analyzer() (*rewrite.Analyzer, time.Duration) {
	c.mu.Lock()
	if n := len(c.free); n > 0 {
		a := c.free[n-1]
		c.free = c.free[:n-1]
		c.mu.Unlock()
		return a, 0 // no clock read: a check of a remembered session costs about 0.5 µs
	}
	t0 := time.Now()
	// Import reads the spec's store: under the lock, as no check writes it.
	st := interaction.NewStore(c.sp.Sig)
	root := st.Import(c.sp.Store, c.sp.Root)
	c.mu.Unlock()
	return rewrite.New(st, root, c.runtime), time.Since(t0)
}

func (c *Checker) release(a *rewrite.Analyzer) {
	c.mu.Lock()
	c.free = append(c.free, a)
	c.mu.Unlock()
}
