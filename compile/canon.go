package compile

import (
	"slices"

	"github.com/ivc-project/ivc/interaction"
)

// A canonizer rewrites terms into a canonical form that has exactly the
// same traces, so that derivatives that differ only in shape become one NFA
// state. It builds the normalized terms in the interaction's own Store, so a
// canonical term is just a Term and equal canonical forms have equal ids.
//
// The rules, applied bottom-up (each is a language equality; see
// canon_test.go, which checks every rule against the reference semantics):
//
//	∅-simplification   f(∅,i) = f(i,∅) = i (f ≠ alt), loop(∅) = ∅,
//	                   and the sync rules of Store.Simplify
//	associativity      strict, seq, par and alt are flattened and rebuilt
//	                   nested to the right
//	commutativity      the operands of par and alt are sorted by id, those
//	                   of sync(A) too
//	alt idempotence    alt(x, x) = x (equal ids)
//	alt unit           alt(∅, x) = x when x accepts the empty trace
//	independence       seq(x, y) = par(x, y) when x and y share no lifeline;
//	                   coreg(L)(x, y) = seq(x, y) when L holds no lifeline
//	                   of both, par(x, y) when it holds all of them, and
//	                   coreg(L∩occ(x)∩occ(y))(x, y) otherwise
//	loop bodies        loopK(alt(∅, x)) = loopK(x) (the empty iteration
//	                   adds nothing); loopK(loopJ(x)) = loop_max(K,J)(x)
//	                   for K, J ∈ {S < W < P}
//	loop absorption    op(x, L) = op(L, x) = L for a loop L closed under
//	                   op (loopS, loopH: strict; loopW: strict, seq;
//	                   loopP: all) and x accepting the empty trace with
//	                   σ(x) ⊆ σ(L), for neighbours of a flattened strict or
//	                   seq and any two operands of a par
//
// The inclusion test of loop absorption is syntactic and sound (includedIn):
// x is ∅, L, L's body or some of its alternatives, L's body pruned of some
// lifelines (Store.Prune only removes behaviours), or is built from such
// terms by alt, by the compositions L is closed under, and by loops of those
// compositions. It merges the states that a loop unfolding leaves behind
// once the unfolded iteration is over: seq(loopW(prune(i)), loopW(i)) is
// loopW(i).
type canonizer struct {
	st   *interaction.Store
	memo []interaction.Term // memo[t]-1 is the canonical form of t; 0 unknown
	incl map[inclKey]bool   // includedIn, memoized
}

func newCanonizer(st *interaction.Store) *canonizer {
	c := &canonizer{}
	c.init(st)
	return c
}

// init prepares c for the terms of st.
func (c *canonizer) init(st *interaction.Store) {
	*c = canonizer{st: st, memo: make([]interaction.Term, termRoom(st.Len()))}
}

// canon returns the canonical form of t.
func (c *canonizer) canon(t interaction.Term) interaction.Term {
	if int(t) < len(c.memo) {
		if r := c.memo[t]; r != 0 {
			return r - 1
		}
	}
	r := c.rewrite(t)
	c.remember(t, r)
	c.remember(r, r)
	return r
}

func (c *canonizer) remember(t, r interaction.Term) {
	if int(t) >= len(c.memo) {
		n := max(int(t)+1, 2*len(c.memo), 64)
		c.memo = append(c.memo, make([]interaction.Term, n-len(c.memo))...)
	}
	c.memo[t] = r + 1
}

func (c *canonizer) rewrite(t interaction.Term) interaction.Term {
	st := c.st
	op := st.Op(t)
	switch {
	case op == interaction.OpEmpty || op == interaction.OpAct:
		return t
	case op.IsLoop():
		return c.loop(t, op, c.canon(st.Left(t)))
	}
	// The rules below pass t on: when t's operands are canonical already,
	// the fast paths give t back without building it again.
	l, r := c.canon(st.Left(t)), c.canon(st.Right(t))
	switch op {
	case interaction.OpAlt:
		return c.alt(t, l, r)
	case interaction.OpPar:
		return c.par(t, l, r)
	case interaction.OpStrict:
		return c.strict(t, l, r)
	case interaction.OpSeq:
		return c.seq(t, l, r)
	case interaction.OpCoreg:
		return c.coreg(st.CoregLifelines(t), l, r)
	case interaction.OpSync:
		return c.sync(st.SyncActions(t), l, r)
	}
	panic("compile: canon of " + op.String())
}

// loopRank orders the loops that contain one another's languages: loopS(x)
// ⊆ loopH(x) ⊆ loopW(x) ⊆ loopP(x); 0 for other operators.
func loopRank(op interaction.Op) int {
	switch op {
	case interaction.OpLoopS:
		return 1
	case interaction.OpLoopH:
		return 2
	case interaction.OpLoopW:
		return 3
	case interaction.OpLoopP:
		return 4
	}
	return 0
}

