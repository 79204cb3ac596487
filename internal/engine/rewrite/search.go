package rewrite

import (
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hashslots"
	"github.com/ivc-project/ivc/verdict"
)

// searchKind is the question a search answers.
type searchKind uint8

const (
	// exactSearch: no lifeline removal; the final term must terminate.
	exactSearch searchKind = iota
	// prefixSearch: the lifelines of consumed components are removed.
	prefixSearch
	// sliceSearch: as prefixSearch, and the actions of components whose
	// observation has not started yet may be simulated, within a budget.
	sliceSearch
)

// localAfter is how many vertices past the number of events a search takes
// before it runs the local analyses at every vertex; before, it runs them at
// its root only (which finds a component's trace impossible alone: the
// explanation of a Fail). A small search is mostly the path to its goal,
// whose vertices pass every local analysis, and the analyses cost more
// vertices than they spare: on the lifeline-removal corpus, deferring them
// so takes 8% fewer vertices in all (local ones included), and 10-20% less
// time at p90. A search that grows past the bound, where pruning pays, has
// them from there on.
const localAfter = 16

// Extra slots of a vertex after its positions: the budgets. Only a slice
// search has the last two.
const (
	slotSilent = iota // silent loop iterations left (see silentBudget)
	slotLambda        // slice budget: loop instances left
	slotAlpha         // slice budget: actions outside loops left
	extraSlots
)

// How a vertex was reached, for the explanation of a slice.
const (
	viaRoot = iota
	viaConsume
	viaSimulate
	viaSilent
)

// decide runs one search. It returns Pass when the goal is reachable, Fail
// when it is not (for a slice search: and no simulation was refused for lack
// of budget), and Inconc when a limit stopped it or the budget may have hidden
// a slice.
func (pb *problem) decide(kind searchKind) verdict.Verdict {
	pb.exact = kind == exactSearch
	pb.kind = kind
	pb.refused = false
	a := pb.a
	st := a.st
	n := len(pb.traces)
	vs := &a.vs
	extra := slotSilent + 1
	if kind == sliceSearch {
		extra = extraSlots
	}
	vs.reset(n+extra, extra)
	start := a.root
	if kind != exactSearch {
		var empty interaction.Lifelines
		for c, tr := range pb.traces {
			if len(tr) == 0 {
				empty = empty.Union(pb.p.lifelines[c])
			}
		}
		start = st.RemoveObserved(start, empty, pb.together(nil))
	}
	root := vs.add(start)
	rp := vs.pos(root)
	clear(rp)
	rp[n+slotSilent] = pb.silentBudget(start, rp[:n])
	if kind == sliceSearch {
		rp[n+slotLambda], rp[n+slotAlpha] = pb.initialBudget(start)
	}
	a.via = append(a.via[:0], viaStep{parent: -1})
	// The work list holds moves not taken yet, not vertices: a vertex is
	// added to the arena when its move is taken, and dropped at once when
	// an equal vertex was reached before, so that the arena holds one
	// vertex per distinct vertex rather than one per edge.
	work := append(a.work[:0], edge{from: -1})
	head := 0 // BFS reads from the front of work
	defer func() { a.work = work[:0] }()
	g := pb.graph
	if g != nil {
		g.begin(pb.exact)
		defer func() { pb.unexplored(work[head:]) }()
	}
	succ := a.succ[:0]
	defer func() { a.succ = succ[:0] }()

	for len(work) > head {
		var e edge
		if a.opts.Strategy == BFS {
			e = work[head]
			head++
		} else {
			e = work[len(work)-1]
			work = work[:len(work)-1]
		}
		v := root
		if e.from >= 0 {
			v = pb.push(e.from, e.m)
		}
		canon, fresh := vs.insert(v)
		if g != nil {
			g.reach(v, canon, fresh)
		}
		if !fresh {
			pb.drop(v)
			continue
		}
		if !pb.count(pb.optimistic) {
			if g != nil {
				g.status(v, "limit")
			}
			return verdict.Inconc
		}
		t := vs.term(v)
		pos := vs.pos(v)[:n]
		pb.track(t, pos)
		pb.atRoot = v == root

		if pb.consumedAll(pos) {
			if pb.isGoal(t) {
				if g != nil {
					g.status(v, "ok")
				}
				pb.goal = v
				return verdict.Pass
			}
			if pb.stopped != "" {
				return verdict.Inconc
			}
			if g != nil {
				g.status(v, "dead")
			}
			continue
		}
		if pb.optimistic && pb.localNodes > pb.optimisticEnd {
			pb.gaveUp = true // see accepted
			return verdict.Inconc
		}
		if pb.exact && !pb.explaining && !pb.leftOK(t, pos) {
			if g != nil {
				g.status(v, "too-short")
			}
			continue
		}
		if pb.starved(t, pos) {
			if g != nil {
				g.status(v, "dead")
			}
			continue
		}
		if a.opts.LOC && !pb.optimistic && (v == root || int(v) > len(pb.events)+localAfter) && !pb.localOK(t, pos) {
			if pb.stopped != "" {
				return verdict.Inconc
			}
			if g != nil {
				g.status(v, "local-fail")
			}
			continue
		}

		succ = pb.successors(v, succ[:0])
		if len(succ) == 0 && g != nil {
			g.status(v, "dead")
		}
		// Push in reverse so that DFS explores the frontier in order.
		base := len(work)
		for i := len(succ) - 1; i >= 0; i-- {
			work = append(work, edge{from: v, m: succ[i]})
		}
		if a.opts.Strategy == DFS {
			pb.order(work[base:])
		}
		if a.opts.Strategy == BFS && head > 4096 && head > len(work)/2 {
			work = append(work[:0], work[head:]...)
			head = 0
		}
		a.work = work // for the memory budget
	}
	if kind == sliceSearch && pb.refused {
		return verdict.Inconc
	}
	return verdict.Fail
}

