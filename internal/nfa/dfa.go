package nfa

import (
	"errors"
	"time"
)

// A DFA is a deterministic finite automaton with a partial transition
// function stored as a dense table: Next(q, a) is table[q*|Σ|+a], or -1 when
// q has no transition on a (there is no explicit sink state).
type DFA struct {
	syms  *Symbols
	k     int // row width of next: the number of symbols when built
	n     int
	start State // -1 when the DFA has no state (empty language)
	final []uint64
	next  []State
}

// NumStates returns |Q|.
func (d *DFA) NumStates() int { return d.n }

// NumTransitions returns the number of defined transitions.
func (d *DFA) NumTransitions() int {
	m := 0
	for _, q := range d.next {
		if q >= 0 {
			m++
		}
	}
	return m
}

// Symbols returns the symbol table.
func (d *DFA) Symbols() *Symbols { return d.syms }

// Start returns the initial state, or -1 for a DFA without states.
func (d *DFA) Start() State { return d.start }

// IsFinal reports whether q is final.
func (d *DFA) IsFinal(q State) bool { return d.final[q>>6]&(1<<(q&63)) != 0 }

// Next returns the successor of q by a, or -1.
func (d *DFA) Next(q State, a Symbol) State {
	if a < 0 || int(a) >= d.k {
		return -1 // not a symbol of d (maybe added to the shared table later)
	}
	return d.next[int(q)*d.k+int(a)]
}

// Accepts reports whether the DFA accepts the word.
func (d *DFA) Accepts(word []Symbol) bool {
	q := d.start
	for _, a := range word {
		if q < 0 {
			return false
		}
		q = d.Next(q, a)
	}
	return q >= 0 && d.IsFinal(q)
}

// String returns the one-line dump of d.NFA().
func (d *DFA) String() string { return d.NFA().String() }

// NFA returns the DFA as an NFA (the same states and transitions).
func (d *DFA) NFA() *NFA {
	b := NewBuilderSymbols(d.syms)
	for q := range State(d.n) {
		b.State(d.IsFinal(q))
	}
	if d.start >= 0 {
		b.Initial(d.start)
	}
	k := d.k
	for q := range d.n {
		for a := range k {
			if p := d.next[q*k+a]; p >= 0 {
				b.Transition(State(q), Symbol(a), p)
			}
		}
	}
	return b.Build()
}

// ErrTooManyStates is returned (wrapped) by Determinize when the subset
// construction exceeds its state budget.
var ErrTooManyStates = errors.New("too many states")

// Determinize returns the accessible DFA of the subsets of states of a
// (subset construction). maxStates bounds the number of DFA states (0 means
// no bound); past it, Determinize returns a *LimitError wrapping
// ErrTooManyStates, as the construction may be exponential.
//
// It is the subset construction of the projections (proj.go) onto the
// whole alphabet: every symbol is its own letter, so no transition is
// unobserved and the subsets need no closure.
func (a *NFA) Determinize(maxStates int) (*DFA, error) {
	k := a.syms.Len()
	letterOf := make([]Letter, k)
	for x := range letterOf {
		letterOf[x] = Letter(x)
	}
	pb := &projBuilder{a: a, letterOf: letterOf, k: k, max: maxStates, limiter: NewLimiter("determinization", time.Time{}, -1)}
	d, _, _, err := pb.build(a.initial, false)
	if err != nil {
		return nil, err
	}
	d.syms = a.syms
	if d.final == nil {
		d.final = Bits{}
	}
	return d, nil
}

func growBits(b []uint64, i int) []uint64 {
	for len(b) <= i>>6 {
		b = append(b, 0)
	}
	return b
}

// Minimize returns the minimal partial DFA of the same language: the
// accessible and co-accessible part of d quotiented by language
// equivalence (which, on a trimmed DFA, is forward bisimilarity). States are
// numbered in breadth-first order, so equal languages give equal dumps.
func (d *DFA) Minimize() *DFA {
	m := d.NFA().Trim().quotient(false)
	return m.asDFA()
}

// asDFA converts a deterministic NFA (at most one initial state, at most
// one transition per state and symbol).
func (a *NFA) asDFA() *DFA {
	k := a.syms.Len()
	d := &DFA{syms: a.syms, k: k, n: a.n, start: -1, final: a.final}
	if len(a.initial) > 1 {
		panic("nfa: asDFA of an automaton with several initial states")
	}
	if len(a.initial) == 1 {
		d.start = a.initial[0]
	}
	if d.final == nil {
		d.final = []uint64{}
	}
	d.next = make([]State, a.n*k)
	for i := range d.next {
		d.next[i] = -1
	}
	for _, t := range a.trans {
		i := int(t.Src)*k + int(t.Sym)
		if d.next[i] >= 0 {
			panic("nfa: asDFA of a nondeterministic automaton")
		}
		d.next[i] = t.Dst
	}
	return d
}

// IsDeterministic reports whether a has at most one initial state and at
// most one transition per state and symbol.
func (a *NFA) IsDeterministic() bool {
	if len(a.initial) > 1 {
		return false
	}
	for i := 1; i < len(a.trans); i++ {
		if a.trans[i].Src == a.trans[i-1].Src && a.trans[i].Sym == a.trans[i-1].Sym {
			return false
		}
	}
	return true
}
