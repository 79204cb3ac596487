package automata

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestSynchModels checks models whose <synch> messages are symbols that
// touch several locations: network-synch on random multi-traces (accepted
// ones, prefixes, noise, swaps) with one location per lifeline and with a
// location of several lifelines, against the runtime engine; and the 3-SAT
// reductions, where every symbol is a broadcast to the lifelines of the clauses a
// literal satisfies (91 locations), which are WeakPass in prefix mode
// within a node budget (each explores at most 5,803 states), not a time
// budget, so that the verdicts do not depend on the machine's speed.
func TestSynchModels(t *testing.T) {
	t.Parallel()
	shared := testutil.Shared(t)
	sp, err := spec.Load(filepath.Join(shared, "corpus", "models", "network-synch", "network.hsf"), "")
	if err != nil {
		t.Fatal(err)
	}
	sig := sp.Sig
	rng := rand.New(rand.NewPCG(3, 4))
	co, err := interaction.ParseLocations(sig, "Client,Proxy;Log")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, mode := range []verdict.Mode{verdict.Accept, verdict.Prefix} {
		e, err := New(sp.Store, sp.Root, Options{Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		rt := rewrite.New(sp.Store, sp.Root, rewrite.Options{Mode: mode, POR: true, LOC: true})
		for k := range 300 {
			tr, err := gen.Accepted(sp.Store, sp.Root, rng, gen.Options{MaxLength: 40})
			if err != nil {
				t.Fatal(err)
			}
			part := interaction.DiscreteLocations(sig)
			if k%2 == 1 {
				part = co
			}
			mt := gen.Project(tr, part)
			switch k % 5 {
			case 1:
				mt = gen.Prefix(mt, rng)
			case 2:
				mt = gen.Noise(sig, mt, rng)
			case 3:
				if m, ok := gen.SwapActions(mt, rng); ok {
					mt = m
				}
			case 4:
				mt = gen.Slice(mt, rng)
			}
			want := rt.Check(&mt)
			if got := e.Check(&mt); got.Verdict != want.Verdict {
				t.Errorf("network %s on %s: automata %s (%s), runtime %s", mode, mt.Format(sig), got.Verdict, got.Text(), want.Verdict)
			}
			checked++
		}
	}
	n := 3
	if testutil.Sweep() {
		n = 100
	}
	dir := filepath.Join(shared, "corpus", "3sat")
	for i := range n {
		name := fmt.Sprintf("uf20-0%d", i+1)
		sp, err := spec.Load(filepath.Join(dir, name+".hsf"), "")
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(sp.Store, sp.Root, Options{Mode: verdict.Prefix, MaxNodes: 100_000})
		if err != nil {
			t.Fatal(err)
		}
		mt, err := multitrace.Read(filepath.Join(dir, name+".htf"), sp.Sig)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Check(mt); got.Verdict != verdict.WeakPass {
			t.Errorf("%s: %s (%s), want WeakPass", name, got.Verdict, got.Text())
		}
		checked++
	}
	t.Logf("%d analyses checked", checked)
}
