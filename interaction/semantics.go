package interaction

import (
	"fmt"
	"slices"
	"strings"
)

// ActID names a multi-action interned in a Store. Frontier elements carry
// one, so matching them against a multi-trace compares integers.
type ActID uint32

// ActID returns the id of m in the store, interning it if needed.
func (s *Store) ActID(m MultiAction) ActID { return ActID(s.internActs(m)) }

// NumActIDs returns the number of multi-actions interned so far: the ids
// are 0 to NumActIDs()-1.
func (s *Store) NumActIDs() int { return len(s.acts) }

// MultiAction returns the multi-action named id.
func (s *Store) MultiAction(id ActID) MultiAction { return s.acts[id] }

// ActLifelines returns θ of the multi-action named id.
func (s *Store) ActLifelines(id ActID) Lifelines { return s.actLifelines(uint32(id)) }

func (s *Store) actLifelines(id uint32) Lifelines { return s.actLls[id] }

// semCaches memoizes the semantic functions. Terms are dense integers, so the
// per-term tables are slices indexed by Term.
type semCaches struct {
	// byTerm holds the per-term memos of the frontier, pruning and
	// canonical rewriting, one table for all (see termMemo).
	byTerm []termMemo
	felts  [][]felt  // the elements of every memoized frontier (see fspan)
	chunks [4][]felt // room for felts' first chunks: a small store allocates no slice of them
	// feltBytes is the memory of felts' chunks, kept as they are made:
	// Bytes is asked at every vertex of a search, and a large search
	// makes thousands of chunks.
	feltBytes int64
	prune     map[setKey]Term // Prune's results but the first of each term (termMemo.prune)
	avoids    map[setKey]bool
	remove    map[setKey]Term
	// mentions is keyed by (term, multi-action id): does the term use one
	// of the actions?
	mentions map[setKey]bool
	minActs  map[setKey]int32
	// For canonical rewriting: inclusion of a term in a loop, and the terms
	// each pruned term was pruned from.
	incl        map[inclKey]bool
	prunedFrom  []prunedLink // the lists of the terms pruned into a term (termMemo.prunedFrom)
	instances   map[instKey]int8
	mixed       map[setKey]bool
	needsGhosts map[setKey]bool
	ghost       map[setKey]Term
	first       map[uint64]bool   // FirstInProjection, keyed by question id and term
	firstQ      map[uint64]uint32 // the ids of the questions (part, lifelines)
}

// termMemo holds the memos of a term that most terms have at most one of.
type termMemo struct {
	front fspan // where its frontier is
	// prune is its first result of Prune: pruned of the set id, it is r-1
	// (r is 0 when none is known); the others are in semCaches.prune.
	prune struct{ set, r uint32 }
	// prunedFrom-1 is the first link of the list of the terms whose
	// pruning gave it, in semCaches.prunedFrom (0 for none).
	prunedFrom uint32
	// canon-1 is its canonical form (see Canonical), 0 until computed.
	canon uint32
}

// prunedLink is a link of a list of terms whose pruning gave a term:
// from, then the list at semCaches.prunedFrom[next-1] (next is 0 at the
// end). The lists of all terms share one slice: most have one link.
type prunedLink struct {
	from Term
	next uint32
}

// termMemo returns the memos of t, growing the table when t is new to it.
func (s *Store) termMemo(t Term) *termMemo {
	c := &s.sem
	if int(t) >= len(c.byTerm) {
		c.byTerm = append(c.byTerm, make([]termMemo, max(2*len(s.nodes), int(t)+1)-len(c.byTerm))...)
	}
	return &c.byTerm[t]
}

type setKey struct {
	t   Term
	set uint32
}

// fspan locates the memoized frontier of a term: its elements are
// felts[chunk][start : end-1]; end is 0 until it is computed. The frontiers
// are stored in a few large chunks that never move: memoizing a term's
// frontier costs no allocation of its own, and its elements (with their
// lazily computed results) stay where they are.
type fspan struct{ chunk, start, end uint32 }

// maxFeltChunk bounds the size of a chunk of frontier elements (the chunks
// double in size up to it).
const maxFeltChunk = 1 << 16

// felt is a frontier element, described relative to the operands' frontiers
// so that executing it reuses their memoized results.
type felt struct {
	act uint32 // multi-action id
	// The index in the left (j) and right (k) operand's frontier, -1 for an
	// operand the element does not come from.
	j, k int32
	next Term // next-1 is the result of executing the element; 0 = not yet computed
}

// side says where the element comes from: 0 a leaf, 1 the left operand or
// the loop body, 2 the right operand, 3 both (a sync).
func (e felt) side() uint8 {
	var s uint8
	if e.j >= 0 {
		s |= 1
	}
	if e.k >= 0 {
		s |= 2
	}
	return s
}

// FrontierElt is an immediately executable (multi-)action of a term, at its
// Dewey position: "" is the root, "1" the left operand or loop body, "2"
// the right operand; a sync of both operands is written "(p1|p2)".
type FrontierElt struct {
	Act ActID
	Pos string
}

