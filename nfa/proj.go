package nfa

import (
	"fmt"
	"strings"
	"unsafe"
)

// Proj is the projection of an NFA A onto the alphabet Σi of one location:
// the DFA Proj(A, Σi) of Definition 5, built by the subset construction
// that treats the symbols location i does not observe as ε (only the
// subsets reachable from the start are built), with the labels of
// Definitions 6 and 7: area(t) for every DFA transition t and init, each a
// sub-automaton of A given as a bitset over A's transitions.
//
// A DFA state is a set of states of A closed under the transitions that
// location i does not observe; a transition S –a→ S' exists when some
// transition of A leaving S shows letter a at location i, and S' is the
// closure of their targets. area(S –a→ S') holds those transitions (Δ(S,a))
// and the unobserved transitions leaving S' (Δī(δ(S,a)): S' is closed, so
// they are exactly the unobserved transitions between states of S'); init
// holds the unobserved transitions leaving the start state. For the
// multi-prefix check, Future(S) holds every transition reachable from S.
type Proj struct {
	loc    int
	dfa    *DFA   // over the location's letters; row width k
	subset []Bits // per DFA state, its states of A
	areaOf []int32
	areas  []Bits // distinct labels, indexed by areaOf
	init   Bits
	futOf  []int32 // per DFA state, index in futures
	fut    []Bits
}

// Loc returns the location of the projection.
func (p *Proj) Loc() int { return p.loc }

// DFA returns the projection DFA, over the location's letters.
func (p *Proj) DFA() *DFA { return p.dfa }

// Subset returns the states of A that DFA state q stands for.
func (p *Proj) Subset(q State) Bits { return p.subset[q] }

// Area returns area(q –a→ q') (Def. 6), or nil when q has no a-transition.
func (p *Proj) Area(q State, a Letter) Bits {
	if a < 0 || int(a) >= p.dfa.k || p.areaOf[int(q)*p.dfa.k+int(a)] < 0 {
		return nil
	}
	return p.areas[p.areaOf[int(q)*p.dfa.k+int(a)]]
}

// Init returns init (Def. 7): the transitions of A that the location does
// not observe, reachable from the initial states by such transitions.
func (p *Proj) Init() Bits { return p.init }

// Future returns the transitions of A reachable from the states of DFA
// state q: the area a multi-prefix that ends in q may still use.
func (p *Proj) Future(q State) Bits { return p.fut[p.futOf[q]] }

// NumAreas returns the number of distinct area labels.
func (p *Proj) NumAreas() int { return len(p.areas) }

// String returns the one-line dump of the projection: the DFA's states as
// their subsets of A's states, then its transitions, then init:
//
//	init={0,1,3} final={2,3} {0,1,3}-c->{2,3} {0,1,3}-d->{1,4} ... area0=...
func (p *Proj) String() string {
	d := p.dfa
	var b strings.Builder
	name := func(q State) string { return p.subset[q].String() }
	b.WriteString("init=")
	if d.start >= 0 {
		b.WriteString(name(d.start))
	}
	var fin []string
	for q := range State(d.n) {
		if d.IsFinal(q) {
			fin = append(fin, name(q))
		}
	}
	if len(fin) > 0 {
		b.WriteString(" final=" + strings.Join(fin, ","))
	}
	for q := range State(d.n) {
		for a := range d.k {
			if r := d.next[int(q)*d.k+a]; r >= 0 {
				fmt.Fprintf(&b, " %s-%s->%s", name(q), d.syms.names[a], name(r))
			}
		}
	}
	return b.String()
}

// projBuilder runs one subset construction.
type projBuilder struct {
	a        *NFA
	letterOf []Letter // per symbol of A: its letter at the location, or -1
	k        int
	reverse  bool
	rev      revIndex // reverse: the transitions entering each state
	max      int

	sets  []*stateSet
	bits  []Bits
	index map[string]State
}

// edges returns the indices of the transitions leaving q (entering q when
// reverse) and, for each, the state at its other end.
func (pb *projBuilder) edges(q State, f func(k int, far State)) {
	if pb.reverse {
		for _, k := range pb.rev.idx[pb.rev.start[q]:pb.rev.start[q+1]] {
			f(int(k), pb.a.trans[k].Src)
		}
		return
	}
	for k := pb.a.out[q]; k < pb.a.out[q+1]; k++ {
		f(int(k), pb.a.trans[k].Dst)
	}
}

// closure adds to s every state reachable from its members by unobserved
// transitions.
func (pb *projBuilder) closure(s *stateSet) {
	for i := 0; i < len(s.list); i++ {
		pb.edges(s.list[i], func(k int, far State) {
			if pb.letterOf[pb.a.trans[k].Sym] < 0 {
				s.add(far)
			}
		})
	}
}

