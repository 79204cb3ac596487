package interaction

import (
	"math/rand/v2"
	"testing"
)

// TestActionTable checks the table against a map, for actions of every
// part of the encoding (lifelines, messages, kinds, ghosts), set in a
// random order and overwritten.
func TestActionTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tab ActionTable[uint32]
	want := map[Action]uint32{}
	acts := []Action{MakeAction(0, Emission, 0), MakeAction(0, Reception, 0), MakeAction(3, Reception, 700), Ghost(MakeAction(2, Emission, 5))}
	for range 200 {
		acts = append(acts, MakeAction(LifelineID(rng.IntN(8)), Kind(rng.IntN(2)), MessageID(rng.IntN(64))))
	}
	for i, a := range acts {
		v := uint32(rng.IntN(4)) * uint32(i) // 0 included: a value, not "absent"
		tab.Set(a, v)
		want[a] = v
	}
	for _, a := range acts {
		probe := []Action{a, a ^ 1, a + 2, MakeAction(a.Lifeline()+9, a.Kind(), a.Message())}
		for _, b := range probe {
			got, ok := tab.Get(b)
			w, wok := want[b]
			if got != w || ok != wok {
				t.Fatalf("Get(%#x) = %d, %v; want %d, %v", uint32(b), got, ok, w, wok)
			}
		}
	}
	var empty ActionTable[int32]
	if _, ok := empty.Get(MakeAction(1, Emission, 1)); ok {
		t.Error("an empty table has a value")
	}
}
