package interaction_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/reference"
	"github.com/ivc-project/ivc/internal/testutil"
)

// rawStore returns a store over l1..l3, m1..m3 without canonical rewriting,
// so that terms are parsed as written and only Canonical rewrites them. The
// first actions are interned in a fixed order, so that their ids sort as
// l1!m1 < l2!m1 < l3!m1 < l2?m1.
func rawStore() *interaction.Store {
	st := interaction.NewStore(random.Signature(3, 3))
	st.SetCanonical(false)
	for _, a := range []string{"l1!m1", "l2!m1", "l3!m1", "l2?m1"} {
		st.MustParseTerm(a)
	}
	return st
}

// One case per rule (see interaction/canon.go): the input term and its
// canonical form. alt and par operands come by decreasing id, sync operands
// by increasing id; a term parsed later has a larger id.
var canonTests = []struct{ rule, in, want string }{
	{"∅-simplification", "strict(∅,l1!m1)", "l1!m1"},
	{"∅-simplification", "loopS(seq(∅,∅))", "∅"},
	{"∅-simplification", "alt(∅,∅)", "∅"},
	{"associativity", "strict(strict(l1!m1,l2?m1),l3!m1)", "strict(l1!m1,strict(l2?m1,l3!m1))"},
	{"associativity", "seq(seq(l1!m1,l1!m2),l1!m3)", "seq(l1!m1,seq(l1!m2,l1!m3))"},
	{"associativity", "par(par(l1!m1,l2!m1),l3!m1)", "par(l3!m1,par(l2!m1,l1!m1))"},
	{"commutativity", "par(l2!m1,par(l1!m1,l3!m1))", "par(l3!m1,par(l2!m1,l1!m1))"},
	{"commutativity", "alt(l1!m1,l2!m1)", "alt(l2!m1,l1!m1)"},
	{"commutativity", "sync(l1!m1)(l2!m2,l1!m1)", "sync(l1!m1)(l1!m1,l2!m2)"},
	{"alt idempotence", "alt(l1!m1,alt(l2!m1,l1!m1))", "alt(l2!m1,l1!m1)"},
	{"alt unit", "alt(∅,loopS(l1!m1))", "loopS(l1!m1)"},
	{"alt unit", "alt(∅,alt(l1!m1,loopS(l2!m1)))", "alt(loopS(l2!m1),l1!m1)"},
	{"alt unit", "alt(alt(l1!m1,∅),loopS(l2!m1))", "alt(loopS(l2!m1),l1!m1)"},
	{"alt unit", "alt(∅,l1!m1)", "alt(l1!m1,∅)"}, // l1!m1 does not accept the empty trace
	{"independence", "seq(l1!m1,l2!m1)", "par(l2!m1,l1!m1)"},
	{"independence", "seq(l1!m1,seq(l2?m1,l3!m1))", "par(l2?m1,par(l3!m1,l1!m1))"},
	{"independence", "seq(l1!m1,seq(l2?m1,l1!m2))", "seq(l1!m1,par(l1!m2,l2?m1))"},
	{"independence", "coreg(l1)(l1!m1,l2!m1)", "par(l2!m1,l1!m1)"},
	{"independence", "coreg(l1,l3)(strict(l1!m1,l2?m1),l1!m2)", "par(l1!m2,strict(l1!m1,l2?m1))"},
	{"independence", "coreg(l2)(strict(l1!m1,l2?m1),l1!m2)", "seq(strict(l1!m1,l2?m1),l1!m2)"},
	{"independence", "coreg(l1,l2)(strict(l1!m1,l2?m1),strict(l2!m2,l3?m2))", "par(strict(l2!m2,l3?m2),strict(l1!m1,l2?m1))"},
	{"independence", "coreg(l2,l3)(strict(l1!m1,l2?m1),strict(l2!m2,l1?m2))", "coreg(l2)(strict(l1!m1,l2?m1),strict(l2!m2,l1?m2))"},
	{"empty iteration", "loopS(alt(∅,l1!m1))", "loopS(l1!m1)"},
	{"empty iteration", "loopW(alt(l1!m1,alt(l2!m1,∅)))", "loopW(alt(l2!m1,l1!m1))"},
	{"loop absorption", "strict(loopS(l1!m1),loopS(l1!m1))", "loopS(l1!m1)"},
	{"loop absorption", "strict(l2!m2,strict(loopS(l1!m1),strict(loopS(l1!m1),l2!m2)))", "strict(l2!m2,strict(loopS(l1!m1),l2!m2))"},
	{"loop absorption", "seq(loopS(l1!m1),loopS(l1!m1))", "seq(loopS(l1!m1),loopS(l1!m1))"}, // loopS is not closed under seq
	{"loop absorption", "seq(loopS(l1!m1),loopW(l1!m1))", "loopW(l1!m1)"},
	{"loop absorption", "strict(alt(strict(l1!m1,l2?m1),∅),loopH(strict(l1!m1,l2?m1)))", "loopH(strict(l1!m1,l2?m1))"},
	{"loop absorption", "strict(loopS(strict(l1!m1,l2?m1)),loopH(strict(l1!m1,l2?m1)))", "loopH(strict(l1!m1,l2?m1))"},
	{"loop absorption", "seq(loopH(alt(seq(l2!m1,l3?m2),l3!m1)),loopH(alt(seq(l2!m1,l3?m2),l3!m1)))", // loopH is not closed under seq
		"seq(loopH(alt(par(l3?m2,l2!m1),l3!m1)),loopH(alt(par(l3?m2,l2!m1),l3!m1)))"},
	{"loop absorption", "seq(loopW(strict(l1!m1,l2?m1)),loopW(alt(strict(l1!m1,l2?m1),l3!m2)))", "loopW(alt(l3!m2,strict(l1!m1,l2?m1)))"},
	// l1!m1 is the body pruned of l2.
	{"loop absorption", "seq(loopW(l1!m1),loopW(seq(l1!m1,loopS(l2!m1))))", "loopW(par(loopS(l2!m1),l1!m1))"},
	{"loop absorption", "par(loopP(l1!m1),loopS(l1!m1))", "loopP(l1!m1)"},
	{"loop absorption", "par(loopP(l1!m1),loopP(l1!m1))", "loopP(l1!m1)"},
	{"loop absorption", "par(loopS(l1!m1),par(l1?m2,loopP(l1!m1)))", "par(loopP(l1!m1),l1?m2)"}, // not neighbours
	{"loop absorption", "par(loopP(strict(l1!m1,l2?m1)),coreg(l2)(alt(strict(l1!m1,l2?m1),∅),alt(strict(l1!m1,l2?m1),∅)))",
		"loopP(strict(l1!m1,l2?m1))"},
	{"loop absorption", "par(loopW(l1!m1),loopW(l2!m1))", "par(loopW(l2!m1),loopW(l1!m1))"},
	{"sync", "sync(l1!m1)(l1!m1,∅)", "sync(l1!m1)(∅,l1!m1)"},
	{"sync", "sync(l3!m3)(l1!m1,l2!m2)", "par(l2!m2,l1!m1)"},
}

