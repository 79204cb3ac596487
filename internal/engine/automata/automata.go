// Package automata is ivc's compiled path for interactions: it compiles an
// interaction into an NFA (package internal/synth) once, splits its symbols into
// the locations of each multi-trace (groups of lifelines that share a
// clock), and decides multi-traces with the semi-centralized procedure of package nfa (local
// checks on projection DFAs, Inter of their areas, a central search), or the
// centralized one. Verdicts and explanations come in package verdict's
// types, as the runtime engine's do, so that both engines print alike and
// can be compared. Raw does the same for a raw NFA (a .timbuk automaton)
// and traces of its letters.
//
//	e, err := automata.New(sp.Store, sp.Root, automata.Options{Mode: verdict.Prefix})
//	var le *synth.LoopError
//	if errors.As(err, &le) { ... }   // outside the compiled sublanguage: use the runtime engine
//	res := e.Check(mt)             // Pass, WeakPass, Fail (Reason: LocalError(...), InterError, CentralError)
//	r, _ := e.Repair(mt, nfa.AlignOptions{}) // a Fail's fewest edits (repair.go)
//
// It is a package of its own, not part of compile, because it joins three
// worlds that compile does not need: multi-traces and their partitions, the
// checker of nfa, and ivc's verdicts; compile stays the translation
// from interaction terms to automata.
//
// # Locations of multi-actions
//
// The locations are the components of the multi-trace, in order, and the
// letters of each are the parts of the NFA's symbols on its lifelines, as
// synth.Alphabets splits them (see there): an event of a log that is no
// such part is no letter, and its location's local check gets stuck on it.
//
// # Verdicts remembered
//
// An engine remembers the Pass and WeakPass verdicts it decided, by the
// multi-trace's partition and letters (memo.Verdicts, one memo a buffer of
// letters, so one a worker mostly): the sessions of a log repeat, and a
// session met before is answered by a hash and a lookup, with the result
// the first check gave. A Fail is checked again (its explanation names the
// session's own events), and so is a verdict a limit decided.
package automata

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/memo"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/synth"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// Procedure chooses the decision procedure.
type Procedure uint8

const (
	AS Procedure = iota // semi-centralized (Algorithms 2–3): local checks, Inter, central search
	AC                  // centralized (Algorithm 1): the central search on the whole NFA
)

// Options configure an Engine. The zero value is prefix mode with AS.
type Options struct {
	Mode      verdict.Mode // verdict.Prefix or verdict.Accept
	Procedure Procedure
	// MaxStates bounds the NFA synthesis (0: compile's default).
	MaxStates int
	// MaxProjStates bounds each projection DFA (0: nfa's default).
	MaxProjStates int
	// MaxNodes and Timeout bound each central search (0: nfa's default,
	// none); hitting one answers Inconc. Timeout also bounds the
	// compilation (New) and the building of each partition's checker,
	// unless BuildTimeout is set.
	MaxNodes int
	Timeout  time.Duration
	// BuildTimeout, when positive, bounds the compilation and the building
	// of each checker instead of Timeout: a small one makes New a bounded
	// attempt (see check.EngineAuto).
	BuildTimeout time.Duration
	// MaxMemory bounds the bytes of the compilation, and of each
	// partition's checker (0: nfa.DefaultMaxMemory; negative: none). Past
	// it or the build timeout, New fails with a *nfa.LimitError, and
	// Check answers Inconc for a multi-trace whose checker could not be
	// built.
	MaxMemory int64
	// MaxCheckerWork, when positive, bounds the least work of each
	// partition's checker (nfa.CheckerWork: its locations × the NFA's
	// states): past it the checker is not built, its error a
	// *nfa.LimitError (LimitWork) found before any of the work is done.
	MaxCheckerWork int64
	// NoPruning: see nfa.CheckerOptions.
	NoPruning bool
	// File and Syntax locate the interaction's source, so that a loop
	// outside the sublanguage is reported at its file:line:col (optional).
	File   string
	Syntax *interaction.Node
}