// frontier returns the frontier of t, computing and memoizing it when
// needed.
func (s *Store) frontier(t Term) []felt {
	if int(t) < len(s.sem.byTerm) {
		if sp := s.sem.byTerm[t].front; sp.end != 0 {
			return s.sem.felts[sp.chunk][sp.start : sp.end-1]
		}
	}
	return s.newFrontier(t)
}

// newFrontier computes, memoizes and returns the frontier of t.
func (s *Store) newFrontier(t Term) []felt {
	sp := s.computeFrontier(t)
	s.termMemo(t).front = sp
	return s.sem.felts[sp.chunk][sp.start : sp.end-1]
}

// computeFrontier stores the frontier of t after the last one, once the
// frontiers of its operands are known, and returns where it is.
func (s *Store) computeFrontier(t Term) fspan {
	n := s.nodes[t]
	c := &s.sem
	var left, right []felt // the operands' frontiers, when t's elements come from them
	var sync []felt
	switch {
	case n.op == OpEmpty || n.op == OpAct:
	case n.op.IsLoop():
		left = s.frontier(n.left)
	case n.op == OpSync:
		sync = s.syncFrontier(n)
	case n.op == OpStrict && !s.props[n.left].nullable:
		left = s.frontier(n.left)
	default:
		left, right = s.frontier(n.left), s.frontier(n.right)
	}
	// From here to the end, nothing may compute a frontier (Avoids does
	// not): t's elements are appended to the last chunk in place, and only
	// committed at the end.
	elts := s.feltRoom(len(left) + len(right) + len(sync) + 1)
	chunk, start := len(c.felts)-1, len(elts)
	for j, e := range left {
		elts = append(elts, felt{act: e.act, j: int32(j), k: -1})
	}
	switch n.op {
	case OpEmpty:
	case OpAct:
		elts = append(elts, felt{act: n.aux, j: -1, k: -1})
	case OpSeq:
		for k, e := range right {
			if s.Avoids(n.left, s.actLifelines(e.act)) {
				elts = append(elts, felt{act: e.act, j: -1, k: int32(k)})
			}
		}
	case OpCoreg:
		cr := s.sets[n.aux]
		for k, e := range right {
			if s.Avoids(n.left, s.actLifelines(e.act).Minus(cr)) {
				elts = append(elts, felt{act: e.act, j: -1, k: int32(k)})
			}
		}
	case OpSync:
		elts = append(elts, sync...)
	default: // alt, par, strict with a nullable left operand
		for k, e := range right {
			elts = append(elts, felt{act: e.act, j: -1, k: int32(k)})
		}
	}
	if chunk != len(c.felts)-1 || len(c.felts[chunk]) != start {
		panic("interaction: a frontier was computed while another was being stored")
	}
	c.felts[chunk] = elts // within its capacity: the chunk has not moved
	return fspan{uint32(chunk), uint32(start), uint32(len(elts)) + 1}
}

// feltRoom returns the last chunk of frontier elements, a new one when it
// has no room for need more elements.
func (s *Store) feltRoom(need int) []felt {
	c := &s.sem
	if k := len(c.felts); k > 0 {
		if last := c.felts[k-1]; cap(last)-len(last) >= need {
			return last
		}
	}
	s.grows()
	size := 2*len(s.nodes) + 16
	if k := len(c.felts); k > 0 {
		size = max(size, 2*cap(c.felts[k-1]))
	} else {
		c.felts = c.chunks[:0]
	}
	c.felts = append(c.felts, make([]felt, 0, max(min(size, maxFeltChunk), need)))
	c.feltBytes += sliceBytes(c.felts[len(c.felts)-1])
	return c.felts[len(c.felts)-1]
}

// syncFrontier: actions outside the synchronized set A run on either side; an
// element meeting A must be joined with an element of the other side that
// meets A on exactly the same actions, and the two execute as one.
func (s *Store) syncFrontier(n node) []felt {
	sync := s.acts[n.aux]
	inter := func(act uint32) string {
		var b strings.Builder
		for _, a := range s.acts[act] {
			for _, x := range sync {
				if a == x {
					fmt.Fprintf(&b, "%d,", a)
				}
			}
		}
		return b.String()
	}
	var elts []felt
	lf, rf := s.frontier(n.left), s.frontier(n.right)
	var lsync, rsync []int
	for j, e := range lf {
		if inter(e.act) == "" {
			elts = append(elts, felt{act: e.act, j: int32(j), k: -1})
		} else {
			lsync = append(lsync, j)
		}
	}
	for k, e := range rf {
		if inter(e.act) == "" {
			elts = append(elts, felt{act: e.act, j: -1, k: int32(k)})
		} else {
			rsync = append(rsync, k)
		}
	}
	for _, j := range lsync {
		for _, k := range rsync {
			if inter(lf[j].act) == inter(rf[k].act) {
				joint := NewMultiAction(append(append([]Action{}, s.acts[lf[j].act]...), s.acts[rf[k].act]...)...)
				elts = append(elts, felt{act: s.internActs(joint), j: int32(j), k: int32(k)})
			}
		}
	}
	return elts
}