func TestCanonRules(t *testing.T) {
	for _, tc := range canonTests {
		st := rawStore()
		in := st.MustParseTerm(tc.in)
		got := st.Canonical(in)
		if st.Format(got) != tc.want {
			t.Errorf("%s: Canonical(%s)\n got %s\nwant %s", tc.rule, tc.in, st.Format(got), tc.want)
		}
		checkCanonical(t, st, got)
		checkSameTraces(t, st, in, got, 6)
	}
}

// checkCanonical checks that t is canonical: rebuilt node by node with the
// rules, it stays itself, and Canonical gives it back.
func checkCanonical(t *testing.T, st *interaction.Store, x interaction.Term) {
	t.Helper()
	if again := st.Rebuild(x); again != x {
		t.Errorf("%s is not canonical: it rebuilds to %s", st.Format(x), st.Format(again))
	}
	if again := st.Canonical(x); again != x {
		t.Errorf("Canonical(%s) = %s", st.Format(x), st.Format(again))
	}
}

// checkSameTraces checks σ(a) = σ(b) up to length k with the reference
// semantics.
func checkSameTraces(t *testing.T, st *interaction.Store, a, b interaction.Term, k int) {
	t.Helper()
	if ta, tb := traces(st, a, k), traces(st, b, k); !slices.Equal(ta, tb) {
		t.Errorf("%s and its rewriting %s differ (length ≤ %d):\n%s\n%s",
			st.Format(a), st.Format(b), k, strings.Join(missing(ta, tb), "\n"), strings.Join(missing(tb, ta), "\n"))
	}
}