// consumedAll reports whether the positions pos are past every
// component's last event.
func (pb *problem) consumedAll(pos []int32) bool {
	for c, tr := range pb.traces {
		if int(pos[c]) < len(tr) {
			return false
		}
	}
	return true
}

// isGoal reports whether t, once every event is consumed, is the goal:
// terminating (exact search), or completable (without the removed
// lifelines' actions, see completable).
func (pb *problem) isGoal(t interaction.Term) bool {
	if pb.exact {
		return pb.a.st.Nullable(t)
	}
	return pb.completable(t)
}

// edge is a move not taken yet: m from the vertex from (-1 for the root).
type edge struct {
	from int32
	m    move
}

// drop removes vertex v, the last one added, which an equal vertex already
// covers.
func (pb *problem) drop(v int32) {
	pb.a.vs.drop(v)
	if pb.recordsVia() {
		pb.a.via = pb.a.via[:v]
	}
}

// unexplored records in the graph the moves a search left untaken when it
// stopped (at its goal or at a limit).
func (pb *problem) unexplored(es []edge) {
	if pb.graph.full() || pb.stopReason == verdict.Memory {
		pb.graph.g.OmittedEdges += len(es)
		return
	}
	for _, e := range es {
		if e.from < 0 {
			continue
		}
		w := pb.push(e.from, e.m)
		pb.graph.unexplored(w, pb.a.vs.find(w))
		pb.drop(w)
	}
}

// move is a successor of a vertex: the k-th frontier element, consumed or
// simulated.
type move struct {
	k     int32
	sim   bool // simulated: executed without consuming anything
	mixed bool // the parts that match are consumed, the others simulated
}

// recordsVia reports whether the search records how each vertex was
// reached (a.via): a slice search, for the actions it simulated, a
// multi-prefix search, for replay, and any search for a witness.
func (pb *problem) recordsVia() bool { return pb.kind != exactSearch || pb.witness }

// viaStep records how the vertex of the same index was reached.
type viaStep struct {
	parent int32
	act    interaction.ActID
	how    uint8
}

