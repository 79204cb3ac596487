// Package reference is the test oracle of ivc: a brute-force denotational
// semantics of interactions, independent of the engines, for tiny cases.
//
// It never uses the operational semantics (Frontier, Step, Prune, Remove):
// it only walks the structure of a term through the Store accessors and
// builds, bottom-up, the set of global traces of length at most maxLen.
// A global trace is a sequence of events; an event is a MultiAction (one
// action, or the actions of a <synch> message, which occur together).
//
//	∅             {ε}
//	a             {a}
//	alt(i1,i2)    σ(i1) ∪ σ(i2)
//	strict(i1,i2) σ(i1) . σ(i2)                     concatenation
//	seq(i1,i2)    σ(i1) ;× σ(i2)                    weak sequencing
//	coreg(L)(..)  σ(i1) ××|L σ(i2)                  weak sequencing, free on L
//	par(i1,i2)    σ(i1) ‖ σ(i2)                     shuffle
//	sync(A)(..)   shuffle that merges the events meeting A pairwise
//	loopS(i)      {ε} ∪ (σ(i)∖{ε}) . σ(loopS(i))
//	loopW(i)      {ε} ∪ (σ(i)∖{ε}) ;× σ(loopW(i))
//	loopP(i)      {ε} ∪ (σ(i)∖{ε}) ‖ σ(loopP(i))
//	loopH(i)      {ε} ∪ { e.t | e.t1 ∈ σ(i), t ∈ t1 ;× σ(loopH(i)) }
//
// In weak sequencing an event e2 of the right operand may move before the
// remaining events of the left one iff none of them has an action on a
// lifeline of e2 (for coreg(L), on a lifeline of e2 outside L). In
// sync(A)(i1,i2), events that share no action with A interleave freely, and
// an event e1 of i1 with e1∩A ≠ ∅ must be merged with an event e2 of i2 with
// e2∩A = e1∩A into the single event e1∪e2. Every set is truncated at maxLen
// (loops are least fixpoints computed length by length), which is exact:
// each operator builds traces at least as long as its operands' traces.
//
// Multi-traces are projections of global traces onto a partition of the
// lifelines into locations (Project). Accepts decides exact
// membership; IsMultiPrefix and IsSlice decide whether every component of a
// multi-trace is a prefix (a factor) of the corresponding component of the
// projection of some trace of length ≤ maxLen:
//
//	st := interaction.NewStore(sig)
//	t := st.MustParseTerm("seq(strict(l1!m,l2?m),alt(strict(l2!m,l1?m),∅))")
//	ts := reference.Traces(st, t, 4)            // l1!m.l2?m, l1!m.l2?m.l2!m.l1?m
//	ok := reference.Accepts(st, t, mt)          // exact membership of a multi-trace
//	pre := reference.IsMultiPrefix(st, t, mt, st.NumActions(t))
//
// The multi-prefix and slice answers are exact only when maxLen bounds the
// length of some witness: this always holds for loop-free terms with
// maxLen = NumActions(t) (no trace is longer than the number of actions);
// with loops they are sound under-approximations (a true answer is always
// right, a false one may be for lack of length). Accepts needs no bound: a
// global trace is never longer than the number of component events of its
// projection.
//
// The sets are canonical (deduplicated by a string key) and the code is
// written to be obviously correct rather than fast; it handles terms of
// about 8 actions with traces of about 8 events in milliseconds.
package reference