// Engine decides multi-traces against one interaction on its NFA. It is
// safe for concurrent use: the checker of each partition of the lifelines
// is built once, on first use.
type Engine struct {
	sig  *interaction.Signature
	a    *nfa.NFA
	acts []interaction.MultiAction // per symbol
	opt  Options

	mu       sync.Mutex
	checkers map[string]*located
	// last is the checker located last, ready: the multi-traces of a run
	// mostly share their partition, which is then told by its key alone,
	// without the map and its lock.
	last atomic.Pointer[located]
	// first is the deadline of the compilation, which the first
	// partition's checker shares: the first multi-trace, which waits for
	// both, is answered within one build timeout. Later partitions get a
	// timeout of their own. Zero once used.
	first time.Time

	// The letters of a check, reused: the one spare first, without the
	// pool's bookkeeping (one worker takes it back every time), then the
	// pool.
	spare   atomic.Pointer[letterBuf]
	letters sync.Pool // *letterBuf
	// unmemoized turns the memo of verdicts off: the benchmarks of the
	// check itself judge the same multi-traces again and again.
	unmemoized bool
}

// letterBuf holds the letters of a multi-trace (see located.trace), and
// the verdicts decided by the checks that used it: the sessions of a log
// repeat, and a multi-trace met before costs the hash of its letters and a
// lookup (the memo of each buffer is its own: one a worker, mostly).
type letterBuf struct {
	traces [][]nfa.Letter
	all    []nfa.Letter
	key    []int32 // of the multi-trace: its partition's id, then each trace, its length first
	memo   memo.Verdicts
}

// maxMemo bounds the memo of a letterBuf, in memo.Verdicts.Size units
// (about 40 bytes each: 2.5 MiB, about 16,000 verdicts of small
// sessions), past which it starts again empty. Like the runtime engine's
// memos, it is a cache beside the memory budget, one a worker.
const maxMemo = 1 << 16

// maxMemoLetters bounds the multi-traces the memo keeps: past it, a check
// costs much more than the hash of its letters, and a key would hold as
// many bytes as the letters do.
const maxMemoLetters = 1 << 12

// remembered returns the verdict b's memo holds for letters, of partition
// l, and the key's hash; nil for a multi-trace of more than maxMemoLetters
// letters, which is not remembered.
func (b *letterBuf) remembered(l *located, letters [][]nfa.Letter) (*verdict.Result, uint64) {
	b.key = b.key[:0]
	if len(b.all) > maxMemoLetters {
		return nil, 0
	}
	key := append(b.key, l.id)
	for _, tr := range letters {
		key = append(key, int32(len(tr)))
		for _, x := range tr {
			key = append(key, int32(x))
		}
	}
	b.key = key
	h := memo.Hash(key)
	return b.memo.Find(h, key), h
}

// remember keeps res, the verdict of the multi-trace whose key b holds
// (remembered), when it depends on the multi-trace alone: a Pass or a
// WeakPass that no limit decided. A Fail is not kept: its explanation
// names the multi-trace's own events (a letter outside the alphabet stands
// for any of them).
func (b *letterBuf) remember(h uint64, res verdict.Result) {
	if len(b.key) == 0 || res.Verdict != verdict.Pass && res.Verdict != verdict.WeakPass || res.Reason != verdict.NoReason {
		return
	}
	if b.memo.Size() >= maxMemo {
		b.memo.Clear()
	}
	b.memo.Add(h, b.key, res.Clone())
}

// New compiles root (a term of st) into its reduced NFA. It fails with the
// errors of synth.Compile (a *synth.LoopError outside the sublanguage,
// a *synth.StateLimitError past Options.MaxStates, a *nfa.LimitError past
// the build timeout or Options.MaxMemory).
func New(st *interaction.Store, root interaction.Term, opt Options) (*Engine, error) {
	if err := Answers(opt.Mode); err != nil {
		return nil, err
	}
	deadline := opt.buildDeadline()
	a, err := synth.Compile(st, root, synth.Options{MaxStates: opt.MaxStates, File: opt.File, Syntax: opt.Syntax,
		Deadline: deadline, MaxMemory: opt.MaxMemory})
	if err != nil {
		return nil, err
	}
	return &Engine{sig: st.Signature(), a: a.NFA, acts: a.MultiActions(st), opt: opt, checkers: map[string]*located{}, first: deadline}, nil
}

// buildDeadline returns the deadline of a construction that starts now.
func (o Options) buildDeadline() time.Time {
	d := o.Timeout
	if o.BuildTimeout > 0 {
		d = o.BuildTimeout
	}
	if d <= 0 {
		return time.Time{}
	}
	return time.Now().Add(d)
}

