package runtime

import (
	"github.com/ivc-project/ivc/interaction"
)

// decide runs one search: exact (no lifeline removal, the final term must
// terminate) or multi-prefix (the lifelines of consumed components are
// removed). It returns Pass when the target vertex is reachable, Fail when it
// is not, and Inconc when a limit stopped it.
func (pb *problem) decide(exact bool) Verdict {
	pb.exact = exact
	a := pb.a
	st := a.st
	n := len(pb.traces)
	vs := &a.vs
	// A vertex holds one position per component, then the budget of silent
	// loop iterations (see below).
	vs.reset(n + 1)
	start := a.root
	if !exact {
		var empty interaction.Lifelines
		for c, tr := range pb.traces {
			if len(tr) == 0 {
				empty = empty.Union(pb.p.lifelines[c])
			}
		}
		start = st.RemoveObserved(start, empty, pb.together(nil))
	}
	root := vs.add(start)
	vs.pos(root)[n] = int32(st.LoopDepth(start))
	work := append(a.work[:0], root)
	defer func() { a.work = work[:0] }()
	g := pb.graph
	if g != nil {
		g.begin(exact)
	}
	succ := a.succ[:0]
	defer func() { a.succ = succ[:0] }()
	head := 0 // BFS reads from the front of work

	for len(work) > head {
		var v int32
		if a.opts.Strategy == BFS {
			v = work[head]
			head++
		} else {
			v = work[len(work)-1]
			work = work[:len(work)-1]
		}
		canon, fresh := vs.insert(v)
		if g != nil {
			g.reach(v, canon, fresh)
		}
		if !fresh {
			continue
		}
		if !pb.count(false) {
			if g != nil {
				g.status(v, "limit")
			}
			return Inconc
		}
		t := vs.term(v)
		pos := vs.pos(v)[:n]
		budget := vs.pos(v)[n]
		pb.track(t, pos)

		done := true
		for c, tr := range pb.traces {
			if int(pos[c]) < len(tr) {
				done = false
				break
			}
		}
		if done {
			if exact && st.Nullable(t) || !exact && pb.completable(t) {
				if g != nil {
					g.status(v, "ok")
				}
				return Pass
			}
			if g != nil {
				g.status(v, "dead")
			}
			continue
		}
		if exact && !pb.enoughLeft(t, pos) {
			if g != nil {
				g.status(v, "too-short")
			}
			continue
		}
		if a.opts.LOC && !pb.localOK(t, pos) {
			if pb.stopped != "" {
				return Inconc
			}
			if g != nil {
				g.status(v, "local-fail")
			}
			continue
		}

		succ = succ[:0]
		for k, nf := 0, st.NumFrontier(t); k < nf; k++ {
			if pb.matches(st.FrontierAct(t, k), pos) && (budget > 0 || !pb.silentLoopStart(t, k)) {
				succ = append(succ, k)
			}
		}
		if a.opts.POR && len(succ) > 1 {
			for _, k := range succ {
				if pb.oneUnambiguous(t, st.FrontierAct(t, k)) {
					succ = append(succ[:0], k)
					break
				}
			}
		}
		if len(succ) == 0 && g != nil {
			g.status(v, "dead")
		}
		// Push in reverse so that DFS explores the frontier in order.
		base := len(work)
		for i := len(succ) - 1; i >= 0; i-- {
			k := succ[i]
			act := st.FrontierAct(t, k)
			next := st.Step(t, k)
			w := vs.add(next)
			wp := vs.pos(w)
			copy(wp, vs.pos(v))
			var consumed interaction.Lifelines
			ps := a.parts(pb.p, act)
			for _, pt := range ps {
				wp[pt.c]++
				if !exact && int(wp[pt.c]) == len(pb.traces[pt.c]) {
					consumed = consumed.Union(pb.p.lifelines[pt.c])
				}
			}
			if !consumed.IsEmpty() {
				next = st.RemoveObserved(next, consumed, pb.together(wp))
				vs.setTerm(w, next)
			}
			switch {
			case len(ps) > 0:
				wp[n] = int32(st.LoopDepth(next))
			case st.EntersLoop(t, k):
				wp[n]--
			}
			if g != nil {
				g.edge(v, w, act, consumed)
			}
			work = append(work, w)
		}
		if a.opts.Strategy == DFS {
			pb.order(work[base:])
		}
		if a.opts.Strategy == BFS && head > 4096 && head > len(work)/2 {
			work = append(work[:0], work[head:]...)
			head = 0
		}
	}
	return Fail
}

