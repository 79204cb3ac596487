package rewrite

import (
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/verdict"
)

// A Fail is explained by the deepest vertices a search reached: those that
// consumed the most events, with the same positions as the first of them
// found. The expected actions are the union of their frontiers: every action
// the interaction could execute after consuming those events, whichever way
// it went (as the automata engine's subset construction does). When a
// component's trace is impossible on its own (a local analysis at the root
// failed), the explanation is that component's instead: how far its
// projection could follow it, and the actions it could execute there.

// track remembers the furthest vertices, for the explanation of a Fail.
func (pb *problem) track(t interaction.Term, pos []int32) {
	sum := 0
	for _, x := range pos {
		sum += int(x)
	}
	switch {
	case sum > pb.best:
		pb.best = sum
		pb.bestPos = append(pb.bestPos[:0], pos...)
		pb.bestTerms = pb.bestTerms[:0]
	case sum < pb.best || !slices.Equal(pos, pb.bestPos):
		return
	}
	pb.bestTerms = append(pb.bestTerms, t)
}

// actSet is a set of multi-actions, in the order they were added.
type actSet struct {
	list []interaction.ActID
	has  []bool // by ActID
}

func (s *actSet) reset() {
	for _, id := range s.list {
		s.has[id] = false
	}
	s.list = s.list[:0]
}

func (s *actSet) add(id interaction.ActID) {
	if int(id) >= len(s.has) {
		s.has = append(s.has, make([]bool, int(id)+1-len(s.has))...)
	}
	if !s.has[id] {
		s.has[id] = true
		s.list = append(s.list, id)
	}
}

// frontier adds the multi-actions of t's frontier.
func (s *actSet) frontier(st *interaction.Store, t interaction.Term) {
	for k, nf := 0, st.NumFrontier(t); k < nf; k++ {
		s.add(st.FrontierAct(t, k))
	}
}

// names returns the set's observable multi-actions, as sorted text.
func (s *actSet) names(a *Analyzer) []string {
	out := make([]string, 0, len(s.list))
	for _, id := range s.list {
		if !a.st.MultiAction(id).IsSilent() {
			out = append(out, a.name(id))
		}
	}
	if len(out) == 0 {
		return nil // as JSON, null: what it always was
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (pb *problem) explain() *verdict.Explanation {
	st := pb.a.st
	sig := st.Signature()
	e := &verdict.Explanation{}
	pos := append(pb.scratch[:0], pb.bestPos...) // the scratch of order, free now
	if pb.best < 0 {
		pos = slices.Grow(pos[:0], len(pb.traces))[:len(pb.traces)]
		clear(pos)
		pb.bestTerms = append(pb.bestTerms[:0], pb.a.root)
	}
	defer func() { pb.scratch = pos[:0] }()
	pb.expect.reset()
	for _, t := range pb.bestTerms {
		pb.expect.frontier(st, t)
	}
	p := pb.p
	if p.names == nil {
		p.names = make([]string, len(p.lifelines))
		for c, ls := range p.lifelines {
			p.names[c] = ls.Format(sig)
		}
	}
	if c := pb.locFail; c >= 0 {
		e.LocalFailure = p.names[c]
		clear(pos)
		pos[c] = int32(pb.localStuck(c))
	}
	if len(pb.traces) > 0 {
		e.Components = make([]verdict.ComponentProgress, 0, len(pb.traces))
	}
	for c, tr := range pb.traces {
		cp := verdict.ComponentProgress{Lifelines: p.names[c], Consumed: int(pos[c]), Length: len(tr)}
		if int(pos[c]) < len(tr) {
			cp.Head = pb.a.name(tr[pos[c]])
		}
		e.Components = append(e.Components, cp)
	}
	e.Expected = pb.expect.names(pb.a)
	return e
}

// name returns the text of a multi-action.
func (a *Analyzer) name(id interaction.ActID) string {
	if int(id) >= len(a.names) {
		a.names = slices.Grow(a.names, int(id)+1-len(a.names))[:id+1]
	}
	if a.names[id] == "" {
		a.names[id] = a.st.MultiAction(id).Format(a.st.Signature())
	}
	return a.names[id]
}

// explainExact looks again for the furthest vertices of a failed exact
// search, without pruning the vertices whose components have fewer events
// left than the term needs (which stops the search early, and the
// explanation with it, where the trace could still be followed). The
// verdict stands: this search only explains it, within a few times the
// vertices of the search that decided, and a limit only cuts the
// explanation short.
func (pb *problem) explainExact() {
	nodes, local, stopped, reason := pb.nodes, pb.localNodes, pb.stopped, pb.stopReason
	pb.explaining = true
	pb.maxNodes = min(pb.maxNodes, nodes+local+max(4*(nodes+local), 1<<14))
	pb.search(exactSearch)
	pb.explaining = false
	pb.maxNodes = pb.a.opts.MaxNodes
	pb.nodes, pb.localNodes, pb.stopped, pb.stopReason = nodes, local, stopped, reason
}

// localStuck explains the local failure of component c: it follows c's
// trace in the projection of the term where the failure was found, through
// all the terms each prefix reaches (in a slice, after any actions the
// projection may execute first), and returns how many events it could
// consume; pb.expect gets the actions those terms could execute next.
func (pb *problem) localStuck(c int) int {
	st := pb.a.st
	tr := pb.traces[c]
	proj := st.Remove(pb.locTerm, pb.a.complementOf(pb.p, c))
	level := []interaction.Term{proj}
	if pb.locSlice {
		if level = pb.closure(proj, maxSliceCheck); level == nil {
			// Too many terms to tell: the event of no action, if any.
			pb.expect.reset()
			return max(pb.foreignAt, 0)
		}
	}
	for q := 0; ; q++ {
		pb.expect.reset()
		for _, u := range level {
			pb.expect.frontier(st, u)
		}
		if q == len(tr) {
			return q
		}
		next := pb.consume(level, tr[q])
		if len(next) == 0 || !pb.withinNow() {
			return q
		}
		level = next
	}
}

// consume returns the terms reached from those of level by executing act.
func (pb *problem) consume(level []interaction.Term, act interaction.ActID) []interaction.Term {
	st := pb.a.st
	var next []interaction.Term
	seen := map[interaction.Term]bool{}
	for _, u := range level {
		for k, nf := 0, st.NumFrontier(u); k < nf; k++ {
			if st.FrontierAct(u, k) != act {
				continue
			}
			if w := st.Step(u, k); !seen[w] {
				seen[w] = true
				next = append(next, w)
			}
		}
	}
	return next
}