// successors lists the moves from vertex v.
func (pb *problem) successors(v int32, succ []move) []move {
	a := pb.a
	st := a.st
	vs := &a.vs
	n := len(pb.traces)
	t := vs.term(v)
	pos := vs.pos(v)[:n]
	silentBudget := vs.pos(v)[n+slotSilent]
	for k, nf := int32(0), int32(st.NumFrontier(t)); k < nf; k++ {
		act := st.FrontierAct(t, int(k))
		ps := a.parts(pb.p, act)
		if len(ps) == 0 {
			if silentBudget > 0 || !st.EntersLoop(t, int(k)) {
				succ = append(succ, move{k: k})
			}
			continue
		}
		if pb.matches(ps, pos) {
			succ = append(succ, move{k: k})
		}
		if pb.kind != sliceSearch {
			continue
		}
		if pb.simulable(ps, pos) {
			if _, _, ok := pb.simBudget(v, int(k)); ok {
				succ = append(succ, move{k: k, sim: true})
			} else {
				pb.refused = true
			}
		}
		if len(ps) > 1 {
			// A multi-action across components: consume the parts that match
			// and simulate the others (on components not started yet). Other
			// mixes (simulating a part that also matches) are not explored,
			// so the search is no longer complete.
			matched, simulated, both := 0, 0, 0
			for _, pt := range ps {
				m := pb.partMatches(pt, pos)
				u := pos[pt.c] == 0
				switch {
				case m && u:
					both++
					matched++
				case m:
					matched++
				case u:
					simulated++
				default:
					matched = -len(ps)
				}
			}
			if matched > 0 && simulated > 0 {
				succ = append(succ, move{k: k, mixed: true})
			}
			if both > 0 && len(ps) > 1 {
				pb.refused = true
			}
		}
	}
	if a.opts.POR && len(succ) > 1 {
		for _, m := range succ {
			if !m.sim && pb.porCandidate(pos, st.FrontierAct(t, int(m.k))) && pb.unambiguous(t, int(m.k)) {
				return append(succ[:0], m)
			}
		}
	}
	return succ
}

// porCandidate: in a slice search, partial order reduction is limited to the
// actions of components whose observation has started (there, as in a
// multi-prefix search, nothing of the component can be simulated any more).
func (pb *problem) porCandidate(pos []int32, act interaction.ActID) bool {
	if pb.kind != sliceSearch {
		return true
	}
	for _, pt := range pb.a.parts(pb.p, act) {
		if pos[pt.c] == 0 {
			return false
		}
	}
	return true
}

// simulable reports whether every part lies on a component whose observation
// has not started (nothing consumed yet, and something to observe).
func (pb *problem) simulable(ps []part, pos []int32) bool {
	for _, pt := range ps {
		if pos[pt.c] != 0 || len(pb.traces[pt.c]) == 0 {
			return false
		}
	}
	return true
}

// push adds the vertex reached from v by the move m and returns it.
func (pb *problem) push(v int32, m move) int32 {
	a := pb.a
	vs := &a.vs
	w := vs.add(interaction.Empty)
	act, next, consumed, how := pb.apply(v, m, vs.pos(w))
	vs.setTerm(w, next)
	if pb.recordsVia() {
		a.via = append(hashslots.Doubled(a.via), viaStep{parent: v, act: act, how: how})
	}
	if g := pb.graph; g != nil {
		g.edge(v, w, act, consumed, m.sim)
	}
	return w
}

// apply computes the vertex reached from v by the move m: it writes its
// positions and budgets into wp and returns the multi-action executed, its
// term, the lifelines of the components the move finished (removed from
// the term), and how it was reached.
func (pb *problem) apply(v int32, m move, wp []int32) (interaction.ActID, interaction.Term, interaction.Lifelines, uint8) {
	a := pb.a
	st := a.st
	vs := &a.vs
	n := len(pb.traces)
	t := vs.term(v)
	k := int(m.k)
	act, next := st.Successor(t, k)
	copy(wp, vs.pos(v))
	how := uint8(viaSilent)
	var consumed interaction.Lifelines
	ps := a.parts(pb.p, act)
	switch {
	case m.sim:
		how = viaSimulate
		wp[n+slotLambda], wp[n+slotAlpha], _ = pb.simBudget(v, k)
	case len(ps) > 0:
		how = viaConsume
		for _, pt := range ps {
			if m.mixed && !pb.partMatches(pt, vs.pos(v)) {
				continue
			}
			wp[pt.c]++
			if !pb.exact && int(wp[pt.c]) == len(pb.traces[pt.c]) {
				consumed = consumed.Union(pb.p.lifelines[pt.c])
			}
		}
	}
	if !consumed.IsEmpty() {
		next = st.RemoveObserved(next, consumed, pb.together(wp))
	}
	switch {
	case how == viaConsume:
		wp[n+slotSilent] = pb.silentBudget(next, wp[:n])
		if pb.sim.Reset && pb.kind == sliceSearch {
			wp[n+slotLambda], wp[n+slotAlpha] = pb.resetBudget(next)
		}
	case st.EntersLoop(t, k):
		wp[n+slotSilent]--
		// A silent iteration brings its actions out of the loop for free, as
		// removal would have erased the ghost that started it: what they add
		// outside loops is added to the slice budget α.
		if grown := int32(st.Eta(next) - st.Eta(t)); grown > 0 && pb.kind == sliceSearch {
			wp[n+slotAlpha] += grown
		}
	}
	return act, next, consumed, how
}

