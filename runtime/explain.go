package runtime

import (
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/verdict"
)

// track remembers the furthest vertex, for the explanation of a Fail.
func (pb *problem) track(t interaction.Term, pos []int32) {
	sum := 0
	for _, x := range pos {
		sum += int(x)
	}
	if pb.bestPos == nil || sum > pb.best {
		pb.best = sum
		pb.bestPos = append(pb.bestPos[:0], pos...)
		pb.bestTerm = t
	}
}

func (pb *problem) explain() *verdict.Explanation {
	st := pb.a.st
	sig := st.Signature()
	e := &verdict.Explanation{}
	pos := pb.bestPos
	if pos == nil {
		pos = make([]int32, len(pb.traces))
	}
	for c, tr := range pb.traces {
		cp := verdict.ComponentProgress{Lifelines: pb.p.lifelines[c].Format(sig), Consumed: int(pos[c]), Length: len(tr)}
		if int(pos[c]) < len(tr) {
			cp.Head = st.MultiAction(tr[pos[c]]).Format(sig)
		}
		e.Components = append(e.Components, cp)
	}
	t := pb.bestTerm
	if pb.bestPos == nil {
		t = pb.a.root
	}
	seen := map[string]bool{}
	for k, nf := 0, st.NumFrontier(t); k < nf; k++ {
		m := st.MultiAction(st.FrontierAct(t, k))
		if m.IsSilent() {
			continue
		}
		s := m.Format(sig)
		if !seen[s] {
			seen[s] = true
			e.Expected = append(e.Expected, s)
		}
	}
	slices.Sort(e.Expected)
	if pb.locFail >= 0 {
		e.LocalFailure = pb.p.lifelines[pb.locFail].Format(sig)
	}
	return e
}
