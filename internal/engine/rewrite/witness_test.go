package rewrite

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// checkWitness reports what is wrong with w as a witness of mt in mode (""
// when nothing): every event consumed once, in its component's order, by a
// step whose action has that event as its part on the component; in an
// exact witness (accept mode, or a Pass) no simulation, and the sequence of
// actions a trace of the interaction, replayed on its semantics.
func checkWitness(st *interaction.Store, root interaction.Term, mt *multitrace.MultiTrace, w Witness, exact bool) string {
	next := make([]int, len(mt.Components))
	for i, s := range w {
		for _, e := range s.Events {
			if e.Index != next[e.Component] {
				return fmt.Sprintf("step %d consumes event %d of component %d, expected %d", i, e.Index, e.Component, next[e.Component])
			}
			next[e.Component]++
			c := mt.Components[e.Component]
			var part []interaction.Action
			for _, x := range s.Action {
				if c.Lifelines.Has(x.Lifeline()) {
					part = append(part, x)
				}
			}
			if !slices.Equal(interaction.NewMultiAction(part...), c.Trace[e.Index]) {
				return fmt.Sprintf("step %d executes %v, event %d of component %d is %v", i, s.Action, e.Index, e.Component, c.Trace[e.Index])
			}
		}
		if exact && s.Simulated {
			return fmt.Sprintf("step %d simulates in an exact witness", i)
		}
	}
	for c, comp := range mt.Components {
		if next[c] != len(comp.Trace) {
			return fmt.Sprintf("component %d: %d of %d events consumed", c, next[c], len(comp.Trace))
		}
	}
	if !exact {
		return ""
	}
	terms := []interaction.Term{st.Simplify(root)}
	for i, s := range w {
		want := st.ActID(s.Action)
		var reached []interaction.Term
		for _, t := range terms {
			for k, nf := 0, st.NumFrontier(t); k < nf; k++ {
				if st.FrontierAct(t, k) == want && !slices.Contains(reached, st.Step(t, k)) {
					reached = append(reached, st.Step(t, k))
				}
			}
		}
		if len(reached) == 0 {
			return fmt.Sprintf("step %d: %v is not executable", i, s.Action)
		}
		terms = reached
	}
	if !slices.ContainsFunc(terms, st.Nullable) {
		return "the interaction does not terminate after the witness"
	}
	return ""
}

// TestWitnessExamples: the papers' worked examples have a witness exactly
// when their verdict is Pass or WeakPass, in every configuration.
func TestWitnessExamples(t *testing.T) {
	for _, ex := range examples {
		st := storeOf(t, ex.lifelines, ex.messages)
		term := st.MustParseTerm(ex.term)
		mt := mtOf(t, st.Signature(), ex.mt)
		for _, cfg := range configs {
			for _, mode := range []verdict.Mode{verdict.Prefix, verdict.Accept} {
				want := ex.prefix
				if mode == verdict.Accept {
					want = ex.exact
				}
				w, ok := New(st, term, Options{Mode: mode, POR: cfg.por, LOC: cfg.loc}).Witness(mt, mode)
				if ok != want.OK() {
					t.Errorf("%s, %s %s: witness %v, verdict %s", ex.name, mode, cfg.name, ok, want)
					continue
				}
				if bad := checkWitness(st, term, mt, w, want == verdict.Pass); ok && bad != "" {
					t.Errorf("%s, %s %s: %s", ex.name, mode, cfg.name, bad)
				}
			}
		}
	}
}

// TestWitnessSlice: T3 of the slice paper is explained by simulating l1!m1
// and l2?m1 before the log of {l1,l2} starts.
func TestWitnessSlice(t *testing.T) {
	st := storeOf(t, "l1,l2,l3", "m1,m2,m3,m4,m5")
	term := st.MustParseTerm(jotI0)
	mt := mtOf(t, st.Signature(), "[l1,l2] l2?m4; [l3] l3?m1")
	a := New(st, term, DefaultOptions())
	if _, ok := a.Witness(mt, verdict.Prefix); ok {
		t.Fatal("a witness in prefix mode of what is only a slice")
	}
	w, ok := a.Witness(mt, verdict.Slice)
	if !ok {
		t.Fatal("no witness of a slice")
	}
	if bad := checkWitness(st, term, mt, w, false); bad != "" {
		t.Fatal(bad)
	}
	var sim []string
	for _, s := range w {
		if s.Simulated {
			sim = append(sim, s.Action.Format(st.Signature()))
		}
	}
	if want := []string{"l1!m1", "l2?m1"}; !slices.Equal(sim, want) {
		t.Errorf("simulated %v, want %v", sim, want)
	}
}

