package nfa

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/ivc-project/ivc/internal/nfa/engine"
)

// State is a state of an automaton: an index in [0, NumStates).
type State = engine.State

// Symbol is a letter of an automaton: an index in its symbol table.
type Symbol = engine.Symbol

// Transition is src –sym→ dst.
type Transition = engine.Transition

func cmpTransition(a, b Transition) int {
	if c := cmp.Compare(a.Src, b.Src); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Sym, b.Sym); c != 0 {
		return c
	}
	return cmp.Compare(a.Dst, b.Dst)
}

// Symbols is a symbol table: the names of the letters, indexed by Symbol.
// Automata derived from one another share theirs.
type Symbols struct {
	names []string
	// index finds a name's symbol; nil while the table is small enough
	// (smallSymbols) for a linear search.
	index map[string]Symbol
}

// smallSymbols is the size up to which a symbol table has no index.
const smallSymbols = 16

// NewSymbols returns a table of the given distinct names, in order.
func NewSymbols(names ...string) *Symbols {
	s := &Symbols{}
	for _, n := range names {
		s.intern(n)
	}
	return s
}

func (s *Symbols) intern(name string) Symbol {
	if a, ok := s.Lookup(name); ok {
		return a
	}
	return s.add(name)
}

// add adds a symbol named name, which is not in the table.
func (s *Symbols) add(name string) Symbol {
	a := Symbol(len(s.names))
	if s.names == nil {
		s.names = make([]string, 0, smallSymbols)
	}
	s.names = append(s.names, name)
	switch {
	case s.index != nil:
		s.index[name] = a
	case len(s.names) > smallSymbols:
		s.index = make(map[string]Symbol, 2*len(s.names))
		for i, n := range s.names {
			s.index[n] = Symbol(i)
		}
	}
	return a
}

// Len returns the number of symbols.
func (s *Symbols) Len() int { return len(s.names) }

// Name returns the name of symbol a.
func (s *Symbols) Name(a Symbol) string { return s.names[a] }

// Lookup returns the symbol named name.
func (s *Symbols) Lookup(name string) (Symbol, bool) {
	if s.index == nil {
		for i, n := range s.names {
			// Names often differ in their last byte: test it first.
			if len(n) == len(name) && (n == "" || n[len(n)-1] == name[len(n)-1]) && n == name {
				return Symbol(i), true
			}
		}
		return 0, false
	}
	a, ok := s.index[name]
	return a, ok
}

// Names returns the names of all symbols, indexed by Symbol.
func (s *Symbols) Names() []string { return slices.Clone(s.names) }

// An NFA is a nondeterministic finite automaton (Q, Σ, δ, Q0, F) without
// ε-transitions. It is immutable once built. Its transitions are sorted by
// (source, symbol, target) without duplicates, so the transitions leaving a
// state are contiguous and transition k is Transitions()[k].
type NFA struct {
	syms    *Symbols
	n       int
	initial []State  // sorted, distinct
	final   []uint64 // bitset over states
	trans   []Transition
	out     []int32  // trans[out[q]:out[q+1]] leave q
	labels  []string // optional, per state
}

// NumStates returns |Q|.
func (a *NFA) NumStates() int { return a.n }

// NumTransitions returns |δ|.
func (a *NFA) NumTransitions() int { return len(a.trans) }

// Symbols returns the automaton's symbol table.
func (a *NFA) Symbols() *Symbols { return a.syms }

// Initial returns the initial states, sorted. The slice must not be modified.
func (a *NFA) Initial() []State { return a.initial }

// IsFinal reports whether q is a final state.
func (a *NFA) IsFinal(q State) bool { return a.final[q>>6]&(1<<(q&63)) != 0 }

// NumFinal returns |F|.
func (a *NFA) NumFinal() int {
	n := 0
	for _, w := range a.final {
		n += bits.OnesCount64(w)
	}
	return n
}

// Transitions returns all transitions, sorted by (source, symbol, target).
// The slice must not be modified.
func (a *NFA) Transitions() []Transition { return a.trans }

// Out returns the transitions leaving q, sorted by (symbol, target), as a
// subslice of Transitions: Out(q)[i] is transition OutIndex(q)+i.
func (a *NFA) Out(q State) []Transition { return a.trans[a.out[q]:a.out[q+1]] }

