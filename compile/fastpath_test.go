package compile

import (
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/nfa"
)

// TestBinaryShortcut checks canonizer.binary, which gives back the term
// being rewritten instead of looking it up, against Store.Binary, on every
// binary term of random interactions and of their derivatives, with its
// own operands, with others and with no term being rewritten.
func TestBinaryShortcut(t *testing.T) {
	rng := random.New(7)
	for range 200 {
		st := interaction.NewStore(random.Signature(3, 3))
		root := random.Interaction(st, rng, random.Params{MaxDepth: 4, MinActions: 2, Weights: random.All()})
		Synthesize(st, root, Options{MaxStates: 200})
		c := newCanonizer(st)
		n := interaction.Term(st.Len())
		for u := range n {
			op := st.Op(u)
			if !op.IsBinary() || op == interaction.OpCoreg || op == interaction.OpSync {
				continue
			}
			l, r := st.Left(u), st.Right(u)
			other := interaction.Term(rng.Uint32N(uint32(n)))
			for _, x := range []interaction.Term{u, other, interaction.Empty} {
				if got, want := c.binary(x, op, l, r), st.Binary(op, l, r); got != want {
					t.Fatalf("binary(%s, %s, …) = %s, want %s", st.Format(x), op, st.Format(got), st.Format(want))
				}
				if got, want := c.binary(x, op, r, l), st.Binary(op, r, l); got != want {
					t.Fatalf("binary(%s, %s, …) swapped = %s, want %s", st.Format(x), op, st.Format(got), st.Format(want))
				}
			}
		}
	}
}

// TestSymbolNames checks the names the synthesis gives its symbols, which
// share the memory of a few builders (see synth.name), against
// MultiAction.Format, on random interactions; and names given one after
// the other, enough to fill several builders, against copies of theirs.
func TestSymbolNames(t *testing.T) {
	rng := random.New(8)
	for range 200 {
		st := interaction.NewStore(random.Signature(4, 4))
		root := random.Interaction(st, rng, random.Params{MaxDepth: 5, MinActions: 6, Weights: random.All(),
			Messages: random.MessageKinds{Passing: 2, Emission: 1, Reception: 1, Synch: 2, Broadcast: 2}})
		a, err := Synthesize(st, root, Options{MaxStates: 300})
		if err != nil {
			continue
		}
		syms := a.NFA.Symbols()
		for x, id := range a.Acts {
			if got, want := syms.Name(nfa.Symbol(x)), st.MultiAction(id).Format(st.Signature()); got != want {
				t.Fatalf("symbol %d is named %q, want %q", x, got, want)
			}
		}
	}
	s := newSynth(interaction.NewStore(random.Signature(2, 2)), Options{}, interaction.Empty)
	var names, want []string
	for i := range 500 {
		b := []byte(strings.Repeat(string(rune('a'+i%26)), 1+rng.IntN(40)))
		names = append(names, s.name(b))
		want = append(want, string(b))
		b[0] = '!' // the name is a copy
	}
	if !slices.Equal(names, want) {
		t.Fatalf("names %q, want %q", names, want)
	}
}
