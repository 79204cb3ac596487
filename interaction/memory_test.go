package interaction_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

// TestCompactTables pins the sizes that make up most of the memory of a
// search's terms: a term's props (with η and β in their padding) and a
// frontier element.
func TestCompactTables(t *testing.T) {
	props, felt := interaction.TableSizes()
	if props > 48 || felt > 16 {
		t.Errorf("props take %d bytes (want ≤ 48), a frontier element %d (want ≤ 16)", props, felt)
	}
}

// TestEtaLoopDepth checks η and β, kept in the props of each term, against
// their definitions over the whole term.
func TestEtaLoopDepth(t *testing.T) {
	var eta, depth func(st *interaction.Store, u interaction.Term) int
	eta = func(st *interaction.Store, u interaction.Term) int {
		switch op := st.Op(u); {
		case op == interaction.OpEmpty || op.IsLoop():
			return 0
		case op == interaction.OpAct:
			return 1
		case op == interaction.OpAlt:
			return max(eta(st, st.Left(u)), eta(st, st.Right(u)))
		default:
			return eta(st, st.Left(u)) + eta(st, st.Right(u))
		}
	}
	depth = func(st *interaction.Store, u interaction.Term) int {
		switch op := st.Op(u); {
		case op == interaction.OpEmpty || op == interaction.OpAct:
			return 0
		case op.IsLoop():
			return 1 + depth(st, st.Left(u))
		default:
			return max(depth(st, st.Left(u)), depth(st, st.Right(u)))
		}
	}
	for seed := range uint64(50) {
		st := derivedStore(seed)
		for u := range interaction.Term(st.Len()) {
			if st.Eta(u) != eta(st, u) || st.LoopDepth(u) != depth(st, u) {
				t.Fatalf("seed %d: %s has η %d, β %d; want %d, %d", seed, st.Format(u), st.Eta(u), st.LoopDepth(u), eta(st, u), depth(st, u))
			}
		}
	}
	// Deeper than props hold.
	st := storeOf(t, "a", "m")
	u := st.MustParseTerm("a!m")
	for range 1<<16 + 5 {
		u = st.Loop(interaction.OpLoopS, u)
	}
	if d := st.LoopDepth(st.Par(u, st.MustParseTerm("a!m"))); d != 1<<16+5 {
		t.Errorf("β of %d nested loops: %d", 1<<16+5, d)
	}
}

func storeOf(t testing.TB, lifelines, messages string) *interaction.Store {
	t.Helper()
	sig, err := interaction.NewSignature(strings.Split(lifelines, ","), strings.Split(messages, ","), nil)
	if err != nil {
		t.Fatal(err)
	}
	return interaction.NewStore(sig)
}

// wide returns par(a1!m, par(a2!m, ... an!m)) in a new store.
func wide(t testing.TB, n int) (*interaction.Store, interaction.Term) {
	var ls []string
	for i := range n {
		ls = append(ls, fmt.Sprintf("a%d", i))
	}
	st := storeOf(t, strings.Join(ls, ","), "m")
	u := st.MustParseTerm(ls[n-1] + "!m")
	for i := n - 2; i >= 0; i-- {
		u = st.Par(st.MustParseTerm(ls[i]+"!m"), u)
	}
	return st, u
}

// TestOnGrowth: the growth hook is called while a large frontier is being
// computed, it may abandon the computation by a panic, and the store is
// still right afterwards; Bytes accounts for the frontiers.
func TestOnGrowth(t *testing.T) {
	type stop struct{}
	st, u := wide(t, 2000)
	before := st.Bytes()
	calls := 0
	st.OnGrowth(func() {
		if calls++; calls == 3 {
			panic(stop{})
		}
	})
	func() {
		defer func() {
			if r := recover(); r != (stop{}) {
				t.Fatalf("recovered %v, want the hook's panic", r)
			}
		}()
		st.NumFrontier(u)
		t.Fatal("the frontier of a par of 2000 actions took fewer than 3 chunks")
	}()
	st.OnGrowth(nil)
	if n := st.NumFrontier(u); n != 2000 {
		t.Fatalf("after an abandoned computation, the frontier has %d elements, want 2000", n)
	}
	for k := range 2000 {
		if got, want := st.MultiAction(st.FrontierAct(u, k)).Format(st.Signature()), fmt.Sprintf("a%d!m", k); got != want {
			// The order of a par's frontier is its operands' order.
			t.Fatalf("frontier element %d is %s, want %s", k, got, want)
		}
	}
	// The frontiers of the 2000 suffixes hold about 2000²/2 elements of
	// 16 bytes.
	if grown := st.Bytes() - before; grown < 16*2000*2000/2 {
		t.Errorf("Bytes grew by %d for 2,000,000 frontier elements", grown)
	}
	fresh, v := st.Fresh(u)
	if fresh.Format(v) != st.Format(u) || fresh.Bytes() >= st.Bytes() {
		t.Errorf("Fresh: %d bytes, was %d", fresh.Bytes(), st.Bytes())
	}
}

// TestAllLifelines: the set of all lifelines, built in one pass (it was
// built one lifeline at a time, in quadratic time and garbage).
func TestAllLifelines(t *testing.T) {
	for n := 1; n <= 20; n++ {
		st, _ := wide(t, n)
		var ids []interaction.LifelineID
		for i := range n {
			ids = append(ids, interaction.LifelineID(i))
		}
		if got, want := st.Signature().AllLifelines(), interaction.LifelinesOf(ids...); got != want || got.Len() != n {
			t.Errorf("%d lifelines: %q, want %q", n, got, want)
		}
	}
}