// NumFrontier returns the number of elements of the frontier of t.
func (s *Store) NumFrontier(t Term) int { return len(s.frontier(t)) }

// FrontierAct returns the (multi-)action of the k-th frontier element of t.
func (s *Store) FrontierAct(t Term, k int) ActID { return ActID(s.frontier(t)[k].act) }

// Frontier returns the immediately executable actions of t with their positions.
func (s *Store) Frontier(t Term) []FrontierElt {
	f := s.frontier(t)
	out := make([]FrontierElt, len(f))
	for k, e := range f {
		out[k] = FrontierElt{Act: ActID(e.act), Pos: s.position(t, k)}
	}
	return out
}

func (s *Store) position(t Term, k int) string {
	var b strings.Builder
	for {
		e := s.frontier(t)[k]
		n := s.nodes[t]
		switch e.side() {
		case 0:
			return b.String()
		case 1:
			b.WriteByte('1')
			t, k = n.left, int(e.j)
		case 2:
			b.WriteByte('2')
			t, k = n.right, int(e.k)
		case 3:
			fmt.Fprintf(&b, "(1%s|2%s)", s.position(n.left, int(e.j)), s.position(n.right, int(e.k)))
			return b.String()
		}
	}
}

// Step returns the term reached by executing the k-th frontier element of t
// (i –a@p→ i′), with ∅ operands simplified.
func (s *Store) Step(t Term, k int) Term {
	f := s.frontier(t)
	if r := f[k].next; r != 0 {
		return r - 1
	}
	r := s.step(t, f[k])
	f[k].next = r + 1 // the elements never move
	return r
}

// Successor returns the multi-action of the k-th frontier element of t and
// the term its execution reaches: FrontierAct and Step with one look-up of
// the frontier.
func (s *Store) Successor(t Term, k int) (ActID, Term) {
	f := s.frontier(t)
	if r := f[k].next; r != 0 {
		return ActID(f[k].act), r - 1
	}
	r := s.step(t, f[k])
	f[k].next = r + 1
	return ActID(f[k].act), r
}

func (s *Store) step(t Term, e felt) Term {
	n := s.nodes[t]
	switch n.op {
	case OpAct:
		return Empty
	case OpAlt:
		if e.side() == 1 {
			return s.Step(n.left, int(e.j))
		}
		return s.Step(n.right, int(e.k))
	case OpStrict:
		if e.side() == 1 {
			return s.with(t, s.Step(n.left, int(e.j)), n.right)
		}
		return s.Step(n.right, int(e.k))
	case OpPar:
		if e.side() == 1 {
			return s.with(t, s.Step(n.left, int(e.j)), n.right)
		}
		return s.with(t, n.left, s.Step(n.right, int(e.k)))
	case OpSeq, OpCoreg:
		if e.side() == 1 {
			return s.with(t, s.Step(n.left, int(e.j)), n.right)
		}
		var pruned Term
		if n.op == OpCoreg {
			pruned, _ = s.Prune(n.left, s.actLifelines(e.act).Minus(s.sets[n.aux]))
		} else {
			pruned, _ = s.pruneAct(n.left, e.act)
		}
		return s.with(t, pruned, s.Step(n.right, int(e.k)))
	case OpSync:
		l, r := n.left, n.right
		if e.side()&1 != 0 {
			l = s.Step(n.left, int(e.j))
		}
		if e.side()&2 != 0 {
			r = s.Step(n.right, int(e.k))
		}
		return s.with(t, l, r)
	case OpLoopS, OpLoopH, OpLoopW, OpLoopP:
		body := s.Step(n.left, int(e.j))
		if body == Empty {
			// The iteration is over at once: what remains is the loop itself
			// (for loopW, seq(prune(loopW(i)), loopW(i)) has the same traces).
			return t
		}
		switch n.op {
		case OpLoopS:
			return s.mk(OpStrict, body, t)
		case OpLoopH:
			return s.mk(OpSeq, body, t)
		case OpLoopP:
			return s.mk(OpPar, body, t)
		default:
			// Earlier iterations that do not involve θ(a) may still occur.
			pruned, _ := s.pruneAct(t, e.act)
			return s.mk(OpSeq, pruned, s.mk(OpSeq, body, t))
		}
	}
	panic("interaction: step on " + n.op.String())
}

// Execute returns the term reached by executing the frontier element of t at
// position pos, or an error if no element is at pos.
func (s *Store) Execute(t Term, pos string) (Term, error) {
	for k := range s.frontier(t) {
		if s.position(t, k) == pos {
			return s.Step(t, k), nil
		}
	}
	return 0, fmt.Errorf("no executable action at position %q of %s", pos, s.Format(t))
}

