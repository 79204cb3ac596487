package interaction

import "unsafe"

// Hooks for the external tests (package interaction_test) of the Store's
// internal tables.

// Props returns the props of t, those computed when t was interned.
func (s *Store) Props(t Term) (occ, must Lifelines, actions int, nullable, weak, sorted, weakLoop bool) {
	p := s.props[t]
	return p.occ, p.must, int(p.actions), p.nullable, p.weak, p.sorted, p.weakLoop
}

// AddPrunedFrom is addPrunedFrom.
func (s *Store) AddPrunedFrom(r, t Term) { s.addPrunedFrom(r, t) }

// PrunedOrigins returns the terms anyPrunedOrigin goes through for r, in
// its order.
func (s *Store) PrunedOrigins(r Term) []Term {
	var out []Term
	s.anyPrunedOrigin(r, func(from Term) bool {
		out = append(out, from)
		return false
	})
	return out
}

// Rebuild rebuilds t bottom-up with the rules of canonical rewriting, node
// by node and without the memo of Canonical: a canonical term rebuilds to
// itself.
func (s *Store) Rebuild(t Term) Term {
	raw := s.raw
	s.raw = false
	defer func() { s.raw = raw }()
	var rec func(t Term) Term
	rec = func(t Term) Term {
		n := s.nodes[t]
		switch {
		case n.op == OpEmpty || n.op == OpAct:
			return t
		case n.op.IsLoop():
			return s.with(t, rec(n.left), Empty)
		}
		return s.with(t, rec(n.left), rec(n.right))
	}
	return rec(t)
}

// TableSizes returns the sizes of a term's props and of a frontier element.
func TableSizes() (propsSize, feltSize uintptr) {
	return unsafe.Sizeof(props{}), unsafe.Sizeof(felt{})
}
