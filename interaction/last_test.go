package interaction_test

import (
	"slices"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/reference"
)

// TestLastActions checks LastActions against the reference semantics on
// random interactions of every operator: the last action on each lifeline
// of every trace (up to a length) is among them, and, on interactions
// without loops or sync, whose traces are all that short, each of them
// ends one (those of up to 7 actions).
func TestLastActions(t *testing.T) {
	for seed := range uint64(400) {
		st := interaction.NewStore(random.Signature(3, 3))
		term := random.Interaction(st, random.New(seed), random.Params{MaxDepth: 3, Weights: random.All()})
		n := st.Signature().NumLifelines()
		k := 5
		exact := !hasOp(st, term, interaction.OpSync) && !hasLoop(st, term) && st.NumActions(term) <= 7
		if exact {
			k = st.NumActions(term)
		}
		seen := make([]map[interaction.Action]bool, n)
		for l := range seen {
			seen[l] = map[interaction.Action]bool{}
		}
		for _, tr := range reference.Traces(st, term, k).All() {
			for l := range n {
				for i := len(tr) - 1; i >= 0; i-- {
					on := false
					for _, a := range tr[i] {
						if int(a.Lifeline()) == l {
							seen[l][a], on = true, true
							if _, ok := slices.BinarySearch(st.LastActions(term, a.Lifeline()), a); !ok {
								t.Fatalf("seed %d: %s: trace %s ends on l%d with %s, not among %v",
									seed, st.Format(term), tr.Format(st.Signature()), l+1, a.Format(st.Signature()), st.LastActions(term, a.Lifeline()))
							}
						}
					}
					if on {
						break
					}
				}
			}
		}
		if !exact {
			continue
		}
		for l := range n {
			for _, a := range st.LastActions(term, interaction.LifelineID(l)) {
				if !seen[l][a] {
					t.Errorf("seed %d: %s: %s ends no trace on l%d", seed, st.Format(term), a.Format(st.Signature()), l+1)
				}
			}
		}
	}
}

func hasOp(st *interaction.Store, t interaction.Term, op interaction.Op) bool {
	switch o := st.Op(t); {
	case o == op:
		return true
	case o.IsLoop():
		return hasOp(st, st.Left(t), op)
	case o.IsBinary():
		return hasOp(st, st.Left(t), op) || hasOp(st, st.Right(t), op)
	}
	return false
}

func hasLoop(st *interaction.Store, t interaction.Term) bool {
	for _, op := range []interaction.Op{interaction.OpLoopS, interaction.OpLoopH, interaction.OpLoopW, interaction.OpLoopP} {
		if hasOp(st, t, op) {
			return true
		}
	}
	return false
}