// Avoids reports whether t can be pruned of the lifelines ls: whether some
// behaviours of t have no action on ls (¬(t ⊗ ls) in the papers).
func (s *Store) Avoids(t Term, ls Lifelines) bool {
	p := s.props[t]
	if !p.occ.Meets(ls) {
		return true
	}
	if p.must.Meets(ls) {
		return false
	}
	if ls.Len() == 1 {
		return true // for one lifeline, collision is exactly must (Def. 14)
	}
	// Only alt-free reasoning remains: must under-approximates collision with a
	// set (alt(a!m, b!m) collides with {a,b} but with neither alone).
	c := &s.sem
	if c.avoids == nil {
		c.avoids = map[setKey]bool{}
	}
	key := setKey{t, s.internSet(ls)}
	if r, ok := c.avoids[key]; ok {
		return r
	}
	n := s.nodes[t]
	var r bool
	switch {
	case n.op.IsLoop():
		r = true
	case n.op == OpAlt:
		r = s.Avoids(n.left, ls) || s.Avoids(n.right, ls)
	default: // strict, seq, par, coreg, sync; an action was decided above
		r = s.Avoids(n.left, ls) && s.Avoids(n.right, ls)
	}
	c.avoids[key] = r
	return r
}

// Prune returns the largest part of the behaviours of t that has no action on
// the lifelines ls (i ≃_ls i′), and false if there is none (t collides with ls).
func (s *Store) Prune(t Term, ls Lifelines) (Term, bool) {
	if !s.props[t].occ.Meets(ls) {
		return t, true
	}
	if !s.Avoids(t, ls) {
		return 0, false
	}
	return s.prune(t, ls, s.internSet(ls)), true
}

// pruneAct is Prune of the lifelines of the multi-action act.
func (s *Store) pruneAct(t Term, act uint32) (Term, bool) {
	ls := s.actLls[act]
	if !s.props[t].occ.Meets(ls) {
		return t, true
	}
	if !s.Avoids(t, ls) {
		return 0, false
	}
	return s.prune(t, ls, s.actSet[act]), true
}

// prune is Prune of a term that avoids ls, the interned set id.
func (s *Store) prune(t Term, ls Lifelines, id uint32) Term {
	if !s.props[t].occ.Meets(ls) {
		return t
	}
	c := &s.sem
	if int(t) < len(c.byTerm) {
		if p := c.byTerm[t].prune; p.r != 0 {
			if p.set == id {
				return Term(p.r - 1)
			}
			if r, ok := c.prune[setKey{t, id}]; ok {
				return r
			}
		}
	}
	// sub is the prune of an operand, ok false when it collides with ls.
	sub := func(t Term) (Term, bool) {
		if !s.Avoids(t, ls) {
			return 0, false
		}
		return s.prune(t, ls, id), true
	}
	n := s.nodes[t]
	var r Term
	switch {
	case n.op.IsLoop():
		if body, ok := sub(n.left); ok {
			r = s.mk(n.op, body, 0)
		} else {
			r = Empty
		}
	case n.op == OpAlt:
		l, lok := sub(n.left)
		rr, rok := sub(n.right)
		switch {
		case lok && rok:
			r = s.mk(OpAlt, l, rr)
		case lok:
			r = l
		default:
			r = rr
		}
	default:
		l, _ := sub(n.left)
		rr, _ := sub(n.right)
		r = s.with(t, l, rr)
	}
	s.memoPrune(t, id, r)
	if r != t {
		s.addPrunedFrom(r, t)
	}
	return r
}

// memoPrune records that t pruned of the set id is r.
func (s *Store) memoPrune(t Term, id uint32, r Term) {
	c := &s.sem
	if m := s.termMemo(t); m.prune.r == 0 {
		m.prune.set, m.prune.r = id, uint32(r)+1
		return
	}
	if c.prune == nil {
		c.prune = map[setKey]Term{}
	}
	c.prune[setKey{t, id}] = r
}

// addPrunedFrom records that pruning turned t into r.
func (s *Store) addPrunedFrom(r, t Term) {
	c := &s.sem
	m := s.termMemo(r)
	// Append t to r's list, unless it is in it.
	last := uint32(0) // the last link (+1), 0 while the list is empty
	for i := m.prunedFrom; i != 0; i = c.prunedFrom[i-1].next {
		if c.prunedFrom[i-1].from == t {
			return
		}
		last = i
	}
	if c.prunedFrom == nil {
		c.prunedFrom = make([]prunedLink, 0, 4)
	}
	c.prunedFrom = append(c.prunedFrom, prunedLink{from: t})
	if last == 0 {
		m.prunedFrom = uint32(len(c.prunedFrom))
	} else {
		c.prunedFrom[last-1].next = uint32(len(c.prunedFrom))
	}
}

// anyPrunedOrigin reports whether f holds for one of the terms that
// pruning turned into r, calling it on them in the order they were found
// until it does.
func (s *Store) anyPrunedOrigin(r Term, f func(from Term) bool) bool {
	c := &s.sem
	if int(r) >= len(c.byTerm) {
		return false
	}
	for i := c.byTerm[r].prunedFrom; i != 0; i = c.prunedFrom[i-1].next {
		if f(c.prunedFrom[i-1].from) {
			return true
		}
	}
	return false
}

