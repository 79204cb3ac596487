package rewrite

import (
	"math/bits"
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hashslots"
	"github.com/ivc-project/ivc/verdict"
)

// straight runs a depth-first search along the path it takes first,
// without the search's vertices: from each vertex, the move the search
// would take first (the successors in frontier order, partial order
// reduction, then the fewest actions left; see successors and order),
// found in the partition's memo of steps by the vertex's term and the event
// at the head of each component (and whether it is the component's last).
// It runs the exact search (the optimistic attempt, see accepted, and the
// search of accept mode, or of a multi-prefix's exactness, with its local
// analyses at the root and its pruning by the events left) and the
// multi-prefix search (prefixSearch, with its lifeline removal and its
// local analyses at the root). The path is the search's own: it counts the
// same vertices, checks the same limits, prunes the same vertices and
// tracks the same furthest ones for an explanation (its last), and makes
// the store's terms in the same order (which orders a par's operands), so
// its verdict, and its counts, are the search's. A move consumes an event,
// so the path never meets a vertex twice, and the search's vertex set
// would find each new; nor does it pass the attempt's bound (replayWork
// vertices an event), which the search checks at every vertex: the path
// has one vertex an event, and the root.
//
// It decides when the path reaches the goal (Pass; the multi-prefix
// search's consumed actions are left in pb.word for replay), when a limit
// stops it (Inconc, as the search would), or when the path ends at a vertex
// with no move and no vertex on it had another (Fail: the search's work
// list is then empty). Where the search would go back to a move it left
// aside, or take a move that consumes no event (whose successors depend on
// the vertex's silent budget), straight undoes what it did (its counts and
// the furthest vertices, none before it; not the root's local analyses,
// see undo) and does not decide (ok false): the search then runs from the
// root. On accepted multi-traces and multi-prefixes, most of a log's, the
// search takes no other path, and a step is then a look-up rather than a
// vertex stored, hashed, inserted and expanded.
func (pb *problem) straight(kind searchKind) (v verdict.Verdict, ok bool) {
	a := pb.a
	st := a.st
	n := len(pb.traces)
	switch {
	case a.noStraight || pb.explaining || pb.graph != nil || pb.witness || a.opts.Strategy != DFS || n > maxStraightComponents,
		kind == sliceSearch,
		pb.best >= 0 || pb.locFail >= 0 || pb.foreignAt >= 0: // what undo restores
		return verdict.Inconc, false
	}
	pb.exact, pb.kind, pb.refused = kind == exactSearch, kind, false
	nodes, localNodes, ticks := pb.nodes, pb.localNodes, pb.ticks
	// The root's local analyses are kept when straight undoes the rest:
	// the search, at its root, finds them in their memo and counts nothing,
	// so their vertices stay counted (rootLocal, and their checks of the
	// clock, rootTicks), as the search would have counted them there.
	rootLocal, rootTicks := 0, 0
	word := pb.word[:0]
	undo := func() (verdict.Verdict, bool) {
		pb.nodes, pb.localNodes, pb.ticks = nodes, localNodes+rootLocal, ticks+rootTicks
		pb.resetExplanation()
		pb.word = word[:0]
		return verdict.Inconc, false
	}
	branched := false
	var posBuf [maxStraightComponents]int32
	pos := posBuf[:n]
	t := a.root
	// The furthest vertices of the path are its last alone: a move
	// consumes an event, so each vertex is further than those before. They
	// are tracked, as the search tracks them, only where the path ends in
	// a Fail, whose explanation reads them (the verdicts that end it
	// otherwise have none, and the searches after it start afresh, see
	// resetExplanation).
	dead := func() (verdict.Verdict, bool) {
		if branched {
			return undo()
		}
		pb.track(t, pos)
		return verdict.Fail, true
	}
	left := 0 // events left to consume
	for _, tr := range pb.traces {
		left += len(tr)
	}
	if !pb.exact {
		var empty interaction.Lifelines
		for c, tr := range pb.traces {
			if len(tr) == 0 {
				empty = empty.Union(pb.p.lifelines[c])
			}
		}
		t = st.RemoveObserved(t, empty, pb.together(nil))
	}
	for step := 0; ; step++ {
		if !pb.count(pb.optimistic) {
			return verdict.Inconc, true // gaveUp set by count at the node budget
		}
		pb.atRoot = step == 0
		if left == 0 { // consumedAll
			if pb.isGoal(t) {
				pb.goal, pb.word = -1, word
				return verdict.Pass, true
			}
			if pb.stopped != "" {
				return verdict.Inconc, true
			}
			return dead()
		}
		if pb.exact && !pb.optimistic && !pb.leftOK(t, pos) {
			return dead() // enoughLeft, which counts the events left
		}
		key := pb.stepKey(t, pos)
		h := hashslots.Ints(key)
		s, known := pb.p.steps.find(key, h)
		if !known {
			s.pruned = pb.exact && pb.optimistic && !pb.leftOK(t, pos) || pb.starved(t, pos)
		}
		if s.pruned {
			return dead()
		}
		if a.opts.LOC && !pb.optimistic && step == 0 {
			l0, t0 := pb.localNodes, pb.ticks
			ok := pb.localOK(t, pos)
			rootLocal, rootTicks = pb.localNodes-l0, pb.ticks-t0
			if !ok {
				if pb.stopped != "" {
					return verdict.Inconc, true
				}
				return dead()
			}
		}
		if !known {
			s = pb.choose(t, pos)
			pb.p.steps.add(key, h, s)
			pb.p.entries++
		}
		switch s.k {
		case stepUnknown:
			return undo()
		case stepDead:
			return dead()
		}
		branched = branched || s.branched
		var act interaction.ActID
		var consumed int
		act, t, consumed = pb.move(t, s.k, pos)
		left -= consumed
		if !pb.exact {
			word = append(word, act)
		}
	}
}

