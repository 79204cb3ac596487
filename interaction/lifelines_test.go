package interaction

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLifelinesOps checks the set operations against sets of ids, on sets
// of one to three bytes (the one-byte ones take a shortcut).
func TestLifelinesOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() (Lifelines, map[LifelineID]bool) {
		m := map[LifelineID]bool{}
		var ids []LifelineID
		limit := []int{8, 8, 24}[rng.IntN(3)]
		for range rng.IntN(5) {
			l := LifelineID(rng.IntN(limit))
			m[l] = true
			ids = append(ids, l)
		}
		return LifelinesOf(ids...), m
	}
	of := func(keep func(LifelineID) bool) Lifelines {
		var ids []LifelineID
		for l := range LifelineID(24) {
			if keep(l) {
				ids = append(ids, l)
			}
		}
		return LifelinesOf(ids...)
	}
	for range 2000 {
		s, ms := random()
		u, mu := random()
		if got, want := s.Union(u), of(func(l LifelineID) bool { return ms[l] || mu[l] }); got != want {
			t.Fatalf("%v ∪ %v = %v, want %v", []byte(s), []byte(u), []byte(got), []byte(want))
		}
		if got, want := s.Intersect(u), of(func(l LifelineID) bool { return ms[l] && mu[l] }); got != want {
			t.Fatalf("%v ∩ %v = %v, want %v", []byte(s), []byte(u), []byte(got), []byte(want))
		}
		if got, want := s.Minus(u), of(func(l LifelineID) bool { return ms[l] && !mu[l] }); got != want {
			t.Fatalf("%v ∖ %v = %v, want %v", []byte(s), []byte(u), []byte(got), []byte(want))
		}
	}
}

// TestRestrict takes the part of a multi-action at a location.
func TestRestrict(t *testing.T) {
	a, b := MakeAction(0, Emission, 0), MakeAction(2, Reception, 0)
	m := NewMultiAction(a, b)
	for _, tc := range []struct {
		g    Lifelines
		want MultiAction
	}{
		{LifelinesOf(0), MultiAction{a}},
		{LifelinesOf(2, 5), MultiAction{b}},
		{LifelinesOf(0, 2), m},
		{LifelinesOf(1), nil},
	} {
		if got := m.Restrict(tc.g); !slices.Equal(got, tc.want) {
			t.Errorf("%v restricted to %v: %v, want %v", m, tc.g.Slice(), got, tc.want)
		}
	}
}