// Remove returns rmv_ls(t): t with every action on the lifelines ls erased
// (lifeline removal), simplified. A multi-action loses its parts on ls, a
// coreg(L) forgets the removed lifelines of L (a seq when none remain), and a
// sync forgets its removed actions (a par when none remain).
func (s *Store) Remove(t Term, ls Lifelines) Term {
	if !s.props[t].occ.Meets(ls) {
		return t
	}
	if s.sem.remove == nil {
		s.sem.remove = make(map[setKey]Term, memoHint)
	}
	// The search removes from the same few terms again and again: what it
	// asks is remembered whatever its size (see removeMemoMin).
	id := s.internSet(ls)
	key := setKey{t, id}
	if r, ok := s.sem.remove[key]; ok {
		return r
	}
	r := s.remove(t, ls, id)
	s.sem.remove[key] = r
	return r
}

// remove is Remove with the interned id of ls.
func (s *Store) remove(t Term, ls Lifelines, id uint32) Term {
	p := s.props[t]
	if !p.occ.Meets(ls) {
		return t
	}
	if p.occ.SubsetOf(ls) {
		return Empty // with all its actions erased, any term simplifies to ∅
	}
	c := &s.sem
	key := setKey{t, id}
	memo := p.actions >= removeMemoMin
	if r, ok := c.remove[key]; memo && ok {
		return r
	}
	n := s.nodes[t]
	var r Term
	switch {
	case n.op == OpAct:
		var kept []Action
		for _, a := range s.acts[n.aux] {
			if !ls.Has(a.Lifeline()) {
				kept = append(kept, a)
			}
		}
		r = s.Act(kept...) // not empty: occ is not inside ls
	case n.op.IsLoop():
		r = s.mk(n.op, s.remove(n.left, ls, id), 0)
	case n.op == OpCoreg:
		l, rr := s.remove(n.left, ls, id), s.remove(n.right, ls, id)
		if cr := s.sets[n.aux].Minus(ls); cr.IsEmpty() {
			r = s.mk(OpSeq, l, rr)
		} else {
			r = s.mkNode(node{op: OpCoreg, left: l, right: rr, aux: s.internSet(cr)})
		}
	case n.op == OpSync:
		l, rr := s.remove(n.left, ls, id), s.remove(n.right, ls, id)
		var kept []Action
		for _, a := range s.acts[n.aux] {
			if !ls.Has(a.Lifeline()) {
				kept = append(kept, a)
			}
		}
		if len(kept) == 0 {
			r = s.mk(OpPar, l, rr)
		} else {
			r = s.mkNode(node{op: OpSync, left: l, right: rr, aux: s.internActs(NewMultiAction(kept...))})
		}
	default:
		r = s.with(t, s.remove(n.left, ls, id), s.remove(n.right, ls, id))
	}
	if memo {
		c.remove[key] = r
	}
	return r
}

// MinEvents returns a lower bound of the number of events (multi-actions)
// with an action on the lifelines ls in every complete trace of t: in the
// multi-trace, each such event is one event of the component of ls. It is
// exact but for sync, where joined events are counted once per operand at
// most. An exact analysis uses it to drop a vertex whose term demands more
// events of a component than its trace has left.
func (s *Store) MinEvents(t Term, ls Lifelines) int {
	p := s.props[t]
	if p.nullable || !p.must.Meets(ls) {
		// A nullable term has the empty trace; a term that does not collide
		// with ls has a trace without ls.
		return 0
	}
	c := &s.sem
	if c.minActs == nil {
		c.minActs = map[setKey]int32{}
	}
	key := setKey{t, s.internSet(ls)}
	if r, ok := c.minActs[key]; ok {
		return int(r)
	}
	n := s.nodes[t]
	var r int
	switch {
	case n.op == OpAct:
		r = 1 // must meets ls: the event touches ls
	case n.op == OpAlt:
		r = min(s.MinEvents(n.left, ls), s.MinEvents(n.right, ls))
	case n.op == OpSync:
		r = max(s.MinEvents(n.left, ls), s.MinEvents(n.right, ls))
	case n.op.IsBinary():
		r = s.MinEvents(n.left, ls) + s.MinEvents(n.right, ls)
	}
	c.minActs[key] = int32(min(r, 1<<30))
	return r
}

