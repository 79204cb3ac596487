package interaction

import (
	"testing"
)

func TestMeasure(t *testing.T) {
	sig, err := NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, []string{"g"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		hif  string
		want Metrics
	}{
		{"o", Metrics{Symbols: 1, Operators: OperatorCounts{Empty: 1}}},
		{"a -- m ->|", Metrics{UsedLifelines: 1, Actions: 1, AtomicActions: 1, Symbols: 1}},
		// strict(a!m, seq(b?m, c?m)): broadcasts desugar into actions.
		{"a -- m -> (b,c)", Metrics{UsedLifelines: 3, Actions: 3, AtomicActions: 3, Symbols: 5, Depth: 2,
			Operators: OperatorCounts{Strict: 1, Seq: 1}}},
		// One multi-action of three actions.
		{"a -- <synch>m -> (b,c)", Metrics{UsedLifelines: 3, Actions: 1, AtomicActions: 3, Symbols: 1}},
		// Gates leave no action.
		{"g -- m -> a", Metrics{UsedLifelines: 1, Actions: 1, AtomicActions: 1, Symbols: 1}},
		// n-ary operators nest to the right; the repeated subterm counts twice.
		{"par(a -- m ->|, a -- m ->|, a -- m ->|)", Metrics{UsedLifelines: 1, Actions: 3, AtomicActions: 3, Symbols: 5, Depth: 2,
			Operators: OperatorCounts{Par: 2}}},
		{"loopS(alt(loopH(o), loopW(loopP(b -- n -> a))))", Metrics{UsedLifelines: 2, Actions: 2, AtomicActions: 2, Symbols: 9,
			Depth: 5, LoopDepth: 3, Operators: OperatorCounts{Empty: 1, Alt: 1, Strict: 1, LoopS: 1, LoopH: 1, LoopW: 1, LoopP: 1}}},
		{"coreg(a)(a -- m -> b, sync(a!n)(a -- n ->|, a -- n ->|))", Metrics{UsedLifelines: 2, Actions: 4, AtomicActions: 4, Symbols: 7,
			Depth: 2, Operators: OperatorCounts{Coreg: 1, Sync: 1, Strict: 1}}},
	} {
		n, err := ParseHIF("t.hif", []byte(tc.hif))
		if err != nil {
			t.Fatal(err)
		}
		st := NewStore(sig)
		root, err := st.Resolve("t.hif", n)
		if err != nil {
			t.Fatal(err)
		}
		want := tc.want
		want.Lifelines, want.Messages, want.Gates = 3, 2, 1
		if got := Measure(st, root); got != want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.hif, got, want)
		}
	}
}

// TestMeasureShared checks that shared subterms count once per occurrence
// and that counts saturate instead of wrapping around.
func TestMeasureShared(t *testing.T) {
	sig, err := NewSignature([]string{"a"}, []string{"m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := NewStore(sig)
	act, err := sig.ParseAction("a!m")
	if err != nil {
		t.Fatal(err)
	}
	term := st.Act(act)
	for range 70 { // a tree of 2^70 leaves in 71 distinct terms
		term = st.Par(term, term)
	}
	m := Measure(st, term)
	if m.Depth != 70 || m.Actions != 1<<63-1 || m.Operators.Par != 1<<63-1 {
		t.Errorf("got %+v", m)
	}
	term = st.Act(act)
	for range 10 {
		term = st.Par(term, term)
	}
	if m := Measure(st, term); m.Actions != 1024 || m.Operators.Par != 1023 || m.Symbols != 2047 {
		t.Errorf("got %+v", m)
	}
}
