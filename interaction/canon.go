package interaction

// Canonical rewriting: the one rule set of ivc. Terms built by the semantic
// functions (Step, Prune, Remove, Simplify) are rewritten into a canonical
// form that has exactly the same traces, so that derivative terms that
// differ only in how they were reached become the same term: memo tables
// then merge them, searches stay small, and the automata that package
// compile builds from derivatives (one state per canonical term) stay small.
//
// The rules, each a language equality (canon_test.go checks every one
// against the reference semantics of internal/reference):
//
//	∅-simplification   f(∅,i) = f(i,∅) = i (f ≠ alt), alt(∅,∅) = ∅,
//	                   loop(∅) = ∅, and the sync rules of mkNode
//	associativity      strict, seq, coreg(L) and sync(A) nest to the
//	                   right: f(f(a,b),c) = f(a,f(b,c)); alt and par are
//	                   chains nested to the right (see canonAC)
//	commutativity      the operands of alt and par are sorted by
//	                   decreasing id; sync(A)(x,y) is built with the
//	                   smaller id first
//	alt idempotence    alt(x,x) = x
//	alt unit           alt(∅,x) = x when x accepts the empty trace
//	independence       seq(x,y) = par(x,y) when x and y share no lifeline;
//	                   coreg(L)(x,y) = seq(x,y) when L holds no lifeline of
//	                   both, par(x,y) when it holds all of them, and
//	                   coreg(L∩occ(x)∩occ(y))(x,y) otherwise
//	empty iteration    loopK(alt(∅,x)) = loopK(x): the empty iteration
//	                   adds nothing
//	nested loops       loopK(loopJ(x)) = loop_max(K,J)(x) for
//	                   S < H < W < P, except loopH(loopS(x)) and
//	                   loopH(loopH(x)) (see nestedLoop)
//	loop absorption    f(X,L) = f(L,X) = L for a loop L whose language is
//	                   closed under f (see closes) and X accepting the empty
//	                   trace with σ(X) ⊆ σ(L): between neighbours of a
//	                   strict or seq chain (f(X,f(L,r)) = f(L,r),
//	                   f(L,f(X,r)) = f(L,r)) and any two operands of a par
//
// σ(X) ⊆ σ(L) is decided by a sound syntactic test (included).

// Canonical returns the canonical form of t: t rebuilt bottom-up with the
// rules above, even in a store whose canonical rewriting is turned off (the
// memo tables of the semantic functions may then keep canonical terms). It
// is memoized, and the terms the semantic functions build from canonical
// terms are canonical already. Rules:
//
//   - ∅-simplification, associativity, commutativity, alt idempotence and
//     alt unit, independence (binary terms, see canon and canonAC);
//   - empty iteration and nested loops (loops, see canonLoop);
//   - loop absorption (strict and seq chains: absorb; par: insertAC).
func (s *Store) Canonical(t Term) Term {
	raw := s.raw
	s.raw = false
	r := s.canonical(t)
	s.raw = raw
	return r
}

// canonical is Canonical in a store whose rewriting is on.
func (s *Store) canonical(t Term) Term {
	if s.props[t].canon {
		return t
	}
	n := s.nodes[t]
	if m := s.termMemo(t); m.canon != 0 {
		return Term(m.canon - 1)
	}
	switch {
	case n.op.IsLoop():
		return s.remember(t, s.with(t, s.canonical(n.left), Empty))
	case s.rebuildChain(t):
		// A chain nested to the left or unsorted (as parsed): rebuilt as a
		// whole, in linear time.
		return s.remember(t, s.simplifyChain(t, s.canonical))
	}
	// The right spine of t's operator, down to a term that is no chain node
	// of it or is known already, without recursion: chains are long.
	spine := []Term{t}
	r := n.right
	for s.sameOp(r, n) && !s.props[r].canon && s.termMemo(r).canon == 0 && !s.rebuildChain(r) {
		spine = append(spine, r)
		r = s.nodes[r].right
	}
	acc := s.canonical(r)
	for i := len(spine) - 1; i >= 0; i-- {
		u := spine[i]
		acc = s.remember(u, s.with(u, s.canonical(s.nodes[u].left), acc))
	}
	return acc
}

