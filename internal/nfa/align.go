package nfa

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"time"
)

// Alignment: the smallest repair of a multi-trace on the automaton, as
// process mining's conformance checkers align an event log with a model. A
// repair deletes events from the local traces and inserts letters into
// them, each edit costing 1, until some interleaving of the repaired traces
// is accepted (Accept) or the repaired traces are a multi-prefix (Prefix).
//
// The search is a shortest path over the product of the automaton and the
// positions reached in the local traces, the states of Central(A, (μi)i)
// (Def. 4), with two kinds of moves:
//
//   - a transition q –x→ q' of A: at each location where x has a part, the
//     part is read from the trace when it is the trace's next event (cost
//     0), or else inserted before that event (cost 1); in prefix mode, at a
//     location whose trace is consumed the part costs nothing: what the
//     location does after its log stops is unobserved (lifeline removal);
//   - the deletion of the next event of a location (cost 1).
//
// A part that could be read is never inserted instead: an alignment that
// inserts a letter before the same letter of the trace costs no less than
// one that reads it and inserts it later, which gives the same repaired
// trace.
//
// The goal is every trace consumed, in a final state of A in accept mode
// (in prefix mode A is trim, so a final state is still reachable). The
// search is A* with a bucket queue (costs are small integers) and the
// heuristic Σi hi, where hi is a lower bound of the edits location i still
// needs: the number of its remaining events that are no letter (each must
// be deleted), and at least 1 when the rest of its trace cannot be read
// from q, by the backward projections the central search prunes with (a
// row of Proj.Back or Proj.BackAny). Each edit changes one location, and no
// move lowers some hi by more than the edits it makes at i, so the
// heuristic is consistent: a state is expanded once, at its smallest cost.

// AlignOptions bound an alignment: the states of the search (0:
// DefaultAlignNodes) and the time (the zero Time: none). Past them
// Checker.Align stops and gives the best repair it can build from what it
// explored.
type AlignOptions struct {
	MaxNodes int
	Deadline time.Time
}

// DefaultAlignNodes bounds the states of an alignment when
// AlignOptions.MaxNodes is 0.
const DefaultAlignNodes = 1 << 20

// Edit is one edit of an alignment: the deletion of event Index of
// location Loc's trace (Letter is that event), or the insertion of Letter
// before it (at the end of the trace when Index is its length). Indices are
// those of the traces as given.
type Edit struct {
	Insert bool
	Loc    int
	Index  int
	Letter Letter
}

// Alignment is the outcome of Checker.Align.
type Alignment struct {
	// Edits is the repair, in the order of the alignment's path (the
	// insertions at one index in the order they go there).
	Edits []Edit
	// Found is false when there is no repair (the automaton accepts
	// nothing).
	Found bool
	// Stopped is NodeLimit or Timeout when a limit stopped the search
	// before it reached the goal: Edits are then the best repair built from
	// the states explored (their path, then the deletion of every event
	// left, then in accept mode the insertion of a shortest way to a final
	// state), which may not be the smallest.
	Stopped Reason
	// Nodes counts the states of the search.
	Nodes int
}

// Cost is the number of edits.
func (al Alignment) Cost() int { return len(al.Edits) }

// alignTables are the checker's data for alignments, made on first use:
// the parts of each symbol, flat, and for accept mode's fallback the
// fewest parts a way from each state to a final state shows.
type alignTables struct {
	partOff []int32 // symbol x has the parts partLoc[k], partLet[k] for k in partOff[x]:partOff[x+1]
	partLoc []int32
	partLet []Letter
	toFinal []int32 // per state: the fewest parts of a way to a final state; -1: none
	nextTo  []int32 // per state: the first transition of such a way; -1 at a final state
}

func (c *Checker) alignTables() *alignTables {
	c.alignOnce.Do(func() {
		a := c.a
		at := &alignTables{partOff: make([]int32, a.syms.Len()+1)}
		for x := range a.syms.Len() {
			for _, p := range c.locs.Parts(Symbol(x)) {
				at.partLoc = append(at.partLoc, int32(p.Loc))
				at.partLet = append(at.partLet, p.Letter)
			}
			at.partOff[x+1] = int32(len(at.partLoc))
		}
		at.shortestToFinal(a)
		c.at = at
	})
	return c.at
}

