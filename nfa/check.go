package nfa

import (
	"fmt"
	"time"

	"github.com/ivc-project/ivc/nfa/engine"
)

// Mode, Verdict, Reason, Result and LocalFailure are the engine's: see
// package engine, which runs the checks.
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
// Locations.
type Checker struct {
	a     *NFA
	locs  *Locations
	projs []*Proj
	t     *engine.Tables
	c     *engine.Checker
}

// NewChecker builds the checker of a under locs: the projections of every
// location with their labels (Defs. 5–7), the backward projections the
// central search prunes with, and the engine's tables. a is trimmed first
// (its useful part has the same language), unless it is trim already:
// transition indices in areas refer to Checker.NFA.
func NewChecker(a *NFA, locs *Locations, opt CheckerOptions) (*Checker, error) {
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
	if !a.isTrim() {
		a = a.Trim()
	}
	c := &Checker{a: a, locs: locs}
	sw, tw := nwords(a.n), nwords(len(a.trans))
	t := &engine.Tables{NumStates: a.n, Initial: a.initial, Final: exactWords(a.final, sw), Trans: a.trans}
	t.Parts = make([][]engine.Part, a.syms.Len())
	for x := range t.Parts {
		for _, p := range locs.Parts(Symbol(x)) {
			t.Parts[x] = append(t.Parts[x], engine.Part{Loc: p.Loc, Action: p.Letter})
		}
	}
	for i := range locs.Num() {
		p, err := Project(a, locs, i, opt.MaxProjStates)
		if err != nil {
			return nil, err
		}
		c.projs = append(c.projs, p)
		d := p.dfa
		ep := engine.Proj{
			Name: locs.Name(i), K: d.k,
			DFA:    engine.DFA{NumStates: d.n, Start: d.start, Next: d.next, Final: exactWords(d.final, nwords(d.n)), Subsets: flat(p.subset, sw)},
			AreaOf: p.areaOf, Areas: flat(p.areas, tw), Init: exactWords(p.init, tw), FutureOf: p.futOf, Futures: flat(p.fut, tw),
		}
		if !opt.NoPruning {
			for _, anyEnd := range []bool{false, true} {
				d, sub, err := projectBack(a, locs, i, anyEnd, opt.MaxProjStates)
				if err != nil {
					return nil, err
				}
				b := &engine.DFA{NumStates: d.n, Start: d.start, Next: d.next, Subsets: flat(sub, sw)}
				if anyEnd {
					ep.BackAny = b
				} else {
					ep.Back = b
				}
			}
		}
		t.Projs = append(t.Projs, ep)
	}
	ec, err := engine.NewChecker(t, engine.Options{MaxNodes: opt.MaxNodes, Timeout: opt.Timeout,
		NoPruning: opt.NoPruning, FirstLocalError: opt.FirstLocalError})
	if err != nil {
		return nil, fmt.Errorf("nfa: %w", err) // a bug: the tables are built here
	}
	c.t, c.c = t, ec
	return c, nil
}

// exactWords returns b as a set of exactly w words.
func exactWords(b Bits, w int) []uint64 {
	out := make([]uint64, w)
	copy(out, b)
	return out
}

// flat lays sets out as rows of w words, one after the other.
func flat(sets []Bits, w int) []uint64 {
	out := make([]uint64, 0, len(sets)*w)
	for _, s := range sets {
		out = append(out, exactWords(s, w)...)
	}
	return out
}

// NFA returns the (trimmed) automaton the checker works on.
func (c *Checker) NFA() *NFA { return c.a }

// Locations returns the checker's locations.
func (c *Checker) Locations() *Locations { return c.locs }

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
