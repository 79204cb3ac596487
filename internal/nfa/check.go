package nfa

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ivc-project/ivc/internal/nfa/engine"
)

// Mode, Verdict, Reason, Result and LocalFailure are the engine's: see
// package engine, which runs the checks (its own types, which the automata
// engine maps onto package verdict's).
type (
	Mode         = engine.Mode
	Verdict      = engine.Verdict
	Reason       = engine.Reason
	Result       = engine.Result
	LocalFailure = engine.LocalFailure
)

const (
	Accept = engine.Accept // is some interleaving of the local traces accepted?
	Prefix = engine.Prefix // is the multi-trace a multi-prefix of an accepted one?
)

const (
	Pass     = engine.Pass
	WeakPass = engine.WeakPass
	Fail     = engine.Fail
	Inconc   = engine.Inconc
)

const (
	NoReason     = engine.NoReason
	LocalError   = engine.LocalError
	InterError   = engine.InterError
	CentralError = engine.CentralError
	Error        = engine.Error
	NodeLimit    = engine.NodeLimit
	Timeout      = engine.Timeout
)

// DefaultMaxProjStates bounds the states of each projection DFA when
// CheckerOptions.MaxProjStates is 0.
const DefaultMaxProjStates = 1 << 18

// DefaultMaxNodes bounds the states of one central search when
// CheckerOptions.MaxNodes is 0.
const DefaultMaxNodes = engine.DefaultMaxNodes

// CheckerOptions configure NewChecker. The zero value is usable.
type CheckerOptions struct {
	// MaxProjStates bounds the states of each projection DFA (0:
	// DefaultMaxProjStates); beyond it NewChecker fails.
	MaxProjStates int
	// Deadline and MaxMemory bound NewChecker's construction of the
	// projections and tables (the zero Time: no deadline; 0:
	// DefaultMaxMemory bytes, negative: no bound); beyond them it fails with
	// a *LimitError.
	Deadline  time.Time
	MaxMemory int64
	// MaxNodes and Timeout bound each central search (0: DefaultMaxNodes,
	// no timeout); beyond them the check answers Inconc.
	MaxNodes int
	Timeout  time.Duration
	// NoPruning and FirstLocalError: see engine.Options.
	NoPruning       bool
	FirstLocalError bool
}

// A Checker decides multi-traces against an NFA split into locations, by
// the centralized procedure (CheckAC: Algorithm 1) or the semi-centralized
// one (CheckAS: Algorithms 2 and 3), in accept or prefix mode. It builds the
// projections, their labels and the backward projections once, as the
// tables of package engine, which runs the checks. It is safe for
// concurrent use.
//
// A multi-trace is one slice of letters per location, in the order of the
// Alphabets.
type Checker struct {
	a     *NFA
	locs  *Alphabets
	projs []*Proj
	t     *engine.Tables
	c     *engine.Checker

	// The alignments' tables (made on first use) and working memory.
	alignOnce sync.Once
	at        *alignTables
	alignPool sync.Pool
}

