package interaction_test

import (
	"slices"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/reference"
)

// TestSimplifyPreservesTraces checks Store.Simplify against the reference
// semantics on random terms that keep their ∅ operands and nest operators
// of one kind on either side: the simplified term has the same traces (up
// to a length), simplifying again changes nothing, and chains of one
// operator come out nested to the right.
func TestSimplifyPreservesTraces(t *testing.T) {
	const maxLen = 5
	w := random.All()
	w.Empty = 4
	n := 400
	if testing.Short() {
		n = 100
	}
	for seed := range uint64(n) {
		st := interaction.NewStore(random.Signature(3, 2))
		raw := random.Interaction(st, random.New(seed), random.Params{MaxDepth: 5, Weights: w, KeepEmpty: true})
		simple := st.Simplify(raw)
		want := reference.Traces(st, raw, maxLen).Strings(st.Signature())
		got := reference.Traces(st, simple, maxLen).Strings(st.Signature())
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: %s\nsimplifies to %s\nwith traces %v\nnot %v", seed, st.Format(raw), st.Format(simple), got, want)
		}
		if again := st.Simplify(simple); again != simple {
			t.Errorf("seed %d: Simplify is not idempotent:\n%s\n%s", seed, st.Format(simple), st.Format(again))
		}
		checkRightNested(t, st, simple)
	}
}

// checkRightNested fails if t has a strict, seq, par, alt, coreg or sync
// node whose left operand has the same operator (and set).
func checkRightNested(t *testing.T, st *interaction.Store, x interaction.Term) {
	t.Helper()
	op := st.Op(x)
	switch {
	case op.IsLoop():
		checkRightNested(t, st, st.Left(x))
	case op.IsBinary():
		l := st.Left(x)
		if st.Op(l) == op && (op != interaction.OpCoreg || st.CoregLifelines(l) == st.CoregLifelines(x)) &&
			(op != interaction.OpSync || slices.Equal(st.SyncActions(l), st.SyncActions(x))) {
			t.Errorf("left-nested %s in %s", op, st.Format(x))
		}
		checkRightNested(t, st, l)
		checkRightNested(t, st, st.Right(x))
	}
}

// TestSimplifyChains pins the simplified form of chains of one operator,
// nested either way, with ∅ operands.
func TestSimplifyChains(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ term, want string }{
		{"seq(seq(seq(a!m,∅),a!n),a?m)", "seq(a!m,seq(a!n,a?m))"},
		{"seq(a!m,seq(∅,seq(a!n,a?m)))", "seq(a!m,seq(a!n,a?m))"},
		{"strict(strict(a!m,b!m),strict(c!m,a!n))", "strict(a!m,strict(b!m,strict(c!m,a!n)))"},
		{"seq(∅,seq(∅,∅))", "∅"},
		{"par(par(a!m,∅),par(∅,∅))", "a!m"},
		{"par(par(a!m,b!m),par(c!m,a!n))", "par(a!n,par(c!m,par(b!m,a!m)))"},
		{"alt(alt(a!m,∅),alt(a!m,∅))", "alt(a!m,∅)"},
		{"alt(∅,alt(∅,∅))", "∅"},
		{"alt(alt(a!m,b!m),alt(c!m,b!m))", "alt(c!m,alt(b!m,a!m))"},
		{"coreg(a)(coreg(a)(strict(a!m,b?m),strict(a!n,b?n)),strict(b!m,a?m))",
			"coreg(a)(strict(a!m,b?m),coreg(a)(strict(a!n,b?n),strict(b!m,a?m)))"},
		{"coreg(a)(coreg(b)(strict(a!m,b?m),strict(a!n,b?n)),strict(b!m,a?m))",
			"coreg(a)(coreg(b)(strict(a!m,b?m),strict(a!n,b?n)),strict(b!m,a?m))"},
		{"sync(a!m)(sync(a!m)(a!m,a!m),a!m)", "sync(a!m)(a!m,sync(a!m)(a!m,a!m))"},
		// A sync of operands that have no synchronized action is a par.
		{"sync(a!m)(b!m,sync(a!m)(c!m,a!n))", "par(a!n,par(c!m,b!m))"},
		{"sync(a!m)(a!m,sync(a!m)(c!m,a!n))", "sync(a!m)(a!m,par(a!n,c!m))"},
		{"sync(a!m)(sync(a!m)(a!m,∅),b!n)", "sync(a!m)(a!m,b!n)"},
		{"loopS(seq(seq(a!m,∅),∅))", "loopS(a!m)"},
	}
	for _, tc := range tests {
		st := interaction.NewStore(sig)
		if got := st.Format(st.Simplify(st.MustParseTerm(tc.term))); got != tc.want {
			t.Errorf("Simplify(%s)\n got %s\nwant %s", tc.term, got, tc.want)
		}
	}
}

// TestRemoveCommutes checks Prop. 1 of the lifeline-removal paper on random
// terms of every operator: removals commute and compose,
// rmv_L2(rmv_L1(i)) and rmv_L1(rmv_L2(i)) and rmv_{L1∪L2}(i) have the same
// traces (up to a length).
func TestRemoveCommutes(t *testing.T) {
	const maxLen = 5
	n := 400
	if testing.Short() {
		n = 100
	}
	for seed := range uint64(n) {
		sig := random.Signature(3, 2)
		st := interaction.NewStore(sig)
		rng := random.New(seed)
		term := random.Interaction(st, rng, random.Params{MaxDepth: 4, Weights: random.All()})
		l1 := interaction.LifelinesOf(interaction.LifelineID(rng.IntN(3)))
		l2 := interaction.LifelinesOf(interaction.LifelineID(rng.IntN(3)))
		a := st.Remove(st.Remove(term, l1), l2)
		b := st.Remove(st.Remove(term, l2), l1)
		c := st.Remove(term, l1.Union(l2))
		ta := reference.Traces(st, a, maxLen).Strings(sig)
		tb := reference.Traces(st, b, maxLen).Strings(sig)
		tc := reference.Traces(st, c, maxLen).Strings(sig)
		if !slices.Equal(ta, tb) || !slices.Equal(tb, tc) {
			t.Fatalf("seed %d: %s: removals do not commute:\n%s: %v\n%s: %v\n%s: %v", seed, st.Format(term),
				st.Format(a), ta, st.Format(b), tb, st.Format(c), tc)
		}
	}
}