// rebuildChain reports whether the binary term t is a chain that canonical
// rebuilds as a whole: nested to the left, or an unsorted alt or par.
func (s *Store) rebuildChain(t Term) bool {
	n := s.nodes[t]
	return s.sameOp(n.left, n) || (n.op == OpAlt || n.op == OpPar) && !s.props[t].sorted
}

// remember records that r is the canonical form of t.
func (s *Store) remember(t, r Term) Term {
	s.termMemo(t).canon = uint32(r) + 1
	s.props[r].canon = true
	return r
}

// internCanon interns n, a node that canonical rewriting builds: when its
// operands are canonical, so is it (the rules leave nothing to rewrite in
// what they build; TestCanonRandom checks it).
func (s *Store) internCanon(n node) Term {
	t := s.intern(n)
	if p := &s.props[t]; !p.canon {
		p.canon = s.props[n.left].canon && s.props[n.right].canon
	}
	return t
}

// SetCanonical turns canonical rewriting on (the default) or off. Tests of
// the papers' worked examples turn it off to compare terms with the papers'.
func (s *Store) SetCanonical(on bool) { s.raw = !on }

// loopRank orders loops by permissiveness: loopS(i) ⊆ loopH(i) ⊆ loopW(i) ⊆
// loopP(i).
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

// nestedLoop returns the loop kind M of loopK(loopJ(x)) = loopM(x), for the
// outer loop k and the inner loop j, and whether the nested-loop rule
// applies. M is the more permissive of the two: when it is j, loopJ(x) is
// closed under k's composition, so iterating it changes nothing; when it is
// k, loopK(x) ⊆ loopK(loopJ(x)) ⊆ loopK(loopK(x)) = loopK(x). The rule
// holds for every pair of S, H, W and P but two: loopH(loopS(x)) and
// loopH(loopH(x)) are not loopH(x). An iteration of the inner loop may
// hold several of x, and the outer loopH only makes the first action of the
// whole inner iteration come first: with x = alt(seq(l2!m1,l3?m2),l3!m1),
// l2!m1.l2!m1.l3?m2.l3!m1.l3?m2 is a trace of loopH(loopS(x)) (iterations
// seq(l2!m1,l3?m2).l3!m1 and seq(l2!m1,l3?m2)), not of loopH(x), whose
// every iteration must begin before the next ones do.
func nestedLoop(k, j Op) (Op, bool) {
	if k == OpLoopH && loopRank(j) <= loopRank(OpLoopH) {
		return 0, false
	}
	if loopRank(j) > loopRank(k) {
		return j, true
	}
	return k, true
}

// closes reports whether the language of loop op is closed under the binary
// operator f: loopS and loopH under strict (an iteration of loopH begins
// before the next ones do, which concatenation keeps), loopW under strict
// and seq, loopP under strict, seq, coreg and par (each allows fewer
// interleavings than the next).
func closes(loop, f Op) bool {
	switch loop {
	case OpLoopS, OpLoopH:
		return f == OpStrict
	case OpLoopW:
		return f == OpStrict || f == OpSeq
	case OpLoopP:
		return f == OpStrict || f == OpSeq || f == OpCoreg || f == OpPar
	}
	return false
}

// composition returns the operator whose Kleene closure a loop contains:
// loopK(y) ⊆ L when y ⊆ L and L is closed under it. loopH(y) ⊆ loopW(y), so
// for loopH it is seq.
func composition(loop Op) Op {
	switch loop {
	case OpLoopS:
		return OpStrict
	case OpLoopH, OpLoopW:
		return OpSeq
	}
	return OpPar
}

// canon interns n in canonical form; n is already ∅-simplified, is a binary
// term or a loop, and its operands are canonical.
func (s *Store) canon(n node) Term {
	switch {
	case n.op.IsLoop():
		return s.canonLoop(n)
	case n.op == OpAlt, n.op == OpPar:
		return s.canonAC(n)
	case n.op == OpSync:
		// Commutativity: the smaller id first.
		if n.left > n.right {
			n.left, n.right = n.right, n.left
		}
	}
	// Independence: weak sequencing orders only actions on shared lifelines.
	switch n.op {
	case OpSeq:
		if !s.props[n.left].occ.Meets(s.props[n.right].occ) {
			return s.mkNode(node{op: OpPar, left: n.left, right: n.right})
		}
	case OpCoreg:
		shared := s.props[n.left].occ.Intersect(s.props[n.right].occ)
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
	}
	// Associativity: right-nest strict, seq, coreg(L), sync(A).
	if s.sameOp(n.left, n) {
		l := s.nodes[n.left]
		inner := s.mkNode(node{op: n.op, left: l.right, right: n.right, aux: n.aux})
		return s.mkNode(node{op: n.op, left: l.left, right: inner, aux: n.aux})
	}
	if n.op == OpStrict || n.op == OpSeq {
		if t, ok := s.absorb(n); ok {
			return t
		}
	}
	return s.internCanon(n)
}

