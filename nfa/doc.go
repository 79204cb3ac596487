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
// The package imports nothing of the project: compile builds NFAs from
// interactions, gen turns them into tables.
package nfa