// shortestToFinal computes toFinal and nextTo by Dijkstra's algorithm on
// the reversed automaton, a transition weighing its symbol's parts.
func (at *alignTables) shortestToFinal(a *NFA) {
	at.toFinal, at.nextTo = make([]int32, a.n), make([]int32, a.n)
	var b buckets
	for q := range State(a.n) {
		at.toFinal[q], at.nextTo[q] = -1, -1
		if a.IsFinal(q) {
			at.toFinal[q] = 0
			b.push(0, int32(q))
		}
	}
	rev := a.reverseIndex()
	for d := 0; d < len(b.q); d++ {
		for len(b.q[d]) > 0 {
			q := b.pop(d)
			if int(at.toFinal[q]) != d {
				continue
			}
			for _, k := range rev.idx[rev.start[q]:rev.start[q+1]] {
				t := a.trans[k]
				w := int32(d) + at.partOff[t.Sym+1] - at.partOff[t.Sym]
				if at.toFinal[t.Src] < 0 || w < at.toFinal[t.Src] {
					at.toFinal[t.Src], at.nextTo[t.Src] = w, k
					b.push(int(w), int32(t.Src))
				}
			}
		}
	}
}

// buckets is a bucket queue of nodes by an integer priority, each bucket
// a stack.
type buckets struct{ q [][]int32 }

func (b *buckets) push(f int, v int32) {
	for len(b.q) <= f {
		b.q = append(b.q, nil)
	}
	b.q[f] = append(b.q[f], v)
}

func (b *buckets) pop(f int) int32 {
	v := b.q[f][len(b.q[f])-1]
	b.q[f] = b.q[f][:len(b.q[f])-1]
	return v
}

func (b *buckets) reset() {
	for i := range b.q {
		b.q[i] = b.q[i][:0]
	}
	b.q = b.q[:0]
}

// aligner is the working memory of an alignment, pooled by the checker.
type aligner struct {
	c      *Checker
	at     *alignTables
	n      int
	tr     [][]Letter
	L      []int32
	prefix bool
	sw     int
	// rows[i][j*sw:(j+1)*sw] are the states from which the rest of trace i
	// from position j can be read (nil without backward projections);
	// foreign[i][j] counts the events of trace i from position j that are
	// no letter.
	rows    [][]uint64
	foreign [][]int32
	stride  []uint64
	fits    bool

	// The nodes: positions (n per node), state, cost so far, heuristic,
	// parent and the move from it (a transition, or -1-i for the deletion
	// of location i's next event), expanded or not.
	pos    []int32
	state  []State
	key    []uint64
	g, h   []int32
	parent []int32
	move   []int32
	done   []bool
	index  nodeIndex
	big    map[string]int32
	queue  buckets
	tmp    []int32
}

// Align returns a smallest repair of mt (one trace of letters per
// location, as CheckAS takes) in mode: the edits after which some
// interleaving of the traces is accepted (Accept), or the traces are a
// multi-prefix (Prefix). See AlignOptions for its limits. It is safe for
// concurrent use.
func (c *Checker) Align(mt [][]Letter, mode Mode, opt AlignOptions) Alignment {
	if len(mt) != c.locs.Num() {
		panic("nfa: Align: one trace per location expected")
	}
	s, _ := c.alignPool.Get().(*aligner)
	if s == nil {
		s = &aligner{c: c}
	}
	defer c.alignPool.Put(s)
	s.init(mt, mode == Prefix)
	return s.run(opt)
}