// NewChecker builds the checker of a under locs: the projections of every
// location with their labels (Defs. 5–7), the backward projections the
// central search prunes with, and the engine's tables. a is trimmed first
// (its useful part has the same language), unless it is trim already:
// transition indices in areas refer to Checker.NFA. Past opt's bounds on
// the construction it fails with a *LimitError.
func NewChecker(a *NFA, locs *Alphabets, opt CheckerOptions) (*Checker, error) {
	if opt.MaxProjStates <= 0 {
		opt.MaxProjStates = DefaultMaxProjStates
	}
	for x := range a.syms.Len() {
		for _, p := range locs.Parts(Symbol(x)) {
			if p.Loc < 0 || p.Loc >= locs.Num() || p.Letter < 0 || int(p.Letter) >= len(locs.Letters(p.Loc)) {
				return nil, fmt.Errorf("symbol %s: part %v out of range", a.syms.Name(Symbol(x)), p)
			}
		}
	}
	b := NewLimiter("trimming of the NFA", opt.Deadline, opt.MaxMemory)
	if !a.isTrim() {
		// The trimmed copy: its transitions, and its states' tables.
		if err := b.Alloc(int64(len(a.trans))*12 + int64(a.n)*8); err != nil {
			return nil, err
		}
		a = a.Trim()
	}
	c := &Checker{a: a, locs: locs}
	sw := nwords(a.n)
	t := &engine.Tables{NumStates: a.n, Initial: a.initial, Final: exactWords(a.final, sw), Trans: a.trans}
	t.Parts = make([][]engine.Part, a.syms.Len())
	for x := range t.Parts {
		for _, p := range locs.Parts(Symbol(x)) {
			t.Parts[x] = append(t.Parts[x], engine.Part{Loc: p.Loc, Action: p.Letter})
		}
	}
	work := int64(0)
	for i := range locs.Num() {
		b.SetStage("projection of location " + locs.Name(i))
		p, w, err := project(a, locs, i, opt.MaxProjStates, b)
		if err != nil {
			return nil, err
		}
		work += w
		c.projs = append(c.projs, p)
		d := p.dfa
		t.Projs = append(t.Projs, engine.Proj{
			Name: locs.Name(i), K: d.k,
			DFA:    engine.DFA{NumStates: d.n, Start: d.start, Next: d.next, Final: exactWords(d.final, nwords(d.n)), Subsets: p.subsets.data},
			AreaOf: p.areaOf, Areas: p.areas.data, Init: p.init, FutureOf: p.futOf, Futures: p.fut.data,
		})
	}
	if !opt.NoPruning {
		if err := backward(a, locs, t, opt.MaxProjStates, b, max(minPruningWork, pruningWorkFactor*work)); err != nil {
			return nil, err
		}
	}
	b.SetStage("tables of the checker")
	if err := b.Alloc(t.PrepareBytes()); err != nil {
		return nil, err
	}
	if err := b.Check(); err != nil {
		return nil, err
	}
	ec, err := engine.NewChecker(t, engine.Options{MaxNodes: opt.MaxNodes, Timeout: opt.Timeout,
		NoPruning: opt.NoPruning, FirstLocalError: opt.FirstLocalError})
	if err != nil {
		return nil, fmt.Errorf("nfa: %w", err) // a bug: the tables are built here
	}
	c.t, c.c = t, ec
	return c, nil
}

// CheckerWork returns the least work of NewChecker for a (trim) under
// locations locations, counted in states of a added to the subsets of the
// projections: the projection of each location holds every state of a in
// the subset of some DFA state (each is reachable), so the projections
// take at least locations × states units of work and rows of bits, whatever
// the letters. A caller that has other means to decide (the runtime
// engine) can refuse a checker by this bound before paying for it.
func CheckerWork(a *NFA, locations int) int64 { return int64(locations) * int64(a.n) }

// The backward projections only prune the central search: building them
// may cost pruningWorkFactor times the work of the projections (counted in
// states of A added to subsets), or minPruningWork, whichever is larger.
const (
	pruningWorkFactor = 8
	minPruningWork    = 1 << 25
)