// OutIndex returns the index of the first transition leaving q.
func (a *NFA) OutIndex(q State) int { return int(a.out[q]) }

// Label returns the label of q (e.g. the interaction term it stands for), or
// "" when the automaton has no labels.
func (a *NFA) Label(q State) string {
	if a.labels == nil {
		return ""
	}
	return a.labels[q]
}

// HasLabels reports whether the states carry labels.
func (a *NFA) HasLabels() bool { return a.labels != nil }

// WithoutLabels returns the automaton without its state labels.
func (a *NFA) WithoutLabels() *NFA {
	b := *a
	b.labels = nil
	return &b
}

// String returns the one-line dump of the automaton:
//
//	init=0 final=2 0-a!m->1 1-b?m->2
//
// initial and final states as comma-separated lists (final= is omitted when
// there is none), then every transition in order.
func (a *NFA) String() string {
	var b strings.Builder
	b.WriteString("init=")
	writeStates(&b, a.initial)
	var fin []State
	for q := range State(a.n) {
		if a.IsFinal(q) {
			fin = append(fin, q)
		}
	}
	if len(fin) > 0 {
		b.WriteString(" final=")
		writeStates(&b, fin)
	}
	for _, t := range a.trans {
		fmt.Fprintf(&b, " %d-%s->%d", t.Src, a.syms.names[t.Sym], t.Dst)
	}
	return b.String()
}

func writeStates(b *strings.Builder, qs []State) {
	for i, q := range qs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(q)))
	}
}

// A Builder assembles an NFA: add symbols, states and transitions in any
// order, then Build. Duplicate transitions are dropped.
type Builder struct {
	syms    *Symbols
	final   []bool
	initial []State
	trans   []Transition
	labels  []string
}

// NewBuilder returns a builder with an empty symbol table.
func NewBuilder() *Builder { return &Builder{syms: NewSymbols()} }

// NewBuilderSymbols returns a builder over an existing symbol table, which
// the built automaton shares (symbols added later are added to it).
func NewBuilderSymbols(syms *Symbols) *Builder { return &Builder{syms: syms} }

// Grow makes room for the given numbers of further states and transitions
// (a hint: the builder grows as needed anyway).
func (b *Builder) Grow(states, transitions int) {
	b.final = slices.Grow(b.final, states)
	b.trans = slices.Grow(b.trans, transitions)
}

// Symbol interns the symbol named name.
func (b *Builder) Symbol(name string) Symbol { return b.syms.intern(name) }

// AddSymbol adds a symbol named name, which must be new: a caller that
// tells its symbols apart by what they stand for (package internal/synth, by
// multi-action) names them for printing only, and never looks them up by
// name.
func (b *Builder) AddSymbol(name string) Symbol { return b.syms.add(name) }

// State adds a state.
func (b *Builder) State(final bool) State {
	b.final = append(b.final, final)
	if b.labels != nil {
		b.labels = append(b.labels, "")
	}
	return State(len(b.final) - 1)
}

// NumStates returns the number of states added so far.
func (b *Builder) NumStates() int { return len(b.final) }

// SetFinal makes q final or not.
func (b *Builder) SetFinal(q State, final bool) { b.final[q] = final }

// SetLabel labels q (labels are shown by DOT export).
func (b *Builder) SetLabel(q State, label string) {
	if b.labels == nil {
		b.labels = make([]string, len(b.final))
	}
	b.labels[q] = label
}

// Initial makes q an initial state.
func (b *Builder) Initial(q State) { b.initial = append(b.initial, q) }

// Transition adds src –sym→ dst.
func (b *Builder) Transition(src State, sym Symbol, dst State) {
	b.trans = append(b.trans, Transition{Src: src, Sym: sym, Dst: dst})
}

