package rewrite

import (
	"slices"

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

// replay reports whether the events the multi-prefix search consumed on its
// path to the goal, in that order, make a complete trace of the interaction,
// no lifeline removed: then the multi-trace is exactly accepted (that
// interleaving is one the exact search would find), and the exact search
// is not needed. It is how an accepted multi-trace, as most sessions of a log
// are, costs one search rather than two; when the interleaving is no
// complete trace (the multi-prefix search may have taken a way that only
// lifeline removal completes), the exact search decides, as before. The
// interleaving is followed by a depth-first search over the vertices (term,
// events read), each counted as a vertex of the search, those that failed
// remembered in the local analyses' memo (as an extra component). The terms
// one word reaches may be many (loops unfold), so the replay gives up after
// replayWork vertices per event (the exact search, with its local analyses
// and partial order reduction, then decides): an accepted multi-trace's
// replay mostly takes one vertex per event.
func (pb *problem) replay() bool {
	a := pb.a
	st := a.st
	word := pb.word // the path's, when straight found it (goal -1)
	if pb.goal >= 0 {
		word = word[:0]
		for v := pb.goal; v > 0 && int(v) < len(a.via); v = a.via[v].parent {
			if a.via[v].how == viaConsume {
				word = append(word, a.via[v].act)
			}
		}
		slices.Reverse(word)
		pb.word = word
	}
	// The extra component's positions come after all the others'.
	c := int32(len(pb.traces))
	end := int32(0)
	if c > 0 {
		end = pb.at[c-1] + int32(len(pb.traces[c-1])) + 1
	}
	pb.at = append(pb.at[:c], end)
	defer func() { pb.at = pb.at[:c] }()
	exact := pb.exact
	pb.exact = true
	defer func() { pb.exact = exact }()
	stack := append(pb.locStack[:0], locFrame{t: a.root})
	defer func() { pb.locStack = stack[:0] }()
	for work := replayWork * (len(word) + 1); len(stack) > 0; {
		f := &stack[len(stack)-1]
		if f.next == 0 {
			if work--; work < 0 || !pb.count(false) {
				return false
			}
			if int(f.q) == len(word) && st.Nullable(f.t) {
				return true
			}
		}
		pushed := false
		for nf := st.NumFrontier(f.t); int(f.q) < len(word) && f.next < nf; {
			k := f.next
			f.next++
			if st.FrontierAct(f.t, k) != word[f.q] {
				continue
			}
			child := st.Step(f.t, k)
			if _, failed := a.loc[pb.locKey(child, c, f.q+1)]; !failed {
				stack = append(stack, locFrame{t: child, q: f.q + 1})
				pushed = true
				break
			}
		}
		if !pushed {
			a.loc[pb.locKey(f.t, c, f.q)] = false
			stack = stack[:len(stack)-1]
		}
	}
	return false
}

// replayWork is the vertices a replay may visit per event (see replay).
const replayWork = 4

// accepted reports whether an optimistic attempt shows the multi-trace
// exactly accepted (then it is a multi-prefix too: a Pass), before the
// searches of prefix mode: as most sessions of a log are accepted, it is
// how a session costs about one vertex per event. (In slice mode, whose
// logs mostly start late, it would mostly be lost.) Local analyses dominate the cost of a search of a small
// multi-trace, and an accepted one passes them all, so the attempt is the
// exact search without them, and with only the cheap part of its pruning
// by the events left (canEnd, not enoughLeft, which projects terms).
// It gives up after replayWork vertices per event, or at the node budget
// (Inconc, its vertices not charged); else its answer is the exact search's (Pass or Fail: the pruning it leaves out
// loses nothing). It belongs to the local analyses: it is made only when they are
// on (without them the searches are as light), and its vertices count as
// theirs (Result.LocalNodes: vertices that decide no verdict on their
// own). Nor is it made for interactions of more than warmActions actions,
// whose frontiers alone may take long.
//
// Before it, two look-ups decide at once what the exact search would find
// first: an event of no action of the interaction on its component (see
// foreignEvent: most of the corpus's noisy multi-traces, failing checks
// 0.93x at the median, 0.86x at p90), and the root's part of enoughLeft,
// a look-up per component (the fewest events of each component in a trace
// of the root are remembered from one multi-trace to the next), which
// decides a multi-prefix whose components miss events (on the
// lifeline-removal corpus, a tenth fewer local vertices in all, and 6%
// less time at the median, WeakPass and Fail alike); and so does a look-up
// of each component's last event on each of its lifelines among the
// actions that end that lifeline in a trace of the root (endsLast), which
// decides a multi-prefix cut in the middle of a lifeline's run where the
// fewest events do not, as in a loop (lifeline-removal corpus: local
// vertices 63,788 → 57,518, the time within the noise).
func (pb *problem) accepted() verdict.Verdict {
	a := pb.a
	if !a.opts.LOC || a.opts.Mode != verdict.Prefix || a.st.NumActions(a.root) > warmActions {
		return verdict.Inconc
	}
	if c, _ := pb.foreignEvent(); c >= 0 {
		return verdict.Fail // an event no search consumes (see below)
	}
	events := 0
	for c, tr := range pb.traces {
		events += len(tr)
		if a.minEvents(pb.p, c, a.root) > len(tr) || !a.endsLast(pb.p, c, tr) {
			return verdict.Fail // see below
		}
	}
	before := pb.localNodes
	pb.optimistic, pb.optimisticEnd, pb.gaveUp = true, before+replayWork*(events+1), false
	defer func() { pb.optimistic = false }()
	if v := pb.searchFirst(exactSearch); !pb.gaveUp {
		return v
	}
	// Given up (its bound, or the node budget): its vertices are not
	// charged, so that the searches after it have the budget they had
	// without it, and a limit decides the same verdicts with or without it.
	pb.localNodes = before
	return verdict.Inconc
}

// endsLast reports whether, on each lifeline of component c, the last
// event of its trace tr on that lifeline has an action that ends the
// lifeline in some trace of the interaction (interaction.Store.LastActions,
// computed once per lifeline). If not, tr is the projection of no trace:
// the multi-trace is not exactly accepted.
func (a *Analyzer) endsLast(p *located, c int, tr []interaction.ActID) bool {
	for l := range p.lifelines[c].All() {
		for i := len(tr) - 1; i >= 0; i-- {
			on, ok := false, false
			for _, x := range a.st.MultiAction(tr[i]) {
				if x.Lifeline() == l {
					on = true
					_, last := slices.BinarySearch(a.lastActions(l), x)
					ok = ok || last || x.IsGhost()
				}
			}
			if on {
				if !ok {
					return false
				}
				break
			}
		}
	}
	return true
}

// lastActions returns the actions that end lifeline l in a trace of the
// interaction, computed once.
func (a *Analyzer) lastActions(l interaction.LifelineID) []interaction.Action {
	for int(l) >= len(a.lastOn) {
		a.lastOn = append(a.lastOn, nil)
	}
	if a.lastOn[l] == nil {
		a.lastOn[l] = append([]interaction.Action{}, a.st.LastActions(a.root, l)...) // non-nil: computed
	}
	return a.lastOn[l]
}