func (s *aligner) init(mt [][]Letter, prefix bool) {
	c := s.c
	s.at = c.alignTables()
	n := len(mt)
	s.n, s.tr, s.prefix, s.sw = n, mt, prefix, nwords(c.a.n)
	s.L = s.L[:0]
	s.stride = s.stride[:0]
	s.fits = true
	st := uint64(1)
	for _, tr := range mt {
		s.L = append(s.L, int32(len(tr)))
		s.stride = append(s.stride, st)
		hi, lo := bits.Mul64(st, uint64(len(tr))+1)
		if hi != 0 || lo >= 1<<40 {
			s.fits = false
		}
		st = lo
	}
	if hi, lo := bits.Mul64(st, uint64(c.a.n)); hi != 0 || lo >= 1<<62 {
		s.fits = false
	}
	for len(s.rows) < n {
		s.rows, s.foreign = append(s.rows, nil), append(s.foreign, nil)
	}
	for i, tr := range mt {
		k := Letter(len(c.locs.Letters(i)))
		f := resize32(s.foreign[i], len(tr)+1)
		f[len(tr)] = 0
		for j := len(tr) - 1; j >= 0; j-- {
			f[j] = f[j+1]
			if tr[j] < 0 || tr[j] >= k {
				f[j]++
			}
		}
		s.foreign[i] = f
		s.rows[i] = s.backRows(s.rows[i], i, tr)
	}
	s.pos, s.state, s.key = s.pos[:0], s.state[:0], s.key[:0]
	s.g, s.h, s.parent, s.move, s.done = s.g[:0], s.h[:0], s.parent[:0], s.move[:0], s.done[:0]
	s.index.reset()
	s.big = nil
	s.queue.reset()
	s.tmp = resize32(s.tmp, n)
}

// backRows returns the rows of the backward walk of trace tr of location
// i (see aligner.rows), in room; nil when the checker has no backward
// projections.
func (s *aligner) backRows(room []uint64, i int, tr []Letter) []uint64 {
	p := &s.c.t.Projs[i]
	back := p.Back
	if s.prefix {
		back = p.BackAny
	}
	if back == nil {
		return nil
	}
	sw, k := s.sw, p.K
	rows := slices.Grow(room[:0], (len(tr)+1)*sw)[:(len(tr)+1)*sw]
	b := back.Start
	for j := len(tr); ; j-- {
		row := rows[j*sw : (j+1)*sw]
		if b < 0 {
			clear(row)
		} else {
			copy(row, back.Subsets[int(b)*sw:(int(b)+1)*sw])
		}
		if j == 0 {
			break
		}
		if x := tr[j-1]; b >= 0 && x >= 0 && int(x) < k {
			b = back.Next[int(b)*k+int(x)]
		} else {
			b = -1
		}
	}
	return rows
}

// heuristic is the lower bound of the edits left from positions pos in
// state q (see the comment at the top of the file).
func (s *aligner) heuristic(pos []int32, q State) int32 {
	h := int32(0)
	for i, p := range pos {
		f := s.foreign[i][p]
		if f == 0 && s.rows[i] != nil {
			if row := s.rows[i][int(p)*s.sw:]; row[q>>6]&(1<<(q&63)) == 0 {
				f = 1
			}
		}
		h += f
	}
	return h
}

// node returns the node of positions pos (whose key is posKey) in state
// q, made when new: its cost, parent and move are then g, parent and mv.
// It reports whether the node is new.
func (s *aligner) node(pos []int32, posKey uint64, q State, g, parent, mv int32) (int32, bool) {
	var k uint64
	var ks string
	if s.fits {
		k = posKey*uint64(s.c.a.n) + uint64(q)
		if v, ok := s.index.get(k, int32(len(s.state))); !ok {
			return v, false
		}
	} else {
		var b []byte
		for _, p := range pos {
			b = binary.LittleEndian.AppendUint32(b, uint32(p))
		}
		ks = string(binary.LittleEndian.AppendUint32(b, uint32(q)))
		if v, ok := s.big[ks]; ok {
			return v, false
		}
		if s.big == nil {
			s.big = map[string]int32{}
		}
	}
	v := int32(len(s.state))
	if !s.fits {
		s.big[ks] = v
	}
	s.pos = append(s.pos, pos...)
	s.state = append(s.state, q)
	s.key = append(s.key, posKey)
	s.g = append(s.g, g)
	s.h = append(s.h, s.heuristic(pos, q))
	s.parent = append(s.parent, parent)
	s.move = append(s.move, mv)
	s.done = append(s.done, false)
	return v, true
}