// closedUnder reports whether the language of a loop of kind op is closed
// under the binary operator bin (strict, seq, coreg or par): loopS and loopH
// under strict, loopW under strict and seq, loopP under all of them.
func closedUnder(op, bin interaction.Op) bool {
	switch op {
	case interaction.OpLoopS, interaction.OpLoopH:
		return bin == interaction.OpStrict
	case interaction.OpLoopW:
		return bin == interaction.OpStrict || bin == interaction.OpSeq
	case interaction.OpLoopP:
		return bin == interaction.OpStrict || bin == interaction.OpSeq || bin == interaction.OpPar || bin == interaction.OpCoreg
	}
	return false
}

// nestable reports whether a loop takes part in the nested-loop rule:
// loopK(loopJ(x)) = loop_max(K,J)(x) for K, J ∈ {S, W, P}, each closed under
// the others' compositions below it.
func nestable(op interaction.Op) bool {
	return op == interaction.OpLoopS || op == interaction.OpLoopW || op == interaction.OpLoopP
}

// loop returns the canonical loopK(body) for K = op and a canonical body;
// t is the term being rewritten (see binary).
func (c *canonizer) loop(t interaction.Term, op interaction.Op, body interaction.Term) interaction.Term {
	st := c.st
	if body == interaction.Empty {
		return interaction.Empty
	}
	// The empty iteration adds nothing: drop ∅ from the alternatives.
	if st.Op(body) == interaction.OpAlt {
		var buf [8]interaction.Term
		alts := c.flatten(interaction.OpAlt, body, buf[:0])
		if i := slices.Index(alts, interaction.Empty); i >= 0 {
			alts = slices.Delete(alts, i, i+1)
			body = c.buildAlt(alts)
		}
	}
	if bop := st.Op(body); nestable(op) && nestable(bop) {
		if loopRank(bop) > loopRank(op) {
			op = bop
		}
		body = st.Left(body)
	}
	if st.Op(t) == op && st.Left(t) == body {
		return t
	}
	return st.Loop(op, body)
}

// binary returns op(l, r): t when t is that term already (a term whose
// operands were canonical), without looking it up in the Store. t is the
// term being rewritten, or ∅ when there is none.
func (c *canonizer) binary(t interaction.Term, op interaction.Op, l, r interaction.Term) interaction.Term {
	st := c.st
	if st.Op(t) == op && st.Left(t) == l && st.Right(t) == r {
		return t
	}
	return st.Binary(op, l, r)
}

// flatten appends to dst the operands of the right-nested (or left-nested)
// tree of op at t, t itself when its root is another operator.
func (c *canonizer) flatten(op interaction.Op, t interaction.Term, dst []interaction.Term) []interaction.Term {
	st := c.st
	if st.Op(t) != op {
		return append(dst, t)
	}
	dst = c.flatten(op, st.Left(t), dst)
	return c.flatten(op, st.Right(t), dst)
}

// foldRight builds op(x1, op(x2, ... op(xn-1, xn))) with raw constructors.
func (c *canonizer) foldRight(op interaction.Op, xs []interaction.Term) interaction.Term {
	if len(xs) == 0 {
		return interaction.Empty
	}
	acc := xs[len(xs)-1]
	for i := len(xs) - 2; i >= 0; i-- {
		acc = c.st.Binary(op, xs[i], acc)
	}
	return acc
}

// alt, par, strict and seq return the canonical op(l, r) for canonical l
// and r; t is the term being rewritten (see binary).
func (c *canonizer) alt(t, l, r interaction.Term) interaction.Term {
	if l == r {
		return l
	}
	if c.sorted(interaction.OpAlt, l, r) {
		return c.binary(t, interaction.OpAlt, l, r)
	}
	var buf [8]interaction.Term
	xs := c.flatten(interaction.OpAlt, l, buf[:0])
	xs = c.flatten(interaction.OpAlt, r, xs)
	return c.buildAlt(xs)
}

// buildAlt sorts and deduplicates canonical alternatives (none an alt),
// drops ∅ when another alternative accepts the empty trace, and nests them.
func (c *canonizer) buildAlt(xs []interaction.Term) interaction.Term {
	slices.Sort(xs)
	xs = slices.Compact(xs)
	if len(xs) > 1 && xs[0] == interaction.Empty {
		for _, x := range xs[1:] {
			if c.st.Nullable(x) {
				xs = xs[1:]
				break
			}
		}
	}
	return c.foldRight(interaction.OpAlt, xs)
}

