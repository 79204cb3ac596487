package rewrite

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/automata"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestExplanationsAgainstAutomata compares the explanations of a Fail by
// both engines, on accepted traces of the corpus models
// the automata engine compiles, cut at a random point and followed by a
// random action. Both engines explain a Fail by the furthest point their
// searches reached and the actions expected there, but their searches are
// not the same: the runtime's removes the lifelines of consumed components
// and its partial order reduction leaves interleavings out, the automata
// engine's central search keeps one NFA state per vertex. Where both
// explanations have the same meaning, they must agree exactly:
//
//   - A multi-trace of one component. The runtime then has no local
//     analysis and removes nothing before the end, so its furthest vertices
//     are all the terms the longest viable prefix reaches, and the union of
//     their frontiers is every action that can follow that prefix. The
//     automata engine finds the same through its projection DFA (a subset
//     construction over an NFA whose states are all co-accessible: without
//     sync, every term can terminate): the same position, the same actions.
//   - A local failure. The runtime claims one only when the local analysis of
//     the root vertex proves it, so the automata engine must find a
//     LocalError; when both name the same component, both followed its
//     trace in the same projection language (removal is exact there), so
//     they stop at the same event and expect the same actions.
//
// platoon5, whose checkers take most of the time, is compared under -tags
// sweep only.
func TestExplanationsAgainstAutomata(t *testing.T) {
	t.Parallel()
	hsfs, _ := filepath.Glob(filepath.Join(testutil.Shared(t), "corpus", "models", "*", "*.hsf"))
	hsfs = append(hsfs, "../../../testdata/abp/abp.hsf")
	compared := map[string]int{}
	draws := 4 // failing multi-traces per model, mode and partition; 12 in the sweep
	if testutil.Sweep() {
		draws = 12
	}
	for _, hsf := range hsfs {
		if strings.Contains(hsf, "platoon5") && !testutil.Sweep() {
			continue // its checkers take most of the test's time: under -tags sweep only
		}
		sp, err := spec.Load(hsf, "")
		if err != nil || hasSync(sp.Store, sp.Root) {
			continue
		}
		for _, mode := range []verdict.Mode{verdict.Prefix, verdict.Accept} {
			e, err := automata.New(sp.Store, sp.Root, automata.Options{Mode: mode})
			if err != nil {
				continue // not compilable
			}
			a := New(sp.Store, sp.Root, Options{Mode: mode, POR: true, LOC: true})
			rng := rand.New(rand.NewPCG(uint64(len(compared)), 7))
			for range draws {
				for _, part := range []interaction.Locations{interaction.TrivialLocations(sp.Sig), interaction.DiscreteLocations(sp.Sig)} {
					mt, ok := failing(sp.Store, sp.Root, rng, part)
					if !ok {
						continue
					}
					name := filepath.Base(hsf) + " " + mode.String() + " " + string(mt.Format(sp.Sig))
					r, m := a.Check(mt), e.Check(mt)
					if r.Verdict != m.Verdict {
						t.Fatalf("%s: runtime %s, automata %s", name, r.Verdict, m.Verdict)
					}
					if r.Verdict != verdict.Fail {
						continue
					}
					re, me := r.Explanation, m.Explanation
					if re.LocalFailure != "" && m.Reason != verdict.LocalError {
						t.Errorf("%s: the runtime blames [%s], the automata engine says %s", name, re.LocalFailure, m.Text())
					}
					c := -1
					switch {
					case len(mt.Components) == 1:
						c = 0
						compared["one component"]++
					case re.LocalFailure != "" && re.LocalFailure == me.LocalFailure:
						c = slices.IndexFunc(re.Components, func(p verdict.ComponentProgress) bool { return p.Lifelines == re.LocalFailure })
						compared["local failure"]++
					default:
						continue
					}
					if re.Components[c] != me.Components[c] || !slices.Equal(re.Expected, me.Expected) {
						t.Errorf("%s:\nruntime  %+v expected %s\nautomata %+v expected %s", name,
							re.Components[c], strings.Join(re.Expected, " "), me.Components[c], strings.Join(me.Expected, " "))
					}
				}
			}
		}
	}
	if compared["one component"] < 8*draws || compared["local failure"] < 8*draws {
		t.Errorf("compared too few explanations: %v", compared)
	}
	t.Logf("explanations compared: %v", compared)
}

// failing returns an accepted trace of root cut at a random point and
// followed by a random action, projected on part, when it could draw one.
func failing(st *interaction.Store, root interaction.Term, rng *rand.Rand, part interaction.Locations) (*multitrace.MultiTrace, bool) {
	tr, err := gen.Accepted(st, root, rng, gen.Options{MaxLength: 30})
	if err != nil {
		return nil, false
	}
	sig := st.Signature()
	tr = tr[:rng.IntN(len(tr)+1)]
	a := interaction.MakeAction(interaction.LifelineID(rng.IntN(len(sig.Lifelines))), interaction.Kind(rng.IntN(2)),
		interaction.MessageID(rng.IntN(len(sig.Messages))))
	mt := gen.Project(append(tr, interaction.MultiAction{a}), part)
	return &mt, true
}