// checkerOptions returns the options of the checker of a partition built
// now, by the deadline (zero: a build timeout from now).
func (o Options) checkerOptions(deadline time.Time) nfa.CheckerOptions {
	if deadline.IsZero() {
		deadline = o.buildDeadline()
	}
	return nfa.CheckerOptions{MaxProjStates: o.MaxProjStates, Deadline: deadline, MaxMemory: o.MaxMemory,
		MaxNodes: o.MaxNodes, Timeout: o.Timeout, NoPruning: o.NoPruning}
}

// NFA returns the compiled automaton.
func (e *Engine) NFA() *nfa.NFA { return e.a }

// located is the checker of one partition of the lifelines into
// locations, with the maps from log events to letters.
type located struct {
	key     string        // the partition's key (see locateKey)
	id      int32         // its rank among the engine's partitions, in the keys of the verdicts remembered
	ready   chan struct{} // closed once the fields below are set
	c       *nfa.Checker
	locs    interaction.Locations
	names   []string            // the text of each location's lifelines, for explanations
	letters []synth.LetterIndex // per location
	err     error
	inconc  verdict.Result // the answer of each multi-trace when err is set, made once
	// eventOf[i][x] is the event letter x of location i stands for, made
	// by the first repair (see events).
	eventsOnce sync.Once
	eventOf    [][]interaction.MultiAction
}

// Checker returns the checker of the locations locs (built on first use).
func (e *Engine) Checker(locs interaction.Locations) (*nfa.Checker, error) {
	l := e.located(locs)
	return l.c, l.err
}

func (e *Engine) located(locs interaction.Locations) *located {
	l, _ := e.locate(locs)
	return l
}

// locate returns the checker of the locations locs and, when this call
// built it or waited while another call built it, the time it started to
// (the zero Time when the checker was ready): the caller reads the clock
// once locate has returned, so that the one-time work is all counted, its
// return included. Checkers of different partitions are built
// concurrently.
func (e *Engine) locate(locs interaction.Locations) (*located, time.Time) {
	var buf [keySize]byte
	key := buf[:0]
	for _, g := range locs {
		key = append(append(key, g...), 0xff)
	}
	return e.locateKey(key, func() interaction.Locations { return locs })
}

// locateMT is locate for the partition of mt, which it reads without
// making its Locations (allocation-free once the checker is built).
func (e *Engine) locateMT(mt *multitrace.MultiTrace) (*located, time.Time) {
	if l := e.last.Load(); l != nil && l.sameAs(mt) {
		return l, time.Time{} // without a key: one of many lifelines is tens of kilobytes
	}
	var buf [keySize]byte
	key := buf[:0]
	for _, c := range mt.Components {
		key = append(append(key, c.Lifelines...), 0xff)
	}
	return e.locateKey(key, mt.Locations)
}

// sameAs reports whether mt's partition is l's.
func (l *located) sameAs(mt *multitrace.MultiTrace) bool {
	if len(mt.Components) != len(l.locs) {
		return false
	}
	for i, c := range mt.Components {
		if c.Lifelines != l.locs[i] {
			return false
		}
	}
	return true
}

// keySize is the room for a partition's key that needs no allocation.
const keySize = 128