func (c *canonizer) par(t, l, r interaction.Term) interaction.Term {
	switch {
	case l == interaction.Empty:
		return r
	case r == interaction.Empty:
		return l
	}
	if c.sorted(interaction.OpPar, l, r) {
		return c.binary(t, interaction.OpPar, l, r)
	}
	var buf [8]interaction.Term
	xs := c.flatten(interaction.OpPar, l, buf[:0])
	xs = c.flatten(interaction.OpPar, r, xs)
	slices.Sort(xs)
	if len(xs) > 1 && c.loops(xs) > 0 {
		xs = c.absorbAll(interaction.OpPar, slices.Clone(xs))
	}
	return c.foldRight(interaction.OpPar, xs)
}

func (c *canonizer) strict(t, l, r interaction.Term) interaction.Term {
	switch {
	case l == interaction.Empty:
		return r
	case r == interaction.Empty:
		return l
	}
	if c.chainFast(interaction.OpStrict, l, r) {
		return c.binary(t, interaction.OpStrict, l, r)
	}
	var buf [8]interaction.Term
	xs := c.flatten(interaction.OpStrict, l, buf[:0])
	xs = c.flatten(interaction.OpStrict, r, xs)
	if len(xs) > 1 && c.loops(xs) > 0 {
		xs = c.absorbAdjacent(interaction.OpStrict, slices.Clone(xs))
	}
	return c.foldRight(interaction.OpStrict, xs)
}

func (c *canonizer) seq(t, l, r interaction.Term) interaction.Term {
	switch {
	case l == interaction.Empty:
		return r
	case r == interaction.Empty:
		return l
	}
	if c.chainFast(interaction.OpSeq, l, r) {
		if !c.st.Occurring(l).Meets(c.st.Occurring(r)) {
			return c.par(interaction.Empty, l, r)
		}
		return c.binary(t, interaction.OpSeq, l, r)
	}
	var buf [8]interaction.Term
	xs := c.flatten(interaction.OpSeq, l, buf[:0])
	xs = c.flatten(interaction.OpSeq, r, xs)
	if len(xs) > 1 && c.loops(xs) > 0 {
		xs = c.absorbAdjacent(interaction.OpSeq, slices.Clone(xs))
	}
	// Rebuild from the right; an operand that shares no lifeline with what
	// follows it interleaves with it.
	st := c.st
	acc := xs[len(xs)-1]
	for i := len(xs) - 2; i >= 0; i-- {
		if !st.Occurring(xs[i]).Meets(st.Occurring(acc)) {
			acc = c.par(interaction.Empty, xs[i], acc)
		} else {
			acc = st.Seq(xs[i], acc)
		}
	}
	return acc
}

func (c *canonizer) coreg(ls interaction.Lifelines, l, r interaction.Term) interaction.Term {
	st := c.st
	switch {
	case l == interaction.Empty:
		return r
	case r == interaction.Empty:
		return l
	}
	both := st.Occurring(l).Intersect(st.Occurring(r))
	ls = ls.Intersect(both)
	switch {
	case ls.IsEmpty():
		return c.seq(interaction.Empty, l, r)
	case both.SubsetOf(ls):
		return c.par(interaction.Empty, l, r)
	}
	return st.Coreg(ls, l, r)
}

func (c *canonizer) sync(acts interaction.MultiAction, l, r interaction.Term) interaction.Term {
	st := c.st
	if r < l {
		l, r = r, l
	}
	t := st.Simplify(st.Sync(acts, l, r))
	if st.Op(t) != interaction.OpSync {
		return c.canon(t)
	}
	return t
}

// loops counts the loops among xs (loop absorption needs one).
func (c *canonizer) loops(xs []interaction.Term) int {
	n := 0
	for _, x := range xs {
		if loopRank(c.st.Op(x)) > 0 {
			n++
		}
	}
	return n
}

// chainFast reports whether op(l, r), for canonical l and r and op strict
// or seq, is canonical once built from l and r as they are: l is no op to
// flatten, and no loop absorption may join l and the first operand of r
// (r's own operands are canonical together already).
func (c *canonizer) chainFast(op interaction.Op, l, r interaction.Term) bool {
	st := c.st
	if st.Op(l) == op {
		return false
	}
	head := r
	if st.Op(r) == op {
		head = st.Left(r)
	}
	return !(loopRank(st.Op(l)) > 0 && st.Nullable(head) || loopRank(st.Op(head)) > 0 && st.Nullable(l))
}

// sorted reports whether op(l, r), for op alt or par and canonical l and r,
// is canonical once built from l and r as they are: l is no op to flatten
// and comes before every operand of r (and, for par, is neither a loop nor
// nullable, so that no absorption applies; for alt, is not ∅).
func (c *canonizer) sorted(op interaction.Op, l, r interaction.Term) bool {
	st := c.st
	if st.Op(l) == op || l == interaction.Empty || op == interaction.OpPar && (loopRank(st.Op(l)) > 0 || st.Nullable(l)) {
		return false
	}
	head := r
	if st.Op(r) == op {
		head = st.Left(r)
	}
	return l < head
}