// Instances counts, up to 2, the positions at which the single action a is
// immediately executable in rmv_{L∖{θ(a)}}(t), the projection of t on θ(a)
// (Def. 11 of the lifeline-removal paper: a is one-unambiguous in t when the
// count is 1). It reads the structure of t without building the projection,
// so canonical rewriting, which may merge equal alt branches of a projection,
// cannot hide a second instance. A sync around an instance counts as
// ambiguous, and so does an instance in the right operand of a strict whose
// left operand has actions on other lifelines (executing it would discard
// them: strict(alt(∅,l1!x),l2!y) with l1!x then l2!y observed), or in the
// body of a loopS or loopH with actions on other lifelines (executing it
// would make its iteration the first). Prop. 14 of the paper, which assumes
// otherwise, fails on these; the differential tests found both.
func (s *Store) Instances(t Term, a Action) int {
	if !s.props[t].occ.Has(a.Lifeline()) {
		return 0
	}
	c := &s.sem
	if c.instances == nil {
		c.instances = make(map[instKey]int8, memoHint)
	}
	key := instKey{t, a}
	if r, ok := c.instances[key]; ok {
		return int(r)
	}
	r := s.countInstances(t, a)
	c.instances[key] = int8(r)
	return r
}

// instances is Instances for an operand: remembered only from
// removeMemoMin actions on, as below that counting again is cheaper than a
// map, and a new store would fill its map with every operand.
func (s *Store) instances(t Term, a Action) int {
	if p := &s.props[t]; !p.occ.Has(a.Lifeline()) {
		return 0
	} else if p.actions >= removeMemoMin {
		return s.Instances(t, a)
	}
	return s.countInstances(t, a)
}

// countInstances counts the instances of a in t from those of its operands.
func (s *Store) countInstances(t Term, a Action) int {
	l := a.Lifeline()
	n := s.nodes[t]
	var r int
	switch {
	case n.op == OpAct:
		if slices.Contains(s.acts[n.aux], a) {
			r = 1
		}
	case n.op.IsLoop():
		r = s.instances(n.left, a)
		// loopS and loopH order their iterations after the first one: if a
		// starts an iteration, earlier iterations made of other lifelines'
		// actions can no longer come first (loopS(alt(l3!x,l2!y)) with l2!y
		// observed before l3!x on another component).
		if r > 0 && (n.op == OpLoopS || n.op == OpLoopH) && !s.props[n.left].occ.Minus(LifelinesOf(l)).IsEmpty() {
			r = 2
		}
	case n.op == OpAlt || n.op == OpPar:
		r = s.instances(n.left, a) + s.instances(n.right, a)
	case n.op == OpSeq:
		// On θ(a) alone, the right operand starts once the left one can be
		// empty there: when it avoids θ(a).
		r = s.instances(n.left, a)
		if !s.props[n.left].must.Has(l) {
			r += s.instances(n.right, a)
		}
	case n.op == OpStrict:
		r = s.instances(n.left, a)
		if !s.props[n.left].must.Has(l) {
			right := s.instances(n.right, a)
			// Executing a in the right operand discards the left one. If the
			// left one has actions on other lifelines, a path that runs them
			// first and a after them is lost: choosing a first is not safe
			// (Prop. 14 of the paper overlooks this), so count it ambiguous.
			if right > 0 && !s.props[n.left].occ.Minus(LifelinesOf(l)).IsEmpty() {
				right = 2
			}
			r += right
		}
	case n.op == OpCoreg:
		r = s.instances(n.left, a)
		if s.sets[n.aux].Has(l) || !s.props[n.left].must.Has(l) {
			r += s.instances(n.right, a)
		}
	case n.op == OpSync:
		if r = s.instances(n.left, a) + s.instances(n.right, a); r > 0 {
			r = 2
		}
	}
	return min(r, 2)
}

type instKey struct {
	t Term
	a Action
}

// RemoveObserved is lifeline removal for an analysis that stops observing
// the lifelines ls: its observable traces are exactly those of t with the
// actions on ls hidden. Remove alone is exact when no multi-action of t has
// actions both on ls and elsewhere (then the actions on ls order no other
// action). With such <synch> multi-actions, an action on ls may order
// observed events — in seq({a!m,c?m},{b!n,c?n}), a!m before b!n through c —
// and erasing it would accept too much (the papers define removal without
// multi-actions); when some weak sequencing may order events through ls
// (see needsGhosts), RemoveObserved turns every action on ls into a ghost
// (see Ghost), which keeps the order but is never observed: an analysis
// executes silent (ghost-only) events without consuming anything. A sync
// whose synchronized actions are on ls needs ghosts too, to keep joining
// the events it joins.
//
// Locations of several lifelines need ghosts too: the order of two actions
// on different lifelines is observed when they share a component, and
// actions on ls may order them: in seq(strict(a!m,c?m),strict(c!n,b?n)),
// a!m comes before b?n through c. The papers' Th. 1 holds on multi-traces
// with one component per lifeline, where such an order is invisible. Pass
// together=true when some component still observed has several lifelines.
func (s *Store) RemoveObserved(t Term, ls Lifelines, together bool) Term {
	if !s.props[t].occ.Meets(ls) {
		return t
	}
	if !together && !s.needsGhosts(t, ls) {
		return s.Remove(t, ls)
	}
	return s.ghostRemove(t, ls)
}

