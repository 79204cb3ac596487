// Package runtime decides whether multi-traces are accepted by an
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
//	a := runtime.New(store, term, runtime.DefaultOptions())
//	res := a.Analyze(mt) // res.Verdict is Pass, WeakPass, Fail or Inconc
//
// Co-localizations (components with several lifelines) are handled exactly:
// removal erases the whole co-localization at once, which is correct by the
// same argument as for single lifelines (a consumed component is a prefix of
// any continuation).
//
// Two optimizations are on by default and can be switched off for comparison:
//
//   - Partial order reduction (POR): if a head action a, executable now, is
//     one-unambiguous — the interaction projected on θ(a) has exactly one
//     executable instance of a — it is the only successor explored
//     (Prop. 14 of the lifeline-removal paper). It is applied to single
//     actions only: a <synch> multi-action and single actions may consume the
//     same local heads, a case Definition 11 does not cover, so multi-actions
//     are always fully expanded.
//   - Local analyses (LOC): a vertex is dropped when some component's
//     remaining trace is not (a prefix of) a trace of the interaction
//     projected on that component (Prop. 15). Results are cached by
//     (projected term, component, position), so unchanged components cost a
//     map lookup.
//
// Searches are bounded by a node budget and an optional timeout; hitting
// either gives Inconc with the reason, never a guess.
package runtime
