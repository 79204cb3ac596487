package rewrite

import (
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/verdict"
)

// straight runs the optimistic attempt (see accepted) along the path its
// depth-first search takes first, without the search's vertices: from
// each vertex, the move the search would take first (the successors in
// frontier order, partial order reduction, then the fewest actions left;
// see successors and order), found in the partition's memo of steps by the
// vertex's term and the event at the head of each component. The path is
// the search's own: it counts the same vertices, checks the same limits and
// prunes the same vertices, so its verdict, and its counts, are the
// search's. A move consumes an event, so the path never meets a vertex
// twice, and the search's vertex set would find each new; nor does it
// pass the attempt's bound (replayWork vertices an event), which the search
// checks at every vertex: the path has one vertex an event, and the root.
//
// It decides when the path reaches the goal (Pass), when a limit stops it
// (Inconc, as the search would), or when the path ends at a vertex with
// no move and no vertex on it had another (Fail: the search's work list
// is then empty). Where the search would go back to a move it left aside,
// straight undoes its counts and does not decide (ok false): the search
// then runs from the root. On accepted multi-traces, most of a log's, the
// search takes no other path, and a step is then a look-up rather than a
// vertex stored, hashed, inserted and expanded.
func (pb *problem) straight() (v verdict.Verdict, ok bool) {
	a := pb.a
	st := a.st
	n := len(pb.traces)
	if a.noStraight || !pb.optimistic || pb.explaining || pb.graph != nil || pb.witness || a.opts.Strategy != DFS || n > maxStraightComponents {
		return verdict.Inconc, false
	}
	nodes, localNodes, ticks := pb.nodes, pb.localNodes, pb.ticks
	undo := func() (verdict.Verdict, bool) {
		pb.nodes, pb.localNodes, pb.ticks = nodes, localNodes, ticks
		return verdict.Inconc, false
	}
	var posBuf [maxStraightComponents]int32
	pos := posBuf[:n]
	t := a.root
	branched := false
	for {
		if !pb.count(true) {
			return verdict.Inconc, true // gaveUp set by count at the node budget
		}
		done := true
		for c, tr := range pb.traces {
			if int(pos[c]) < len(tr) {
				done = false
				break
			}
		}
		if done {
			if st.Nullable(t) {
				pb.goal = -1
				return verdict.Pass, true
			}
			if pb.stopped != "" {
				return verdict.Inconc, true
			}
			if branched {
				return undo()
			}
			return verdict.Fail, true
		}
		s := pb.step(t, pos)
		if s.k < 0 {
			if s.k == stepUnknown || branched {
				return undo()
			}
			return verdict.Fail, true // dead, and no move was left aside
		}
		branched = branched || s.branched
		act, next := st.Successor(t, int(s.k))
		for _, pt := range a.parts(pb.p, act) {
			pos[pt.c]++
		}
		t = next
	}
}

// maxStraightComponents bounds the components of a multi-trace that
// straight follows (its positions are on the stack).
const maxStraightComponents = 16

// A step of straight: the frontier index k of the move the search takes
// first from a vertex, or stepDead (the vertex is pruned, or has no move)
// or stepUnknown (straight cannot follow it: a move that consumes nothing,
// whose successors depend on the vertex's silent budget); branched: the
// vertex had other moves.
type stepResult struct {
	k        int32
	branched bool
}

const (
	stepDead    = -1
	stepUnknown = -2
)

// step returns the step of straight from the vertex of term t at positions
// pos: from the partition's memo, or computed and remembered there.
func (pb *problem) step(t interaction.Term, pos []int32) stepResult {
	m := &pb.p.steps
	key := m.key[:0]
	key = append(key, int32(t))
	for c, tr := range pb.traces {
		head := int32(-1)
		if int(pos[c]) < len(tr) {
			head = int32(tr[pos[c]])
		}
		key = append(key, head)
	}
	m.key = key
	if r, ok := m.find(key); ok {
		return r
	}
	r := pb.computeStep(t, pos)
	m.add(key, r)
	pb.p.entries++
	return r
}

