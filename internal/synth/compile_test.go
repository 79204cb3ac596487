package synth

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/reference"
	"github.com/ivc-project/ivc/internal/testutil"
)

// Terms over l1..l3, m1..m3 and the dumps of their compiled (reduced) NFAs.
var compileTests = []struct{ in, want string }{
	{"∅", "init=0 final=0"},
	{"l1!m1", "init=0 final=1 0-l1!m1->1"},
	{"strict(l1!m1,l2?m1)", "init=0 final=2 0-l1!m1->1 1-l2?m1->2"},
	// Weak sequencing on disjoint lifelines interleaves.
	{"seq(l1!m1,l2!m1)", "init=0 final=3 0-l2!m1->1 0-l1!m1->2 1-l1!m1->3 2-l2!m1->3"},
	{"loopS(strict(l1!m1,l2?m1))", "init=0 final=0 0-l1!m1->1 1-l2?m1->0"},
	// alt idempotence; equal futures merge (bisimulation), equal pasts too.
	{"alt(strict(l1!m1,l2?m1),strict(l1!m1,l2?m1))", "init=0 final=2 0-l1!m1->1 1-l2?m1->2"},
	{"alt(strict(l1!m1,l2?m1),strict(l1!m1,l3?m1))", "init=0 final=2 0-l1!m1->1 1-l3?m1->2 1-l2?m1->2"},
	// A <synch> message is one symbol.
	{"{l1!m1,l2?m1}", "init=0 final=1 0-{l1!m1,l2?m1}->1"},
	{"sync(l1!m1)(strict(l1!m1,l2!m2),strict(l3!m3,l1!m1))", "init=0 final=3 0-l3!m3->1 1-l1!m1->2 2-l2!m2->3"},
	// Two independent chains whose receptions on l2 interleave: a 3×3 grid.
	{"coreg(l2)(strict(l1!m1,l2?m1),strict(l3!m2,l2?m2))",
		"init=0 final=8 0-l3!m2->1 0-l1!m1->2 1-l1!m1->4 1-l2?m2->3 2-l3!m2->4 2-l2?m1->5 3-l1!m1->6 4-l2?m2->6 4-l2?m1->7 5-l3!m2->7 6-l2?m1->8 7-l2?m2->8"},
	// Weak loops whose derivatives are finitely many.
	{"loopP(l1!m1)", "init=0 final=0 0-l1!m1->0"},
	{"loopW(alt(l1!m1,l2!m1))", "init=0 final=0 0-l2!m1->0 0-l1!m1->0"},
	{"loopW(strict(l1!m1,l1!m2))", "init=0 final=0 0-l1!m1->1 1-l1!m2->0"},
	{"loopW(seq(strict(l1!m1,l2?m1),strict(l2!m2,l1?m2)))", "init=0 final=0 0-l1!m1->1 1-l2?m1->2 2-l2!m2->3 3-l1?m2->0"},
	// Weak loops whose iterations overlap without bound.
	{"loopW(strict(l1!m1,l2?m1))", "error: loopW at ε"},
	{"loopH(strict(l1!m1,l2?m1))", "error: loopH at ε"},
	{"loopP(strict(l1!m1,l1!m2))", "error: loopP at ε"},
	{"loopW(seq(l1!m1,l2!m2))", "error: loopW at ε"},
	{"seq(l3!m1,loopW(strict(l1!m1,l2?m1)))", "error: loopW at 2"},
	{"loopS(seq(loopW(l3!m3),alt(l2!m2,loopP(strict(l1!m1,l2?m1)))))", "error: loopP at 122"},
	// Regular, but with infinitely many derivatives: rejected as well.
	{"loopP(alt(strict(l1!m1,l1!m2),alt(l1!m1,l1!m2)))", "error: loopP at ε"},
}