// locateKey is locate by the partition's key: its lifeline sets, each
// followed by 0xff; locs gives the partition when its checker is built.
func (e *Engine) locateKey(key []byte, locs func() interaction.Locations) (*located, time.Time) {
	if l := e.last.Load(); l != nil && l.key == string(key) {
		return l, time.Time{}
	}
	e.mu.Lock()
	if l, ok := e.checkers[string(key)]; ok {
		e.mu.Unlock()
		select {
		case <-l.ready:
			e.last.Store(l)
			return l, time.Time{} // no clock read: the common case
		default:
			t0 := time.Now()
			<-l.ready
			return l, t0
		}
	}
	t0 := time.Now()
	l := &located{key: string(key), id: int32(len(e.checkers)), ready: make(chan struct{}), locs: slices.Clone(locs())}
	e.checkers[l.key] = l
	deadline := e.first
	e.first = time.Time{}
	e.mu.Unlock()
	defer close(l.ready)
	if err := e.tooMuchWork(len(l.locs)); err != nil {
		// Refused by its size, before any of the work (the alphabets of
		// many locations alone take a while).
		l.err, l.inconc = err, inconcOf(err, e.opt.Mode)
		return l, t0
	}
	alph, index := synth.Alphabets(e.sig, e.acts, l.locs)
	l.c, l.err = nfa.NewChecker(e.a, alph, e.opt.checkerOptions(deadline))
	l.letters = index
	l.names = make([]string, len(l.locs))
	for i, g := range l.locs {
		l.names[i] = g.Format(e.sig)
	}
	if l.err != nil {
		l.inconc = inconcOf(l.err, e.opt.Mode)
	} else {
		// The checker warmed its working memory up (see nfa.NewChecker);
		// checks of a multi-trace of the partition go once through the
		// rest of Check, so that the first multi-trace judged costs what
		// the others do (lfrem corpus: the first check of a run took about
		// twice the time of the same check judged second, then 1.4 times).
		// The multi-traces are a path of the automaton (see warmPath)
		// without its first location's events (a multi-prefix whose search
		// takes free moves, in prefix mode), then whole: the last check
		// leaves the caches as a check of a whole run needs them (whole
		// first, the first multi-trace of a run took 0-0.5 µs more than
		// the same judged second; 3.0-3.5 µs).
		whole := e.warmPath(l)
		cut := &multitrace.MultiTrace{Components: slices.Clone(whole.Components)}
		for i := range cut.Components {
			if len(cut.Components[i].Trace) > 0 {
				cut.Components[i].Trace = nil
				break
			}
		}
		e.checkAt(l, cut)
		e.checkAt(l, whole)
	}
	return l, t0
}

// tooMuchWork returns the *nfa.LimitError of a checker of n locations
// whose least work is past Options.MaxCheckerWork, nil when it is within.
func (e *Engine) tooMuchWork(n int) error {
	max := e.opt.MaxCheckerWork
	if w := nfa.CheckerWork(e.a, n); max > 0 && w > max {
		return &nfa.LimitError{Stage: fmt.Sprintf("the checker of %d locations", n), Limit: nfa.LimitWork, Max: max, Work: w}
	}
	return nil
}

// warmPath returns the multi-trace of the partition l made of the events
// of the automaton's path that takes the first transition out of each
// state from the first initial state, warmSteps transitions at most.
func (e *Engine) warmPath(l *located) *multitrace.MultiTrace {
	mt := &multitrace.MultiTrace{Components: make([]multitrace.Component, len(l.locs))}
	for i, g := range l.locs {
		mt.Components[i].Lifelines = g
	}
	if len(e.a.Initial()) == 0 {
		return mt
	}
	q := e.a.Initial()[0]
	for range warmSteps {
		out := e.a.Out(q)
		if len(out) == 0 {
			break
		}
		m := e.acts[out[0].Sym]
		for i, g := range l.locs {
			if part := m.Restrict(g); len(part) > 0 {
				mt.Components[i].Trace = append(mt.Components[i].Trace, part)
			}
		}
		q = out[0].Dst
	}
	return mt
}

// warmSteps bounds the path warmPath follows.
const warmSteps = 16

// Letters maps the logs of mt to the letters of its locations (the
// checker of its partition). An event that is no letter maps to a value
// outside the location's alphabet.
func (e *Engine) Letters(mt *multitrace.MultiTrace) ([][]nfa.Letter, error) {
	l := e.located(mt.Locations())
	if l.err != nil {
		return nil, l.err
	}
	return l.trace(&letterBuf{}, mt), nil
}

// trace returns the letters of mt's events, one trace per component, in
// b's room (grown as needed: a check reuses it, allocation-free).
func (l *located) trace(b *letterBuf, mt *multitrace.MultiTrace) [][]nfa.Letter {
	n := 0
	for _, c := range mt.Components {
		n += len(c.Trace)
	}
	b.traces = slices.Grow(b.traces[:0], len(mt.Components))[:len(mt.Components)]
	b.all = slices.Grow(b.all[:0], n)[:n]
	out, all := b.traces, b.all
	for i, c := range mt.Components {
		unknown := nfa.Letter(len(l.c.Alphabets().Letters(i)))
		ix := &l.letters[i]
		tr := all[:len(c.Trace):len(c.Trace)]
		all = all[len(c.Trace):]
		for j, ev := range c.Trace {
			// lookup, with its common case written out: the per-event path.
			var x nfa.Letter
			var ok bool
			if len(ev) == 1 {
				x, ok = ix.Single.Get(ev[0])
			} else {
				x, ok = ix.LookupMulti(ev)
			}
			if !ok {
				x = unknown
			}
			tr[j] = x
		}
		out[i] = tr
	}
	return out
}

