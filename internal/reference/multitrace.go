package reference

import (
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"slices"
)

// Project returns the projection of the global trace tr onto the locations
// groups (a partition of the lifelines, one component per location, in
// order): each event is split per location, the actions of the event on the
// lifelines of a location forming one event of that location's component.
// Actions on lifelines of no location are dropped.
func Project(tr Trace, groups interaction.Locations) multitrace.MultiTrace {
	mt := multitrace.MultiTrace{Components: make([]multitrace.Component, len(groups))}
	for k, g := range groups {
		mt.Components[k].Lifelines = g
	}
	for _, ev := range tr {
		for k, g := range groups {
			var part []interaction.Action
			for _, a := range ev {
				if g.Has(a.Lifeline()) {
					part = append(part, a)
				}
			}
			if len(part) > 0 {
				mt.Components[k].Trace = append(mt.Components[k].Trace, interaction.NewMultiAction(part...))
			}
		}
	}
	return mt
}

// Accepts reports whether mt is exactly the projection of a global trace of
// t onto mt's locations (μ ∈ σ_C(t)). Lifelines in no component of mt
// count as observed with an empty trace, as in a .htf file.
//
// A global event splits into one event per location it touches, so a
// witness has at most as many events as mt has component events. The trace
// sets are moreover restricted, at every subterm, to the traces that embed
// into mt (see observation), which cannot lose a witness. The cost still
// grows with the number of global traces whose projection fits mt, up to
// every interleaving of the components with one location per lifeline: keep
// mt to about ten events.
func Accepts(st *interaction.Store, t interaction.Term, mt multitrace.MultiTrace) bool {
	obs := &observation{groups: mt.Locations()}
	n := 0
	for _, c := range mt.Components {
		n += len(c.Trace)
		obs.traces = append(obs.traces, c.Trace)
	}
	for _, tr := range newEvaluator(st, n, obs).traceSet(t).byKey {
		if !onLifelines(tr, obs.covered()) {
			continue
		}
		if componentsMatch(mt, Project(tr, obs.groups), equalEvents) {
			return true
		}
	}
	return false
}

func (o *observation) covered() interaction.Lifelines {
	var ls interaction.Lifelines
	for _, g := range o.groups {
		ls = ls.Union(g)
	}
	return ls
}

// IsMultiPrefix reports whether every component of mt is a prefix of the
// corresponding component of the projection of one trace of t of length at
// most maxLen. It is exact when maxLen bounds the length of a witness (for a
// loop-free t, maxLen = st.NumActions(t) always does); otherwise a false
// answer may be for lack of length.
func IsMultiPrefix(st *interaction.Store, t interaction.Term, mt multitrace.MultiTrace, maxLen int) bool {
	return someProjection(st, t, mt, maxLen, isPrefix)
}

// IsSlice reports whether every component of mt is a slice (a factor: the
// trace with a prefix and a suffix removed) of the corresponding component of
// the projection of one trace of t of length at most maxLen. The same caveat
// as for IsMultiPrefix applies to maxLen.
func IsSlice(st *interaction.Store, t interaction.Term, mt multitrace.MultiTrace, maxLen int) bool {
	return someProjection(st, t, mt, maxLen, isFactor)
}

func someProjection(st *interaction.Store, t interaction.Term, mt multitrace.MultiTrace, maxLen int,
	rel func(sub, whole []interaction.MultiAction) bool) bool {
	groups := mt.Locations()
	for _, tr := range Traces(st, t, maxLen).byKey {
		if componentsMatch(mt, Project(tr, groups), rel) {
			return true
		}
	}
	return false
}

// componentsMatch reports whether rel(mt's component, p's component) holds
// for every component.
func componentsMatch(mt, p multitrace.MultiTrace, rel func(sub, whole []interaction.MultiAction) bool) bool {
	for k, c := range mt.Components {
		if !rel(c.Trace, p.Components[k].Trace) {
			return false
		}
	}
	return true
}

func onLifelines(tr Trace, ls interaction.Lifelines) bool {
	for _, ev := range tr {
		if !ev.Lifelines().SubsetOf(ls) {
			return false
		}
	}
	return true
}

func equalEvents(a, b []interaction.MultiAction) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func isPrefix(sub, whole []interaction.MultiAction) bool {
	return len(sub) <= len(whole) && equalEvents(sub, whole[:len(sub)])
}

func isFactor(sub, whole []interaction.MultiAction) bool {
	for i := 0; i+len(sub) <= len(whole); i++ {
		if equalEvents(sub, whole[i:i+len(sub)]) {
			return true
		}
	}
	return false
}
