package gen

import (
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
)

// Project returns the multi-trace that the locations of p observe of the
// global trace tr: each event is split per location, the actions on its
// lifelines forming one event of its component. Actions on lifelines
// outside p are dropped.
func Project(tr []interaction.MultiAction, p interaction.Locations) multitrace.MultiTrace {
	mt := multitrace.MultiTrace{Components: make([]multitrace.Component, len(p))}
	for k, g := range p {
		mt.Components[k].Lifelines = g
	}
	for _, ev := range tr {
		for k, g := range p {
			var part interaction.MultiAction
			for _, a := range ev { // ev is sorted, so part is too
				if g.Has(a.Lifeline()) {
					part = append(part, a)
				}
			}
			if len(part) > 0 {
				mt.Components[k].Trace = append(mt.Components[k].Trace, part)
			}
		}
	}
	return mt
}