// Online is the local checks of one partition of the lifelines, one event
// at a time, for a caller that sees the events of a location as they
// happen (ivc monitor, through check.Walker), on the tables Check uses: the projection DFA of
// each location. A walk that gets stuck is a local error, which Check
// reports as a Fail (LocalError) in prefix and accept modes alike,
// whatever events follow (a stuck walk stays stuck, as LocalVerifier.Step
// does). A walk is a few bytes, where a LocalVerifier also holds the marks
// its area needs (kilobytes): a monitor holds one per location of every
// open session.
//
// Two walks, for two ways events may arrive:
//   - Step walks the DFA (the local check itself), for events that arrive
//     in their location's order: a stuck walk is a local error of every
//     trace that continues the events read.
//   - StepSub walks the subword closure of the DFA's language (a set of
//     states: those the DFA may be in after reading a trace of which the
//     events read are a subsequence), for events whose order is not that
//     of their arrival (a time or a seq): events still to come may be
//     placed anywhere among them, but the events read keep their order, so
//     an empty set is a local error of every trace that holds them. It is
//     offered for DFAs of at most MaxSubStates states (the closure takes
//     a set of states per state).
type Online struct {
	l     *located
	sw    []int      // per location: words of a set of states
	reach [][]uint64 // per location: the states reachable from each state (itself included), sw words each; nil past MaxSubStates
}

// State is the state of a walk of Online: a state of a location's
// projection DFA, -1 once stuck.
type State = nfa.State

// MaxSubStates bounds the DFAs that StepSub walks.
const MaxSubStates = 1024

// Online returns the local checks of the locations locs, or the error
// that kept their checker from being built (Check then answers Inconc).
func (e *Engine) Online(locs interaction.Locations) (*Online, error) {
	l := e.located(locs)
	if l.err != nil {
		return nil, l.err
	}
	o := &Online{l: l}
	for i := range l.c.Tables().Projs {
		p := &l.c.Tables().Projs[i]
		sw := (p.NumStates + 63) / 64
		o.sw = append(o.sw, sw)
		if p.NumStates > MaxSubStates {
			o.reach = append(o.reach, nil)
			continue
		}
		reach := make([]uint64, p.NumStates*sw)
		var stack []nfa.State
		for q := range p.NumStates {
			set := reach[q*sw : (q+1)*sw]
			set[q/64] |= 1 << (q % 64)
			stack = append(stack[:0], nfa.State(q))
			for len(stack) > 0 {
				r := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, t := range p.Next[int(r)*p.K : (int(r)+1)*p.K] {
					if t >= 0 && set[t/64]&(1<<(t%64)) == 0 {
						set[t/64] |= 1 << (t % 64)
						stack = append(stack, t)
					}
				}
			}
		}
		o.reach = append(o.reach, reach)
	}
	return o, nil
}

// Start returns the state a walk of location i starts in: -1 when the
// location has no trace at all (every event is then a local error).
func (o *Online) Start(i int) State { return o.l.c.Tables().Projs[i].Start }

// letter returns the entry of act in a row of location i's DFA, or -1 when
// act is no letter the DFA reads.
func (o *Online) letter(i int, act interaction.Action) int {
	p := &o.l.c.Tables().Projs[i]
	x, ok := o.l.letters[i].Single.Get(act)
	if !ok || x < p.Base || int(x-p.Base) >= p.K {
		return -1
	}
	return int(x - p.Base)
}

// Step returns the state the walk of location i reaches from q by an event
// of action act, or -1 when it gets stuck (act is no letter of the
// location, or none the DFA reads in q; q is -1 once stuck).
func (o *Online) Step(i int, q State, act interaction.Action) State {
	x := o.letter(i, act)
	if q < 0 || x < 0 {
		return -1
	}
	p := &o.l.c.Tables().Projs[i]
	return p.Next[int(q)*p.K+x]
}

