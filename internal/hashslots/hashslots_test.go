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