// state returns the DFA state of the closed set s, adding it if new.
func (pb *projBuilder) state(s *stateSet) (State, bool, error) {
	w := nwords(pb.a.n)
	bs := make(Bits, w)
	for _, q := range s.list {
		bs.set(int(q))
	}
	key := ""
	if w > 0 {
		key = unsafe.String((*byte)(unsafe.Pointer(&bs[0])), 8*w)
	}
	if q, ok := pb.index[key]; ok {
		return q, false, nil
	}
	if pb.max > 0 && len(pb.sets) >= pb.max {
		return 0, false, fmt.Errorf("projection: more than %d DFA states: %w", pb.max, ErrTooManyStates)
	}
	q := State(len(pb.sets))
	pb.index[key] = q
	pb.sets = append(pb.sets, s)
	pb.bits = append(pb.bits, bs)
	return q, true, nil
}

// build runs the subset construction from the closure of start. With
// areas, it also labels the transitions (forward projections only).
func (pb *projBuilder) build(start []State, areas bool) (*DFA, []int32, []Bits, error) {
	a, k := pb.a, pb.k
	pb.index = map[string]State{}
	if pb.reverse {
		pb.rev = a.reverseIndex()
	}
	d := &DFA{k: k, start: -1}
	if len(start) == 0 {
		return d, nil, nil, nil
	}
	s0 := newStateSet(a.n)
	for _, q := range start {
		s0.add(q)
	}
	pb.closure(s0)
	d.start, _, _ = pb.state(s0)
	tw := nwords(len(a.trans))
	var areaOf []int32
	var areaBits []Bits
	areaIndex := map[string]int32{}
	// Per letter: the targets and (with areas) the transitions reading it.
	targets := make([]*stateSet, k)
	var vis []Bits
	if areas {
		vis = make([]Bits, k)
	}
	var used []Letter
	for i := 0; i < len(pb.sets); i++ {
		used = used[:0]
		fin := false
		for _, q := range pb.sets[i].list {
			if pb.reverse {
				fin = fin || slicesContains(a.initial, q)
			} else {
				fin = fin || a.IsFinal(q)
			}
			pb.edges(q, func(t int, far State) {
				x := pb.letterOf[a.trans[t].Sym]
				if x < 0 {
					return
				}
				if targets[x] == nil {
					targets[x] = newStateSet(a.n)
					if areas {
						vis[x] = make(Bits, tw)
					}
				}
				if len(targets[x].list) == 0 {
					used = append(used, x)
				}
				targets[x].add(far)
				if areas {
					vis[x].set(t)
				}
			})
		}
		d.final = growBits(d.final, i)
		if fin {
			d.final[i>>6] |= 1 << (i & 63)
		}
		row := len(d.next)
		for range k {
			d.next = append(d.next, -1)
			if areas {
				areaOf = append(areaOf, -1)
			}
		}
		for _, x := range used {
			t := targets[x]
			s := newStateSet(a.n)
			for _, q := range t.list {
				s.add(q)
			}
			t.clear()
			pb.closure(s)
			r, _, err := pb.state(s)
			if err != nil {
				return nil, nil, nil, err
			}
			d.next[row+int(x)] = r
			if !areas {
				continue
			}
			// area(S –x→ S') = Δ(S,x) ∪ the unobserved transitions leaving S'.
			lab := vis[x]
			vis[x] = make(Bits, tw)
			for _, q := range pb.sets[r].list {
				pb.edges(q, func(t int, _ State) {
					if pb.letterOf[a.trans[t].Sym] < 0 {
						lab.set(t)
					}
				})
			}
			key := bitsKey(lab)
			id, ok := areaIndex[key]
			if !ok {
				id = int32(len(areaBits))
				areaIndex[key] = id
				areaBits = append(areaBits, lab)
			}
			areaOf[row+int(x)] = id
		}
	}
	d.n = len(pb.sets)
	d.final = growBits(d.final, d.n-1)
	return d, areaOf, areaBits, nil
}

func bitsKey(b Bits) string {
	if len(b) == 0 {
		return ""
	}
	return string(unsafe.String((*byte)(unsafe.Pointer(&b[0])), 8*len(b)))
}

func slicesContains(s []State, q State) bool {
	for _, x := range s {
		if x == q {
			return true
		}
	}
	return false
}

// letterMap returns, for each symbol of a, the letter it shows at location
// i, or -1.
func letterMap(a *NFA, locs *Locations, i int) []Letter {
	m := make([]Letter, a.syms.Len())
	for x := range m {
		m[x] = -1
		for _, p := range locs.Parts(Symbol(x)) {
			if p.Loc == i {
				m[x] = p.Letter
			}
		}
	}
	return m
}