// absorbAdjacent applies loop absorption between neighbours of a flattened
// strict or seq, until nothing changes.
func (c *canonizer) absorbAdjacent(bin interaction.Op, xs []interaction.Term) []interaction.Term {
	for i := 0; i+1 < len(xs); {
		if keep, ok := c.absorb(bin, xs[i], xs[i+1]); ok {
			xs[i] = keep
			xs = slices.Delete(xs, i+1, i+2)
			if i > 0 {
				i--
			}
			continue
		}
		i++
	}
	return xs
}

// absorbAll applies loop absorption between any two operands of a par
// (which is commutative), keeping the order of xs.
func (c *canonizer) absorbAll(bin interaction.Op, xs []interaction.Term) []interaction.Term {
	st := c.st
	for i := 0; i < len(xs); i++ {
		if loopRank(st.Op(xs[i])) == 0 {
			continue
		}
		for j := 0; j < len(xs); j++ {
			if j == i {
				continue
			}
			if keep, ok := c.absorb(bin, xs[i], xs[j]); ok && keep == xs[i] {
				xs = slices.Delete(xs, j, j+1)
				if j < i {
					i--
				}
				j--
			}
		}
	}
	return xs
}

// absorb returns the operand that absorbs the other in bin(a, b) (or
// bin(b, a)): a loop L closed under bin, when the other operand X accepts
// the empty trace and σ(X) ⊆ σ(L) (then bin(X, L) ⊇ bin(ε, L) = L and
// bin(X, L) ⊆ bin(L, L) ⊆ L).
func (c *canonizer) absorb(bin interaction.Op, a, b interaction.Term) (interaction.Term, bool) {
	st := c.st
	if loopRank(st.Op(b)) > 0 && closedUnder(st.Op(b), bin) && st.Nullable(a) && c.includedIn(a, b) {
		return b, true
	}
	if loopRank(st.Op(a)) > 0 && closedUnder(st.Op(a), bin) && st.Nullable(b) && c.includedIn(b, a) {
		return a, true
	}
	return 0, false
}

type inclKey struct{ x, l interaction.Term }

// includedIn reports whether σ(x) ⊆ σ(l) for a canonical x and a loop l =
// loopK(z), by a sound syntactic test: x is ∅ or l; x is an iteration (z,
// some of its alternatives, or z pruned of the lifelines x no longer has);
// x is an alt of included terms, or a strict, seq or par of included terms
// under which l is closed; or x is a loop whose body is included, if l is
// closed under that loop's composition.
func (c *canonizer) includedIn(x, l interaction.Term) bool {
	if x == interaction.Empty || x == l {
		return true
	}
	st := c.st
	if !st.Occurring(x).SubsetOf(st.Occurring(l)) {
		return false
	}
	key := inclKey{x, l}
	if r, ok := c.incl[key]; ok {
		return r
	}
	if c.incl == nil {
		c.incl = map[inclKey]bool{}
	}
	c.incl[key] = false // a cycle answers no
	r := c.includedRec(x, l)
	c.incl[key] = r
	return r
}

func (c *canonizer) includedRec(x, l interaction.Term) bool {
	st := c.st
	k := st.Op(l)
	if c.isIteration(x, st.Left(l)) {
		return true
	}
	switch op := st.Op(x); {
	case op == interaction.OpAlt:
		return c.includedIn(st.Left(x), l) && c.includedIn(st.Right(x), l)
	case op == interaction.OpStrict || op == interaction.OpSeq || op == interaction.OpPar || op == interaction.OpCoreg:
		return closedUnder(k, op) && c.includedIn(st.Left(x), l) && c.includedIn(st.Right(x), l)
	case op.IsLoop():
		comp := interaction.OpStrict
		switch op {
		case interaction.OpLoopW, interaction.OpLoopH:
			comp = interaction.OpSeq
		case interaction.OpLoopP:
			comp = interaction.OpPar
		}
		return closedUnder(k, comp) && c.includedIn(st.Left(x), l)
	}
	return false
}

// isIteration reports whether x is included in the loop body z by a sound
// syntactic test: x = z, the alternatives of x are among those of z, or x is
// z pruned of the lifelines it no longer has.
func (c *canonizer) isIteration(x, z interaction.Term) bool {
	st := c.st
	if x == z {
		return true
	}
	if st.Op(z) == interaction.OpAlt {
		var zb, xb [8]interaction.Term
		zs := c.flatten(interaction.OpAlt, z, zb[:0])
		xs := c.flatten(interaction.OpAlt, x, xb[:0])
		all := true
		for _, y := range xs {
			if !slices.Contains(zs, y) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	ls := st.Occurring(z).Minus(st.Occurring(x))
	if ls.IsEmpty() {
		return false
	}
	p, ok := st.Prune(z, ls)
	return ok && c.canon(p) == x
}