// needsGhosts reports whether erasing the actions on ls could lose an order
// between observed events (or a synchronization): whether some weak
// sequencing (seq, coreg outside its lifelines, loopW, loopH) has a lifeline
// of ls on both sides, with a multi-action on ls and other lifelines under
// it, or as a coreg that frees lifelines still observed; or whether a sync
// synchronizes actions on ls. Strict sequencing orders its operands whatever
// their lifelines, par and alt order nothing, and with single actions and no
// coregion lifeline removal is exact (Th. 1 of the lifeline-removal paper).
func (s *Store) needsGhosts(t Term, ls Lifelines) bool {
	p := s.props[t]
	if !p.occ.Meets(ls) || !p.weak || !p.tied {
		return false
	}
	c := &s.sem
	if c.needsGhosts == nil {
		c.needsGhosts = map[setKey]bool{}
	}
	key := setKey{t, s.internSet(ls)}
	if r, ok := c.needsGhosts[key]; ok {
		return r
	}
	n := s.nodes[t]
	var r bool
	switch {
	case n.op == OpAct:
	case n.op == OpSync:
		// Erasing a synchronized action would unlink the events it joins.
		r = s.acts[n.aux].Lifelines().Meets(ls) || s.needsGhosts(n.left, ls) || s.needsGhosts(n.right, ls)
	case n.op == OpLoopW || n.op == OpLoopH:
		r = s.mixed(n.left, ls) || s.needsGhosts(n.left, ls)
	case n.op.IsLoop():
		r = s.needsGhosts(n.left, ls)
	case n.op == OpSeq || n.op == OpCoreg:
		occ := s.props[n.left].occ.Union(s.props[n.right].occ)
		shared := s.props[n.left].occ.Intersect(s.props[n.right].occ).Intersect(ls)
		free := false // a coregion frees lifelines still observed
		if n.op == OpCoreg {
			shared = shared.Minus(s.sets[n.aux])
			free = !s.sets[n.aux].Intersect(occ).Minus(ls).IsEmpty()
		}
		// The order the removed lifelines carry between the operands is lost
		// by erasing them when a multi-action ties them to observed lifelines,
		// or when a coregion lets observed actions overtake each other except
		// through the removed lifelines (strict(a!x,c?x) before
		// strict(c!y,a?y) in coreg(a): a!x before a?y through c).
		r = !shared.IsEmpty() && (free || s.mixed(n.left, ls) || s.mixed(n.right, ls)) ||
			s.needsGhosts(n.left, ls) || s.needsGhosts(n.right, ls)
	default:
		r = s.needsGhosts(n.left, ls) || s.needsGhosts(n.right, ls)
	}
	c.needsGhosts[key] = r
	return r
}

// mixed reports whether some multi-action of t has actions on ls and on
// other lifelines.
func (s *Store) mixed(t Term, ls Lifelines) bool {
	p := s.props[t]
	if !p.tied || !p.occ.Meets(ls) || p.occ.SubsetOf(ls) {
		return false
	}
	c := &s.sem
	if c.mixed == nil {
		c.mixed = map[setKey]bool{}
	}
	key := setKey{t, s.internSet(ls)}
	if r, ok := c.mixed[key]; ok {
		return r
	}
	n := s.nodes[t]
	var r bool
	switch {
	case n.op == OpAct:
		r = true // occ meets ls and is not inside it
	case n.op.IsLoop():
		r = s.mixed(n.left, ls)
	default:
		r = s.mixed(n.left, ls) || s.mixed(n.right, ls)
	}
	c.mixed[key] = r
	return r
}

func (s *Store) ghostRemove(t Term, ls Lifelines) Term {
	if !s.props[t].occ.Meets(ls) {
		return t
	}
	c := &s.sem
	if c.ghost == nil {
		c.ghost = map[setKey]Term{}
	}
	key := setKey{t, s.internSet(ls)}
	if r, ok := c.ghost[key]; ok {
		return r
	}
	ghosts := func(m MultiAction) MultiAction {
		out := make([]Action, len(m))
		for i, a := range m {
			if ls.Has(a.Lifeline()) {
				a = Ghost(a)
			}
			out[i] = a
		}
		return NewMultiAction(out...)
	}
	n := s.nodes[t]
	var r Term
	switch {
	case n.op == OpAct:
		r = s.Act(ghosts(s.acts[n.aux])...)
	case n.op.IsLoop():
		r = s.mk(n.op, s.ghostRemove(n.left, ls), 0)
	case n.op == OpSync:
		r = s.mkNode(node{op: OpSync, left: s.ghostRemove(n.left, ls), right: s.ghostRemove(n.right, ls),
			aux: s.internActs(ghosts(s.acts[n.aux]))})
	default: // a coreg keeps its lifelines: a ghost still occupies its lifeline
		r = s.with(t, s.ghostRemove(n.left, ls), s.ghostRemove(n.right, ls))
	}
	c.ghost[key] = r
	return r
}

