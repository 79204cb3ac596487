package synth

import (
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
)

// refPile is pile without chainPile: every chain flattened.
func refPile(st *interaction.Store, t interaction.Term) pile {
	op := st.Op(t)
	m := pile{1, 1}
	switch {
	case op.IsLoop():
		m = refPile(st, st.Left(t))
	case op == interaction.OpStrict || op == interaction.OpSeq || op == interaction.OpPar:
		xs := operands(st, op, t, nil)
		m.width = int32(len(xs))
		for i, x := range xs {
			n := int32(0)
			for _, y := range xs[:i+1] {
				if y == x {
					n++
				}
			}
			sub := refPile(st, x)
			m = pile{max(m.copies, n, sub.copies), max(m.width, sub.width)}
		}
	case op.IsBinary():
		l, r := refPile(st, st.Left(t)), refPile(st, st.Right(t))
		m = pile{max(l.copies, r.copies), max(l.width, r.width)}
	}
	return m
}

// TestChainPile checks the piles of every term of random interactions and
// of their derivatives against refPile.
func TestChainPile(t *testing.T) {
	rng := random.New(12)
	for range 200 {
		st := interaction.NewStore(random.Signature(3, 3))
		p := random.Params{MaxDepth: 4, MinActions: 2, Weights: random.All(),
			Messages: random.MessageKinds{Passing: 2, Emission: 2, Reception: 2, Synch: 1, Broadcast: 1}}
		root := random.Interaction(st, rng, p)
		Synthesize(st, root, Options{MaxStates: 200}) // more terms, canonical ones among them
		s := newSynth(st, Options{}, root)
		for u := range interaction.Term(st.Len()) {
			if got, want := s.pile(u), refPile(st, u); got != want {
				t.Fatalf("pile(%s) = %v, want %v", st.Format(u), got, want)
			}
		}
	}
}
