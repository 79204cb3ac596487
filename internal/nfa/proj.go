package nfa

import (
	"errors"
	"fmt"
	"strings"
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
	loc     int
	dfa     *DFA  // over the location's letters; row width k
	subsets *rows // row q: the states of A of DFA state q
	areaOf  []int32
	areas   *rows // the distinct labels, indexed by areaOf
	init    Bits
	futOf   []int32 // per DFA state, its row in fut
	fut     *rows
}

// Loc returns the location of the projection.
func (p *Proj) Loc() int { return p.loc }

// DFA returns the projection DFA, over the location's letters.
func (p *Proj) DFA() *DFA { return p.dfa }

// Subset returns the states of A that DFA state q stands for.
func (p *Proj) Subset(q State) Bits { return p.subsets.row(int32(q)) }

// Area returns area(q –a→ q') (Def. 6), or nil when q has no a-transition.
func (p *Proj) Area(q State, a Letter) Bits {
	if a < 0 || int(a) >= p.dfa.k || p.areaOf[int(q)*p.dfa.k+int(a)] < 0 {
		return nil
	}
	return p.areas.row(p.areaOf[int(q)*p.dfa.k+int(a)])
}

// Init returns init (Def. 7): the transitions of A that the location does
// not observe, reachable from the initial states by such transitions.
func (p *Proj) Init() Bits { return p.init }

// Future returns the transitions of A reachable from the states of DFA
// state q: the area a multi-prefix that ends in q may still use.
func (p *Proj) Future(q State) Bits { return p.fut.row(p.futOf[q]) }

// NumAreas returns the number of distinct area labels.
func (p *Proj) NumAreas() int { return p.areas.len() }

// String returns the one-line dump of the projection: the DFA's states as
// their subsets of A's states, then its transitions, then init:
//
//	init={0,1,3} final={2,3} {0,1,3}-c->{2,3} {0,1,3}-d->{1,4} ... area0=...
func (p *Proj) String() string {
	d := p.dfa
	var b strings.Builder
	name := func(q State) string { return p.Subset(q).String() }
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
	limiter  *Limiter
	// work counts the states of A added to subsets; past maxWork (when
	// positive), the construction stops with errCostly.
	work, maxWork int64

	// subsets holds the states of A of each DFA state, as a row of bits;
	// lists the same states in the order the construction found them,
	// until the state is explored (the order the DFA's states are
	// numbered in depends on it).
	subsets *rows
	lists   [][]State
	spare   [][]State // lists of explored states, for reuse
	cur     *stateSet // the set being built
}

// edges returns the indices of the transitions leaving q (entering q when
// reverse): a.trans[lo:hi] when idx is nil, else a.trans[k] for k in idx.
// Far returns the state at their other end.
func (pb *projBuilder) edges(q State) (lo, hi int32, idx []int32) {
	if pb.reverse {
		return 0, 0, pb.rev.idx[pb.rev.start[q]:pb.rev.start[q+1]]
	}
	return pb.a.out[q], pb.a.out[q+1], nil
}

// far returns the state at the other end of transition t from the state
// whose edges it is.
func (pb *projBuilder) far(t Transition) State {
	if pb.reverse {
		return t.Src
	}
	return t.Dst
}

// closure adds to s every state reachable from its members by unobserved
// transitions.
func (pb *projBuilder) closure(s *stateSet) {
	trans := pb.a.trans
	for i := 0; i < len(s.list); i++ {
		lo, hi, idx := pb.edges(s.list[i])
		for k := lo; k < hi; k++ {
			if pb.letterOf[trans[k].Sym] < 0 {
				s.add(trans[k].Dst)
			}
		}
		for _, k := range idx {
			if pb.letterOf[trans[k].Sym] < 0 {
				s.add(trans[k].Src)
			}
		}
	}
}

