package rewrite

import (
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/verdict"
)

// Simulation configures slice mode: which actions may be simulated (executed
// without being observed) and with what budget. The zero value is not the
// default: use DefaultSimulation.
//
// # The budget
//
// Slice mode recognizes multi-traces whose components may start late (and,
// like prefix mode, stop early or never start). A component whose trace is
// exhausted is removed, as in prefix mode, which is exact and needs no budget.
// Before a component's observation starts, the actions of its lifelines may be
// simulated — the rule Rs of the slice paper (Def. 7) — within a budget
// (λ, α): λ counts loop instances, α actions outside loops. The paper's
// figures and text disagree on how it evolves (notes-partial-observation §7);
// ivc follows the figures, which every worked example of the paper satisfies:
//
//   - start, and after each consumed action when Reset: (λ, α) = (β(i), η(i)),
//     with β the loop depth and η the number of actions outside loops of the
//     current interaction i;
//   - simulating an action outside loops needs α ≥ 1 and gives
//     (min(λ, β(i′)), α−1);
//   - simulating an action at loop depth d > 0 needs λ ≥ d and gives
//     (min(λ−d, β(i′)), η(i′)), where i′ is the interaction after the action.
//
// Without Reset (the liberal criterion of §5.4, with Multiply: ivc's
// default), the budget is never reset nor capped by β(i′): α−1 outside loops,
// λ−d inside. A silent (ghost-only) loop iteration, which removal would have
// skipped, adds what it brings outside loops to α.
//
// POR is used in slice mode for the actions of components whose observation
// has started only, and local analyses only on those components (they check
// prefixes; an unstarted component's trace is a slice). Before the slice
// search, with local analyses on, each component's trace is checked to be a
// factor of a trace of its projection (a slice's component logs a factor of
// its local trace): when one is not, the multi-trace is no slice, and the
// search, exponential on independent actions, is not needed.
//
// A slice found within the budget is a WeakPass (or a Pass when exactly
// accepted). When no explanation is found, the verdict is Fail if the budget
// never refused a simulation (the search was then complete), and Inconc
// otherwise: the budget may have hidden the explanation.
type Simulation struct {
	Reset    bool   // reset the budget after each consumed action
	Multiply bool   // multiply the initial budget by the number of events of the multi-trace
	Loops    Budget // initial λ
	Actions  Budget // initial α
}

// Budget is an initial budget: a kind and, for Fixed, a number.
type Budget struct {
	Kind BudgetKind
	N    int
}

// BudgetKind chooses how an initial budget is computed from the interaction.
type BudgetKind uint8

const (
	// Structural is β (the loop depth) for λ and η (actions outside loops) for α.
	Structural BudgetKind = iota
	// Count is the number of loops for λ, the number of actions for α.
	Count
	// Fixed is the number N.
	Fixed
)

// DefaultSimulation is ivc's default: the liberal criterion of §5.4
// (structural budgets multiplied by the number of events, never reset). On
// the paper's use cases it recognizes every slice of i1 and of i2 at a median
// cost of tens of microseconds, where the paper's criterion (PaperSimulation)
// leaves about 15% of i2's slices Inconc.
func DefaultSimulation() Simulation { return Simulation{Multiply: true} }

// PaperSimulation is the (λ, α) criterion of the slice paper (§5.1): structural
// budgets, reset after each consumed action. HIBOU's simulate[reset=true,
// multiply=false, loop max_depth] is this criterion.
func PaperSimulation() Simulation { return Simulation{Reset: true} }

func (pb *problem) budgetOf(b Budget, t interaction.Term, loops bool) int32 {
	st := pb.a.st
	switch {
	case b.Kind == Fixed:
		return int32(b.N)
	case b.Kind == Count && loops:
		return int32(countLoops(st, t))
	case b.Kind == Count:
		return int32(st.NumActions(t))
	case loops:
		return int32(st.LoopDepth(t))
	default:
		return int32(st.Eta(t))
	}
}

func (pb *problem) initialBudget(t interaction.Term) (int32, int32) {
	l, a := pb.budgetOf(pb.sim.Loops, t, true), pb.budgetOf(pb.sim.Actions, t, false)
	if pb.sim.Multiply {
		events := 0
		for _, tr := range pb.traces {
			events += len(tr)
		}
		l, a = l*int32(max(events, 1)), a*int32(max(events, 1))
	}
	return l, a
}

func (pb *problem) resetBudget(t interaction.Term) (int32, int32) {
	return pb.budgetOf(pb.sim.Loops, t, true), pb.budgetOf(pb.sim.Actions, t, false)
}

// simBudget returns the budget after simulating the k-th frontier element of
// vertex v's term, and whether the budget allows it.
func (pb *problem) simBudget(v int32, k int) (int32, int32, bool) {
	st := pb.a.st
	vs := &pb.a.vs
	n := len(pb.traces)
	t := vs.term(v)
	lambda, alpha := vs.pos(v)[n+slotLambda], vs.pos(v)[n+slotAlpha]
	d := int32(st.FrontierLoopDepth(t, k))
	next := st.Step(t, k)
	if d == 0 {
		if alpha < 1 {
			return 0, 0, false
		}
		alpha--
	} else {
		if lambda < d {
			return 0, 0, false
		}
		lambda -= d
		if pb.sim.Reset {
			alpha = int32(st.Eta(next))
		}
	}
	if pb.sim.Reset {
		lambda = min(lambda, int32(st.LoopDepth(next)))
	}
	return lambda, alpha, true
}

// simulated lists the simulated actions on the path to the goal.
func (pb *problem) simulated() []verdict.SimulatedAction {
	a := pb.a
	st := a.st
	sig := st.Signature()
	var out []verdict.SimulatedAction
	for v := pb.goal; v > 0 && int(v) < len(a.via); v = a.via[v].parent {
		s := a.via[v]
		if s.how != viaSimulate {
			continue
		}
		m := st.MultiAction(s.act)
		comp := pb.p.comp[m[0].Lifeline()]
		out = append(out, verdict.SimulatedAction{Action: m.Format(sig), Component: pb.p.lifelines[comp].Format(sig), When: "before"})
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func countLoops(st *interaction.Store, t interaction.Term) int {
	switch op := st.Op(t); {
	case op == interaction.OpEmpty || op == interaction.OpAct:
		return 0
	case op.IsLoop():
		return 1 + countLoops(st, st.Left(t))
	default:
		return countLoops(st, st.Left(t)) + countLoops(st, st.Right(t))
	}
}