// SubWords returns the words of a set of states of location i's DFA, 0
// when StepSub does not walk it (more than MaxSubStates states).
func (o *Online) SubWords(i int) int {
	if o.reach[i] == nil {
		return 0
	}
	return o.sw[i]
}

// StartSub sets set (SubWords(i) words) to the states a subword walk of
// location i starts in: those reachable from the start; none when the
// location has no trace at all.
func (o *Online) StartSub(i int, set []uint64) {
	clear(set)
	if q := o.Start(i); q >= 0 {
		sw := o.sw[i]
		copy(set, o.reach[i][int(q)*sw:(int(q)+1)*sw])
	}
}

// StepSub steps the subword walk of location i in set (tmp: room for as
// many words) by an event of action act, and reports whether the set is
// not empty: whether some trace the DFA reads holds the events read so
// far, in their order, as a subsequence.
func (o *Online) StepSub(i int, set, tmp []uint64, act interaction.Action) bool {
	x := o.letter(i, act)
	clear(tmp)
	if x >= 0 {
		p, sw, reach := &o.l.c.Tables().Projs[i], o.sw[i], o.reach[i]
		for w, word := range set {
			for word != 0 {
				q := w*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if t := p.Next[q*p.K+x]; t >= 0 {
					for k, r := range reach[int(t)*sw : (int(t)+1)*sw] {
						tmp[k] |= r
					}
				}
			}
		}
	}
	copy(set, tmp)
	for _, w := range set {
		if w != 0 {
			return true
		}
	}
	return false
}

// Prepare builds the checker of mt's partition of the lifelines, if it is
// not built yet: the one-time work that Check would otherwise do for the
// first multi-trace of each partition. It returns the time the building
// took, 0 when the checker was built before, so that a caller can report
// it apart from the check.
func (e *Engine) Prepare(mt *multitrace.MultiTrace) (time.Duration, error) {
	l, t0 := e.locateMT(mt)
	if t0.IsZero() {
		return 0, l.err
	}
	return time.Since(t0), l.err
}

// Check decides mt. A multi-trace whose partition makes a projection too
// big answers Inconc with the reason.
func (e *Engine) Check(mt *multitrace.MultiTrace) verdict.Result {
	l, _ := e.locateMT(mt)
	return e.checkAt(l, mt)
}

// CheckSetup is Prepare and Check at once, with one look-up of mt's
// partition: it returns Check's result, the time the building of the
// partition's checker took (0 when it was built before), and the error
// that building met, which the result answers as Inconc.
func (e *Engine) CheckSetup(mt *multitrace.MultiTrace) (verdict.Result, time.Duration, error) {
	l, t0 := e.locateMT(mt)
	var setup time.Duration
	if !t0.IsZero() {
		setup = time.Since(t0)
	}
	return e.checkAt(l, mt), setup, l.err
}

// putLetters gives b back for another check.
func (e *Engine) putLetters(b *letterBuf) {
	if !e.spare.CompareAndSwap(nil, b) {
		e.letters.Put(b)
	}
}

// checkAt is Check on l, the checker of mt's partition.
func (e *Engine) checkAt(l *located, mt *multitrace.MultiTrace) verdict.Result {
	if l.err != nil {
		return l.inconc
	}
	b := e.spare.Swap(nil)
	if b == nil {
		b, _ = e.letters.Get().(*letterBuf)
	}
	if b == nil {
		b = &letterBuf{}
	}
	defer e.putLetters(b) // the result holds none of the letters
	letters := l.trace(b, mt)
	var h uint64
	if !e.unmemoized {
		var known *verdict.Result
		if known, h = b.remembered(l, letters); known != nil {
			return known.Clone()
		}
	}
	r := check(l.c, letters, e.opt)
	if r.Verdict != nfa.Fail {
		res := result(r, e.opt, nil)
		if !e.unmemoized {
			b.remember(h, res)
		}
		return res
	}
	sig := e.sig
	return result(r, e.opt, &names{locs: l.c.Alphabets(), syms: e.a.Symbols(), letters: letters,
		component: func(i int) string { return l.names[i] },
		event: func(i, pos int) string {
			// A one-action event that is a letter is named by its letter:
			// the same text, formatted when the checker was built.
			ev, x := mt.Components[i].Trace[pos], letters[i][pos]
			if ls := l.c.Alphabets().Letters(i); len(ev) == 1 && int(x) < len(ls) {
				return ls[x]
			}
			return ev.Format(sig)
		},
	})
}

