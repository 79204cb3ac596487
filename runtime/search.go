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
	vs.reset(n)
	start := a.root
	if !exact {
		var empty interaction.Lifelines
		for c, tr := range pb.traces {
			if len(tr) == 0 {
				empty = empty.Union(pb.p.lifelines[c])
			}
		}
		start = st.Remove(start, empty)
	}
	work := append(a.work[:0], vs.add(start))
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
		if !pb.count() {
			if g != nil {
				g.status(v, "limit")
			}
			return Inconc
		}
		t := vs.term(v)
		pos := vs.pos(v)
		pb.track(t, pos)

		done := true
		for c, tr := range pb.traces {
			if int(pos[c]) < len(tr) {
				done = false
				break
			}
		}
		if done {
			if !exact || st.Nullable(t) {
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
			if pb.matches(st.FrontierAct(t, k), pos) {
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
			for _, pt := range a.parts(pb.p, act) {
				wp[pt.c]++
				if !exact && int(wp[pt.c]) == len(pb.traces[pt.c]) {
					consumed = consumed.Union(pb.p.lifelines[pt.c])
				}
			}
			if !consumed.IsEmpty() {
				vs.setTerm(w, st.Remove(next, consumed))
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

// enoughLeft reports whether every component has at least as many actions
// left as the term demands of it (an exact search must consume them all).
func (pb *problem) enoughLeft(t interaction.Term, pos []int32) bool {
	st := pb.a.st
	for c, tr := range pb.traces {
		if st.MinActions(t, pb.p.lifelines[c]) > len(tr)-int(pos[c]) {
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