func TestCompile(t *testing.T) {
	for _, tc := range compileTests {
		st := interaction.NewStore(random.Signature(3, 3))
		root := st.MustParseTerm(tc.in)
		a, err := compileNFA(st, root, Options{})
		var got string
		if err != nil {
			var le *LoopError
			if !errors.As(err, &le) {
				t.Errorf("%s: unexpected error %v", tc.in, err)
				continue
			}
			path := le.Path
			if path == "" {
				path = "ε"
			}
			got = "error: " + le.Op.String() + " at " + path
			if !strings.Contains(err.Error(), "ivc analyze") {
				t.Errorf("%s: the error does not advise the runtime engine: %v", tc.in, err)
			}
		} else {
			got = a.String()
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
		if err == nil {
			checkReference(t, st, root, a, 6)
		}
	}
}

// checkReference checks that a accepts exactly the traces of t of length at
// most k (reference semantics).
func checkReference(t *testing.T, st *interaction.Store, root interaction.Term, a *nfa.NFA, k int) {
	t.Helper()
	want := reference.Traces(st, root, k).Strings(st.Signature())
	got := nfaWords(a, k)
	if !slices.Equal(got, want) {
		t.Errorf("%s: NFA %s\nwords of length ≤ %d differ from the reference:\n%s\n%s", st.Format(root), a, k,
			strings.Join(diff(got, want), "\n"), strings.Join(diff(want, got), "\n"))
	}
}

func TestAutomaton(t *testing.T) {
	st := interaction.NewStore(random.Signature(2, 2))
	root := st.MustParseTerm("loopS(alt(strict(l1!m1,l2?m1),{l1!m2,l2?m2}))")
	a, err := Synthesize(st, root, Options{Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.NFA.String(), "init=0 final=0 0-{l1!m2,l2?m2}->0 0-l1!m1->1 1-l2?m1->0"; got != want {
		t.Errorf("NFA %s, want %s", got, want)
	}
	var terms []string
	for q, term := range a.Terms {
		terms = append(terms, st.Format(term))
		if a.NFA.Label(nfa.State(q)) != st.Format(term) {
			t.Errorf("state %d labelled %q, term %s", q, a.NFA.Label(nfa.State(q)), st.Format(term))
		}
	}
	if got, want := strings.Join(terms, " "), "loopS(alt({l1!m2,l2?m2},strict(l1!m1,l2?m1))) strict(l2?m1,loopS(alt({l1!m2,l2?m2},strict(l1!m1,l2?m1))))"; got != want {
		t.Errorf("terms %s\nwant %s", got, want)
	}
	for x, id := range a.Acts {
		if got := st.MultiAction(id).Format(st.Signature()); got != a.NFA.Symbols().Name(nfa.Symbol(x)) {
			t.Errorf("symbol %d is %s, act %s", x, a.NFA.Symbols().Name(nfa.Symbol(x)), got)
		}
	}
	tr := reference.MustParseTrace(st.Signature(), "l1!m1.l2?m1.{l1!m2,l2?m2}")
	if w, ok := a.Word(st, tr); !ok || !a.NFA.Accepts(w) {
		t.Errorf("%s not accepted (word %v %v)", tr.Format(st.Signature()), w, ok)
	}
	if _, ok := a.Word(st, reference.MustParseTrace(st.Signature(), "l2!m1")); ok {
		t.Error("l2!m1 mapped to a symbol")
	}
}

func TestStateLimit(t *testing.T) {
	st := interaction.NewStore(random.Signature(3, 3))
	root := st.MustParseTerm("par(loopS(strict(l1!m1,l1!m2)),par(loopS(strict(l2!m1,l2!m2)),loopS(strict(l3!m1,l3!m2))))")
	_, err := compileNFA(st, root, Options{MaxStates: 5})
	var se *StateLimitError
	if !errors.As(err, &se) || se.Max != 5 {
		t.Fatalf("got %v, want a state limit error", err)
	}
	a, err := compileNFA(st, root, Options{MaxStates: 8})
	if err != nil || a.NumStates() != 8 {
		t.Fatalf("got %v %v, want 8 states", a, err)
	}
}

func TestLoopErrorPosition(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := "seq(\n  a -- n -> c,\n  loopW(a -- m -> b),\n  loopW(a -- m -> b)\n)\n"
	node, err := interaction.ParseHIF("spec.hif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	st := interaction.NewStore(sig)
	root, err := st.Resolve("spec.hif", node)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(st, root, Options{File: "spec.hif", Syntax: node})
	want := "spec.hif:3:3: loopW is outside the compilable sublanguage: its iterations can overlap without bound, " +
		"so it has infinitely many derivatives (its traces are usually not a regular language): loopW(strict(a!m,b?m)); " +
		"use 'ivc analyze' (the runtime engine) for this interaction"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	// Without the syntax tree, the term position.
	_, err = Compile(st, root, Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "loopW is outside") || !strings.Contains(err.Error(), "at term position 21;") {
		t.Errorf("got %v", err)
	}
}

// TestRandomLanguage compiles random small interactions and compares the
// NFA's words of length ≤ k with the reference semantics, exhaustively: with
// loopS only (always compilable), and with every operator (the weak loops
// that are accepted must be exact). Longer random words of each NFA must be
// accepted by the runtime engine.
func TestRandomLanguage(t *testing.T) {
	n, k := 300, 6
	if testutil.Sweep() {
		n = 5000
	}
	for _, compilable := range []bool{true, false} {
		rng := random.New(11)
		rejected := 0
		for range n {
			st := interaction.NewStore(random.Signature(3, 3))
			p := random.Params{MaxDepth: 3, MinActions: 2, Weights: random.All(), Compilable: compilable,
				Messages: random.MessageKinds{Passing: 2, Emission: 2, Reception: 2, Synch: 1, Broadcast: 1}}
			root := random.Interaction(st, rng, p)
			c, err := Compile(st, root, Options{})
			if err != nil {
				var le *LoopError
				if compilable || !errors.As(err, &le) {
					t.Fatalf("%s: %v", st.Format(root), err)
				}
				rejected++
				continue
			}
			a := c.NFA
			checkReference(t, st, root, a, k)
			ac := newAcceptor(st, root)
			for range 2 {
				if w := randomWord(a, rng, 40, 0.05); w != nil {
					if ok, r := ac.accepts(events(st, c, w)); !ok {
						t.Errorf("%s: the runtime engine answers %v (%s) on the NFA word %s", st.Format(root), r.Verdict, r.Reason, formatWord(a.Symbols(), w))
					}
				}
			}
			if t.Failed() {
				t.FailNow()
			}
		}
		t.Logf("compilable=%v: %d of %d rejected", compilable, rejected, n)
	}
}

// TestRandomRawEquivalence compiles larger random interactions and checks
// that the NFA has exactly the language of the derivative NFA built without
// canonical rewriting (a Store with it turned off), for all
// lengths (nfa.Equivalent), when that one is small enough.
func TestRandomRawEquivalence(t *testing.T) {
	t.Parallel()
	n := 150
	if testutil.Sweep() {
		n = 3000
	}
	rng := random.New(23)
	compared := 0
	for i := range n {
		sig := random.Signature(4, 3)
		st := interaction.NewStore(sig)
		p := random.Params{MaxDepth: 5, MinActions: 6, Weights: random.All(), Compilable: i%3 != 0,
			Messages: random.MessageKinds{Passing: 3, Emission: 1, Reception: 1, Synch: 1, Broadcast: 1}}
		root := random.Interaction(st, rng, p)
		a, err := compileNFA(st, root, Options{MaxStates: 50_000})
		if err != nil {
			var le *LoopError
			var se *StateLimitError
			if !errors.As(err, &le) && !errors.As(err, &se) {
				t.Fatalf("%s: %v", st.Format(root), err)
			}
			continue
		}
		rawStore := interaction.NewStore(sig)
		rawStore.SetCanonical(false)
		raw, err := Synthesize(rawStore, rawStore.Import(st, root), Options{raw: true, MaxStates: 2000})
		if err != nil {
			continue // infinitely or too many raw derivatives
		}
		if a.NumStates() > raw.NFA.NumStates() {
			t.Errorf("%s: %d states, more than the %d raw derivatives", st.Format(root), a.NumStates(), raw.NFA.NumStates())
		}
		if ok, w := nfa.Equivalent(raw.NFA, a); !ok {
			t.Fatalf("%s: the NFA and the raw derivative NFA differ on %s\nNFA %s\nraw %s", st.Format(root), strings.Join(w, "."), a, raw.NFA)
		}
		compared++
	}
	t.Logf("%d of %d compared", compared, n)
}

// TestPrecheck: a non-regular loop beside a large regular part is found by
// checking the loop alone once the synthesis has many states.
func TestPrecheck(t *testing.T) {
	st := interaction.NewStore(random.Signature(4, 3))
	// 12 copies of one action: a high bound on piling up.
	chain := func(l string) string {
		return "loopS(strict(" + strings.Repeat(l+"!m1,", 11) + l + "!m1))"
	}
	src := "par(" + chain("l1") + ",par(" + chain("l2") + ",loopP(alt(strict(l3!m1,l3!m2),strict(l4!m2,l4!m3)))))"
	root := st.MustParseTerm(src)
	s := newSynth(st, Options{}, root)
	_, err := s.run(root)
	var le *LoopError
	if !errors.As(err, &le) || le.Op != interaction.OpLoopP || le.Path != "22" {
		t.Fatalf("got %v, want the loopP at 22", err)
	}
	if len(s.terms) != precheckStates {
		t.Errorf("rejected after %d states, want %d (by the pre-check)", len(s.terms), precheckStates)
	}
}

// TestPrecheckOwnBounds: the pre-check judges a loop by the bounds it
// would have alone. A weak loop whose pending iterations pile up, beside a
// regular part whose eight copies of one message raise the interaction's
// bounds: with those, the loop alone filled the pre-check's budget without
// passing them, and the whole synthesis ran on to 39,288 states; by its
// own, the loop alone is rejected at once, and the interaction at the
// pre-check.
func TestPrecheckOwnBounds(t *testing.T) {
	st := interaction.NewStore(random.Signature(5, 6))
	src := "par(seq(" + strings.Repeat("strict(l1!m1,l3?m1),", 8) +
		"par(strict(l1!m1,l3?m1),par(strict(l4!m2,l5?m2),par(strict(l1!m3,l4?m3),strict(l3!m4,l5?m4))))),loopW(seq(l2?m5,alt(l3!m6,alt(l4?m6,seq(l5!m4,l2!m1))))))"
	root := st.MustParseTerm(src)
	s := newSynth(st, Options{}, root)
	_, err := s.run(root)
	var le *LoopError
	if !errors.As(err, &le) || le.Op != interaction.OpLoopW {
		t.Fatalf("got %v, want the loopW", err)
	}
	if len(s.terms) != precheckStates {
		t.Errorf("rejected after %d states, want %d (by the pre-check)", len(s.terms), precheckStates)
	}
}