// TestWitnessDifferential: on random interactions and multi-traces, a
// witness exists in each mode exactly when Check says Pass or WeakPass,
// and it is one.
func TestWitnessDifferential(t *testing.T) {
	t.Parallel()
	sig := random.Signature(3, 2)
	weights := random.Conservative()
	weights.Coreg, weights.LoopH = 1, 1
	msgs := random.DefaultMessages()
	msgs.Synch = 2
	checked := 0
	seeds := 40 // a sample; the sweep checks 100
	if testutil.Sweep() {
		seeds = 100
	}
	for seed := range seeds {
		rng := random.New(uint64(seed))
		st := interaction.NewStore(sig)
		term := random.Interaction(st, rng, random.Params{MaxDepth: 3, MinActions: 3, Weights: weights, Messages: msgs})
		for k := range 6 {
			mt, ok := drawMultiTrace(st, term, rng, k)
			if !ok || mt.Len() > 7 {
				continue
			}
			for _, mode := range []verdict.Mode{verdict.Accept, verdict.Prefix, verdict.Slice} {
				a := New(st, term, Options{Mode: mode, POR: true, LOC: true, Simulation: DefaultSimulation(), MaxNodes: 50_000})
				res := a.Check(&mt)
				if res.Verdict == verdict.Inconc {
					continue
				}
				w, ok := a.Witness(&mt, mode)
				if ok != res.Verdict.OK() {
					t.Errorf("seed %d: %s on %s, %s: witness %v, verdict %s", seed, st.Format(term), mt.Format(sig), mode, ok, res.Verdict)
					continue
				}
				if bad := checkWitness(st, term, &mt, w, res.Verdict == verdict.Pass); ok && bad != "" {
					t.Errorf("seed %d: %s on %s, %s: %s", seed, st.Format(term), mt.Format(sig), mode, bad)
				}
				checked++
			}
		}
	}
	t.Logf("%d witnesses checked", checked)
}

// TestAcceptedAtOnce: the optimistic attempt (accepted) says at once, with
// no vertex, that a multi-trace is not exactly accepted when a component
// holds fewer events than every trace of the interaction puts there, an
// event of no action of the interaction there, or a last event on a
// lifeline that ends that lifeline in no trace; others it searches.
func TestAcceptedAtOnce(t *testing.T) {
	st := storeOf(t, "l1,l2", "m,n")
	a := New(st, st.MustParseTerm("seq(strict(l1!m,l2?m),strict(l2!n,l1?n))"), DefaultOptions())
	for _, c := range []struct {
		text    string
		explore bool // the attempt explores (else it answers at once)
		want    verdict.Verdict
	}{
		{"[l1] l1!m; [l2] l2?m.l2!n", false, verdict.WeakPass},       // l1 receives n in every trace
		{"[l1] l1!n.l1!m.l1?n; [l2] l2?m.l2!n", false, verdict.Fail}, // l1 never sends n
		{"[l1] l1!m.l1?n; [l2] l2!n.l2?m", false, verdict.Fail},      // l2 ends with l2!n in every trace
		{"[l1] l1?n.l1!m; [l2] l2?m.l2!n", false, verdict.Fail},      // l1 ends with l1?n
		{"[l1] l1?n.l1?n; [l2] l2?m.l2!n", true, verdict.Fail},       // ends right, in the wrong order
	} {
		pb := a.newProblem(mtOf(t, st.Signature(), c.text))
		got := pb.accepted()
		a.st.OnGrowth(nil)
		if got != verdict.Fail || (pb.localNodes > 0) != c.explore {
			t.Errorf("%s: %s after %d vertices, want Fail (explored: %v)", c.text, got, pb.localNodes, c.explore)
		}
		if r := a.Check(mtOf(t, st.Signature(), c.text)); r.Verdict != c.want {
			t.Errorf("%s: %s, want %s", c.text, r.Text(), c.want)
		}
	}
	// In a loop no component needs an event, but a multi-prefix cut in the
	// middle of an iteration still ends a lifeline where no trace does.
	a = New(st, st.MustParseTerm("loopW(seq(strict(l1!m,l2?m),strict(l2!n,l1?n)))"), DefaultOptions())
	text := "[l1] l1!m.l1?n.l1!m; [l2] l2?m.l2!n.l2?m"
	pb := a.newProblem(mtOf(t, st.Signature(), text))
	if got := pb.accepted(); got != verdict.Fail || pb.localNodes > 0 {
		t.Errorf("loop: %s: %s after %d vertices, want Fail at once", text, got, pb.localNodes)
	}
	a.st.OnGrowth(nil)
	if r := a.Check(mtOf(t, st.Signature(), text)); r.Verdict != verdict.WeakPass {
		t.Errorf("loop: %s: %s, want WeakPass", text, r.Text())
	}
}
