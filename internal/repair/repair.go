// Package repair holds what both engines and the front door share about
// the repairs of failing multi-traces (verdict.Repair): the edits with their
// events as actions (Edit), how a multi-trace is edited (Apply), how the
// edits are given to users (Public), the events a location may show
// (Alphabet), and the bounded search over edits (Search), which finds a
// smallest repair with any engine as the judge of candidates: the front
// door runs it with the runtime engine, for the interactions and the mode
// the automata engine does not take (whose alignment is in package
// internal/nfa).
//
//	r := repair.Search(mt, repair.Alphabet(st, root, mt.Locations()), analyzer.Check, repair.Options{})
//	fixed := repair.Apply(mt, r.Edits)       // check it again before giving it
//	edits := repair.Public(sig, mt, r.Edits) // verdict.Edit values, sorted
//
// Package check imports it (check/repair.go), and the automata engine,
// which words its alignments as edits.
package repair

import (
	"cmp"
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// Edit is an edit of one component of a multi-trace, with its event: see
// verdict.Edit, which says it in words.
type Edit struct {
	Op        verdict.EditOp
	Component int
	Index     int
	Event     interaction.MultiAction
}

// Sort puts edits in the order verdict.Repair gives them: by component,
// then index, the insertions at an index (in their order) before the
// deletion of the event there.
func Sort(edits []Edit) {
	slices.SortStableFunc(edits, func(a, b Edit) int {
		if c := cmp.Compare(a.Component, b.Component); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Index, b.Index); c != 0 {
			return c
		}
		return -cmp.Compare(a.Op, b.Op) // Insert first
	})
}

// Apply returns mt edited by edits, whose indices are those of mt's
// components: the insertions at an index go before the event there, in the
// order of the list. The components without edits share their traces with
// mt.
func Apply(mt *multitrace.MultiTrace, edits []Edit) *multitrace.MultiTrace {
	sorted := slices.Clone(edits)
	Sort(sorted)
	out := &multitrace.MultiTrace{Components: slices.Clone(mt.Components)}
	for k := 0; k < len(sorted); {
		c := sorted[k].Component
		tr := mt.Components[c].Trace
		var edited []interaction.MultiAction
		j := 0 // the next event of tr to copy
		for ; k < len(sorted) && sorted[k].Component == c; k++ {
			e := sorted[k]
			edited = append(edited, tr[j:e.Index]...)
			j = e.Index
			if e.Op == verdict.Insert {
				edited = append(edited, e.Event)
			} else {
				j++
			}
		}
		out.Components[c].Trace = append(edited, tr[j:]...)
	}
	return out
}

// Public returns the edits of mt (over sig's names) as verdict gives them,
// sorted (see Sort).
func Public(sig *interaction.Signature, mt *multitrace.MultiTrace, edits []Edit) []verdict.Edit {
	sorted := slices.Clone(edits)
	Sort(sorted)
	out := make([]verdict.Edit, len(sorted))
	for k, e := range sorted {
		var loc []string
		for l := range mt.Components[e.Component].Lifelines.All() {
			loc = append(loc, sig.Lifelines[l])
		}
		out[k] = verdict.Edit{Op: e.Op, Location: loc, Component: e.Component, Index: e.Index, Action: e.Event.Format(sig),
			Lifelines: mt.Components[e.Component].Lifelines.Format(sig),
			End:       e.Op == verdict.Insert && e.Index == len(mt.Components[e.Component].Trace)}
	}
	return out
}

