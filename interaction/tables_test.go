package interaction_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
)

// derivedStore returns a store holding a random interaction of the given
// seed and the derivatives reachable from it in a few steps, with their
// prunings: terms built raw, by the semantic functions and by canonical
// rewriting.
func derivedStore(seed uint64) *interaction.Store {
	st := interaction.NewStore(random.Signature(3, 3))
	root := random.Interaction(st, random.New(seed), random.Params{MaxDepth: 4, MinActions: 2, Weights: random.All(),
		Messages: random.MessageKinds{Passing: 2, Emission: 2, Reception: 2, Synch: 1, Broadcast: 1}})
	seen := map[interaction.Term]bool{root: true}
	todo := []interaction.Term{root}
	for len(todo) > 0 && len(seen) < 200 {
		t := todo[0]
		todo = todo[1:]
		st.Prune(t, interaction.LifelinesOf(0))
		st.Prune(t, interaction.LifelinesOf(1, 2))
		for k := range st.NumFrontier(t) {
			if next := st.Step(t, k); !seen[next] {
				seen[next] = true
				todo = append(todo, next)
			}
		}
	}
	return st
}

// TestProps checks the props of every term of random stores against their
// definitions, computed over the whole term.
func TestProps(t *testing.T) {
	for seed := range uint64(100) {
		st := derivedStore(seed)
		for u := range interaction.Term(st.Len()) {
			occ, must, actions, nullable, weak, sorted, weakLoop := st.Props(u)
			got := fmt.Sprint(occ, must, actions, nullable, weak, sorted, weakLoop)
			wocc, wmust, wactions, wnullable, wweak, wweakLoop := refProps(st, u)
			want := fmt.Sprint(wocc, wmust, wactions, wnullable, wweak, refSorted(st, u), wweakLoop)
			if got != want {
				t.Fatalf("seed %d: props of %s = %q, want %q", seed, st.Format(u), got, want)
			}
		}
	}
}

// refProps computes the props of t from their definitions.
func refProps(st *interaction.Store, t interaction.Term) (occ, must interaction.Lifelines, actions int, nullable, weak, weakLoop bool) {
	op := st.Op(t)
	switch {
	case op == interaction.OpEmpty:
		return "", "", 0, true, false, false
	case op == interaction.OpAct:
		ls := st.Action(t).Lifelines()
		return ls, ls, 1, false, false, false
	case op.IsLoop():
		occ, _, actions, _, weak, weakLoop := refProps(st, st.Left(t))
		return occ, "", actions, true, weak || op == interaction.OpLoopW || op == interaction.OpLoopH, weakLoop || op != interaction.OpLoopS
	}
	lo, lm, la, ln, lw, lwl := refProps(st, st.Left(t))
	ro, rm, ra, rn, rw, rwl := refProps(st, st.Right(t))
	occ, must, nullable = lo.Union(ro), lm.Union(rm), ln && rn
	if op == interaction.OpAlt {
		must, nullable = lm.Intersect(rm), ln || rn
	}
	weak = lw || rw || op == interaction.OpSeq || op == interaction.OpCoreg || op == interaction.OpSync
	return occ, must, la + ra, nullable, weak, lwl || rwl
}

// refSorted reports whether t is an alt (par) whose operands along the
// right spine decrease (do not increase), as canonical rewriting keeps them.
func refSorted(st *interaction.Store, t interaction.Term) bool {
	op := st.Op(t)
	if op != interaction.OpAlt && op != interaction.OpPar {
		return false
	}
	var ops []interaction.Term
	x := t
	for ; st.Op(x) == op; x = st.Right(x) {
		ops = append(ops, st.Left(x))
	}
	ops = append(ops, x)
	for i := 1; i < len(ops); i++ {
		if ops[i-1] < ops[i] || op == interaction.OpAlt && ops[i-1] == ops[i] {
			return false
		}
	}
	return true
}

// TestPrunedOrigins checks the lists of the terms pruned into a term
// against slices: after the origins the store found itself, each list has
// the terms added to it once, in the order they were first added.
func TestPrunedOrigins(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		st := derivedStore(rng.Uint64() % 1000)
		n := interaction.Term(st.Len())
		want := map[interaction.Term][]interaction.Term{}
		for r := range n {
			want[r] = st.PrunedOrigins(r)
		}
		for range rng.IntN(300) {
			r, from := interaction.Term(rng.Uint32N(uint32(n))), interaction.Term(rng.Uint32N(uint32(n)))
			if !slices.Contains(want[r], from) {
				want[r] = append(want[r], from)
			}
			st.AddPrunedFrom(r, from)
		}
		for r := range n {
			if got := st.PrunedOrigins(r); !slices.Equal(got, want[r]) {
				t.Fatalf("origins of %d = %v, want %v", r, got, want[r])
			}
		}
	}
}

// TestSuccessor checks Successor against FrontierAct and Step, on terms
// whose steps are not memoized yet and on terms whose steps are: two stores
// built alike, one stepped by Successor and one by Step, keep the same ids.
func TestSuccessor(t *testing.T) {
	for seed := range uint64(100) {
		st, ref := derivedStore(seed), derivedStore(seed)
		for u := interaction.Term(0); int(u) < st.Len() && u < 400; u++ {
			for k := range st.NumFrontier(u) {
				act, next := st.Successor(u, k)
				wantAct, want := ref.FrontierAct(u, k), ref.Step(u, k)
				if act != wantAct || next != want {
					t.Fatalf("seed %d: Successor(%s, %d) = %d, %s, want %d, %s", seed, st.Format(u), k, act, st.Format(next), wantAct, ref.Format(want))
				}
				if act, next = st.Successor(u, k); act != wantAct || next != want {
					t.Fatalf("seed %d: Successor(%s, %d) again = %d, %s", seed, st.Format(u), k, act, st.Format(next))
				}
			}
		}
	}
}
