package runtime

import (
	"github.com/ivc-project/ivc/interaction"
)

// oneUnambiguous reports a ∈₁ i (Def. 11 of the lifeline-removal paper) for
// a single action a: projected on θ(a), i has exactly one executable
// instance of a. Multi-actions are never selected: with <synch> messages the
// same local head may be consumed by a multi-action or by single actions,
// which the definition does not account for.
func (pb *problem) oneUnambiguous(t interaction.Term, id interaction.ActID) bool {
	m := pb.a.st.MultiAction(id)
	return len(m) == 1 && pb.a.st.Instances(t, m[0]) == 1
}

// localOK runs the local analyses of vertex (t, pos): every component's
// remaining trace must be accepted (exact search) or be a prefix of a trace
// (multi-prefix search) of the interaction projected on the component.
func (pb *problem) localOK(t interaction.Term, pos []int32) bool {
	st := pb.a.st
	for c, tr := range pb.traces {
		if !pb.exact && int(pos[c]) == len(tr) {
			continue // removed
		}
		proj := st.Remove(t, pb.p.complement[c])
		key := locKey{t: proj, c: int32(c), pos: pos[c], exact: pb.exact}
		ok, known := pb.loc[key]
		if !known {
			ok = pb.local(proj, int32(c), pos[c])
			if pb.stopped != "" {
				return false
			}
			pb.loc[key] = ok
		}
		if !ok {
			if pb.nodes <= 1 {
				pb.locFail = c
			}
			return false
		}
	}
	return true
}

// local decides whether component c's trace from position q is a prefix
// (or, in an exact search, a complete trace) of the projected term t.
func (pb *problem) local(t interaction.Term, c, q int32) bool {
	st := pb.a.st
	tr := pb.traces[c]
	clear(pb.locSet)
	type lv struct {
		t interaction.Term
		q int32
	}
	work := []lv{{t, q}}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		key := uint64(v.t)<<32 | uint64(v.q)
		if _, seen := pb.locSet[key]; seen {
			continue
		}
		pb.locSet[key] = struct{}{}
		if !pb.count() {
			return false
		}
		if int(v.q) == len(tr) {
			if !pb.exact || st.Nullable(v.t) {
				return true
			}
			continue
		}
		if pb.exact && st.MinActions(v.t, pb.p.lifelines[c]) > len(tr)-int(v.q) {
			continue
		}
		want := tr[v.q]
		for k, nf := 0, st.NumFrontier(v.t); k < nf; k++ {
			if st.FrontierAct(v.t, k) == want {
				work = append(work, lv{st.Step(v.t, k), v.q + 1})
			}
		}
	}
	return false
}