// sameOp reports whether t has the operator of n, with the same coreg or
// sync set.
func (s *Store) sameOp(t Term, n node) bool {
	m := s.nodes[t]
	return m.op == n.op && m.aux == n.aux
}

// absorb applies loop absorption to f(X, Y) with f = n.op (strict or seq)
// and Y a chain of f or a single term: f(X, L) = L and f(X, f(L, r)) =
// f(L, r); f(L, X) = L and f(L, f(X, r)) = f(L, r).
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
	if s.absorbs(head, n.op, n.left) {
		return n.right, true
	}
	if s.absorbs(n.left, n.op, head) {
		if chain {
			return s.mkNode(node{op: n.op, left: n.left, right: r.right, aux: n.aux}), true
		}
		return n.left, true
	}
	return 0, false
}

// absorbs reports whether the term l is a loop that, composed with f,
// absorbs the term x: f(x, l) = f(l, x) = l. It does when l is closed under
// f, x accepts the empty trace and σ(x) ⊆ σ(l): then f(x, l) ⊇ f(ε, l) = l
// and f(x, l) ⊆ f(l, l) ⊆ l.
func (s *Store) absorbs(l Term, f Op, x Term) bool {
	op := s.nodes[l].op
	return op.IsLoop() && closes(op, f) && s.props[x].nullable && s.included(x, l)
}

// canonAC builds alt or par operands as a chain nested to the right and
// sorted by decreasing term id (see insertAC for the rules applied as each
// operand joins the chain). Fresh terms have the largest ids, so the common
// case — a new operand in front of an existing chain, as loopP and par
// unfolding produce — reuses the chain as it is: building a term stays cheap
// even when a par grows long.
func (s *Store) canonAC(n node) Term {
	acc := n.right
	if s.nodes[acc].op == n.op {
		acc = s.sortedAC(n.op, acc)
	}
	var insertAll func(t Term)
	insertAll = func(t Term) {
		if m := s.nodes[t]; m.op == n.op {
			insertAll(m.right)
			insertAll(m.left)
			return
		}
		acc = s.insertAC(n.op, t, acc)
	}
	insertAll(n.left)
	return acc
}

// sortedAC returns chain if it is sorted, and else a canonical chain of its
// operands (a chain built raw, by the parser).
func (s *Store) sortedAC(op Op, chain Term) Term {
	if s.props[chain].sorted {
		return chain
	}
	return s.acChain(op, []Term{chain})
}

// insertAC inserts x (not an op term) into the canonical chain of op (alt or
// par), or the single term, chain, applying the rules between x and the
// chain's operands: alt idempotence and alt unit for alt, loop absorption
// for par.
func (s *Store) insertAC(op Op, x, chain Term) Term {
	xNullable, chainNullable := s.props[x].nullable, s.props[chain].nullable
	if op == OpAlt {
		// alt unit: alt(∅, x) = x when x accepts the empty trace. A
		// canonical alt holds ∅ only when no other operand accepts it.
		if x == Empty && chainNullable && chain != Empty {
			return chain
		}
		if x != Empty && xNullable && chainNullable {
			var ok bool
			if chain, ok = s.dropOperand(op, chain, func(y Term) bool { return y == Empty }); !ok {
				return x
			}
		}
		return s.insertSorted(op, x, chain)
	}
	// loop absorption in par, between x and any operand.
	if xNullable {
		for t := chain; ; t = s.nodes[t].right {
			y := t
			if s.nodes[t].op == op {
				y = s.nodes[t].left
			}
			if s.absorbs(y, OpPar, x) {
				return chain
			}
			if y == t {
				break
			}
		}
		if s.nodes[x].op.IsLoop() {
			var ok bool
			if chain, ok = s.dropOperand(op, chain, func(y Term) bool { return s.absorbs(x, OpPar, y) }); !ok {
				return x
			}
		}
	}
	return s.insertSorted(op, x, chain)
}