// Build returns the automaton. The builder must not be used afterwards.
func (b *Builder) Build() *NFA {
	n := len(b.final)
	for _, t := range b.trans {
		if int(t.Src) >= n || int(t.Dst) >= n || t.Src < 0 || t.Dst < 0 || int(t.Sym) >= b.syms.Len() || t.Sym < 0 {
			panic(fmt.Sprintf("nfa: transition %v out of range (%d states, %d symbols)", t, n, b.syms.Len()))
		}
	}
	a := &NFA{syms: b.syms, n: n, labels: b.labels}
	a.final = make([]uint64, (n+63)/64)
	for q, f := range b.final {
		if f {
			a.final[q>>6] |= 1 << (q & 63)
		}
	}
	a.initial = b.initial // the builder is done with it
	slices.Sort(a.initial)
	a.initial = slices.Compact(a.initial)
	a.trans = sortTransitions(b.trans)
	a.out = make([]int32, n+1)
	for _, t := range a.trans {
		a.out[t.Src+1]++
	}
	for q := range n {
		a.out[q+1] += a.out[q]
	}
	return a
}

// sortTransitions sorts and deduplicates ts. Builders usually add the
// transitions state by state: then only each state's run is sorted.
func sortTransitions(ts []Transition) []Transition {
	bySrc := true
	for i := 1; i < len(ts); i++ {
		if ts[i].Src < ts[i-1].Src {
			bySrc = false
			break
		}
	}
	if !bySrc {
		slices.SortFunc(ts, cmpTransition)
		return slices.Compact(ts)
	}
	for i := 0; i < len(ts); {
		j := i + 1
		for j < len(ts) && ts[j].Src == ts[i].Src {
			j++
		}
		run := ts[i:j]
		if len(run) < 12 {
			for k := 1; k < len(run); k++ {
				for l := k; l > 0 && cmpTransition(run[l], run[l-1]) < 0; l-- {
					run[l], run[l-1] = run[l-1], run[l]
				}
			}
		} else {
			slices.SortFunc(run, cmpTransition)
		}
		i = j
	}
	return slices.Compact(ts)
}

// Accepts reports whether the automaton accepts the word.
func (a *NFA) Accepts(word []Symbol) bool {
	cur := newStateSet(a.n)
	for _, q := range a.initial {
		cur.add(q)
	}
	next := newStateSet(a.n)
	for _, x := range word {
		next.clear()
		for _, q := range cur.list {
			out := a.Out(q)
			// Out(q) is sorted by symbol: find x's run.
			i, _ := slices.BinarySearchFunc(out, x, func(t Transition, x Symbol) int { return cmp.Compare(t.Sym, x) })
			for ; i < len(out) && out[i].Sym == x; i++ {
				next.add(out[i].Dst)
			}
		}
		cur, next = next, cur
		if len(cur.list) == 0 {
			return false
		}
	}
	for _, q := range cur.list {
		if a.IsFinal(q) {
			return true
		}
	}
	return false
}

// AcceptsNames reports whether the automaton accepts the word spelled with
// symbol names; a name outside the symbol table is rejected.
func (a *NFA) AcceptsNames(names ...string) bool {
	word := make([]Symbol, len(names))
	for i, n := range names {
		x, ok := a.syms.Lookup(n)
		if !ok {
			return false
		}
		word[i] = x
	}
	return a.Accepts(word)
}

// stateSet is a set of states with O(1) insertion and iteration in
// insertion order.
type stateSet struct {
	in   []uint64
	list []State
}

func newStateSet(n int) *stateSet { return &stateSet{in: make([]uint64, (n+63)/64)} }

func (s *stateSet) add(q State) bool {
	w, m := q>>6, uint64(1)<<(q&63)
	if s.in[w]&m != 0 {
		return false
	}
	s.in[w] |= m
	s.list = append(s.list, q)
	return true
}

func (s *stateSet) has(q State) bool { return s.in[q>>6]&(1<<(q&63)) != 0 }

func (s *stateSet) clear() {
	for _, q := range s.list {
		s.in[q>>6] = 0
	}
	s.list = s.list[:0]
}

// reachable returns the states reachable from the initial states.
func (a *NFA) reachable() *stateSet {
	s := newStateSet(a.n)
	for _, q := range a.initial {
		s.add(q)
	}
	for i := 0; i < len(s.list); i++ {
		for _, t := range a.Out(s.list[i]) {
			s.add(t.Dst)
		}
	}
	return s
}

// coreachable returns the states from which a final state is reachable.
func (a *NFA) coreachable() *stateSet {
	in := a.reverseIndex()
	s := newStateSet(a.n)
	for q := range State(a.n) {
		if a.IsFinal(q) {
			s.add(q)
		}
	}
	for i := 0; i < len(s.list); i++ {
		q := s.list[i]
		for _, k := range in.idx[in.start[q]:in.start[q+1]] {
			s.add(a.trans[k].Src)
		}
	}
	return s
}