// order sorts freshly pushed moves so that DFS takes first the one whose
// term has the fewest actions left: a path that opens fewer loop iterations
// and leaves fewer pending actions is likelier to reach the goal. In a slice
// search, consuming comes before simulating. The sort is stable (insertion
// sort: there are few successors), so ties keep the frontier order.
func (pb *problem) order(es []edge) {
	if len(es) < 2 {
		return
	}
	st := pb.a.st
	sizes := pb.sizes[:0]
	for _, e := range es {
		s := st.NumActions(pb.next(e))
		if pb.kind == sliceSearch && e.m.sim {
			s += 1 << 24
		}
		sizes = append(sizes, s)
	}
	pb.sizes = sizes
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && sizes[j-1] < sizes[j]; j-- {
			es[j-1], es[j] = es[j], es[j-1]
			sizes[j-1], sizes[j] = sizes[j], sizes[j-1]
		}
	}
}

// next returns the term e leads to, as apply does, without the positions
// and budgets that only push needs: the successor itself, but for a move
// that may consume a component's last event (which removes its lifelines:
// apply then decides).
func (pb *problem) next(e edge) interaction.Term {
	a := pb.a
	t := a.vs.term(e.from)
	act, next := a.st.Successor(t, int(e.m.k))
	if pb.exact || e.m.sim {
		return next // nothing is removed
	}
	pos := a.vs.pos(e.from)
	for _, pt := range a.parts(pb.p, act) {
		if pt.c >= 0 && int(pos[pt.c])+1 >= len(pb.traces[pt.c]) {
			pb.scratch = slices.Grow(pb.scratch[:0], a.vs.n)[:a.vs.n]
			_, next, _, _ = pb.apply(e.from, e.m, pb.scratch)
			return next
		}
	}
	return next
}

// together reports whether a component still observed (not consumed at the
// positions pos, or at the start when pos is nil) has several lifelines:
// then removal must keep ghosts (see interaction.RemoveObserved).
func (pb *problem) together(pos []int32) bool {
	for _, c := range pb.p.several {
		if tr := pb.traces[c]; len(tr) > 0 && (pos == nil || int(pos[c]) < len(tr)) {
			return true
		}
	}
	return false
}

// completable reports whether the term left once every component is
// consumed still has a complete trace, as a multi-prefix must extend to an
// accepted multi-trace. Only a sync can deadlock (an operand waiting for a
// partner that never comes); otherwise every term completes. What remains is
// made of ghosts, executed silently. A sync may need many iterations of a
// loop to give its partners (one per synchronized action of the other
// side), so the search allows β·(|t|+1) iteration starts (β the loop depth,
// |t| the actions of t), a bound no shortest completion exceeds in practice
// (the differential tests check it against the reference semantics), and a
// term explored with a budget is not explored again with less.
func (pb *problem) completable(t interaction.Term) bool {
	a := pb.a
	if !a.hasSync || !hasSync(a.st, t) {
		return true
	}
	st := a.st
	if pb.completing == nil {
		pb.completing = map[interaction.Term]int{}
	}
	explored := pb.completing // the largest budget tried
	defer clear(explored)
	var rec func(t interaction.Term, budget int) bool
	rec = func(t interaction.Term, budget int) bool {
		if st.Nullable(t) {
			return true
		}
		if b, ok := explored[t]; ok && b >= budget || !pb.count(true) {
			return false
		}
		explored[t] = budget
		for k, nf := 0, st.NumFrontier(t); k < nf; k++ {
			b := budget
			if st.EntersLoop(t, k) {
				if b == 0 {
					continue
				}
				b--
			}
			if rec(st.Step(t, k), b) {
				return true
			}
		}
		return false
	}
	return rec(t, st.LoopDepth(t)*min(st.NumActions(t)+1, 1<<10))
}