func traces(st *interaction.Store, t interaction.Term, k int) []string {
	return reference.Traces(st, t, k).Strings(st.Signature())
}

// missing returns the elements of a missing from b (both sorted), marked.
func missing(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			out = append(out, "only in first: "+x)
		}
	}
	return out
}

// nestedTests is the nested-loop rule, loopK(loopJ(x)) = loopM(x), for every
// pair of loops: M, or "" for the two pairs it leaves alone.
var nestedTests = []struct{ outer, inner, want string }{
	{"loopS", "loopS", "loopS"}, {"loopS", "loopH", "loopH"}, {"loopS", "loopW", "loopW"}, {"loopS", "loopP", "loopP"},
	{"loopH", "loopS", ""}, {"loopH", "loopH", ""}, {"loopH", "loopW", "loopW"}, {"loopH", "loopP", "loopP"},
	{"loopW", "loopS", "loopW"}, {"loopW", "loopH", "loopW"}, {"loopW", "loopW", "loopW"}, {"loopW", "loopP", "loopP"},
	{"loopP", "loopS", "loopP"}, {"loopP", "loopH", "loopP"}, {"loopP", "loopW", "loopP"}, {"loopP", "loopP", "loopP"},
}

// TestNestedLoops checks the nested-loop rule for every pair of loops,
// on a body for which loopH(loopS(x)) and loopH(loopH(x)) are not loopH(x):
// the rewriting keeps the traces, and the two pairs it leaves alone would
// not (the reference semantics tells them apart from loopH(x)).
func TestNestedLoops(t *testing.T) {
	const body = "alt(seq(l2!m1,l3?m2),l3!m1)"
	for _, tc := range nestedTests {
		st := rawStore()
		src := fmt.Sprintf("%s(%s(%s))", tc.outer, tc.inner, body)
		in := st.MustParseTerm(src)
		got := st.Canonical(in)
		if tc.want == "" {
			if st.Op(got) != st.Op(in) || st.Op(st.Left(got)) != st.Op(st.Left(in)) {
				t.Errorf("Canonical(%s) = %s: the nested loops are gone", src, st.Format(got))
			}
			// The rule would be wrong here: loopH(x) has fewer traces.
			flat := st.MustParseTerm(fmt.Sprintf("%s(%s)", tc.outer, body))
			if slices.Equal(traces(st, in, 6), traces(st, flat, 6)) {
				t.Errorf("%s and %s have the same traces up to length 6: the rule could apply", src, st.Format(flat))
			}
		} else if want := st.Canonical(st.MustParseTerm(fmt.Sprintf("%s(%s)", tc.want, body))); got != want {
			t.Errorf("Canonical(%s)\n got %s\nwant %s", src, st.Format(got), st.Format(want))
		}
		checkCanonical(t, st, got)
		checkSameTraces(t, st, in, got, 6)
	}
}

// TestNestedLoopsRandom checks the nested-loop rule for every pair of
// loops on random loop-free bodies of a few actions.
func TestNestedLoopsRandom(t *testing.T) {
	rng := random.New(3)
	w := random.Weights{Message: 6, Strict: 2, Seq: 2, Par: 1, Alt: 3, Coreg: 1}
	for range 40 {
		st := rawStore()
		x := random.Interaction(st, rng, random.Params{MaxDepth: 2, MinActions: 2, Weights: w,
			Messages: random.MessageKinds{Passing: 1, Emission: 2, Reception: 2}})
		for _, tc := range nestedTests {
			src := fmt.Sprintf("%s(%s(%s))", tc.outer, tc.inner, st.Format(x))
			in := st.MustParseTerm(src)
			checkSameTraces(t, st, in, st.Canonical(in), 5)
		}
		if t.Failed() {
			t.FailNow()
		}
	}
}

// TestCanonRandom checks on random terms, with every operator, that
// canonical rewriting preserves the traces (reference semantics) and gives
// canonical terms, with and without the Store's own rewriting; and that the
// derivatives of a canonical term are canonical.
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
		got := st.Canonical(in)
		checkCanonical(t, st, got)
		checkSameTraces(t, st, in, got, 6)
		if i%2 == 1 {
			for k := range st.NumFrontier(got) {
				checkCanonical(t, st, st.Step(got, k))
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
}