// searchFirst runs the search of kind along its straight path first (see
// straight), and the search itself when that does not decide.
func (pb *problem) searchFirst(kind searchKind) verdict.Verdict {
	v, decided := verdict.Inconc, false
	if !pb.guard(func() { v, decided = pb.straight(kind) }) {
		decided = true // a limit abandoned it, as it would the search
	}
	if !decided {
		v = pb.search(kind)
	}
	return v
}

// maxStraightComponents bounds the components of a multi-trace that
// straight follows (its positions are on the stack).
const maxStraightComponents = 16

// A step of straight from a vertex: pruned (by leftOK or starved, before
// the root's local analyses), else the frontier index k of the move the
// search takes first, or stepDead (no move) or stepUnknown (straight
// cannot follow it: a move that consumes nothing, whose successors depend
// on the vertex's silent budget); branched: the vertex had other moves.
type stepResult struct {
	k        int32
	pruned   bool
	branched bool
}

const (
	stepDead    = -1
	stepUnknown = -2
)

// stepKey returns the key of the vertex of term t at positions pos in the
// partition's memo of steps: the search (exact or not), the term, and each
// component's head (-1 past its end) and whether it is its last event. A
// step depends on nothing else: the heads say which moves match, which
// components have events left (leftOK, starved) and which a move finishes
// (the removal that sizes its term in a multi-prefix search).
func (pb *problem) stepKey(t interaction.Term, pos []int32) []int32 {
	m := &pb.p.steps
	key := m.key[:0]
	search := int32(0) // the multi-prefix search
	switch {
	case pb.exact && pb.optimistic:
		search = 1 // leftOK is canEnd, a function of the heads (see straight)
	case pb.exact:
		search = 2
	}
	key = append(key, search, int32(t))
	for c, tr := range pb.traces {
		head := int32(-1)
		if q := int(pos[c]); q < len(tr) {
			head = int32(tr[q]) << 1
			if q+1 == len(tr) {
				head |= 1
			}
		}
		key = append(key, head)
	}
	m.key = key
	return key
}

// choose computes the move of a step that is not pruned: the choice of
// successors and order for the vertex of term t at positions pos.
func (pb *problem) choose(t interaction.Term, pos []int32) stepResult {
	a := pb.a
	st := a.st
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
	var buf [maxStraightComponents]int32
	scratch := buf[:len(pos)]
	best, size := succ[0], -1
	for i := len(succ) - 1; i >= 0; i-- {
		copy(scratch, pos)
		_, next, _ := pb.move(t, succ[i], scratch)
		if s := st.NumActions(next); size < 0 || s <= size {
			best, size = succ[i], s
		}
	}
	return stepResult{k: best, branched: true}
}

// move executes the frontier element k of t, a move that consumes events
// (see apply), and advances pos: it returns the multi-action executed, the
// term reached (the lifelines of the components it finishes removed in a
// multi-prefix search) and the number of events it consumed.
func (pb *problem) move(t interaction.Term, k int32, pos []int32) (interaction.ActID, interaction.Term, int) {
	a := pb.a
	act, next := a.st.Successor(t, int(k))
	parts := a.parts(pb.p, act)
	var finished interaction.Lifelines
	for _, pt := range parts {
		pos[pt.c]++
		if !pb.exact && int(pos[pt.c]) == len(pb.traces[pt.c]) {
			finished = finished.Union(pb.p.lifelines[pt.c])
		}
	}
	if !finished.IsEmpty() {
		next = a.st.RemoveObserved(next, finished, pb.together(pos))
	}
	return act, next, len(parts)
}

// steps is a partition's memo of straight's steps, by a key of the search,
// the term and the component heads (stepKey; its width is the partition's
// components and two): a table of package hashslots over the keys, stored
// one after the other.
type steps struct {
	table []uint64 // hashslots: the top 32 bits of a key's hash, its index + 1
	shift uint8
	keys  []int32 // the keys, each of width ints
	width int
	res   []stepResult
	key   []int32 // scratch of stepKey
}

// find returns the step of key, of hash h (hashslots.Ints), if known.
func (m *steps) find(key []int32, h uint64) (stepResult, bool) {
	if len(m.table) == 0 {
		return stepResult{}, false
	}
	tag := h &^ (1<<32 - 1)
	mask := uint64(len(m.table) - 1)
	for s := h >> m.shift; ; s = (s + 1) & mask {
		e := m.table[s]
		if e == 0 {
			return stepResult{}, false
		}
		if e&^(1<<32-1) == tag {
			i := int(uint32(e)) - 1
			if slices.Equal(m.keys[i*m.width:(i+1)*m.width], key) {
				return m.res[i], true
			}
		}
	}
}

// add remembers r as the step of key, of hash h, not known before.
func (m *steps) add(key []int32, h uint64, r stepResult) {
	if len(m.table) == 0 {
		m.table, m.shift, m.width = make([]uint64, minTable), uint8(64-bits.TrailingZeros(minTable)), len(key)
	}
	if 4*(len(m.res)+1) > 3*len(m.table) {
		m.table, m.shift = hashslots.Grow(m.table, m.shift)
	}
	mask := uint64(len(m.table) - 1)
	s := h >> m.shift
	for m.table[s] != 0 {
		s = (s + 1) & mask
	}
	m.keys = append(m.keys, key...)
	m.res = append(m.res, r)
	m.table[s] = h&^(1<<32-1) | uint64(len(m.res))
}

func (m *steps) clear() { *m = steps{key: m.key} }