// Alphabet returns, for each location of locs, the events it may show of
// the interaction root (a term of st): the parts there (restrictions to
// its lifelines) of the multi-actions the interaction may execute, each
// once. These are its actions, and with a sync operator the joins of the
// actions of its operands that meet the synchronized set alike (more than
// the sync may execute: candidates, not a language).
func Alphabet(st *interaction.Store, root interaction.Term, locs interaction.Locations) [][]interaction.MultiAction {
	acts := executable(st, root, map[interaction.Term][]interaction.MultiAction{})
	// Each multi-action is restricted to the locations of its lifelines
	// only: with many locations, each sees a few of many actions.
	at := map[interaction.LifelineID][]int{} // the locations of a lifeline
	for i, g := range locs {
		for l := range g.All() {
			at[l] = append(at[l], i)
		}
	}
	out := make([][]interaction.MultiAction, len(locs))
	seen := make([]collector, len(locs))
	var touched []int
	for _, m := range acts {
		touched = touched[:0]
		for _, a := range m {
			for _, i := range at[a.Lifeline()] {
				if !slices.Contains(touched, i) {
					touched = append(touched, i)
				}
			}
		}
		for _, i := range touched {
			c := &seen[i]
			if c.seen == nil {
				c.seen = map[string]bool{}
			}
			c.add(m.Restrict(locs[i]))
		}
	}
	for i := range seen {
		out[i] = seen[i].acts
	}
	return out
}

// executable returns the multi-actions t may execute (see Alphabet),
// each once, in the order of their first occurrence in t. Only a sync needs
// the lists of its operands; elsewhere the actions of a term are
// collected in one walk into one set, so that a long seq (a term nested as
// deep as it has actions) costs its size, not its size squared in lists
// (or cubed in comparisons).
func executable(st *interaction.Store, t interaction.Term, memo map[interaction.Term][]interaction.MultiAction) []interaction.MultiAction {
	if acts, ok := memo[t]; ok {
		return acts
	}
	c := collector{seen: map[string]bool{}, done: map[interaction.Term]bool{}}
	c.collect(st, t, memo)
	memo[t] = c.acts
	return c.acts
}

// collector gathers multi-actions, each once, in the order added.
type collector struct {
	acts []interaction.MultiAction
	seen map[string]bool           // by key
	done map[interaction.Term]bool // the terms collected (a shared term adds nothing twice)
	key  []byte
}

func (c *collector) add(m interaction.MultiAction) {
	c.key = c.key[:0]
	for _, a := range m {
		c.key = append(c.key, byte(a), byte(a>>8), byte(a>>16), byte(a>>24))
	}
	if !c.seen[string(c.key)] {
		c.seen[string(c.key)] = true
		c.acts = append(c.acts, m)
	}
}

// collect adds the multi-actions t may execute.
func (c *collector) collect(st *interaction.Store, t interaction.Term, memo map[interaction.Term][]interaction.MultiAction) {
	if c.done[t] {
		return
	}
	c.done[t] = true
	switch op := st.Op(t); {
	case op == interaction.OpAct:
		c.add(st.Action(t))
	case op.IsLoop():
		c.collect(st, st.Left(t), memo)
	case op == interaction.OpSync:
		for _, m := range synced(st, t, memo) {
			c.add(m)
		}
	case op.IsBinary():
		c.collect(st, st.Left(t), memo)
		c.collect(st, st.Right(t), memo)
	}
}

// synced returns the multi-actions the sync t may execute: those of its
// operands outside the synchronized set, and the joins of an action of
// each that meet it alike.
func synced(st *interaction.Store, t interaction.Term, memo map[interaction.Term][]interaction.MultiAction) []interaction.MultiAction {
	if acts, ok := memo[t]; ok {
		return acts
	}
	c := collector{seen: map[string]bool{}}
	sync := st.SyncActions(t)
	meet := func(m interaction.MultiAction) interaction.MultiAction {
		var in interaction.MultiAction
		for _, a := range m {
			if slices.Contains(sync, a) {
				in = append(in, a)
			}
		}
		return in
	}
	l, r := executable(st, st.Left(t), memo), executable(st, st.Right(t), memo)
	for _, m := range slices.Concat(l, r) {
		if len(meet(m)) == 0 {
			c.add(m)
		}
	}
	for _, x := range l {
		if mx := meet(x); len(mx) > 0 {
			for _, y := range r {
				if slices.Equal(mx, meet(y)) {
					c.add(interaction.NewMultiAction(slices.Concat(x, y)...))
				}
			}
		}
	}
	memo[t] = c.acts
	return c.acts
}
