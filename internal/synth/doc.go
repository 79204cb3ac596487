// Package synth translates interactions into finite automata: the front
// half of ivc's compiled path.
//
// Synthesize builds the NFA of an interaction by derivatives (the
// term-based method of "Finite automata synthesis from interactions", Mahe
// et al., FormaliSE 2024): the initial term is the initial state, executing
// a frontier element of a state's term (interaction.Store.Step) gives a
// transition labelled by its (multi-)action, and a state is final when its
// term accepts the empty trace. Each derivative is in the canonical form of
// interaction.Store.Canonical, which has the same traces (∅-simplification,
// flattening and ordering of associative and commutative operators, alt
// idempotence and unit, independence of operands on disjoint lifelines,
// nested loops, absorption of the loops an unfolding leaves behind), so
// equivalent derivatives are one state and the NFA is small without a
// costly minimization. Compile adds the bisimulation quotients of
// nfa.Reduce.
//
//	sp, err := spec.Load("abp.hsf", "")
//	a, err := synth.Compile(sp.Store, sp.Root, synth.Options{File: sp.HIFPath, Syntax: sp.Syntax})
//	var le *synth.LoopError
//	if errors.As(err, &le) { ... }   // a loop outside the sublanguage, at file:line:col
//	fmt.Println(a.NFA.NumStates(), a.NFA.NumTransitions())
//
// The language of the NFA is exactly the set of global traces of the
// interaction, a trace being a sequence of multi-actions: one symbol per
// multi-action, kept typed (Automaton.Acts: symbol x is the multi-action
// Acts[x] of the Store), and named by MultiAction.Format ("a!m",
// "{a!m,b?m}") for printing only.
//
// A multi-trace is observed by locations (groups of lifelines that share a
// clock): Alphabets splits the symbols into the letters each location sees
// (locations.go), which the automata engine checks logs with, and
// Automaton.Checker builds the checker of a partition (package nfa's), as
// the code generator and ivc dot need it:
//
//	c, err := a.Checker(sp.Store, locs, nfa.CheckerOptions{})
//
// Options.Deadline and Options.MaxMemory bound a synthesis (the terms it
// adds to the Store count, by Store.Bytes): past them it fails with a
// *nfa.LimitError, as it fails with a *StateLimitError past MaxStates.
//
// The compiled path's sublanguage: loopS anywhere; loopW, loopH and loopP
// where the language stays regular, which the synthesis proves by
// terminating (see LoopError). Everything else is for the runtime engine.
//
// An interaction's operator tree is drawn by package internal/draw (InteractionDOT).
package synth
