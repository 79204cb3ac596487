package compile

import (
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/reference"
	"github.com/ivc-project/ivc/internal/testutil"
)

// rawStore returns a store over l1..l3, m1..m3 without the interaction
// package's own canonical rewriting, so that only the canonizer rewrites.
func rawStore() *interaction.Store {
	st := interaction.NewStore(random.Signature(3, 3))
	st.SetCanonical(false)
	return st
}

// One case per rule: the input term and its canonical form.
var canonTests = []struct{ in, want string }{
	// ∅-simplification.
	{"strict(∅,l1!m1)", "l1!m1"},
	{"loopS(seq(∅,∅))", "∅"},
	{"alt(∅,∅)", "∅"},
	// Associativity: nested to the right.
	{"strict(strict(l1!m1,l2?m1),l3!m1)", "strict(l1!m1,strict(l2?m1,l3!m1))"},
	{"seq(seq(l1!m1,l1!m2),l1!m3)", "seq(l1!m1,seq(l1!m2,l1!m3))"},
	// Commutativity: par and alt operands sorted by id (l1!m1 is interned first).
	{"par(l2!m1,par(l3!m1,l1!m1))", "par(l1!m1,par(l2!m1,l3!m1))"},
	{"alt(l2!m1,l1!m1)", "alt(l1!m1,l2!m1)"},
	// alt idempotence and unit.
	{"alt(l1!m1,alt(l2!m1,l1!m1))", "alt(l1!m1,l2!m1)"},
	{"alt(∅,loopS(l1!m1))", "loopS(l1!m1)"},
	{"alt(∅,alt(l1!m1,loopS(l2!m1)))", "alt(l1!m1,loopS(l2!m1))"},
	{"alt(∅,l1!m1)", "alt(∅,l1!m1)"},
	// Independence: operands on disjoint lifelines interleave.
	{"seq(l1!m1,l2!m1)", "par(l1!m1,l2!m1)"},
	{"seq(l1!m1,seq(l2?m1,l3!m1))", "par(l1!m1,par(l3!m1,l2?m1))"},
	{"seq(l1!m1,seq(l2?m1,l1!m2))", "seq(l1!m1,par(l2?m1,l1!m2))"},
	{"coreg(l1)(l1!m1,l2!m1)", "par(l1!m1,l2!m1)"},
	{"coreg(l1,l3)(strict(l1!m1,l2?m1),l1!m2)", "par(strict(l1!m1,l2?m1),l1!m2)"},
	{"coreg(l2)(strict(l1!m1,l2?m1),l1!m2)", "seq(strict(l1!m1,l2?m1),l1!m2)"},
	{"coreg(l1,l2)(strict(l1!m1,l2?m1),strict(l2!m2,l3?m2))", "par(strict(l1!m1,l2?m1),strict(l2!m2,l3?m2))"},
	{"coreg(l2,l3)(strict(l1!m1,l2?m1),strict(l2!m2,l1?m2))", "coreg(l2)(strict(l1!m1,l2?m1),strict(l2!m2,l1?m2))"},
	// Loop bodies.
	{"loopS(alt(∅,l1!m1))", "loopS(l1!m1)"},
	{"loopS(loopW(l1!m1))", "loopW(l1!m1)"},
	{"loopP(loopS(l1!m1))", "loopP(l1!m1)"},
	{"loopH(loopH(l1!m1))", "loopH(loopH(l1!m1))"},
	// Loop absorption.
	{"strict(loopS(l1!m1),loopS(l1!m1))", "loopS(l1!m1)"},
	{"strict(l2!m2,strict(loopS(l1!m1),strict(loopS(l1!m1),l2!m2)))", "strict(l2!m2,strict(loopS(l1!m1),l2!m2))"},
	{"seq(loopS(l1!m1),loopS(l1!m1))", "seq(loopS(l1!m1),loopS(l1!m1))"}, // loopS is not closed under seq
	{"seq(loopS(l1!m1),loopW(l1!m1))", "loopW(l1!m1)"},
	{"seq(loopW(strict(l1!m1,l2?m1)),loopW(alt(strict(l1!m1,l2?m1),l3!m2)))", "loopW(alt(strict(l1!m1,l2?m1),l3!m2))"},
	{"seq(loopW(l1!m1),loopW(seq(l1!m1,loopS(l2!m1))))", "loopW(par(l1!m1,loopS(l2!m1)))"}, // l1!m1 is the body pruned of l2
	{"par(loopP(l1!m1),loopS(l1!m1))", "loopP(l1!m1)"},
	{"par(loopW(l1!m1),loopW(l2!m1))", "par(loopW(l1!m1),loopW(l2!m1))"},
	// sync: operands sorted, ∅ rules of Store.Simplify.
	{"sync(l1!m1)(l2!m2,l1!m1)", "sync(l1!m1)(l1!m1,l2!m2)"},
	{"sync(l1!m1)(l1!m1,∅)", "sync(l1!m1)(∅,l1!m1)"},
	{"sync(l3!m3)(l1!m1,l2!m2)", "par(l1!m1,l2!m2)"},
}

func TestCanonRules(t *testing.T) {
	for _, tc := range canonTests {
		st := rawStore()
		// Intern the actions in a fixed order, so that ids sort as l1 < l2 < l3.
		for _, a := range []string{"l1!m1", "l2!m1", "l3!m1", "l2?m1"} {
			st.MustParseTerm(a)
		}
		in := st.MustParseTerm(tc.in)
		c := newCanonizer(st)
		got := c.canon(in)
		if st.Format(got) != tc.want {
			t.Errorf("canon(%s)\n got %s\nwant %s", tc.in, st.Format(got), tc.want)
		}
		if again := c.canon(got); again != got {
			t.Errorf("canon(%s) is not idempotent: %s", tc.in, st.Format(again))
		}
		checkSameTraces(t, st, in, got, 6)
	}
}

// checkSameTraces checks σ(a) = σ(b) up to length k with the reference
// semantics.
func checkSameTraces(t *testing.T, st *interaction.Store, a, b interaction.Term, k int) {
	t.Helper()
	ta := reference.Traces(st, a, k).Strings(st.Signature())
	tb := reference.Traces(st, b, k).Strings(st.Signature())
	if !slices.Equal(ta, tb) {
		t.Errorf("%s and its rewriting %s differ (length ≤ %d):\n%s\n%s",
			st.Format(a), st.Format(b), k, strings.Join(diff(ta, tb), "\n"), strings.Join(diff(tb, ta), "\n"))
	}
}

// diff returns the elements of a missing from b, marked.
func diff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			out = append(out, "only in first: "+x)
		}
	}
	return out
}

// TestCanonRandom checks on random terms, with every operator, that
// canonical rewriting preserves the traces (reference semantics) and is
// idempotent, with and without the Store's own rewriting.
func TestCanonRandom(t *testing.T) {
	n := 1000
	if testutil.Sweep() {
		n = 5000
	}
	rng := random.New(7)
	for i := range n {
		st := rawStore()
		if i%2 == 1 {
			st.SetCanonical(true)
		}
		p := random.Params{MaxDepth: 3, MinActions: 2, Weights: random.All(),
			Messages: random.MessageKinds{Passing: 2, Emission: 2, Reception: 2, Synch: 1}}
		in := random.Interaction(st, rng, p)
		c := newCanonizer(st)
		got := c.canon(in)
		if again := c.canon(got); again != got {
			t.Fatalf("canon(%s) = %s is not idempotent: %s", st.Format(in), st.Format(got), st.Format(again))
		}
		checkSameTraces(t, st, in, got, 6)
		if t.Failed() {
			t.FailNow()
		}
	}
}
