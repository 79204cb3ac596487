package reference

import (
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
)

func newStore(t testing.TB, lifelines, messages string) *interaction.Store {
	t.Helper()
	sig, err := interaction.NewSignature(strings.Split(lifelines, ","), strings.Split(messages, ","), nil)
	if err != nil {
		t.Fatal(err)
	}
	return interaction.NewStore(sig)
}

func parseMT(t testing.TB, st *interaction.Store, src string) multitrace.MultiTrace {
	t.Helper()
	mt, err := multitrace.ParseResolve("test.htf", []byte(src), st.Signature())
	if err != nil {
		t.Fatal(err)
	}
	return *mt
}

func TestParseTrace(t *testing.T) {
	st := newStore(t, "a,b,c", "m,n")
	for _, s := range []string{"ε", "a!m", "a!m.b?m", "{a!m,b?m}.c?n", "a!m.{b?m,c?m}.{a!n,c?n}"} {
		tr, err := ParseTrace(st.Signature(), s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got := tr.Format(st.Signature()); got != s {
			t.Errorf("ParseTrace(%q).Format() = %q", s, got)
		}
	}
	for _, s := range []string{"a!x", "a!m.", "{a!m,b?m", "a!m..b?m", "d!m", "a!m{b?m}"} {
		if _, err := ParseTrace(st.Signature(), s); err == nil {
			t.Errorf("ParseTrace(%q) succeeded", s)
		}
	}
}

// TestOperators pins the trace sets of small terms, one operator at a time.
func TestOperators(t *testing.T) {
	st := newStore(t, "l1,l2,l3", "m1,m2")
	tests := []struct {
		term   string
		maxLen int
		want   string // the traces, sorted, separated by spaces
	}{
		{"∅", 3, "ε"},
		{"l1!m1", 3, "l1!m1"},
		{"l1!m1", 0, ""},
		{"{l1!m1,l2?m1}", 1, "{l1!m1,l2?m1}"},
		{"alt(l1!m1,l2!m1)", 2, "l1!m1 l2!m1"},
		{"alt(l1!m1,∅)", 2, "l1!m1 ε"},
		// strict: concatenation, even across lifelines.
		{"strict(l1!m1,l2!m2)", 2, "l1!m1.l2!m2"},
		{"strict(l1!m1,l2!m2)", 1, ""},
		{"strict(alt(l1!m1,∅),l2!m2)", 2, "l1!m1.l2!m2 l2!m2"},
		// seq: weak sequencing orders only what shares a lifeline.
		{"seq(l1!m1,l2!m2)", 2, "l1!m1.l2!m2 l2!m2.l1!m1"},
		{"seq(l1!m1,l1!m2)", 2, "l1!m1.l1!m2"},
		{"seq(strict(l1!m1,l2?m1),l1!m2)", 3, "l1!m1.l1!m2.l2?m1 l1!m1.l2?m1.l1!m2"},
		{"seq(strict(l1!m1,l2?m1),l2!m2)", 3, "l1!m1.l2?m1.l2!m2"},
		{"seq({l1!m1,l2?m1},l2!m2)", 2, "{l1!m1,l2?m1}.l2!m2"},
		{"seq({l1!m1,l2?m1},l3!m2)", 2, "l3!m2.{l1!m1,l2?m1} {l1!m1,l2?m1}.l3!m2"},
		{"seq(l1!m1,{l1!m2,l2?m2})", 2, "l1!m1.{l1!m2,l2?m2}"},
		// par: shuffle.
		{"par(l1!m1,l1!m2)", 2, "l1!m1.l1!m2 l1!m2.l1!m1"},
		{"par(strict(l1!m1,l1!m2),l2!m1)", 3, "l1!m1.l1!m2.l2!m1 l1!m1.l2!m1.l1!m2 l2!m1.l1!m1.l1!m2"},
		{"par(l1!m1,l1!m2)", 1, ""},
		// coreg(L): par on L, seq elsewhere.
		{"coreg(l1)(l1!m1,l1!m2)", 2, "l1!m1.l1!m2 l1!m2.l1!m1"},
		{"coreg(l2)(l1!m1,l1!m2)", 2, "l1!m1.l1!m2"},
		{"coreg(l1)(strict(l1!m1,l2!m1),l2!m2)", 3, "l1!m1.l2!m1.l2!m2"},
		{"coreg(l2)(strict(l1!m1,l2!m1),l2!m2)", 3, "l1!m1.l2!m1.l2!m2 l1!m1.l2!m2.l2!m1 l2!m2.l1!m1.l2!m1"},
		// A multi-action overtakes only if none of its lifelines outside L conflicts.
		{"coreg(l2)(l1!m1,{l1!m2,l2?m2})", 2, "l1!m1.{l1!m2,l2?m2}"},
		{"coreg(l1,l2)(l1!m1,{l1!m2,l2?m2})", 2, "l1!m1.{l1!m2,l2?m2} {l1!m2,l2?m2}.l1!m1"},
		// sync(A): actions of A are merged pairwise, the others interleave.
		{"sync(l1!m1)(l1!m1,l1!m1)", 2, "l1!m1"},
		{"sync(l1!m1)(strict(l1!m1,l2!m2),strict(l3!m2,l1!m1))", 3, "l3!m2.l1!m1.l2!m2"},
		{"sync(l1!m1)(l1!m1,l2!m2)", 3, ""},
		{"sync(l1!m1)(l2!m2,l3!m2)", 2, "l2!m2.l3!m2 l3!m2.l2!m2"},
		{"sync(l1!m1)(l1!m1,{l1!m1,l2?m1})", 2, "{l1!m1,l2?m1}"},
		{"sync(l1!m1,l2?m1)(l1!m1,{l1!m1,l2?m1})", 2, ""},
		{"sync(l1!m1)(loopS(l1!m1),strict(l1!m1,l1!m1))", 3, "l1!m1.l1!m1"},
		// Loops: Kleene closures of strict, seq and par.
		{"loopS(l1!m1)", 3, "l1!m1 l1!m1.l1!m1 l1!m1.l1!m1.l1!m1 ε"},
		{"loopS(strict(l1!m1,l2?m1))", 4, "l1!m1.l2?m1 l1!m1.l2?m1.l1!m1.l2?m1 ε"},
		{"loopW(strict(l1!m1,l2?m1))", 4, "l1!m1.l1!m1.l2?m1.l2?m1 l1!m1.l2?m1 l1!m1.l2?m1.l1!m1.l2?m1 ε"},
		{"loopW(strict(l1!m1,l1!m2))", 4, "l1!m1.l1!m2 l1!m1.l1!m2.l1!m1.l1!m2 ε"},
		{"loopP(strict(l1!m1,l1!m2))", 4, "l1!m1.l1!m1.l1!m2.l1!m2 l1!m1.l1!m2 l1!m1.l1!m2.l1!m1.l1!m2 ε"},
		{"loopW(alt(l1!m1,l2!m2))", 2, "l1!m1 l1!m1.l1!m1 l1!m1.l2!m2 l2!m2 l2!m2.l1!m1 l2!m2.l2!m2 ε"},
		{"loopS(∅)", 3, "ε"},
		{"loopH(strict(l1!m1,l2?m1))", 4, "l1!m1.l1!m1.l2?m1.l2?m1 l1!m1.l2?m1 l1!m1.l2?m1.l1!m1.l2?m1 ε"},
		{"loopW(seq(l1!m1,l2!m2))", 2, "l1!m1.l2!m2 l2!m2.l1!m1 ε"},
		// loopH: the first event comes from the first iteration.
		{"loopW(alt(strict(l1!m1,l2?m1),l2?m2))", 3, "l1!m1.l2?m1 l1!m1.l2?m1.l2?m2 l1!m1.l2?m2.l2?m1 " +
			"l2?m2 l2?m2.l1!m1.l2?m1 l2?m2.l2?m2 l2?m2.l2?m2.l2?m2 ε"},
		{"loopH(alt(strict(l1!m1,l2?m1),l2?m2))", 3, "l1!m1.l2?m1 l1!m1.l2?m1.l2?m2 " +
			"l2?m2 l2?m2.l1!m1.l2?m1 l2?m2.l2?m2 l2?m2.l2?m2.l2?m2 ε"},
		// Nested loops.
		{"loopS(loopS(l1!m1))", 2, "l1!m1 l1!m1.l1!m1 ε"},
		{"loopP(seq(l1!m1,l1?m2))", 4, "l1!m1.l1!m1.l1?m2.l1?m2 l1!m1.l1?m2 l1!m1.l1?m2.l1!m1.l1?m2 ε"},
	}
	for _, tc := range tests {
		term := st.MustParseTerm(tc.term)
		got := strings.Join(Traces(st, term, tc.maxLen).Strings(st.Signature()), " ")
		want := strings.Fields(tc.want)
		slices.Sort(want)
		if got != strings.Join(want, " ") {
			t.Errorf("Traces(%s, %d):\n got %s\nwant %s", tc.term, tc.maxLen, got, strings.Join(want, " "))
		}
	}
}

func TestProject(t *testing.T) {
	st := newStore(t, "l1,l2,l3", "m1,m4")
	sig := st.Signature()
	// JOT Fig. 1: a global trace and its projections.
	tr := MustParseTrace(sig, "l1!m1.l3?m1.l2?m1.l3!m4.l2?m4")
	l1, l2, l3 := interaction.LifelineID(0), interaction.LifelineID(1), interaction.LifelineID(2)
	tests := []struct {
		groups interaction.Locations
		want   string
	}{
		{[]interaction.Lifelines{interaction.LifelinesOf(l1), interaction.LifelinesOf(l2), interaction.LifelinesOf(l3)},
			"{\n\t[l1] l1!m1;\n\t[l2] l2?m1.l2?m4;\n\t[l3] l3?m1.l3!m4\n}\n"},
		{[]interaction.Lifelines{interaction.LifelinesOf(l1, l2), interaction.LifelinesOf(l3)},
			"{\n\t[l1,l2] l1!m1.l2?m1.l2?m4;\n\t[l3] l3?m1.l3!m4\n}\n"},
		{[]interaction.Lifelines{interaction.LifelinesOf(l1, l2, l3)},
			"{\n\t[l1,l2,l3] l1!m1.l3?m1.l2?m1.l3!m4.l2?m4\n}\n"},
	}
	for _, tc := range tests {
		mt := Project(tr, tc.groups)
		if got := string(mt.Format(sig)); got != tc.want {
			t.Errorf("got\n%s\nwant\n%s", got, tc.want)
		}
	}
	// A multi-action is split between locations.
	mt := Project(MustParseTrace(sig, "{l1!m1,l2?m1,l3?m1}"),
		[]interaction.Lifelines{interaction.LifelinesOf(l1, l2), interaction.LifelinesOf(l3)})
	if got, want := string(mt.Format(sig)), "{\n\t[l1,l2] {l1!m1,l2?m1};\n\t[l3] l3?m1\n}\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// verdicts checks Accepts, IsMultiPrefix and IsSlice on one multi-trace;
// "-" skips a check.
type verdicts struct {
	mt                    string
	accept, prefix, slice string // "yes", "no" or "-"
	maxLen                int    // bound for the prefix and slice checks
}

func checkVerdicts(t *testing.T, st *interaction.Store, term string, vs []verdicts) {
	t.Helper()
	i := st.MustParseTerm(term)
	for _, v := range vs {
		mt := parseMT(t, st, v.mt)
		check := func(what, want string, got func() bool) {
			if want == "-" {
				return
			}
			if g := got(); g != (want == "yes") {
				t.Errorf("%s\n%s of %s: got %v, want %s", term, what, v.mt, g, want)
			}
		}
		check("Accepts", v.accept, func() bool { return Accepts(st, i, mt) })
		check("IsMultiPrefix", v.prefix, func() bool { return IsMultiPrefix(st, i, mt, v.maxLen) })
		check("IsSlice", v.slice, func() bool { return IsSlice(st, i, mt, v.maxLen) })
	}
}

// iFig1 is the publish/subscribe running example of the lifeline-removal
// paper (notes-lifeline-removal.md §1).
const iFig1 = `seq(seq(loopW(strict(lp!pub,lb?pub)),strict(ls!sub,lb?sub)),
	loopW(seq(strict(lp!pub,lb?pub),strict(lb!pub,ls?pub))))`

// TestLifelineRemovalExamples: notes-lifeline-removal.md §8.
func TestLifelineRemovalExamples(t *testing.T) {
	st := newStore(t, "lp,lb,ls", "pub,sub")
	sig := st.Signature()
	i := st.MustParseTerm(iFig1)

	// T1: the global trace is accepted, none of its proper prefixes is.
	t1 := MustParseTrace(sig, "ls!sub.lp!pub.lb?sub.lb?pub.lb!pub.ls?pub")
	ts := Traces(st, i, len(t1))
	if !ts.Has(t1) {
		t.Errorf("T1: %s not accepted", t1.Format(sig))
	}
	for k := range len(t1) {
		if ts.Has(t1[:k]) {
			t.Errorf("T1: proper prefix %s accepted", t1[:k].Format(sig))
		}
	}
	// T2: its discrete projection, also the projection of another trace.
	t2 := MustParseTrace(sig, "lp!pub.ls!sub.lb?sub.lb?pub.lb!pub.ls?pub")
	if !ts.Has(t2) {
		t.Errorf("T2: %s not accepted", t2.Format(sig))
	}
	mt := parseMT(t, st, "{[lp] lp!pub; [lb] lb?sub.lb?pub.lb!pub; [ls] ls!sub.ls?pub}")
	groups := mt.Locations()
	p1, p2 := Project(t1, groups), Project(t2, groups)
	if !p1.Equal(&mt) || !p2.Equal(&mt) {
		t.Error("T2: T1 and its variant do not project onto μ")
	}

	checkVerdicts(t, st, iFig1, []verdicts{
		// T2
		{"{[lp] lp!pub; [lb] lb?sub.lb?pub.lb!pub; [ls] ls!sub.ls?pub}", "yes", "yes", "yes", 6},
		// T3 (Fig. 6b/10): ls unobserved, lb stopped early.
		{"{[lp] lp!pub; [lb] lb?sub; [ls] }", "no", "yes", "yes", 6},
		// T10: lb alone; its local words are (lb?pub)*.lb?sub.(lb?pub.lb!pub)*.
		{"{[lb] lb?pub.lb?sub.lb?pub}", "no", "yes", "yes", 8},
		{"{[lb] lb!pub}", "no", "no", "-", 8},
		{"{[lb] lb?sub.lb!pub}", "no", "no", "no", 8},
		// A witness needs 8 events (the iteration ends with ls?pub): with
		// a bound of 7 the answers are false, the documented under-approximation.
		{"{[lb] lb?pub.lb?sub.lb?pub.lb!pub}", "no", "no", "no", 7},
		{"{[lb] lb?pub.lb?sub.lb?pub.lb!pub}", "no", "yes", "yes", 8},
		// ε is not accepted: ls!sub and lb?sub are mandatory.
		{"{}", "no", "yes", "yes", 2},
	})

	st2 := newStore(t, "l1,l2,l3", "m")
	// T4, T5 (Fig. 7, 8).
	checkVerdicts(t, st2, "seq(strict(l1!m,l2?m),alt(strict(l2!m,l1?m),∅))", []verdicts{
		{"{[l1] l1!m; [l2] l2?m}", "yes", "yes", "yes", 4},
		{"{[l1] ; [l2] l2?m}", "no", "yes", "yes", 4},
		{"{[l1] l1!m.l1?m; [l2] l2?m.l2!m}", "yes", "yes", "yes", 4},
		{"{[l1] l1!m.l1?m; [l2] l2?m}", "no", "yes", "yes", 4},
		{"{[l1] l1?m; [l2] l2?m}", "no", "no", "yes", 4},
		{"{[l1] l1?m; [l2] l2!m}", "no", "no", "yes", 4},
	})
	// T6: every local analysis passes, the global verdict is Nok.
	checkVerdicts(t, st2, "alt(strict(l1!m,l2?m),strict(l1!m,l3?m))", []verdicts{
		{"{[l1] l1!m; [l2] l2?m; [l3] l3?m}", "no", "no", "no", 4},
		{"{[l1] l1!m; [l2] l2?m; [l3] }", "yes", "yes", "yes", 4},
		{"{[l1] ; [l2] ; [l3] l3?m}", "no", "yes", "yes", 4},
	})
	// T9 (Prop. 8): (ε, l2?m) is a multi-prefix of π(t) but not the
	// projection of a prefix of t.
	checkVerdicts(t, st2, "strict(l1!m,l2?m)", []verdicts{
		{"{[l1] ; [l2] l2?m}", "no", "yes", "yes", 2},
	})
	i9 := st2.MustParseTerm("strict(l1!m,l2?m)")
	mt9 := parseMT(t, st2, "{[l1] ; [l2] l2?m}")
	for _, tr := range Traces(st2, i9, 2).All() {
		for k := range len(tr) + 1 {
			if p := Project(tr[:k], mt9.Locations()); p.Equal(&mt9) {
				t.Errorf("T9: the prefix %s projects onto (ε, l2?m)", tr[:k].Format(st2.Signature()))
			}
		}
	}
}

// jotI0 is the running example of the slice paper (JOT Fig. 2).
const jotI0 = `seq(coreg(l2)(alt(strict(l1!m1,seq(l2?m1,l3?m1)),∅),
	loopW(alt(strict(l1!m2,l2?m2),strict(l2!m3,l3?m3)))),
	loopP(seq(strict(l3!m4,l2?m4),strict(l2!m5,l3?m5))))`

// TestPartialObservationExamples: notes-partial-observation.md §6.
func TestPartialObservationExamples(t *testing.T) {
	st := newStore(t, "l1,l2,l3", "m1,m2,m3,m4,m5")
	checkVerdicts(t, st, jotI0, []verdicts{
		// T2, locations {{l1,l2},{l3}}. The notes expect exact
		// acceptance, but the loopP iteration started by l3!m4 also needs
		// l2!m5 and l3?m5: μ is the projection of the global prefix
		// l1!m1.l3?m1.l2?m1.l3!m4.l2?m4 (the paper's Fig. 5 reaches Ok
		// "extended to consider global prefixes"), so a multi-prefix only.
		{"{[l1,l2] l1!m1.l2?m1.l2?m4; [l3] l3?m1.l3!m4}", "no", "yes", "yes", 7},
		{"{[l1,l2] l1!m1.l2?m1.l2?m4.l2!m5; [l3] l3?m1.l3!m4.l3?m5}", "yes", "yes", "yes", 7},
		// The same with the discrete partition.
		{"{[l1] l1!m1; [l2] l2?m1.l2?m4.l2!m5; [l3] l3?m1.l3!m4.l3?m5}", "yes", "yes", "yes", 7},
		// T3 (Fig. 1d, 6, 7): a slice, not a multi-prefix: l3?m1 needs the
		// alt's first branch, whose l1!m1 then starts {l1,l2}.
		{"{[l1,l2] l2?m4; [l3] l3?m1}", "no", "no", "yes", 7},
		// ε is accepted (alt's ∅, loops zero times).
		{"{[l1,l2] ; [l3] }", "yes", "yes", "yes", 0},
	})
	// T4 (Fig. 8): slice, reconstruction l1!m1.l1!m2.l2?m1.l2?m2.
	checkVerdicts(t, st, "seq(loopW(strict(l1!m1,l2?m1)),strict(l1!m2,l2?m2))", []verdicts{
		{"{[l1] l1!m1; [l2] l2?m2}", "no", "no", "yes", 4},
		{"{[l1] l1!m1.l1!m2; [l2] l2?m1.l2?m2}", "yes", "yes", "yes", 4},
	})
	// T5 (Fig. 9): only the second l1!m1 is observed.
	checkVerdicts(t, st, "seq(loopW(strict(l1!m1,l2?m1)),strict(l2!m2,l1?m2))", []verdicts{
		{"{[l1] l1!m1.l1?m2; [l2] l2?m1.l2?m1.l2!m2}", "no", "no", "yes", 6},
	})
	// T6 (Fig. 10a).
	checkVerdicts(t, st, "loopW(strict(l1!m1,l2?m1))", []verdicts{
		{"{[l1] ; [l2] l2?m1.l2?m1}", "no", "yes", "yes", 4},
	})
	// T8-T10 (Fig. 11): slices on which the (λ,α) criterion is Inconc.
	checkVerdicts(t, st, "loopP(seq(l1!m1,l1?m2))", []verdicts{
		{"{[l1] l1?m2.l1?m2.l1?m2}", "no", "no", "yes", 6},
		{"{[l1] l1!m1.l1!m1.l1!m1.l1?m2.l1?m2.l1?m2}", "yes", "yes", "yes", 6},
	})
	checkVerdicts(t, st, "loopW(strict(l1!m1,l2?m1))", []verdicts{
		{"{[l1,l2] l2?m1.l2?m1; [l3] }", "no", "no", "yes", 4},
	})
	checkVerdicts(t, st, "coreg(l2)(loopW(strict(l1!m1,l2?m1)),loopW(strict(l1!m2,l2?m2)))", []verdicts{
		{"{[l1] ; [l2] l2?m2.l2?m1}", "no", "yes", "yes", 4},
		{"{[l1] ; [l2] l2?m2.l2?m2.l2?m1}", "no", "yes", "yes", 6},
		{"{[l1] l1!m1.l1!m2; [l2] l2?m2.l2?m1}", "yes", "yes", "yes", 4},
		// On l1 (outside the coregion) the left loop's actions come first.
		{"{[l1] l1!m2.l1!m1; [l2] l2?m2.l2?m1}", "no", "no", "no", 4},
	})
	// Without the coregion, the right loop's l2?m2 cannot overtake l2?m1.
	checkVerdicts(t, st, "seq(loopW(strict(l1!m1,l2?m1)),loopW(strict(l1!m2,l2?m2)))", []verdicts{
		{"{[l1] l1!m1.l1!m2; [l2] l2?m2.l2?m1}", "no", "no", "no", 4},
		{"{[l1] l1!m1.l1!m2; [l2] l2?m1.l2?m2}", "yes", "yes", "yes", 4},
		{"{[l1] l1!m1; [l2] l2?m2}", "no", "no", "yes", 4},
	})
}

// pubSub is the FSEN publish/subscribe example (notes-partial-observation
// §1.3), in the syntax of this language (FSEN's seq/loopS on the discrete
// partition).
const pubSub = `seq(loopS(seq(pub!publish,bro?publish)),
	seq(seq(sub!subscribe,bro?subscribe),
	loopS(seq(seq(pub!publish,bro?publish),seq(bro!publish,sub?publish)))))`

// TestPubSub: T11, T12 of notes-partial-observation.md §6.
func TestPubSub(t *testing.T) {
	st := newStore(t, "pub,bro,sub", "publish,subscribe")
	sig := st.Signature()
	i := st.MustParseTerm(pubSub)
	tr := MustParseTrace(sig, "sub!subscribe.pub!publish.bro?subscribe.bro?publish.bro!publish.sub?publish")
	ts := Traces(st, i, len(tr))
	if !ts.Has(tr) {
		t.Errorf("T11: %s not accepted", tr.Format(sig))
	}
	for k := range len(tr) {
		if ts.Has(tr[:k]) {
			t.Errorf("T11: proper prefix %s accepted", tr[:k].Format(sig))
		}
	}
	checkVerdicts(t, st, pubSub, []verdicts{
		{"{[pub] pub!publish; [bro] bro?subscribe.bro?publish.bro!publish; [sub] sub!subscribe.sub?publish}",
			"yes", "yes", "yes", 6},
		// T12: a multi-prefix, not the projection of a global prefix.
		{"{[pub] pub!publish; [bro] bro?subscribe; [sub] }", "no", "yes", "yes", 6},
		{"{[pub] ; [bro] bro!publish; [sub] }", "no", "no", "yes", 6},
		{"{[pub] ; [bro] bro?publish.bro?subscribe; [sub] }", "no", "yes", "yes", 6},
		{"{[pub] ; [bro] bro?subscribe.bro!publish; [sub] }", "no", "no", "no", 6},
		{"{[pub] ; [bro] bro?publish.bro!publish; [sub] }", "no", "no", "yes", 6},
	})
}

// TestLoopHVersusLoopW: loopH's first event comes from its first iteration,
// so l2?m2 (second iteration) cannot follow l1!m1 (first iteration) before
// the first iteration's l2?m1.
func TestLoopHVersusLoopW(t *testing.T) {
	st := newStore(t, "l1,l2", "m1,m2")
	tr := MustParseTrace(st.Signature(), "l1!m1.l2?m2.l2?m1")
	w := st.MustParseTerm("loopW(alt(strict(l1!m1,l2?m1),l2?m2))")
	h := st.MustParseTerm("loopH(alt(strict(l1!m1,l2?m1),l2?m2))")
	if !Traces(st, w, 3).Has(tr) {
		t.Errorf("loopW does not accept %s", tr.Format(st.Signature()))
	}
	if Traces(st, h, 3).Has(tr) {
		t.Errorf("loopH accepts %s", tr.Format(st.Signature()))
	}
	// On one location the order is observed; on the discrete
	// partition, loopH's l2?m2.l1!m1.l2?m1 has the same projection.
	global := Project(tr, []interaction.Lifelines{interaction.LifelinesOf(0, 1)})
	if !Accepts(st, w, global) || Accepts(st, h, global) {
		t.Errorf("Accepts global: loopW %v, loopH %v; want true, false", Accepts(st, w, global), Accepts(st, h, global))
	}
	discrete := Project(tr, []interaction.Lifelines{interaction.LifelinesOf(0), interaction.LifelinesOf(1)})
	if !Accepts(st, w, discrete) || !Accepts(st, h, discrete) {
		t.Errorf("Accepts discrete: loopW %v, loopH %v; want true, true", Accepts(st, w, discrete), Accepts(st, h, discrete))
	}
}

// TestAcceptsSynch: a <synch> message is one event, split between
// locations, and Accepts bounds the length by the component events.
func TestAcceptsSynch(t *testing.T) {
	st := newStore(t, "a,b,c", "m,n")
	term := "seq({a!m,b?m},strict(b!n,c?n))"
	checkVerdicts(t, st, term, []verdicts{
		{"{[a] a!m; [b] b?m.b!n; [c] c?n}", "yes", "yes", "yes", 3},
		// Within one location the synch message is one event.
		{"{[a,b] a!m.b?m.b!n; [c] c?n}", "no", "no", "no", 3},
		{"{[a,b] {a!m,b?m}.b!n; [c] c?n}", "yes", "yes", "yes", 3},
		{"{[a] a!m; [b,c] b?m.b!n.c?n}", "yes", "yes", "yes", 3},
		{"{[a,b,c] {a!m,b?m}.b!n.c?n}", "yes", "yes", "yes", 3},
		{"{[a,b,c] b!n.{a!m,b?m}.c?n}", "no", "no", "no", 3},
		{"{[a] ; [b,c] b?m}", "no", "yes", "yes", 3},
	})
	// A lifeline that no component lists counts as empty.
	i := st.MustParseTerm(term)
	mt := multitrace.MultiTrace{Components: []multitrace.Component{
		{Lifelines: interaction.LifelinesOf(0), Trace: []interaction.MultiAction{{interaction.MakeAction(0, interaction.Emission, 0)}}},
	}}
	if Accepts(st, i, mt) {
		t.Error("accepted a multi-trace that misses b's and c's actions")
	}
}

// TestSmallSizeFast: the brief's size target (8 actions, traces of 8) runs
// in well under a second.
func TestSmallSizeFast(t *testing.T) {
	st := newStore(t, "l1,l2,l3", "m1,m2")
	for _, term := range []string{
		"par(par(strict(l1!m1,l2?m1),strict(l2!m2,l3?m2)),par(strict(l3!m1,l1?m1),strict(l1!m2,l2?m2)))",
		"loopW(seq(alt(strict(l1!m1,l2?m1),strict(l2!m2,l3?m2)),coreg(l2)(strict(l3!m1,l2?m1),strict(l1!m2,l2?m2))))",
		"loopP(alt(strict(l1!m1,l2?m1),alt(strict(l2!m2,l3?m2),strict(l3!m1,l1?m1))))",
		"loopH(seq(loopW(strict(l1!m1,l2?m1)),loopP(alt(l2!m2,strict(l3!m1,l1?m1)))))",
	} {
		ts := Traces(st, st.MustParseTerm(term), 8)
		if ts.Len() == 0 {
			t.Errorf("%s: no trace", term)
		}
	}
}
