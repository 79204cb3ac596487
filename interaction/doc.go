// Package interaction is the language of ivc: signatures, actions, interaction
// terms and their operational semantics, and the HIBOU file formats that
// declare them (.hsf signatures, .hif interactions, legacy single-file .hsf).
// It is for programs that build or inspect interactions in code (the
// engines, the generators, the drawings); a program that only judges logs
// loads its specification with package spec and hands it to package check.
//
// # Terms
//
// An interaction term is ∅, a (multi-)action, strict/seq/par/alt of two terms,
// coreg(L) or sync(A) of two terms, or a loopS/loopH/loopW/loopP of one term.
// Terms are immutable and hash-consed in a Store: each distinct term has one
// id (a Term), so equality is integer equality and memo tables are keyed by
// integers.
//
//	sig, _ := interaction.NewSignature([]string{"a", "b"}, []string{"m"}, nil)
//	st := interaction.NewStore(sig)
//	node, err := interaction.ParseHIF("spec.hif", src)
//	t, err := st.Resolve("spec.hif", node) // errors name file:line:col
//
// # Desugaring
//
// The .hif syntax has message arrows and n-ary operators; Resolve turns them
// into terms over actions l!m (emission) and l?m (reception):
//
//	a -- m -> b              strict(a!m, b?m)
//	a -- m -> (b,c)          strict(a!m, seq(b?m, c?m))        (broadcast)
//	a -- m ->|               a!m                                (to the environment)
//	m -> b                   b?m                                (from the environment)
//	m -> (a,b)               seq(a?m, b?m)
//	a -- <synch>m -> (b,c)   {a!m,b?m,c?m}                      (one multi-action)
//	<synch>m -> (a,b)        {a?m,b?m}
//	g -- m -> b, a -- m -> g b?m, a!m                           (a gate g is the environment)
//	o, ∅                     ∅
//	seq(i1,i2,i3)            seq(i1, seq(i2, i3))               (n-ary operators nest to the right)
//	loop S(i)                loopS(i)
//
// Gates are environment endpoints: their names are checked against the
// signature but leave no action, as gates never appear in traces. The
// operator "and" is parsed by HIBOU without semantics; it is rejected here.
//
// # Semantics
//
// The semantic functions follow the papers' vocabulary: Nullable (i↓),
// Collides (i ⊗ l), Avoids and Prune, Frontier and Execute, and Remove
// (lifeline removal). Executing an action simplifies ∅ operands on the fly.
package interaction
