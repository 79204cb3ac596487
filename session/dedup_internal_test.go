package session

import (
	"math/rand/v2"
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

// TestAnyDuplicate: the pairwise look for a span read twice (dedup's
// shortcut up to smallDedup spans, whose answer decides whether the
// spans are sorted and their copies dropped) finds what a set finds, on
// random spans of up to twice smallDedup, ids and sides drawn from few
// values so that both answers come.
func TestAnyDuplicate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[bool]int{}
	for range 20000 {
		n := rng.IntN(2*smallDedup + 1)
		es := make([]spanEntry, n)
		for i := range es {
			es[i] = spanEntry{id: rng.Uint64N(uint64(4 * max(n, 1))), side: interaction.Kind(rng.IntN(2)), at: int32(i)}
		}
		set := map[spanEntry]bool{}
		want := false
		for _, e := range es {
			k := spanEntry{id: e.id, side: e.side}
			want = want || set[k]
			set[k] = true
		}
		if got := anyDuplicate(es); got != want {
			t.Fatalf("%v: %v, want %v", es, got, want)
		}
		seen[want]++
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("answers drawn: %v", seen)
	}
}