// Project builds Proj(a, Σi) for location i of locs with its labels.
// maxStates bounds the DFA's states (0: no bound); past it, Project returns
// an error wrapping ErrTooManyStates.
func Project(a *NFA, locs *Locations, i int, maxStates int) (*Proj, error) {
	letters := NewSymbols(locs.Letters(i)...)
	pb := &projBuilder{a: a, letterOf: letterMap(a, locs, i), k: letters.Len(), max: maxStates}
	d, areaOf, areas, err := pb.build(a.initial, true)
	if err != nil {
		return nil, fmt.Errorf("location %s: %w", locs.Name(i), err)
	}
	d.syms = letters
	p := &Proj{loc: i, dfa: d, subset: pb.bits, areaOf: areaOf, areas: areas}
	if d.final == nil {
		d.final = Bits{}
	}
	p.init = make(Bits, nwords(len(a.trans)))
	if d.start >= 0 {
		for _, q := range pb.sets[d.start].list {
			for t := a.out[q]; t < a.out[q+1]; t++ {
				if pb.letterOf[a.trans[t].Sym] < 0 {
					p.init.set(int(t))
				}
			}
		}
	}
	p.futures(a, newReach(a))
	return p, nil
}

// futures sets Future(q) for every DFA state.
func (p *Proj) futures(a *NFA, r *reach) {
	index := map[string]int32{}
	p.futOf = make([]int32, p.dfa.n)
	sw := nwords(a.n)
	for q, sub := range p.subset {
		states := make(Bits, sw)
		for _, s := range sub.Elems() {
			orInto(states, r.of(State(s)))
		}
		f := make(Bits, nwords(len(a.trans)))
		for _, s := range states.Elems() {
			for t := a.out[s]; t < a.out[s+1]; t++ {
				f.set(int(t))
			}
		}
		key := bitsKey(f)
		id, ok := index[key]
		if !ok {
			id = int32(len(p.fut))
			index[key] = id
			p.fut = append(p.fut, f)
		}
		p.futOf[q] = id
	}
}

// reach gives, for each state, the states reachable from it (itself
// included), by strongly connected components.
type reach struct {
	comp []int32 // component of each state
	sets []Bits  // states reachable from each component
}

func newReach(a *NFA) *reach {
	n := a.n
	r := &reach{comp: make([]int32, n)}
	// Tarjan's algorithm, iteratively; components come out in reverse
	// topological order, so their successors' sets are complete first.
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []State
	type frame struct {
		q State
		t int32
	}
	var calls []frame
	next := int32(0)
	sw := nwords(n)
	for root := range State(n) {
		if index[root] >= 0 {
			continue
		}
		calls = append(calls, frame{root, a.out[root]})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			q := f.q
			if f.t < a.out[q+1] {
				s := a.trans[f.t].Dst
				f.t++
				if index[s] < 0 {
					index[s], low[s] = next, next
					next++
					stack = append(stack, s)
					onStack[s] = true
					calls = append(calls, frame{s, a.out[s]})
				} else if onStack[s] {
					low[q] = min(low[q], index[s])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].q
				low[p] = min(low[p], low[q])
			}
			if low[q] != index[q] {
				continue
			}
			c := int32(len(r.sets))
			set := make(Bits, sw)
			var members []State
			for {
				s := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[s] = false
				r.comp[s] = c
				set.set(int(s))
				members = append(members, s)
				if s == q {
					break
				}
			}
			for _, s := range members {
				for _, t := range a.Out(s) {
					if d := r.comp[t.Dst]; d != c && !onStack[t.Dst] && index[t.Dst] >= 0 {
						orInto(set, r.sets[d])
					}
				}
			}
			r.sets = append(r.sets, set)
		}
	}
	return r
}

func (r *reach) of(q State) Bits { return r.sets[r.comp[q]] }

// projectBack builds the subset DFA of location i on the reversed
// automaton, started from the final states of a (or from every state, for
// the multi-prefix check): after reading the reverse of a word u, its state
// holds the states of a from which some path whose projection is u reaches
// a final state (any state). It has no labels.
func projectBack(a *NFA, locs *Locations, i int, anyEnd bool, maxStates int) (*DFA, []Bits, error) {
	pb := &projBuilder{a: a, letterOf: letterMap(a, locs, i), k: len(locs.Letters(i)), reverse: true, max: maxStates}
	var start []State
	for q := range State(a.n) {
		if anyEnd || a.IsFinal(q) {
			start = append(start, q)
		}
	}
	d, _, _, err := pb.build(start, false)
	if err != nil {
		return nil, nil, fmt.Errorf("location %s (backward): %w", locs.Name(i), err)
	}
	if d.final == nil {
		d.final = Bits{}
	}
	return d, pb.bits, nil
}
