package runtime

import (
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// A Witness is one interleaving of a multi-trace's events that the
// interaction accepts: the path to the goal that a search found, as the
// steps that consume or simulate events, in order. Silent steps (ghosts
// executed for lifelines no longer observed) are left out.
type Witness []WitnessStep

// WitnessStep is the execution of one multi-action of the interaction.
type WitnessStep struct {
	// Action is the multi-action executed, its ghost actions left out.
	Action interaction.MultiAction
	// Events are the events it consumed, one per component it touches.
	Events []EventRef
	// Simulated reports that some of its actions were simulated (slice
	// mode): executed before their component's log starts, unobserved.
	// The actions of Action on no component of Events are those.
	Simulated bool
}

// EventRef names an event of a multi-trace: the Index-th event of
// component Component (both from 0).
type EventRef struct {
	Component, Index int
}

// Witness returns an interleaving of mt's events that the interaction
// accepts in mode, and true; or false when there is none (the verdict in
// that mode is Fail) or a limit stopped the search first (Inconc). In
// accept mode the witness is exactly accepted. In prefix mode it is
// exactly accepted when mt is (a Pass), else it is the multi-prefix part
// (a WeakPass: every event is consumed, and lifeline removal completes the
// rest). In slice mode it may also simulate actions before a component's
// log starts.
//
// It runs the searches of Check (search, with the same successors and
// limits), recording how each vertex was reached, and reads the path to
// the goal back: it costs about one more Check.
func (a *Analyzer) Witness(mt *multitrace.MultiTrace, mode verdict.Mode) (Witness, bool) {
	pb := a.newProblem(mt)
	defer a.st.OnGrowth(nil)
	pb.witness = true
	kinds := []searchKind{exactSearch}
	switch mode {
	case verdict.Prefix:
		kinds = append(kinds, prefixSearch)
	case verdict.Slice:
		kinds = append(kinds, prefixSearch, sliceSearch)
	}
	for _, kind := range kinds {
		switch pb.search(kind) {
		case verdict.Pass:
			return pb.path(), true
		case verdict.Inconc:
			return nil, false
		}
		pb.resetExplanation()
	}
	return nil, false
}

// path returns the steps from the root to the goal of the last search, as
// the vertices' records (a.via) tell.
func (pb *problem) path() Witness {
	a := pb.a
	st := a.st
	vs := &a.vs
	n := len(pb.traces)
	var w Witness
	for v := pb.goal; v > 0 && int(v) < len(a.via); v = a.via[v].parent {
		via := a.via[v]
		step := WitnessStep{Simulated: via.how == viaSimulate}
		for _, x := range st.MultiAction(via.act) {
			if !x.IsGhost() {
				step.Action = append(step.Action, x)
			}
		}
		before, after := vs.pos(via.parent)[:n], vs.pos(v)[:n]
		for c := range n {
			if after[c] > before[c] {
				step.Events = append(step.Events, EventRef{Component: c, Index: int(before[c])})
			}
		}
		// A move that consumes some parts and simulates the others.
		step.Simulated = step.Simulated || via.how == viaConsume && len(step.Events) < len(a.parts(pb.p, via.act))
		if len(step.Events) > 0 || step.Simulated {
			w = append(w, step)
		}
	}
	for i, j := 0, len(w)-1; i < j; i, j = i+1, j-1 {
		w[i], w[j] = w[j], w[i]
	}
	return w
}