// order sorts freshly pushed successors so that DFS pops first the one whose
// term has the fewest actions left: a path that opens fewer loop iterations
// and leaves fewer pending actions is likelier to reach the goal. The sort is
// stable (insertion sort: there are few successors), so ties keep the
// frontier order.
func (pb *problem) order(ws []int32) {
	vs, st := &pb.a.vs, pb.a.st
	size := func(w int32) int { return st.NumActions(vs.term(w)) }
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0 && size(ws[j-1]) < size(ws[j]); j-- {
			ws[j-1], ws[j] = ws[j], ws[j-1]
		}
	}
}

// together reports whether a component still observed (not consumed at the
// positions pos, or at the start when pos is nil) has several lifelines:
// then removal must keep ghosts (see interaction.RemoveObserved).
func (pb *problem) together(pos []int32) bool {
	for c, tr := range pb.traces {
		if len(tr) > 0 && (pos == nil || int(pos[c]) < len(tr)) && pb.p.lifelines[c].Len() > 1 {
			return true
		}
	}
	return false
}

// completable reports whether the term left once every component is
// consumed still has a complete trace, as a multi-prefix must extend to an
// accepted multi-trace. Only a sync can deadlock (an operand waiting for a
// partner that never comes); otherwise every term completes. What remains is
// made of ghosts, executed silently, with at most β iteration starts.
func (pb *problem) completable(t interaction.Term) bool {
	a := pb.a
	if !a.hasSync || !hasSync(a.st, t) {
		return true
	}
	st := a.st
	type cv struct {
		t      interaction.Term
		budget int
	}
	seen := map[cv]bool{}
	var rec func(v cv) bool
	rec = func(v cv) bool {
		if st.Nullable(v.t) {
			return true
		}
		if seen[v] || !pb.count(true) {
			return false
		}
		seen[v] = true
		for k, nf := 0, st.NumFrontier(v.t); k < nf; k++ {
			b := v.budget
			if st.EntersLoop(v.t, k) {
				if b == 0 {
					continue
				}
				b--
			}
			if rec(cv{st.Step(v.t, k), b}) {
				return true
			}
		}
		return false
	}
	return rec(cv{t, st.LoopDepth(t)})
}

// silentLoopStart reports whether the k-th frontier element of t is silent
// (a ghost-only event, see interaction.RemoveObserved) and starts a loop
// iteration. Executing silent events consumes nothing, so unbounded loop
// iterations of them would make the search infinite. They are needed only to
// unblock an observed event of the same iteration: at most one per loop
// enclosing that event, hence the budget of β (the loop depth) silent
// iteration starts between two observed events.
func (pb *problem) silentLoopStart(t interaction.Term, k int) bool {
	st := pb.a.st
	return len(pb.a.parts(pb.p, st.FrontierAct(t, k))) == 0 && st.EntersLoop(t, k)
}

// enoughLeft reports whether every component has at least as many events
// left as the term demands of it (an exact search must consume them all).
func (pb *problem) enoughLeft(t interaction.Term, pos []int32) bool {
	st := pb.a.st
	for c, tr := range pb.traces {
		if st.MinEvents(t, pb.p.lifelines[c]) > len(tr)-int(pos[c]) {
			return false
		}
	}
	return true
}

// matches reports whether the multi-action id can be consumed now: each of
// its parts is the head of its component.
func (pb *problem) matches(id interaction.ActID, pos []int32) bool {
	for _, pt := range pb.a.parts(pb.p, id) {
		if pt.c < 0 {
			return false
		}
		tr := pb.traces[pt.c]
		if int(pos[pt.c]) >= len(tr) || tr[pos[pt.c]] != pt.act {
			return false
		}
	}
	return true
}
