package check

import (
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/automata"
	"github.com/ivc-project/ivc/internal/nfa"
)

// A Walker is the early check of sessions whose events arrive one at a
// time (ivc monitor): the local checks of the automata engine, on the
// tables its checks use (the projection DFA of each location of one
// partition of the lifelines), walked one event at a time. A walk that
// gets stuck is a local error, which Check reports as a Fail
// (LocalError) in prefix and accept modes alike, whatever events follow:
// a stuck walk stays stuck. A walk is a few bytes (a WalkState per
// location, or a set of states for a subword walk), so a caller can hold
// one per location of every open session; the Walker itself is shared by
// them all, and is safe for concurrent use.
//
// Two walks, for two ways events may arrive:
//   - Step walks the DFA (the local check itself), for events that arrive
//     in their location's order: a stuck walk is a local error of every
//     trace that continues the events read.
//   - StepSub walks the subword closure of the DFA's language (a set of
//     states: those the DFA may be in after reading a trace of which the
//     events read are a subsequence), for events whose order is not that
//     of their arrival (a time or a seq): events still to come may be
//     placed anywhere among them, but the events read keep their order, so
//     an empty set is a local error of every trace that holds them. It is
//     offered for DFAs of at most 1024 states (the closure takes a set of
//     states per state): SubWords says which.
//
// Both are allocation-free: the caller holds the states and the sets.
type Walker automata.Online

// WalkState is the state of a walk of one location: a state of its
// projection DFA, -1 once stuck.
type WalkState int32

// Walker returns the early check of the sessions of the locations locs,
// when the automata engine judges their multi-traces; nil when it does
// not: the runtime engine answers (not compiled, or, with EngineAuto, a
// checker past the attempt's limits), or the checker could not be built
// (Check answers Inconc).
func (c *Checker) Walker(locs interaction.Locations) *Walker {
	if c.auto == nil {
		return nil
	}
	o, err := c.auto.Online(locs)
	if err != nil {
		return nil
	}
	return (*Walker)(o)
}

func (w *Walker) online() *automata.Online { return (*automata.Online)(w) }

// Start returns the state a walk of location i starts in: -1 when the
// location has no trace at all (every event is then a local error).
func (w *Walker) Start(i int) WalkState { return WalkState(w.online().Start(i)) }

// Step returns the state the walk of location i reaches from q by an event
// of action act, or -1 when it gets stuck (act is no letter of the
// location, or none the DFA reads in q; q is -1 once stuck).
func (w *Walker) Step(i int, q WalkState, act interaction.Action) WalkState {
	return WalkState(w.online().Step(i, nfa.State(q), act))
}

// SubWords returns the words (uint64) of a set of states of location i's
// DFA, 0 when StepSub does not walk it.
func (w *Walker) SubWords(i int) int { return w.online().SubWords(i) }

// StartSub sets set (SubWords(i) words) to the states a subword walk of
// location i starts in: those reachable from the start; none when the
// location has no trace at all.
func (w *Walker) StartSub(i int, set []uint64) { w.online().StartSub(i, set) }

// StepSub steps the subword walk of location i in set (tmp: room for as
// many words) by an event of action act, and reports whether the set is
// not empty: whether some trace the DFA reads holds the events read so
// far, in their order, as a subsequence.
func (w *Walker) StepSub(i int, set, tmp []uint64, act interaction.Action) bool {
	return w.online().StepSub(i, set, tmp, act)
}
