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
// It searches the analysis graph as Analyze does (the same successors, the
// same limits), recording how each vertex was reached: verdicts do not
// depend on it, and it costs about one more Analyze.
func (a *Analyzer) Witness(mt *multitrace.MultiTrace, mode verdict.Mode) (Witness, bool) {
	pb := &problem{a: a, p: a.partition(mt), loc: map[locKey]bool{}, locFail: -1, sim: a.opts.Simulation}
	for _, c := range mt.Components {
		tr := make([]interaction.ActID, len(c.Trace))
		for i, e := range c.Trace {
			tr[i] = a.st.ActID(e)
		}
		pb.traces = append(pb.traces, tr)
	}
	kinds := []searchKind{exactSearch}
	switch mode {
	case verdict.Prefix:
		kinds = append(kinds, prefixSearch)
	case verdict.Slice:
		kinds = append(kinds, prefixSearch, sliceSearch)
	}
	for _, kind := range kinds {
		if w, ok := pb.witness(kind); ok || pb.stopped != "" {
			return w, ok
		}
	}
	return nil, false
}

// witness runs one search of the given kind, as decide does, and returns
// the path to its goal.
func (pb *problem) witness(kind searchKind) (Witness, bool) {
	pb.exact, pb.kind, pb.refused = kind == exactSearch, kind, false
	a := pb.a
	st := a.st
	n := len(pb.traces)
	vs := &a.vs
	vs.reset(n+extraSlots, extraSlots)
	start := a.root
	if kind != exactSearch {
		var empty interaction.Lifelines
		for c, tr := range pb.traces {
			if len(tr) == 0 {
				empty = empty.Union(pb.p.lifelines[c])
			}
		}
		start = st.RemoveObserved(start, empty, pb.together(nil))
	}
	root := vs.add(start)
	rp := vs.pos(root)
	rp[n+slotSilent] = pb.silentBudget(start, rp[:n])
	rp[n+slotLambda], rp[n+slotAlpha] = pb.initialBudget(start)
	a.via = append(a.via[:0], viaStep{parent: -1}) // push and order keep it for slice searches
	how := []reachedBy{{from: -1}}                 // by vertex index
	work := []int32{root}
	var succ []move
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if _, fresh := vs.insert(v); !fresh {
			continue
		}
		if !pb.count(false) {
			return nil, false
		}
		t := vs.term(v)
		pos := vs.pos(v)[:n]
		done := true
		for c, tr := range pb.traces {
			done = done && int(pos[c]) == len(tr)
		}
		switch {
		case done && (pb.exact && st.Nullable(t) || !pb.exact && pb.completable(t)):
			return pb.path(v, how), true
		case done,
			pb.exact && !pb.enoughLeft(t, pos),
			pb.starved(t, pos),
			a.opts.LOC && !pb.localOK(t, pos):
			if pb.stopped != "" {
				return nil, false
			}
			continue
		}
		succ = pb.successors(v, succ[:0])
		base := len(work)
		for i := len(succ) - 1; i >= 0; i-- {
			m := succ[i]
			w := pb.push(v, m)
			for int(w) >= len(how) {
				how = append(how, reachedBy{from: -1})
			}
			how[w] = reachedBy{from: v, act: st.FrontierAct(t, m.k), sim: m.sim || m.mixed}
			work = append(work, w)
		}
		pb.order(work[base:])
	}
	return nil, false
}

// reachedBy is how a vertex of a witness search was reached: from which
// vertex, executing what, simulated or not.
type reachedBy struct {
	from int32
	act  interaction.ActID
	sim  bool
}

// path returns the steps from the root to the vertex goal.
func (pb *problem) path(goal int32, how []reachedBy) Witness {
	st := pb.a.st
	vs := &pb.a.vs
	n := len(pb.traces)
	var w Witness
	for v := goal; ; {
		parent := how[v].from
		if parent < 0 {
			break
		}
		step := WitnessStep{Simulated: how[v].sim}
		for _, x := range st.MultiAction(how[v].act) {
			if !x.IsGhost() {
				step.Action = append(step.Action, x)
			}
		}
		before, after := vs.pos(parent)[:n], vs.pos(v)[:n]
		for c := range n {
			if after[c] > before[c] {
				step.Events = append(step.Events, EventRef{Component: c, Index: int(before[c])})
			}
		}
		if len(step.Events) > 0 || step.Simulated {
			w = append(w, step)
		}
		v = parent
	}
	for i, j := 0, len(w)-1; i < j; i, j = i+1, j-1 {
		w[i], w[j] = w[j], w[i]
	}
	return w
}
