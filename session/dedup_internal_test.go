package session

import (
	"math/rand/v2"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hashslots"
)

// TestAnyDuplicate: the pairwise look for a span read twice (dedup's
// shortcut up to smallDedup spans, whose answer decides whether the
// spans are sorted and their copies dropped), and the table's (past
// smallDedup), find what a set finds, on
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
		var a arena
		if got := a.distinct(es); got != !want {
			t.Fatalf("%v: distinct %v, want %v", es, got, !want)
		}
		seen[want]++
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("answers drawn: %v", seen)
	}
}

// TestDistinctCollisions: spans whose ids fall on one slot of distinct's
// table (its hash is a bijection anyone can invert) make it give up after
// a few probes a span, and leave the answer to the sort, rather than probe
// on with every span.
func TestDistinctCollisions(t *testing.T) {
	const n = 200
	var es []spanEntry
	for i := range uint64(n) {
		// Ids whose mixes share their low bits: one slot of any table
		// of up to 2^20 slots.
		es = append(es, spanEntry{id: unmix(i<<20) - uint64(interaction.Emission), side: interaction.Emission, at: int32(i)})
	}
	var a arena
	if a.distinct(es) {
		t.Fatalf("%d spans on one slot: distinct said so without giving up", n)
	}
	if anyDuplicate(es) {
		t.Fatal("the spans are distinct")
	}
	for i := range es {
		if p := hashslots.Mix(es[i].id+uint64(es[i].side)) & (1<<20 - 1); p != 0 {
			t.Fatalf("span %d: slot %d, want 0", i, p)
		}
	}
}

// unmix inverts hashslots.Mix (SplitMix64's finalizer).
func unmix(x uint64) uint64 {
	unshift := func(y uint64, s uint) uint64 {
		x := y
		for range 64/s + 1 {
			x = y ^ x>>s
		}
		return x
	}
	inverse := func(m uint64) uint64 { // modulo 2^64, m odd (Newton)
		inv := m
		for range 6 {
			inv *= 2 - m*inv
		}
		return inv
	}
	x = unshift(x, 31)
	x *= inverse(0x94d049bb133111eb)
	x = unshift(x, 27)
	x *= inverse(0xbf58476d1ce4e5b9)
	return unshift(x, 30)
}
