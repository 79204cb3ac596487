// Package rewrite is the runtime engine: it decides whether multi-traces are accepted by an
// interaction, for the full language, by a graph search over the operational
// semantics of package interaction (term rewriting).
//
// A vertex of the search is an interaction term and how far each component
// of the multi-trace has been consumed. Executing a frontier element of the
// term consumes the heads of the components it touches. In prefix mode,
// once a component is consumed (or empty from the start) its lifelines are
// removed from the interaction (lifeline removal), which lets the rest of
// the interaction proceed as if those lifelines had stopped being observed;
// the search succeeds when every component is consumed. In accept mode
// nothing is removed and the final term must terminate.
//
//	a := rewrite.New(store, term, rewrite.DefaultOptions())
//	res := a.Check(mt) // res.Verdict is Pass, WeakPass, Fail or Inconc
//
// Removal is exact (Th. 1 of the lifeline-removal paper) for single actions
// outside coregions and syncs. Elsewhere it is not: a <synch> multi-action
// or a sync with parts on observed and removed lifelines, a coregion that
// orders observed actions through removed lifelines, or the component of a
// location of several lifelines still observed, can all need the removed
// actions. There, interaction.RemoveObserved keeps "ghosts" instead of
// erasing: actions that may still occur unobserved, executed silently by
// the search within a budget of β × (events left) loop iterations (β the
// loop depth). A multi-prefix must also still complete. Only a sync can
// deadlock, waiting for a partner that never comes, so with a sync the term
// left when every component is consumed is searched for a terminating run,
// allowing β·(|t|+1) loop iteration starts (one iteration per synchronized
// partner at most).
//
// Vertices are memoized by term and positions. The budgets (silent
// iterations; slice mode's λ and α) are not part of the key: a vertex is
// skipped when one with the same term and positions and at least its
// budgets has been reached. That is sound because more budget allows more
// moves, so the richer vertex reaches every goal the poorer one does.
//
// Two optimizations are on by default and can be switched off for comparison:
//
//   - Partial order reduction (POR): if a head action a, executable now, is
//     one-unambiguous — the interaction projected on θ(a) has exactly one
//     executable instance of a — it is the only successor explored
//     (Prop. 14 of the lifeline-removal paper). It is applied to single
//     actions only: a <synch> multi-action and single actions may consume the
//     same local heads, a case Definition 11 does not cover, so multi-actions
//     are always fully expanded. Prop. 14 is also unsound as stated with
//     strict and loopS/loopH: in strict(alt(∅,alt(l1!x,strict(l1!x,l1!x))),l2!y),
//     l2!y has one instance but executing it first loses the runs where
//     l1!x comes before it. Instances are therefore counted conservatively:
//     an action under the right operand of a strict, or in the body of a
//     loopS or loopH that also involves other lifelines, counts as ambiguous.
//   - Local analyses (LOC): a vertex is dropped when some component's
//     remaining trace is not (a prefix of) a trace of the interaction
//     projected on that component (Prop. 15): at the root of a search,
//     and at every vertex once the search has taken 16 more vertices than
//     the multi-trace has events (see localAfter). Results are cached by
//     (projected term, component, trace left) within one analysis, so
//     unchanged components cost a map lookup (Result.LocalNodes counts the
//     vertices of local analyses this analysis explored; they count in the
//     node budget).
//
// In prefix mode, an accepted multi-trace (as most sessions of a log are)
// is a Pass without the multi-prefix search: with local analyses on, the
// exact search is first attempted without them, within 4 vertices per event
// (they would all pass; its vertices count as local ones), and a complete
// answer of the attempt also settles Pass against WeakPass after the
// multi-prefix search. When it gives up, the path the multi-prefix search
// found is replayed on the interaction without removal before the exact
// search is run: a complete trace proves the Pass.
//
// An analyzer warms up when it is made (its setup): it judges one run of its
// interaction, so that the first multi-trace of a batch does not fill the
// store's frontiers and the memo tables alone; and, on signatures of a few
// lifelines, it removes each set of lifelines from the interaction and,
// with local analyses, projects each result on each lifeline left, which
// the searches of multi-prefixes and their local analyses start from, so
// that the first multi-trace with each set of empty components does not
// build them (in accept mode, the interaction's own projections only); it
// names the interaction's actions for explanations, and last judges the
// empty multi-trace, which brings back into the caches what an analysis
// touches first.
//
// An analyzer also remembers the verdicts it decided, by the multi-trace
// (its partition of the lifelines and each component's trace, hashed):
// the sessions of a log repeat, and a session met before is answered by a
// lookup, with the result a first analysis gave, node counts included.
// Inconc verdicts, which depend on the limits, are not remembered. These
// memos, and the projections the local analyses ask for, are dropped when
// they grow past a fixed size, and are not counted in the memory budget: a
// verdict depends on the multi-trace, the interaction and the options, never
// on what the analyzer judged before (see Analyzer.analyze).
//
// Searches are bounded by a node budget, an optional timeout and an optional
// memory budget (the terms and memos the analysis adds to its store, and its
// vertices, local analyses and recorded graph, counted as they grow). The
// limits are checked at every vertex, in the long loops of one vertex, and
// inside the computation of a frontier (through the store's growth hook),
// which alone can take quadratic memory and time on a wide par. Hitting one
// gives Inconc with the reason, never a guess. The work list holds the moves
// not taken yet, not vertices: a vertex enters the arena when its move is
// taken, and leaves it at once when an equal vertex was reached before.
//
// A Fail is explained by the furthest vertices: the union of their
// frontiers is what the interaction could do there, whichever way it read
// the events consumed (as the automata engine's subset construction). A
// component whose trace is impossible on its own — a local analysis of the
// root vertex failed or, in slice mode, its trace is no factor of any trace
// of its projection — is blamed, and explained by how far its projection
// follows it: only what a check proved is claimed.
package rewrite