// dropOperand returns the chain of op without its operands for which drop
// holds, false when none is left.
func (s *Store) dropOperand(op Op, chain Term, drop func(y Term) bool) (Term, bool) {
	n := s.nodes[chain]
	if n.op != op {
		return chain, !drop(chain)
	}
	rest, ok := s.dropOperand(op, n.right, drop)
	switch {
	case drop(n.left):
		return rest, ok
	case !ok:
		return n.left, true
	case rest == n.right:
		return chain, true
	}
	return s.internCanon(node{op: op, left: n.left, right: rest}), true
}

// insertSorted inserts x (not an op term) at its place in the sorted chain;
// alt drops a duplicate.
func (s *Store) insertSorted(op Op, x, chain Term) Term {
	head, rest := chain, Term(0)
	isChain := s.nodes[chain].op == op
	if isChain {
		head, rest = s.nodes[chain].left, s.nodes[chain].right
	}
	switch {
	case x == head && op == OpAlt:
		return chain // alt(x,x) = x
	case x >= head:
		return s.internCanon(node{op: op, left: x, right: chain})
	case !isChain:
		return s.internCanon(node{op: op, left: head, right: x})
	default:
		return s.internCanon(node{op: op, left: head, right: s.insertSorted(op, x, rest)})
	}
}

// canonLoop interns the loop n in canonical form: empty iteration and
// nested loops.
func (s *Store) canonLoop(n node) Term {
	body := s.nodes[n.left]
	// Empty iteration: loopK(alt(∅, i)) = loopK(i).
	if body.op == OpAlt && s.props[n.left].nullable {
		if i, ok := s.dropOperand(OpAlt, n.left, func(y Term) bool { return y == Empty }); ok && i != n.left {
			return s.mkNode(node{op: n.op, left: i})
		}
	}
	// Nested loops: loopK(loopJ(x)) = loop_max(K,J)(x).
	if body.op.IsLoop() {
		if op, ok := nestedLoop(n.op, body.op); ok {
			return s.mkNode(node{op: op, left: body.left})
		}
	}
	return s.internCanon(n)
}

type inclKey struct{ x, l Term }

// included reports, by a sound syntactic test, whether σ(x) ⊆ σ(l) for the
// loop l = loopK(z): x is ∅ or l; x is an iteration (z, some of its
// alternatives, or z pruned of the lifelines x no longer has: pruning only
// removes behaviours); x is the pruning of an included term; x is an alt of
// included terms, or a strict, seq, coreg or par of included terms under
// which l is closed; or x is a loop whose body is included, if l is closed
// under that loop's composition.
func (s *Store) included(x, l Term) bool {
	if x == l || x == Empty {
		return true
	}
	if !s.props[x].occ.SubsetOf(s.props[l].occ) {
		return false
	}
	c := &s.sem
	if c.incl == nil {
		c.incl = make(map[inclKey]bool, memoHint)
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
	lp, z := s.nodes[l].op, s.nodes[l].left
	if s.isIteration(x, z) {
		return true
	}
	if s.anyPrunedOrigin(x, func(from Term) bool { return s.included(from, l) }) {
		return true
	}
	n := s.nodes[x]
	switch {
	case n.op == OpAlt:
		return s.included(n.left, l) && s.included(n.right, l)
	case n.op == OpStrict || n.op == OpSeq || n.op == OpCoreg || n.op == OpPar:
		return closes(lp, n.op) && s.included(n.left, l) && s.included(n.right, l)
	case n.op.IsLoop():
		return closes(lp, composition(n.op)) && s.included(n.left, l)
	}
	return false
}

// isIteration reports whether x is the loop body z, one of its alternatives
// (or a chain of the last ones), or z pruned of the lifelines x does not
// have.
func (s *Store) isIteration(x, z Term) bool {
	for b := z; ; {
		if x == b {
			return true
		}
		n := s.nodes[b]
		if n.op != OpAlt {
			break
		}
		if x == n.left {
			return true
		}
		b = n.right
	}
	ls := s.props[z].occ.Minus(s.props[x].occ)
	if ls.IsEmpty() {
		return false
	}
	p, ok := s.Prune(z, ls)
	return ok && p == x
}
