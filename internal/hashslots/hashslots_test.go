package hashslots

import (
	"math/rand/v2"
	"testing"
)

// TestGrow: every entry of the old table is in the new one, at or after
// the slot of its hash's top bits, with no empty slot between.
func TestGrow(t *testing.T) {
	const k = 6
	old, shift := make([]uint64, 1<<k), uint8(64-k)
	r := rand.New(rand.NewPCG(1, 2))
	var in []uint64
	for n := range 40 {
		e := r.Uint64()&^(1<<32-1) | uint64(n+1)
		i := e >> shift
		for old[i] != 0 {
			i = (i + 1) & (1<<k - 1)
		}
		old[i] = e
		in = append(in, e)
	}
	table, shift := Grow(old, shift)
	if len(table) != 2<<k || shift != 64-k-1 {
		t.Fatalf("len %d shift %d", len(table), shift)
	}
	mask := uint64(len(table) - 1)
	for _, e := range in {
		i := e >> shift
		for table[i] != e {
			if table[i] == 0 {
				t.Fatalf("entry %x not found from its slot %d", e, e>>shift)
			}
			i = (i + 1) & mask
		}
	}
}

// TestIntsSpread: keys that differ by one in a slot or two (the vertices
// of a search: positions one apart) spread over a table placed by their
// hashes' top bits, as random hashes would: no long run of full slots (a
// chain of FNV steps without a final mix fails it).
func TestIntsSpread(t *testing.T) {
	const k = 18 // 2^18 slots, half full
	table := make([]bool, 1<<k)
	key := make([]int32, 41)
	n := 0
	for a := range int32(512) {
		for b := range int32(256) {
			key[0], key[39], key[40] = 7, a, b
			i := Ints(key) >> (64 - k)
			for run := 0; table[i]; run++ {
				if run > 80 {
					t.Fatalf("key %d: a run of more than 80 full slots at half load", n)
				}
				i = (i + 1) & (1<<k - 1)
			}
			table[i] = true
			n++
		}
	}
}