// revIndex lists, for each state, the indices of the transitions entering it.
type revIndex struct {
	start []int32
	idx   []int32
}

func (a *NFA) reverseIndex() revIndex {
	r := revIndex{start: make([]int32, a.n+1), idx: make([]int32, len(a.trans))}
	for _, t := range a.trans {
		r.start[t.Dst+1]++
	}
	for q := range a.n {
		r.start[q+1] += r.start[q]
	}
	fill := slices.Clone(r.start[:a.n])
	for k, t := range a.trans {
		r.idx[fill[t.Dst]] = int32(k)
		fill[t.Dst]++
	}
	return r
}

// IsEmpty reports whether the language of the automaton is empty.
func (a *NFA) IsEmpty() bool {
	for _, q := range a.reachable().list {
		if a.IsFinal(q) {
			return false
		}
	}
	return true
}

// Trim returns the automaton restricted to its useful states (reachable and
// co-reachable), renumbered in breadth-first order from the initial states.
// An automaton with an empty language trims to no state at all.
func (a *NFA) Trim() *NFA {
	useful := a.reachable()
	co := a.coreachable()
	keep := make([]bool, a.n)
	for _, q := range useful.list {
		keep[q] = co.has(q)
	}
	return a.renumber(func(q State) State {
		if keep[q] {
			return q
		}
		return -1
	})
}

// renumber builds the quotient of a by the map class (a state to its class
// representative, or -1 to drop it): a class is initial (final) when one of
// its members is. Classes are numbered in breadth-first order from the
// initial states, following transitions by symbol, so that the numbering
// depends only on the structure; unreachable classes are dropped. A class
// is labelled by the label of its first member.
func (a *NFA) renumber(class func(State) State) *NFA {
	n := a.n
	// The members of each class, contiguous in byRep (counting sort).
	rep := make([]State, n)
	first := make([]int32, n+1)
	for q := range State(n) {
		rep[q] = class(q)
		if rep[q] >= 0 {
			first[rep[q]+1]++
		}
	}
	for r := range n {
		first[r+1] += first[r]
	}
	byRep := make([]State, first[n])
	fill := slices.Clone(first[:n])
	for q := range State(n) {
		if r := rep[q]; r >= 0 {
			byRep[fill[r]] = q
			fill[r]++
		}
	}
	members := func(r State) []State { return byRep[first[r]:first[r+1]] }

	num := make([]State, n) // class representative -> new number + 1
	var order []State
	visit := func(r State) State {
		if num[r] == 0 {
			order = append(order, r)
			num[r] = State(len(order))
		}
		return num[r] - 1
	}
	for _, q := range a.initial {
		if rep[q] >= 0 {
			visit(rep[q])
		}
	}
	var trans, out []Transition
	for i := 0; i < len(order); i++ {
		out = out[:0]
		for _, q := range members(order[i]) {
			for _, t := range a.Out(q) {
				if r := rep[t.Dst]; r >= 0 {
					out = append(out, Transition{Src: State(i), Sym: t.Sym, Dst: r})
				}
			}
		}
		// Visit targets in (symbol, representative) order, for a numbering
		// that depends only on the structure.
		if !slices.IsSortedFunc(out, cmpTransition) {
			slices.SortFunc(out, cmpTransition)
		}
		out = slices.Compact(out)
		for _, t := range out {
			trans = append(trans, Transition{Src: t.Src, Sym: t.Sym, Dst: visit(t.Dst)})
		}
	}
	b := NewBuilderSymbols(a.syms)
	b.final = make([]bool, len(order))
	if a.labels != nil {
		b.labels = make([]string, len(order))
	}
	for i, r := range order {
		for _, m := range members(r) {
			if a.IsFinal(m) {
				b.final[i] = true
			}
		}
		if a.labels != nil {
			b.labels[i] = a.labels[members(r)[0]]
		}
	}
	for _, q := range a.initial {
		if rep[q] >= 0 {
			b.Initial(num[rep[q]] - 1)
		}
	}
	b.trans = trans
	return b.Build()
}