// computeStep is step without the memo: the checks and the choice of
// decide, successors and order for an exact search's vertex of term t at
// positions pos (pruned by leftOK and starved, which depend on the heads
// alone through which components have events left).
func (pb *problem) computeStep(t interaction.Term, pos []int32) stepResult {
	a := pb.a
	st := a.st
	if !pb.leftOK(t, pos) || pb.starved(t, pos) {
		return stepResult{k: stepDead}
	}
	var succ []int32
	for k, nf := int32(0), int32(st.NumFrontier(t)); k < nf; k++ {
		ps := a.parts(pb.p, st.FrontierAct(t, int(k)))
		if len(ps) == 0 {
			return stepResult{k: stepUnknown}
		}
		if pb.matches(ps, pos) {
			succ = append(succ, k)
		}
	}
	switch {
	case len(succ) == 0:
		return stepResult{k: stepDead}
	case len(succ) == 1:
		return stepResult{k: succ[0]}
	}
	if a.opts.POR {
		for _, k := range succ {
			if pb.unambiguous(t, int(k)) {
				return stepResult{k: k}
			}
		}
	}
	// order: the fewest actions left first, ties in frontier order. The
	// successors are made in the order order makes them (the work list
	// holds the moves last first), so that the store numbers their terms
	// as the search does: a par's operands are ordered by their numbers.
	best, size := succ[0], -1
	for i := len(succ) - 1; i >= 0; i-- {
		_, next := st.Successor(t, int(succ[i]))
		if s := st.NumActions(next); size < 0 || s <= size {
			best, size = succ[i], s
		}
	}
	return stepResult{k: best, branched: true}
}

// steps is a partition's memo of straight's steps, by a key of the term
// and the component heads (-1 for a component whose events are all
// consumed): open addressing over the keys, stored one after the other.
type steps struct {
	table []uint64 // hash<<32 | index+1 into results; 0: empty
	keys  []int32  // the keys, each of width ints
	width int
	res   []stepResult
	key   []int32 // scratch
}

func hashKey(key []int32) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range key {
		h ^= uint64(uint32(x))
		h *= 1099511628211
	}
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	return h ^ h>>31
}

func (m *steps) find(key []int32) (stepResult, bool) {
	if len(m.table) == 0 || m.width != len(key) {
		return stepResult{}, false
	}
	h := hashKey(key)
	tag := h &^ (1<<32 - 1)
	mask := uint64(len(m.table) - 1)
	for s := h >> 32 & mask; ; s = (s + 1) & mask {
		e := m.table[s]
		if e == 0 {
			return stepResult{}, false
		}
		if e&^(1<<32-1) == tag {
			i := int(uint32(e)) - 1
			if equalInts(m.keys[i*m.width:(i+1)*m.width], key) {
				return m.res[i], true
			}
		}
	}
}

func (m *steps) add(key []int32, r stepResult) {
	if m.width != len(key) {
		*m = steps{width: len(key), key: m.key}
	}
	if 4*(len(m.res)+1) > 3*len(m.table) {
		m.grow()
	}
	h := hashKey(key)
	mask := uint64(len(m.table) - 1)
	s := h >> 32 & mask
	for m.table[s] != 0 {
		s = (s + 1) & mask
	}
	m.keys = append(m.keys, key...)
	m.res = append(m.res, r)
	m.table[s] = h&^(1<<32-1) | uint64(len(m.res))
}

func (m *steps) grow() {
	old := m.table
	m.table = make([]uint64, max(64, 2*len(old)))
	mask := uint64(len(m.table) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		s := e >> 32 & mask
		for m.table[s] != 0 {
			s = (s + 1) & mask
		}
		m.table[s] = e
	}
}

func (m *steps) clear() { *m = steps{key: m.key} }

func equalInts(a, b []int32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
