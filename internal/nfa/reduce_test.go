package nfa

import (
	"math/rand/v2"
	"testing"
)

// TestBisimulation64 compares the bitset bisimulation of small automata
// with the general one, forward and backward, on random automata of up to
// 64 states.
func TestBisimulation64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 500 {
		n := 1 + rng.IntN(64)
		a := randomNFA(rng, n, rng.IntN(3*n))
		for _, backward := range []bool{false, true} {
			mem := make([]int32, a.bisimulationMem())
			start, sym, other := a.preImages(backward, &mem)
			small, nsmall := bisimulation64(a, backward, start, sym, other, make([]int32, n))
			mem = make([]int32, 12*n+3*a.NumTransitions()+2*a.Symbols().Len()+2) // bisimulationSplit's
			start, sym, other = a.preImages(backward, &mem)
			general, ngeneral := bisimulationSplit(a, backward, start, sym, other, mem)
			if nsmall != ngeneral {
				t.Fatalf("#%d %s backward=%v: %d blocks, want %d", i, a, backward, nsmall, ngeneral)
			}
			// The same partition, up to the numbering of the blocks.
			same := make(map[int32]int32)
			for q := range n {
				if b, ok := same[general[q]]; ok && b != small[q] {
					t.Fatalf("#%d %s backward=%v: blocks %v, want %v", i, a, backward, small, general)
				}
				same[general[q]] = small[q]
			}
		}
	}
}

// TestIsTrim64 compares the bitset trimness test of small automata with the
// general one.
func TestIsTrim64(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 500 {
		n := 1 + rng.IntN(64)
		a := randomNFA(rng, n, rng.IntN(3*n))
		var buf []int32
		if got, want := a.isTrim64(), a.isTrimIndex(&buf); got != want {
			t.Fatalf("#%d %s: isTrim64 = %v, want %v", i, a, got, want)
		}
	}
}
