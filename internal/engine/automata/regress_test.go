package automata

import (
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/reference"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// TestPrefixExact pins multi-traces where the automata engine's prefix
// verdict is exact by construction (a multi-prefix is a prefix, per
// location, of the projection of one accepted word) and the reference
// oracle agrees, and where plain lifeline removal in the runtime engine
// answered WeakPass (it now keeps ghosts there):
//   - l2 is empty from the start and is removed, which erases the order
//     l4!m2 < l2?m2 < l2!m1 < l4?m1 that strict and seq carry through l2, so
//     the runtime lets l4's log start with l4?m1;
//   - the loop body's sync waits for an l3?m2 that its right operand never
//     does, so only ε is accepted, but removing every lifeline after the
//     first event leaves a term that accepts.
func TestPrefixExact(t *testing.T) {
	sig := random.Signature(4, 2)
	for _, tc := range []struct{ term, mt, want string }{
		{"strict(alt(strict(l2!m2,l1?m2),strict(l3!m1,l2?m1)),seq(coreg(l1,l3,l4)(seq(l3?m2,strict(l4!m2,seq(l2?m2,l3?m2))),strict(l2!m1,l4?m1)),strict(l4!m1,l1?m1)))",
			"{ [l1] l1?m2.l1?m1; [l2] ; [l3] l3?m2; [l4] l4?m1 }",
			"Fail LocalError: [l4] cannot read event 1 (l4?m1), expected l4!m2"},
		{"loopS(seq(coreg(l1,l3,l4)(strict(l3?m2,strict(l1!m1,l3?m1)),sync(l3?m2)(strict(l4!m2,l3?m2),l1?m1)),l3!m1))",
			"{ [l1,l2,l3,l4] l3?m2 }",
			"Fail LocalError: [l1,l2,l3,l4] cannot read event 1 (l3?m2)"},
	} {
		st := interaction.NewStore(sig)
		term := st.MustParseTerm(tc.term)
		mt, err := multitrace.ParseResolve("test.htf", []byte(tc.mt), sig)
		if err != nil {
			t.Fatal(err)
		}
		if reference.IsMultiPrefix(st, term, *mt, 12) {
			t.Fatalf("%s on %s: the oracle finds a multi-prefix", tc.term, tc.mt)
		}
		for _, eng := range engines {
			e, err := New(st, term, eng.opt)
			if err != nil {
				t.Fatal(err)
			}
			res := e.Check(mt)
			got := res.Verdict.String() + " " + res.Text()
			if eng.opt.Procedure == AC {
				got = res.Verdict.String()
			}
			want := tc.want
			if eng.opt.Procedure == AC {
				want = "Fail"
			}
			if got != want {
				t.Errorf("%s on %s: %s gives %q, want %q", tc.term, tc.mt, eng.name, got, want)
			}
		}
		if rt := rewrite.New(st, term, rewrite.DefaultOptions()).Check(mt); rt.Verdict != verdict.Fail {
			t.Errorf("%s on %s: runtime engine %s, want Fail", tc.term, tc.mt, rt.Verdict)
		}
	}
}