// relax reaches the positions pos (key posKey) in state q at cost g from
// node parent by move mv.
func (s *aligner) relax(pos []int32, posKey uint64, q State, g, parent, mv int32) {
	w, isNew := s.node(pos, posKey, q, g, parent, mv)
	if !isNew {
		if s.done[w] || g >= s.g[w] {
			return
		}
		s.g[w], s.parent[w], s.move[w] = g, parent, mv
	}
	s.queue.push(int(g+s.h[w]), w)
}

// goal reports whether node v ends the search.
func (s *aligner) goal(v int32) bool {
	for i, p := range s.pos[int(v)*s.n : int(v+1)*s.n] {
		if p != s.L[i] {
			return false
		}
	}
	return s.prefix || s.c.a.IsFinal(s.state[v])
}

func (s *aligner) run(opt AlignOptions) Alignment {
	maxNodes := opt.MaxNodes
	if maxNodes <= 0 {
		maxNodes = DefaultAlignNodes
	}
	a := s.c.a
	if len(a.initial) == 0 {
		return Alignment{} // no accepted word: no repair
	}
	zero := s.tmp
	clear(zero)
	for _, q := range a.initial {
		s.relax(zero, 0, q, 0, -1, -1)
	}
	expanded := 0
	for f := 0; f < len(s.queue.q); f++ {
		for len(s.queue.q[f]) > 0 {
			v := s.queue.pop(f)
			if s.done[v] || int(s.g[v]+s.h[v]) != f {
				continue // expanded already, or pushed again at a smaller cost
			}
			s.done[v] = true
			if s.goal(v) {
				return Alignment{Edits: s.path(v, nil), Found: true, Nodes: len(s.state)}
			}
			s.expand(v)
			expanded++
			switch {
			case len(s.state) > maxNodes:
				return s.fallback(NodeLimit)
			case expanded&255 == 0 && !opt.Deadline.IsZero() && time.Now().After(opt.Deadline):
				return s.fallback(Timeout)
			}
		}
	}
	return Alignment{Nodes: len(s.state)} // the goal is unreachable: A accepts nothing
}

// expand relaxes the successors of node v: the deletions, then the
// transitions of its state, so that a transition is tried first.
func (s *aligner) expand(v int32) {
	n, at := s.n, s.at
	a := s.c.a
	p := s.pos[int(v)*n : int(v+1)*n]
	q, g, key := s.state[v], s.g[v], s.key[v]
	tmp := s.tmp
	for i := range n {
		if p[i] < s.L[i] {
			copy(tmp, p)
			tmp[i]++
			s.relax(tmp, key+s.stride[i], q, g+1, v, int32(-1-i))
			p = s.pos[int(v)*n : int(v+1)*n] // relax may have grown s.pos
		}
	}
	for k := a.out[q]; k < a.out[q+1]; k++ {
		t := a.trans[k]
		copy(tmp, p)
		cost, nkey := int32(0), key
		for j := at.partOff[t.Sym]; j < at.partOff[t.Sym+1]; j++ {
			i := at.partLoc[j]
			switch {
			case p[i] < s.L[i] && s.tr[i][p[i]] == at.partLet[j]:
				tmp[i]++
				nkey += s.stride[i]
			case s.prefix && p[i] == s.L[i]:
			default:
				cost++
			}
		}
		s.relax(tmp, nkey, t.Dst, g+cost, v, k)
		p = s.pos[int(v)*n : int(v+1)*n]
	}
}

// path returns the edits of the moves from a start node to v, after the
// edits of tail.
func (s *aligner) path(v int32, tail []Edit) []Edit {
	var rev []Edit
	for ; s.parent[v] >= 0; v = s.parent[v] {
		u := s.parent[v]
		p := s.pos[int(u)*s.n : int(u+1)*s.n]
		mv := s.move[v]
		if mv < 0 {
			i := int(-1 - mv)
			rev = append(rev, Edit{Loc: i, Index: int(p[i]), Letter: s.tr[i][p[i]]})
			continue
		}
		t := s.c.a.trans[mv]
		at := s.at
		// The parts inserted, last first (rev is reversed at the end).
		for j := at.partOff[t.Sym+1] - 1; j >= at.partOff[t.Sym]; j-- {
			i := at.partLoc[j]
			switch {
			case p[i] < s.L[i] && s.tr[i][p[i]] == at.partLet[j]:
			case s.prefix && p[i] == s.L[i]:
			default:
				rev = append(rev, Edit{Insert: true, Loc: int(i), Index: int(p[i]), Letter: at.partLet[j]})
			}
		}
	}
	slices.Reverse(rev)
	return append(rev, tail...)
}

