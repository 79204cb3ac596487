package interaction

import "slices"

// Canonical rewriting. Terms built by the semantic functions (Step, Prune,
// Remove, Simplify) are rewritten into a canonical form that preserves their
// trace language, so that derivative terms that differ only in how they were
// reached become the same term: memo tables then merge them, searches stay
// small and automata built from derivatives stay small.
//
// The rules, each valid on the denotational semantics:
//
//   - associativity: strict, seq, par, alt, and coreg(L)/sync(A) with the
//     same L/A nest to the right: f(f(a,b),c) = f(a,f(b,c));
//   - alt is commutative and idempotent: its operands are sorted (by term
//     id) and deduplicated; par is commutative: its operands are sorted;
//   - closure absorption: a loop's language L is closed under its own
//     composition (loopS under strict; loopW under seq and strict; loopP
//     under par, seq and strict), so if X is nullable and X ⊆ L then
//     f(X, L) = f(L, X) = L, and f(X, f(L, r)) = f(L, r), f(L, f(X, r)) =
//     f(L, r) for f the loop's composition;
//   - nested loops: loopK(loopK'(i)) is the more permissive of the two when
//     one of them is loopW or loopP (loopS(i) ⊆ loopH(i) ⊆ loopW(i) ⊆ loopP(i));
//   - empty iterations: loopK(alt(∅, i)) = loopK(i).
//
// X ⊆ L is decided by a sound syntactic check (included): X is ∅, L itself,
// an iteration (the body or one of its alt branches), a composition or
// iteration of such terms compatible with the loop, or the result of pruning
// such a term.

// SetCanonical turns canonical rewriting on (the default) or off. Tests of
// the papers' worked examples turn it off to compare terms with the papers'.
func (s *Store) SetCanonical(on bool) { s.raw = !on }

// loopRank orders loops by permissiveness: loopS(i) ⊆ loopH(i) ⊆ loopW(i) ⊆ loopP(i).
func loopRank(op Op) int {
	switch op {
	case OpLoopS:
		return 0
	case OpLoopH:
		return 1
	case OpLoopW:
		return 2
	}
	return 3
}

// closes reports whether the language of loop op is closed under the binary
// operator f.
func closes(loop, f Op) bool {
	switch loop {
	case OpLoopS:
		return f == OpStrict
	case OpLoopW:
		return f == OpStrict || f == OpSeq
	case OpLoopP:
		return f == OpStrict || f == OpSeq || f == OpPar
	}
	return false
}

// composition returns the operator a loop iterates with.
func composition(loop Op) Op {
	switch loop {
	case OpLoopS:
		return OpStrict
	case OpLoopW:
		return OpSeq
	case OpLoopP:
		return OpPar
	}
	return OpEmpty
}

// canon interns n in canonical form; n is already ∅-simplified and is a
// binary term or a loop.
func (s *Store) canon(n node) Term {
	switch {
	case n.op.IsLoop():
		return s.canonLoop(n)
	case n.op == OpAlt:
		return s.canonAC(n, true)
	case n.op == OpPar:
		return s.canonAC(n, false)
	}
	// Right-nest strict, seq, coreg(L), sync(A).
	if l := s.nodes[n.left]; l.op == n.op && l.aux == n.aux {
		inner := s.mkNode(node{op: n.op, left: l.right, right: n.right, aux: n.aux})
		return s.mkNode(node{op: n.op, left: l.left, right: inner, aux: n.aux})
	}
	if n.op == OpStrict || n.op == OpSeq {
		if t, ok := s.absorb(n); ok {
			return t
		}
	}
	return s.intern(n)
}

// absorb applies closure absorption to f(X, Y) with f = n.op.
func (s *Store) absorb(n node) (Term, bool) {
	head := func(t Term) Term {
		if m := s.nodes[t]; m.op == n.op && m.aux == n.aux {
			return m.left
		}
		return t
	}
	// f(X, L) = L and f(X, f(L, r)) = f(L, r).
	if l := head(n.right); s.absorbs(l, n.op, n.left) {
		return n.right, true
	}
	// f(L, X) = L and f(L, f(X, r)) = f(L, r).
	if s.absorbs(n.left, n.op, head(n.right)) {
		if r := s.nodes[n.right]; r.op == n.op && r.aux == n.aux && r.left == head(n.right) {
			return s.mkNode(node{op: n.op, left: n.left, right: r.right, aux: n.aux}), true
		}
		return n.left, true
	}
	return 0, false
}

