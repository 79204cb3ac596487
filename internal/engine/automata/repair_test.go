package automata

import (
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/internal/repair"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/verdict"
)

// TestRepairDifferentialRuntime draws random interactions and failing
// multi-traces as TestDifferentialRuntime does, and requires the cost of
// the automata engine's repair (an alignment) to be that of the bounded
// search over edits judged by the runtime engine, in accept and prefix
// modes; and each repair to pass both engines.
func TestRepairDifferentialRuntime(t *testing.T) {
	t.Parallel()
	n := 40
	if testutil.Sweep() {
		n = 1000
	}
	sig := random.Signature(4, 2)
	w := random.Conservative()
	w.Coreg = 1
	msgs := random.DefaultMessages()
	msgs.Synch = 2
	msgs.Broadcast = 1
	compared := map[int]int{}
	for seed := range n {
		rng := random.New(uint64(seed) + 5000)
		st := interaction.NewStore(sig)
		ww := w
		if seed%5 == 0 {
			ww.Sync = 1
		}
		term := random.Interaction(st, rng, random.Params{MaxDepth: 4, MinActions: 4, Weights: ww, Messages: msgs, Compilable: true})
		for _, mode := range []verdict.Mode{verdict.Accept, verdict.Prefix} {
			e, err := New(st, term, Options{Mode: mode})
			if err != nil {
				t.Fatalf("seed %d: %s: %v", seed, st.Format(term), err)
			}
			rt := rewrite.New(st, term, rewrite.Options{Mode: mode, POR: true, LOC: true})
			for k := range 8 {
				mt, ok := draw(st, term, rng, k)
				if !ok || e.Check(&mt).Verdict != verdict.Fail {
					continue
				}
				where := func() string { return st.Format(term) + " on " + string(mt.Format(sig)) + " " + mode.String() }
				ar, err := e.Repair(&mt, nfa.AlignOptions{})
				if err != nil || !ar.Found || ar.Incomplete {
					t.Fatalf("seed %d: %s: %+v, %v", seed, where(), ar, err)
				}
				fixed := repair.Apply(&mt, ar.Edits)
				if got, want := e.Check(fixed).Verdict, rt.Check(fixed).Verdict; !got.OK() || !want.OK() {
					t.Errorf("seed %d: %s: repaired by %v: automata %s, runtime %s", seed, where(), ar.Edits, got, want)
					continue
				}
				cost := len(ar.Edits)
				if cost > 3 {
					continue // the bounded search would take long
				}
				rr := repair.Search(&mt, repair.Alphabet(st, term, mt.Locations()), rt.Check,
					repair.Options{MaxEdits: cost, MaxNodes: 1 << 18})
				switch {
				case rr.Incomplete:
					continue
				case !rr.Found:
					t.Errorf("seed %d: %s: the runtime engine finds no repair of %d edits, the automata engine %v", seed, where(), cost, ar.Edits)
				case len(rr.Edits) != cost:
					t.Errorf("seed %d: %s: the runtime engine repairs with %v, the automata engine with %v", seed, where(), rr.Edits, ar.Edits)
				}
				compared[cost]++
			}
		}
	}
	t.Logf("repairs compared, by cost: %v", compared)
}
