package interaction

import "slices"

// LastActions returns, sorted, the actions on lifeline l that end the
// projection on l of a trace of t: for every trace of t with an action on
// l, its last action on l is among them. (They may include more, as the
// sync of two operands is read as their interleaving; they are exact
// otherwise.) On one lifeline strict, seq and a coregion elsewhere
// concatenate their operands' projections, par, sync and a coregion on l
// interleave them, and a loop concatenates its iterations'. So a
// component of a multi-trace whose last event on l has no such action is
// the projection of no trace of t: it is not exactly accepted (the
// runtime engine's optimistic attempt says so at once).
func (s *Store) LastActions(t Term, l LifelineID) []Action {
	return s.lastActions(t, l, map[Term][]Action{})
}

func (s *Store) lastActions(t Term, l LifelineID, memo map[Term][]Action) []Action {
	if !s.props[t].occ.Has(l) {
		return nil
	}
	if r, ok := memo[t]; ok {
		return r
	}
	n := s.nodes[t]
	var r []Action
	switch {
	case n.op == OpAct:
		for _, a := range s.acts[n.aux] {
			if a.Lifeline() == l {
				r = append(r, a)
			}
		}
		slices.Sort(r)
		r = slices.Compact(r)
	case n.op.IsLoop():
		r = s.lastActions(n.left, l, memo)
	case n.op == OpStrict || n.op == OpSeq || n.op == OpCoreg && !s.sets[n.aux].Has(l):
		// The right operand's, and the left's when the right has a trace
		// without l (must is exact for that).
		r = s.lastActions(n.right, l, memo)
		if !s.props[n.right].must.Has(l) {
			r = unionActions(r, s.lastActions(n.left, l, memo))
		}
	default: // alt, par, sync, coreg on l
		r = unionActions(s.lastActions(n.left, l, memo), s.lastActions(n.right, l, memo))
	}
	memo[t] = r
	return r
}

// unionActions returns the sorted union of two sorted sets of actions, a new
// slice unless one of them is empty.
func unionActions(a, b []Action) []Action {
	switch {
	case len(a) == 0:
		return b
	case len(b) == 0:
		return a
	}
	r := make([]Action, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			r, a = append(r, a[0]), a[1:]
		case b[0] < a[0]:
			r, b = append(r, b[0]), b[1:]
		default:
			r, a, b = append(r, a[0]), a[1:], b[1:]
		}
	}
	return append(append(r, a...), b...)
}
