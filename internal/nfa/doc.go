// Package nfa holds the finite automata of ivc's compiled path: NFAs with
// dense states and transitions over interned symbols, language-preserving
// reduction, determinization and minimization, and Graphviz export.
//
// Data comes first, as in regexp/syntax's Prog: a state is a small integer,
// a symbol is an index in the automaton's symbol table (the names of the
// letters, e.g. "a!m" or "{a!m,b?m}"), and the transitions are one slice
// sorted by (source, symbol, target), so transition k is a plain index. Sets
// of transitions (the areas of the semi-centralized check) are bitsets over
// those indices.
//
//	b := nfa.NewBuilder()
//	a, m := b.Symbol("a!m"), b.Symbol("b?m")
//	q0, q1, q2 := b.State(false), b.State(false), b.State(true)
//	b.Initial(q0)
//	b.Transition(q0, a, q1)
//	b.Transition(q1, m, q2)
//	n := b.Build()
//	fmt.Println(n)                       // init=0 final=2 0-a!m->1 1-b?m->2
//	ok := n.AcceptsNames("a!m", "b?m")  // true
//	small := n.Reduce()                  // bisimulation quotients, same language
//	d, err := n.Determinize(1 << 20)     // subset construction, with a state budget
//	min := d.Minimize()                  // the minimal (partial) DFA
//	g := n.DOT(nfa.DOTOptions{})         // Graphviz
//
// # Runtime verification of multi-traces
//
// A Checker decides whether some interleaving of local traces (one per
// location) is a word of an NFA, by the procedures of "Runtime
// Verification of Interactions Using Automata" (Weil-Kennedy et al.),
// one stage per file: Alphabets (letters.go: the letters of each location,
// and which one a symbol shows there), Proj with its areas (proj.go:
// Defs. 5–7), the Checker that builds them into tables (check.go), and
// the AutomatArk Timbuk reader (timbuk.go). The checks themselves run in
// package internal/nfa/engine, on those tables, the same files that internal/compile copies into
// a generated verifier: the local checks and Inter (engine/local.go,
// engine/check.go: Defs. 8–9, Algorithms 2–3), the central search
// (engine/search.go: Def. 4, Algorithm 1) and the tables (engine/tables.go):
//
//	a, _ := nfa.ParseTimbuk("nfa1.timbuk", src)
//	locs, _ := nfa.ParseAlphabets(a.Symbols(), "a0,a3;a1,a2;a4")
//	c, _ := nfa.NewChecker(a, locs, nfa.CheckerOptions{})
//	mt, _ := nfa.ParseLetterTraces("mt.txt", text, locs)
//	r := c.CheckAS(mt, nfa.Accept)   // Pass, or Fail with LocalError, InterError, CentralError
//	r = c.CheckAC(mt, nfa.Accept)    // the centralized procedure: Pass or Fail (Error)
//	r = c.CheckAS(mt, nfa.Prefix)    // multi-prefixes: Pass, WeakPass or Fail
//
// A Checker also repairs multi-traces (align.go): Align returns the fewest
// deletions and insertions of letters after which a multi-trace passes, by
// a shortest path over the states of Central(A, (μi)i) with edit moves.
//
// The local checks are the per-event path: a walk reads up to four letters
// per table lookup (each small projection also has a table of words, whose
// entries carry the union of the areas along the word), marks the entries
// it takes without branches, and or-s each entry's label once afterwards,
// only when no local check failed.
//
// The constructions are bounded: CheckerOptions carry a deadline, a memory
// budget and a state bound, counted as the projections are built (a
// Limiter: the bytes of the rows and tables kept, no memory statistics), and
// past them NewChecker fails with a *LimitError naming the stage and the
// limit; package internal/synth bounds the synthesis the same way. The subsets,
// areas and futures of a projection are dense rows over the states and
// transitions of the NFA, so a projection costs about NumStates/8 +
// NumTransitions/4 bytes per DFA state; the futures come from the DFA
// itself (one row per strongly connected component), not from reach sets
// of the NFA's states.
//
// The package imports nothing of the project: compile builds NFAs from
// interactions, automata splits their multi-action symbols into
// locations (letters made of typed Actions, never names read back), gen
// turns the tables into code.
package nfa