// state returns the DFA state of the closed set pb.cur, adding it if new.
func (pb *projBuilder) state() (State, error) {
	i, isNew, grown := pb.subsets.add(Bits(pb.cur.in))
	if !isNew {
		return State(i), nil
	}
	if pb.max > 0 && pb.subsets.len() > pb.max {
		return 0, &LimitError{Stage: pb.limiter.Stage(), Limit: LimitStates, Max: int64(pb.max)}
	}
	var list []State
	if k := len(pb.spare); k > 0 {
		list, pb.spare = pb.spare[k-1][:0], pb.spare[:k-1]
	}
	c := cap(list)
	list = append(list, pb.cur.list...)
	pb.lists = append(pb.lists, list)
	// The row and its list (what a reused list grew by); the row of the
	// transition table and of its labels; the final bit.
	return State(i), pb.limiter.Alloc(grown + 4*int64(cap(list)-c) + 24 + 8*int64(pb.k) + 1)
}

// maxSpareLists bounds the lists kept for reuse: the states found but not
// yet explored are few when the DFA is a chain, where lists are long.
const maxSpareLists = 8

// build runs the subset construction from the closure of start. With
// areas, it also labels the transitions (forward projections only), as
// rows of areas indexed by the returned areaOf.
func (pb *projBuilder) build(start []State, areas bool) (*DFA, []int32, *rows, error) {
	a, k := pb.a, pb.k
	if pb.reverse && pb.rev.start == nil {
		pb.rev = a.reverseIndex()
	}
	tw := nwords(len(a.trans))
	pb.subsets = newRows(nwords(a.n))
	labels := newRows(tw)
	d := &DFA{k: k, start: -1}
	if len(start) == 0 {
		return d, nil, labels, nil
	}
	pb.cur = newStateSet(a.n)
	// The scratch memory: cur with its list, the targets and transitions of
	// each letter (a few for each transition of A at most), a label.
	scratch := int64(nwords(a.n))*8 + int64(a.n)*4 + int64(k)*48 + 8*int64(len(a.trans))
	if areas {
		scratch += int64(tw) * 8
	}
	if err := pb.limiter.Alloc(scratch); err != nil {
		return nil, nil, nil, err
	}
	defer func() {
		pb.limiter.Free(scratch)
		for _, l := range pb.spare {
			pb.limiter.Free(4 * int64(cap(l)))
		}
		pb.spare = nil
	}()
	for _, q := range start {
		pb.cur.add(q)
	}
	pb.closure(pb.cur)
	pb.work = int64(len(pb.cur.list))
	var err error
	if d.start, err = pb.state(); err != nil {
		return nil, nil, nil, err
	}
	var areaOf []int32
	// Per letter: the targets and (with areas) the transitions reading it,
	// in the order found.
	targets := make([][]State, k)
	reading := make([][]int32, k)
	var lab Bits
	if areas {
		lab = make(Bits, tw)
	}
	var used []Letter
	for i := 0; i < len(pb.lists); i++ {
		if err := pb.limiter.Tick(); err != nil {
			return nil, nil, nil, err
		}
		used = used[:0]
		fin := false
		for _, q := range pb.lists[i] {
			if pb.reverse {
				fin = fin || slicesContains(a.initial, q)
			} else {
				fin = fin || a.IsFinal(q)
			}
			lo, hi, idx := pb.edges(q)
			see := func(t int32) {
				x := pb.letterOf[a.trans[t].Sym]
				if x < 0 {
					return
				}
				if len(targets[x]) == 0 {
					used = append(used, x)
				}
				targets[x] = append(targets[x], pb.far(a.trans[t]))
				reading[x] = append(reading[x], t)
			}
			for t := lo; t < hi; t++ {
				see(t)
			}
			for _, t := range idx {
				see(t)
			}
		}
		if len(pb.spare) < maxSpareLists {
			pb.spare = append(pb.spare, pb.lists[i])
		} else {
			pb.limiter.Free(4 * int64(cap(pb.lists[i])))
		}
		pb.lists[i] = nil
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
			if err := pb.limiter.Tick(); err != nil {
				return nil, nil, nil, err
			}
			pb.cur.clear()
			for _, q := range targets[x] {
				pb.cur.add(q)
			}
			targets[x] = targets[x][:0]
			pb.closure(pb.cur)
			if pb.work += int64(len(pb.cur.list)); pb.maxWork > 0 && pb.work > pb.maxWork {
				return nil, nil, nil, errCostly
			}
			r, err := pb.state()
			if err != nil {
				return nil, nil, nil, err
			}
			d.next[row+int(x)] = r
			if !areas {
				reading[x] = reading[x][:0]
				continue
			}
			// area(S –x→ S') = Δ(S,x) ∪ the unobserved transitions leaving S'.
			clear(lab)
			for _, t := range reading[x] {
				lab.set(int(t))
			}
			reading[x] = reading[x][:0]
			for _, q := range pb.cur.list {
				for t := a.out[q]; t < a.out[q+1]; t++ {
					if pb.letterOf[a.trans[t].Sym] < 0 {
						lab.set(int(t))
					}
				}
			}
			id, _, grown := labels.add(lab)
			if err := pb.limiter.Alloc(grown); err != nil {
				return nil, nil, nil, err
			}
			areaOf[row+int(x)] = id
		}
	}
	d.n = pb.subsets.len()
	d.final = growBits(d.final, d.n-1)
	if err := finish(pb.limiter, pb.subsets, labels); err != nil {
		return nil, nil, nil, err
	}
	return d, areaOf, labels, nil
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
func letterMap(a *NFA, locs *Alphabets, i int) []Letter {
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

// errCostly stops a construction past its work bound.
var errCostly = errors.New("construction too costly")

// Project builds Proj(a, Σi) for location i of locs with its labels.
// maxStates bounds the DFA's states (0: no bound), b the time and memory of
// the construction (nil: no bound); past them, Project returns a
// *LimitError (wrapping ErrTooManyStates for the state bound).
func Project(a *NFA, locs *Alphabets, i int, maxStates int, b *Limiter) (*Proj, error) {
	p, _, err := project(a, locs, i, maxStates, b)
	return p, err
}

// project is Project, and returns the work of the subset construction.
func project(a *NFA, locs *Alphabets, i int, maxStates int, b *Limiter) (*Proj, int64, error) {
	letters := NewSymbols(locs.Letters(i)...)
	pb := &projBuilder{a: a, letterOf: letterMap(a, locs, i), k: letters.Len(), max: maxStates, limiter: b}
	d, areaOf, areas, err := pb.build(a.initial, true)
	if err != nil {
		return nil, 0, err
	}
	d.syms = letters
	p := &Proj{loc: i, dfa: d, subsets: pb.subsets, areaOf: areaOf, areas: areas}
	if d.final == nil {
		d.final = Bits{}
	}
	tw := nwords(len(a.trans))
	p.init = make(Bits, tw)
	if err := b.Alloc(int64(tw) * 8); err != nil {
		return nil, 0, err
	}
	if d.start >= 0 {
		for _, q := range p.Subset(d.start).Elems() {
			for t := a.out[q]; t < a.out[q+1]; t++ {
				if pb.letterOf[a.trans[t].Sym] < 0 {
					p.init.set(int(t))
				}
			}
		}
	}
	if err := p.futures(a, b); err != nil {
		return nil, 0, err
	}
	return p, pb.work, nil
}

// futures sets Future(q) for every DFA state q: the transitions leaving
// the states of A reachable from q's. A DFA state S is closed under the
// transitions the location does not observe, and the others lead into
// S's successors, so Reach(S) = S ∪ ⋃x Reach(δ(S,x)): the futures are a
// fixpoint on the DFA, which is small where A may be large. It is computed
// once per strongly connected component of the DFA, whose states all
// have the same future, in reverse topological order (Tarjan's algorithm),
// so that the successors' futures are complete first; one row of
// transitions is kept per distinct future.
func (p *Proj) futures(a *NFA, b *Limiter) error {
	d := p.dfa
	n, k := d.n, d.k
	p.fut = newRows(nwords(len(a.trans)))
	p.futOf = make([]int32, n)
	// futOf, index, low and the stacks.
	if err := b.Alloc(int64(n) * 24); err != nil {
		return err
	}
	index := make([]int32, n)
	low := make([]int32, n)
	for q := range n {
		index[q], p.futOf[q] = -1, -1
	}
	var stack, members []State
	type frame struct {
		q State
		x int // the next letter to follow
	}
	var calls []frame
	next := int32(0)
	f := make(Bits, nwords(len(a.trans)))
	for root := range State(n) {
		if index[root] >= 0 {
			continue
		}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		calls = append(calls, frame{root, 0})
		for len(calls) > 0 {
			c := &calls[len(calls)-1]
			q := c.q
			if c.x < k {
				r := d.next[int(q)*k+c.x]
				c.x++
				switch {
				case r < 0:
				case index[r] < 0:
					index[r], low[r] = next, next
					next++
					stack = append(stack, r)
					calls = append(calls, frame{r, 0})
				case p.futOf[r] < 0: // on the stack
					low[q] = min(low[q], index[r])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				up := calls[len(calls)-1].q
				low[up] = min(low[up], low[q])
			}
			if low[q] != index[q] {
				continue
			}
			if err := b.Tick(); err != nil {
				return err
			}
			// q roots a component: its members are on the stack down to q.
			members = members[:0]
			for {
				s := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				members = append(members, s)
				if s == q {
					break
				}
			}
			clear(f)
			for _, s := range members {
				for _, m := range p.Subset(s).Elems() {
					setRange(f, int(a.out[m]), int(a.out[m+1]))
				}
			}
			for _, s := range members {
				for _, r := range d.next[int(s)*k : int(s+1)*k] {
					// A successor outside the component has its future.
					if r >= 0 && p.futOf[r] >= 0 {
						orInto(f, p.fut.row(p.futOf[r]))
					}
				}
			}
			id, _, grown := p.fut.add(f)
			if err := b.Alloc(grown); err != nil {
				return err
			}
			for _, s := range members {
				p.futOf[s] = id
			}
		}
	}
	return finish(b, p.fut)
}

// finish lays out the rows of a construction for reading (rows.done),
// within the limiter: the copy they may take exists with them for a moment.
func finish(b *Limiter, rs ...*rows) error {
	for _, r := range rs {
		x := r.done()
		if err := b.Alloc(x); err != nil {
			return err
		}
		b.Free(x)
	}
	return nil
}

// setRange adds lo, lo+1, ..., hi-1 to s.
func setRange(s Bits, lo, hi int) {
	for lo < hi && lo&63 != 0 {
		s.set(lo)
		lo++
	}
	for ; lo+64 <= hi; lo += 64 {
		s[lo>>6] = ^uint64(0)
	}
	for ; lo < hi; lo++ {
		s.set(lo)
	}
}

// projectBack builds the subset DFA of location i on the reversed
// automaton, started from the final states of a (or from every state, for
// the multi-prefix check): after reading the reverse of a word u, its state
// holds the states of a from which some path whose projection is u reaches
// a final state (any state). It has no labels; its subsets are the rows it
// returns, with the work it took. Past maxWork (when positive) it fails
// with errCostly.
// rev is a's reverse index (computed when nil).
func projectBack(a *NFA, rev *revIndex, locs *Alphabets, i int, anyEnd bool, maxStates int, b *Limiter, maxWork int64) (*DFA, *rows, int64, error) {
	pb := &projBuilder{a: a, letterOf: letterMap(a, locs, i), k: len(locs.Letters(i)), reverse: true, max: maxStates,
		limiter: b, maxWork: maxWork}
	if rev != nil {
		pb.rev = *rev
	}
	var start []State
	for q := range State(a.n) {
		if anyEnd || a.IsFinal(q) {
			start = append(start, q)
		}
	}
	d, _, _, err := pb.build(start, false)
	if err != nil {
		return nil, nil, 0, err
	}
	if d.final == nil {
		d.final = Bits{}
	}
	return d, pb.subsets, pb.work, nil
}