// absorbs reports whether loop L, composed with f, absorbs the term x.
func (s *Store) absorbs(l Term, f Op, x Term) bool {
	op := s.nodes[l].op
	return op.IsLoop() && closes(op, f) && s.props[x].nullable && s.included(x, l)
}

// canonAC flattens an associative-commutative operator (alt, or par),
// sorts its operands and, for alt, removes duplicates; for par, a loopP
// absorbs the nullable operands included in it.
func (s *Store) canonAC(n node, idem bool) Term {
	var ops []Term
	var flatten func(t Term)
	flatten = func(t Term) {
		if m := s.nodes[t]; m.op == n.op {
			flatten(m.left)
			flatten(m.right)
			return
		}
		ops = append(ops, t)
	}
	flatten(n.left)
	flatten(n.right)
	slices.Sort(ops)
	if idem {
		ops = slices.Compact(ops)
	} else {
		ops = s.absorbPar(ops)
	}
	if len(ops) == 2 && ops[0] == n.left && ops[1] == n.right {
		return s.intern(n)
	}
	acc := ops[len(ops)-1]
	for i := len(ops) - 2; i >= 0; i-- {
		acc = s.intern(node{op: n.op, left: ops[i], right: acc})
	}
	return acc
}

// absorbPar drops from the sorted operands of a par those absorbed by a loopP
// operand (par(X, loopP(i)) = loopP(i) when X is nullable and X ⊆ loopP(i)).
func (s *Store) absorbPar(ops []Term) []Term {
	dropped := make([]bool, len(ops))
	for i, x := range ops {
		for j, l := range ops {
			// Only a kept operand may absorb, so that of two operands that
			// include each other one stays.
			if i != j && !dropped[j] && s.absorbs(l, OpPar, x) {
				dropped[i] = true
				break
			}
		}
	}
	out := ops[:0]
	for i, x := range ops {
		if !dropped[i] {
			out = append(out, x)
		}
	}
	return out
}

func (s *Store) canonLoop(n node) Term {
	body := s.nodes[n.left]
	// loopK(alt(∅, i)) = loopK(i): empty iterations change nothing.
	if body.op == OpAlt && (body.left == Empty || body.right == Empty) {
		i := body.left
		if i == Empty {
			i = body.right
		}
		return s.mkNode(node{op: n.op, left: i})
	}
	if body.op.IsLoop() {
		a, b := loopRank(n.op), loopRank(body.op)
		if a >= 2 || b >= 2 || a == 0 && b == 0 {
			op := n.op
			if b > a {
				op = body.op
			}
			return s.mkNode(node{op: op, left: body.left})
		}
	}
	return s.intern(n)
}

type inclKey struct{ x, l Term }

// included reports, by a sound syntactic check, whether the language of x is
// included in that of the loop l.
func (s *Store) included(x, l Term) bool {
	if x == l || x == Empty {
		return true
	}
	if !s.props[x].occ.SubsetOf(s.props[l].occ) {
		return false
	}
	c := &s.sem
	if c.incl == nil {
		c.incl = map[inclKey]bool{}
	}
	key := inclKey{x, l}
	if r, ok := c.incl[key]; ok {
		return r
	}
	c.incl[key] = false // a cycle answers no
	r := s.includedRec(x, l)
	c.incl[key] = r
	return r
}

func (s *Store) includedRec(x, l Term) bool {
	lp := s.nodes[l].op
	if s.isIteration(x, s.nodes[l].left) {
		return true
	}
	for _, from := range s.sem.prunedFrom[x] {
		if s.included(from, l) {
			return true
		}
	}
	n := s.nodes[x]
	switch {
	case n.op == OpAlt:
		return s.included(n.left, l) && s.included(n.right, l)
	case n.op == OpStrict || n.op == OpSeq || n.op == OpPar:
		return closes(lp, n.op) && s.included(n.left, l) && s.included(n.right, l)
	case n.op == OpCoreg:
		return lp == OpLoopP && s.included(n.left, l) && s.included(n.right, l)
	case n.op.IsLoop():
		// loopK(y) ⊆ L if y ⊆ L and L is closed under loopK's composition;
		// loopH(y) ⊆ loopW(y).
		k := n.op
		if k == OpLoopH {
			k = OpLoopW
		}
		return closes(lp, composition(k)) && s.included(n.left, l)
	}
	return false
}

// isIteration reports whether x is the loop body b or one of its alt branches.
func (s *Store) isIteration(x, b Term) bool {
	for {
		if x == b {
			return true
		}
		n := s.nodes[b]
		if n.op != OpAlt {
			return false
		}
		if x == n.left {
			return true
		}
		b = n.right
	}
}
