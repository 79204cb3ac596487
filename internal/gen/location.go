package gen

import "github.com/ivc-project/ivc/multitrace"

// Location returns the multi-traces mts restricted to their component k,
// the others left empty: what the log of one location (one service) holds,
// for Write to make distributed logs, one file per location, that a
// session.Joiner reads back as mts.
func Location(mts []*multitrace.MultiTrace, k int) []*multitrace.MultiTrace {
	out := make([]*multitrace.MultiTrace, len(mts))
	for i, mt := range mts {
		out[i] = LocationOf(mt, k)
	}
	return out
}

// LocationOf returns the multi-trace mt restricted to its component k, as
// Location does.
func LocationOf(mt *multitrace.MultiTrace, k int) *multitrace.MultiTrace {
	comps := make([]multitrace.Component, len(mt.Components))
	for c, comp := range mt.Components {
		comps[c].Lifelines = comp.Lifelines
	}
	if k < len(comps) {
		comps[k].Trace = mt.Components[k].Trace
	}
	return &multitrace.MultiTrace{Components: comps}
}
