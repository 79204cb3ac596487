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
//   - alt is commutative and idempotent: its operands are sorted (by
//     decreasing term id) and deduplicated; par is commutative: its operands
//     are sorted;
//   - closure absorption: a loop's language L is closed under its own
//     composition (loopS under strict; loopW under seq and strict; loopP
//     under par, seq and strict), so if X is nullable and X ⊆ L then
//     f(X, L) = f(L, X) = L, and f(X, f(L, r)) = f(L, r), f(L, f(X, r)) =
//     f(L, r) for f the loop's composition (for par, only between neighbours
//     of the sorted chain, to keep insertion cheap);
//   - independence: seq(x, y) = par(x, y) when x and y share no lifeline;
//     coreg(L)(x, y) is par when L holds every shared lifeline, seq when it
//     holds none, and coreg(L ∩ shared) otherwise;
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
	case n.op == OpAlt, n.op == OpPar:
		return s.canonAC(n)
	}
	// Independence: weak sequencing orders only actions on shared lifelines.
	if n.op == OpSeq || n.op == OpCoreg {
		shared := s.props[n.left].occ.Intersect(s.props[n.right].occ)
		if n.op == OpCoreg {
			cr := s.sets[n.aux]
			switch {
			case shared.SubsetOf(cr):
				return s.mkNode(node{op: OpPar, left: n.left, right: n.right})
			case !shared.Meets(cr):
				return s.mkNode(node{op: OpSeq, left: n.left, right: n.right})
			case cr != shared.Intersect(cr):
				n.aux = s.internSet(shared.Intersect(cr))
				return s.mkNode(n)
			}
		} else if shared.IsEmpty() {
			return s.mkNode(node{op: OpPar, left: n.left, right: n.right})
		}
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
	// The head of Y: its first operand when Y is itself an f.
	head, r := n.right, s.nodes[n.right]
	chain := r.op == n.op && r.aux == n.aux
	if chain {
		head = r.left
	}
	if !s.nodes[head].op.IsLoop() && !s.nodes[n.left].op.IsLoop() {
		return 0, false // only a loop absorbs (the common case, cut short)
	}
	// f(X, L) = L and f(X, f(L, r)) = f(L, r).
	if s.absorbs(head, n.op, n.left) {
		return n.right, true
	}
	// f(L, X) = L and f(L, f(X, r)) = f(L, r).
	if s.absorbs(n.left, n.op, head) {
		if chain {
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

// canonAC builds alt or par operands as a chain nested to the right and
// sorted by decreasing term id; alt drops duplicates, and a loopP absorbs a
// neighbour it includes. Fresh terms have the largest ids, so the common case
// — a new operand in front of an existing chain, as loopP and par unfolding
// produce — reuses the chain as it is: building a term stays cheap even when
// a par grows long.
func (s *Store) canonAC(n node) Term {
	idem := n.op == OpAlt
	acc := n.right
	if s.nodes[acc].op == n.op {
		acc = s.sortedAC(n.op, acc, idem)
	}
	var insertAll func(t Term)
	insertAll = func(t Term) {
		if m := s.nodes[t]; m.op == n.op {
			insertAll(m.right)
			insertAll(m.left)
			return
		}
		acc = s.insertACIdem(n.op, t, acc, idem)
	}
	insertAll(n.left)
	return acc
}

// sortedAC returns chain if it is sorted, and else a sorted chain of its
// operands (a chain built raw, by the parser).
func (s *Store) sortedAC(op Op, chain Term, idem bool) Term {
	if s.props[chain].sorted {
		return chain
	}
	var ops []Term
	sorted := true
	for t := chain; ; t = s.nodes[t].right {
		n := s.nodes[t]
		if n.op != op {
			ops = append(ops, t)
			break
		}
		if k := len(ops); k > 0 && (n.left > ops[k-1] || idem && n.left == ops[k-1]) {
			sorted = false
		}
		ops = append(ops, n.left)
	}
	if k := len(ops); sorted && (ops[k-1] < ops[k-2] || !idem && ops[k-1] == ops[k-2]) {
		return chain
	}
	slices.Sort(ops)
	acc := ops[0]
	for _, x := range ops[1:] {
		acc = s.insertACIdem(op, x, acc, idem)
	}
	return acc
}

// insertACIdem inserts x (not an op term) into the sorted chain.
func (s *Store) insertACIdem(op Op, x, chain Term, idem bool) Term {
	head, rest := chain, Term(0)
	isChain := s.nodes[chain].op == op
	if isChain {
		head, rest = s.nodes[chain].left, s.nodes[chain].right
	}
	switch {
	case x == head && (idem || s.nodes[x].op == OpLoopP):
		return chain // alt(x,x) = x; par(loopP(i),loopP(i)) = loopP(i)
	case x > head || x == head:
		if op == OpPar {
			if s.absorbs(head, OpPar, x) {
				return chain
			}
			if !isChain && s.absorbs(x, OpPar, head) {
				return x
			}
		}
		return s.intern(node{op: op, left: x, right: chain})
	case !isChain:
		if op == OpPar && s.absorbs(x, OpPar, head) {
			return x
		}
		return s.intern(node{op: op, left: head, right: x})
	default:
		return s.intern(node{op: op, left: head, right: s.insertACIdem(op, x, rest, idem)})
	}
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
	if s.anyPrunedOrigin(x, func(from Term) bool { return s.included(from, l) }) {
		return true
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