// fallback is the outcome of a search stopped by a limit: the cheapest
// repair made of the path to an expanded node, then the deletion of every
// event left, then in accept mode the insertions of a shortest way to a
// final state.
func (s *aligner) fallback(why Reason) Alignment {
	at := s.at
	best, bestCost := int32(-1), int32(0)
	for v := range int32(len(s.state)) {
		if !s.done[v] {
			continue
		}
		cost := s.g[v]
		for i, p := range s.pos[int(v)*s.n : int(v+1)*s.n] {
			cost += s.L[i] - p
		}
		if !s.prefix {
			d := at.toFinal[s.state[v]]
			if d < 0 {
				continue
			}
			cost += d
		}
		if best < 0 || cost < bestCost {
			best, bestCost = v, cost
		}
	}
	al := Alignment{Stopped: why, Nodes: len(s.state)}
	if best < 0 {
		return al
	}
	var tail []Edit
	p := s.pos[int(best)*s.n : int(best+1)*s.n]
	for i := range s.n {
		for j := p[i]; j < s.L[i]; j++ {
			tail = append(tail, Edit{Loc: i, Index: int(j), Letter: s.tr[i][j]})
		}
	}
	if !s.prefix {
		for q := s.state[best]; at.nextTo[q] >= 0; {
			t := s.c.a.trans[at.nextTo[q]]
			for j := at.partOff[t.Sym]; j < at.partOff[t.Sym+1]; j++ {
				i := at.partLoc[j]
				tail = append(tail, Edit{Insert: true, Loc: int(i), Index: int(s.L[i]), Letter: at.partLet[j]})
			}
			q = t.Dst
		}
	}
	al.Edits, al.Found = s.path(best, tail), true
	return al
}

// nodeIndex maps the keys of nodes to their numbers, by open addressing.
// Emptying it is O(1): a slot is in the map only when it carries the
// current generation.
type nodeIndex struct {
	slots []nodeSlot
	gen   uint32
	n     int
	shift uint
}

type nodeSlot struct {
	key uint64
	gen uint32
	val int32
}

func (m *nodeIndex) reset() {
	if len(m.slots) == 0 || len(m.slots) > 1<<16 && m.n < len(m.slots)/16 {
		m.alloc(1 << 8) // a big table left by a big search, little used since
		return
	}
	m.gen++
	m.n = 0
	if m.gen == 0 {
		clear(m.slots)
		m.gen = 1
	}
}

func (m *nodeIndex) alloc(size int) {
	m.slots = make([]nodeSlot, size)
	m.shift = uint(64 - bits.TrailingZeros(uint(size)))
	m.gen, m.n = 1, 0
}

// get returns the value of k and false, or adds k with value v and
// returns v and true.
func (m *nodeIndex) get(k uint64, v int32) (int32, bool) {
	if 2*(m.n+1) > len(m.slots) {
		old, gen := m.slots, m.gen
		m.alloc(2 * len(old))
		for _, sl := range old {
			if sl.gen == gen {
				m.get(sl.key, sl.val)
			}
		}
	}
	mask := uint64(len(m.slots) - 1)
	for h := (k * 0x9e3779b97f4a7c15) >> m.shift; ; h = (h + 1) & mask {
		sl := &m.slots[h]
		if sl.gen != m.gen {
			sl.key, sl.gen, sl.val = k, m.gen, v
			m.n++
			return v, true
		}
		if sl.key == k {
			return sl.val, false
		}
	}
}

// resize32 returns s with length n, reallocated when too small.
func resize32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}