// backward adds to the projections of t their backward projections, the
// central search's pruning, within maxWork units of work and within the
// memory of b. When they would cost more, the checker goes without them:
// pruning makes the search faster, not its verdicts different. The
// deadline of b still stops the construction with a *LimitError.
func backward(a *NFA, locs *Alphabets, t *engine.Tables, maxStates int, b *Limiter, maxWork int64) error {
	used := b.Used()
	if err := b.Alloc(4*int64(a.n) + 4*int64(len(a.trans))); err != nil {
		b.Free(b.Used() - used) // no room for the reverse index: no pruning
		return nil
	}
	rev := a.reverseIndex()
	for i := range locs.Num() {
		ep := &t.Projs[i]
		for _, anyEnd := range []bool{false, true} {
			b.SetStage("backward projection of location " + locs.Name(i))
			d, sub, w, err := projectBack(a, &rev, locs, i, anyEnd, maxStates, b, max(maxWork, 1))
			var le *LimitError
			if errors.Is(err, errCostly) || errors.As(err, &le) && le.Limit != LimitTime {
				for j := range t.Projs {
					t.Projs[j].Back, t.Projs[j].BackAny = nil, nil
				}
				b.Free(b.Used() - used)
				return nil
			}
			if err != nil {
				return err
			}
			maxWork -= w
			e := &engine.DFA{NumStates: d.n, Start: d.start, Next: d.next, Subsets: sub.data}
			if anyEnd {
				ep.BackAny = e
			} else {
				ep.Back = e
			}
		}
	}
	return nil
}

// exactWords returns b as a set of exactly w words.
func exactWords(b Bits, w int) []uint64 {
	out := make([]uint64, w)
	copy(out, b)
	return out
}

// NFA returns the (trimmed) automaton the checker works on.
func (c *Checker) NFA() *NFA { return c.a }

// Alphabets returns the alphabets of the checker's locations.
func (c *Checker) Alphabets() *Alphabets { return c.locs }

// Proj returns the projection of location i.
func (c *Checker) Proj(i int) *Proj { return c.projs[i] }

// Tables returns the engine's tables: what a generated verifier is made
// of. They are shared with the checker: do not modify them.
func (c *Checker) Tables() *engine.Tables { return c.t }

// Engine returns the engine's checker.
func (c *Checker) Engine() *engine.Checker { return c.c }

// Walk reads trace on the projection DFA of location i from its start
// (Algorithm 2 and Definition 8): it returns Area(trace), the union of init
// and of the labels of the transitions taken, and the DFA state reached;
// stuck is the number of letters read before the DFA had no transition, or
// -1 when it read them all (the trace is locally correct iff stuck < 0 and
// the end state is final).
func (c *Checker) Walk(i int, trace []Letter) (area Bits, end State, stuck int) {
	v := c.t.NewLocalVerifier(engine.Location(i))
	v.StepAll(trace)
	return v.Area().Exact, v.State(), v.Stuck()
}

// CheckAS decides mt by the semi-centralized procedure (Algorithms 2 and
// 3): local checks on the projections, each giving its area; Inter and its
// accepting-path check; then the central search on Inter. See
// engine.Checker.Check.
func (c *Checker) CheckAS(mt [][]Letter, mode Mode) Result { return c.c.Check(mt, mode) }

// CheckAC decides mt by the centralized procedure (Algorithm 1): the
// search of Central(A, (μi)i) from its initial state. See
// engine.Checker.CheckAC.
func (c *Checker) CheckAC(mt [][]Letter, mode Mode) Result { return c.c.CheckAC(mt, mode) }

// Inter returns Inter(A, (μi)i) (Def. 9) for the areas of the local traces:
// the transitions in every area.
func Inter(areas ...Bits) Bits {
	if len(areas) == 0 {
		return nil
	}
	out := append(Bits(nil), areas[0]...)
	for _, s := range areas[1:] {
		andInto(out, s)
	}
	return out
}

// HasAcceptingPath reports whether the sub-automaton of a made of the
// transitions in sub has a path from an initial state to a final state.
func (a *NFA) HasAcceptingPath(sub Bits) bool {
	seen := newStateSet(a.n)
	for _, q := range a.initial {
		seen.add(q)
	}
	for i := 0; i < len(seen.list); i++ {
		q := seen.list[i]
		if a.IsFinal(q) {
			return true
		}
		for t := a.out[q]; t < a.out[q+1]; t++ {
			if sub.Has(int(t)) {
				seen.add(a.trans[t].Dst)
			}
		}
	}
	return false
}