// silentBudget is how many loop iterations silent events (ghost-only
// events, see interaction.RemoveObserved) may start before the next
// observed event, at the vertex (t, pos): β(t) times the events left to
// observe. Executing silent events consumes nothing, so unbounded loop
// iterations of them would make the search infinite. An iteration made of
// ghosts only is never needed (a loop never blocks anything: it can be
// pruned); one with observed actions is needed only if one of the events
// left reads it, with at most β iterations nested around that event. So the
// bound loses nothing, and keeps the search finite.
func (pb *problem) silentBudget(t interaction.Term, pos []int32) int32 {
	depth := pb.a.st.LoopDepth(t)
	if depth == 0 { // no loop to start: the events left need not be counted
		return 0
	}
	left := 0
	for c, tr := range pb.traces {
		left += len(tr) - int(pos[c])
	}
	return int32(depth * max(left, 1))
}

// starved reports whether a component with events left has no lifeline the
// term still has an action on: it can never move again. (A cheap necessary
// condition that local analyses would also find, at a higher cost.)
func (pb *problem) starved(t interaction.Term, pos []int32) bool {
	occ := pb.a.st.Occurring(t)
	for c, tr := range pb.traces {
		if int(pos[c]) < len(tr) && !occ.Meets(pb.p.lifelines[c]) {
			return true
		}
	}
	return false
}

// leftOK reports whether the components have enough events left for t,
// as an exact search asks: enoughLeft, or in the optimistic attempt its
// cheap part, canEnd.
func (pb *problem) leftOK(t interaction.Term, pos []int32) bool {
	if pb.optimistic {
		return pb.canEnd(t, pos)
	}
	return pb.enoughLeft(t, pos)
}

// canEnd reports whether every component whose events are all consumed
// can stay as it is: t has a behaviour with no action on its lifelines (t
// avoids them, which the store answers from the lifelines every behaviour
// of t must act on, mostly). An exact search must end there with no more
// event on it. It is enoughLeft for those components only, at a cost the
// optimistic attempt can afford (see accepted): on the lifeline-removal
// corpus, about a fifth fewer vertices in all. The look-up of the lifelines
// t has an action on first spares the call where they are gone: on
// accepted multi-traces (runtime's BenchmarkDistinct), canEnd costs 3.2%
// without it, 1.6% with it (15 alternations).
func (pb *problem) canEnd(t interaction.Term, pos []int32) bool {
	st := pb.a.st
	occ := st.Occurring(t)
	for c, tr := range pb.traces {
		if int(pos[c]) == len(tr) && occ.Meets(pb.p.lifelines[c]) && !st.Avoids(t, pb.p.lifelines[c]) {
			return false
		}
	}
	return true
}

// enoughLeft reports whether every component has at least as many events
// left as the term demands of it (an exact search must consume them all).
func (pb *problem) enoughLeft(t interaction.Term, pos []int32) bool {
	for c, tr := range pb.traces {
		if pb.a.minEvents(pb.p, c, t) > len(tr)-int(pos[c]) {
			return false
		}
	}
	return true
}

// matches reports whether a multi-action of parts ps can be consumed now:
// each part is the head of its component.
func (pb *problem) matches(ps []part, pos []int32) bool {
	for _, pt := range ps {
		if !pb.partMatches(pt, pos) {
			return false
		}
	}
	return true
}

// partMatches reports whether pt is the head of its component.
func (pb *problem) partMatches(pt part, pos []int32) bool {
	if pt.c < 0 {
		return false
	}
	tr := pb.traces[pt.c]
	return int(pos[pt.c]) < len(tr) && tr[pos[pt.c]] == pt.act
}