// Unfinished returns the locations of mt, a WeakPass, whose logs leave
// their projection DFAs in a state that is not final, with the letters
// each DFA reads there: what the logs stopped before. It is asked when a
// WeakPass is shown, apart from its check, which allocates nothing.
func (e *Engine) Unfinished(mt *multitrace.MultiTrace) []verdict.Unfinished {
	l, _ := e.locateMT(mt)
	if l.err != nil {
		return nil
	}
	return l.unfinished(l.trace(&letterBuf{}, mt))
}

// unfinished is Unfinished on the letter traces of a multi-trace.
func (l *located) unfinished(letters [][]nfa.Letter) []verdict.Unfinished {
	var out []verdict.Unfinished
	projs := l.c.Tables().Projs
	for i, tr := range letters {
		p := &projs[i]
		q := p.Start
		for _, x := range tr {
			if q < 0 || x < p.Base || int(x-p.Base) >= p.K {
				q = -1
				break
			}
			q = p.Next[int(q)*p.K+int(x-p.Base)]
		}
		if q < 0 || p.IsFinal(q) {
			continue
		}
		u := verdict.Unfinished{Lifelines: l.names[i], Events: len(tr)}
		for y, r := range p.Next[int(q)*p.K : (int(q)+1)*p.K] {
			if r >= 0 {
				u.Expected = append(u.Expected, l.c.Alphabets().Letters(i)[int(p.Base)+y])
			}
		}
		slices.Sort(u.Expected)
		out = append(out, u)
	}
	return out
}

// check runs the procedure of opt on letter traces.
func check(c *nfa.Checker, letters [][]nfa.Letter, opt Options) nfa.Result {
	mode := modeOf(opt.Mode)
	if opt.Procedure == AC {
		return c.CheckAC(letters, mode)
	}
	return c.CheckAS(letters, mode)
}

// Raw decides multi-traces of letters against a raw NFA (a .timbuk word
// automaton) whose letters are split into locations: the automata paper's
// benchmark setting, without an interaction.
type Raw struct {
	c   *nfa.Checker
	opt Options
}

// NewRaw prepares the checker of a for the locations locs. Options.Mode is
// verdict.Prefix or verdict.Accept; MaxStates, File and Syntax do not apply.
func NewRaw(a *nfa.NFA, locs *nfa.Alphabets, opt Options) (*Raw, error) {
	if err := Answers(opt.Mode); err != nil {
		return nil, err
	}
	c, err := nfa.NewChecker(a, locs, opt.checkerOptions(time.Time{}))
	if err != nil {
		return nil, err
	}
	return &Raw{c: c, opt: opt}, nil
}

// Alphabets returns the alphabets of the locations.
func (r *Raw) Alphabets() *nfa.Alphabets { return r.c.Alphabets() }

// Check decides the letter traces mt, one per location (as
// nfa.ParseLetterTraces reads them). The explanation of a Fail names the
// locations as components.
func (r *Raw) Check(mt [][]nfa.Letter) verdict.Result {
	res := check(r.c, mt, r.opt)
	if res.Verdict != nfa.Fail {
		return result(res, r.opt, nil)
	}
	locs := r.c.Alphabets()
	letter := func(i, pos int) string {
		if x := mt[i][pos]; int(x) < len(locs.Letters(i)) {
			return locs.Letters(i)[x]
		}
		return "?"
	}
	return result(res, r.opt, &names{locs: locs, syms: r.c.NFA().Symbols(), letters: mt,
		component: locs.Name, event: letter})
}

// Answers returns nil when the automata engine answers mode: accept and
// prefix (slice mode simulates unobserved actions, which only the runtime
// engine does), and an error saying so otherwise. It is the one statement
// of this rule: the front door (package check) asks it too.
func Answers(mode verdict.Mode) error {
	if mode != verdict.Prefix && mode != verdict.Accept {
		return fmt.Errorf("the automata engine answers accept and prefix modes, not %s", mode)
	}
	return nil
}
