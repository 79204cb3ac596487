package synth

import (
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/random"
)

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