// EntersLoop reports whether executing the k-th frontier element of t starts
// an iteration of a loop (its position goes through a loop's body).
func (s *Store) EntersLoop(t Term, k int) bool {
	for {
		e := s.frontier(t)[k]
		n := s.nodes[t]
		switch {
		case e.side() == 0:
			return false
		case n.op.IsLoop():
			return true
		case e.side() == 1:
			t, k = n.left, int(e.j)
		case e.side() == 2:
			t, k = n.right, int(e.k)
		default: // a sync join: either side
			return s.EntersLoop(n.left, int(e.j)) || s.EntersLoop(n.right, int(e.k))
		}
	}
}

// LoopDepth returns β(t), the largest number of loops nested in t.
func (s *Store) LoopDepth(t Term) int {
	if d := s.props[t].loopDepth; d < maxLoopDepth {
		return int(d)
	}
	// Deeper than props hold: count.
	n := s.nodes[t]
	switch {
	case n.op == OpEmpty || n.op == OpAct:
		return 0
	case n.op.IsLoop():
		return 1 + s.LoopDepth(n.left)
	}
	return max(s.LoopDepth(n.left), s.LoopDepth(n.right))
}

// FrontierLoopDepth returns β(t, p): the number of loops around the position
// of the k-th frontier element of t (0 outside loops). For a sync join, the
// deeper side counts.
func (s *Store) FrontierLoopDepth(t Term, k int) int {
	d := 0
	for {
		e := s.frontier(t)[k]
		n := s.nodes[t]
		if n.op.IsLoop() {
			d++
		}
		switch e.side() {
		case 0:
			return d
		case 1:
			t, k = n.left, int(e.j)
		case 2:
			t, k = n.right, int(e.k)
		default:
			return d + max(s.FrontierLoopDepth(n.left, int(e.j)), s.FrontierLoopDepth(n.right, int(e.k)))
		}
	}
}

// Eta returns η(t), the number of actions of t outside loops (Def. 13 of the
// slice paper): actions count 1, alt takes the larger operand, the other
// binary operators add, loops count 0. It saturates at 2^30.
func (s *Store) Eta(t Term) int { return int(s.props[t].eta) }

// memoMinActions is the size (in actions) from which FirstInProjection
// memoizes its results: below it, recomputing is cheaper
// than a map lookup, and the maps stay small.
const memoMinActions = 128

// removeMemoMin is memoMinActions for Remove, whose recomputation builds
// terms again.
const removeMemoMin = 16

// FirstInProjection reports whether the multi-action part (an event of a
// component whose lifelines are ls: the restriction to ls of some action of
// t) can be the first event of rmv_{L∖ls}(t), the projection of t on ls,
// without building the projection. It may answer true when unsure (around a
// sync); false is certain. A local analysis uses it to decide a component
// with one event left at the cost of a walk down the term.
func (s *Store) FirstInProjection(t Term, ls Lifelines, part ActID) bool {
	if !s.props[t].occ.Meets(ls) {
		return false
	}
	c := &s.sem
	if c.first == nil {
		c.first = map[uint64]bool{}
		c.firstQ = map[uint64]uint32{}
	}
	// The question (part, ls) gets a small id, so that memo keys are integers.
	q := uint64(part)<<32 | uint64(s.internSet(ls))
	id, ok := c.firstQ[q]
	if !ok {
		id = uint32(len(c.firstQ))
		c.firstQ[q] = id
	}
	return s.firstIn(t, ls, part, uint64(id))
}

func (s *Store) firstIn(t Term, ls Lifelines, part ActID, q uint64) bool {
	if !s.props[t].occ.Meets(ls) {
		return false
	}
	n := s.nodes[t]
	if n.op == OpAct {
		want, got := s.acts[part], 0
		for _, a := range s.acts[n.aux] {
			if ls.Has(a.Lifeline()) {
				if got >= len(want) || want[got] != a {
					return false
				}
				got++
			}
		}
		return got == len(want)
	}
	c := &s.sem
	key := q<<32 | uint64(t)
	memo := s.props[t].actions >= memoMinActions
	if r, ok := c.first[key]; memo && ok {
		return r
	}
	var r bool
	switch {
	case n.op.IsLoop():
		r = s.firstIn(n.left, ls, part, q)
	case n.op == OpAlt || n.op == OpPar:
		r = s.firstIn(n.left, ls, part, q) || s.firstIn(n.right, ls, part, q)
	case n.op == OpSync:
		r = true
	default:
		// On ls alone, the right operand of strict starts once the left one
		// can be empty there; of seq, once it can avoid the event's
		// lifelines (outside the coregion for coreg).
		need := ls
		if n.op != OpStrict {
			need = s.ActLifelines(part)
			if n.op == OpCoreg {
				need = need.Minus(s.sets[n.aux])
			}
		}
		r = s.firstIn(n.left, ls, part, q) ||
			s.Avoids(n.left, need) && s.firstIn(n.right, ls, part, q)
	}
	if memo {
		c.first[key] = r
	}
	return r
}

// memoHint is the room the memos that most analyses fill take when first
// made: growing a map from nothing rehashes it again and again, which a
// fresh store's first analyses would pay.
const memoHint = 256
