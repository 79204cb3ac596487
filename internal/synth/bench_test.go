package synth

import (
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/testutil"
)

// BenchmarkSynthesis measures Compile (synthesis and reduction) on the
// corpus models of SPEC §8, from a freshly loaded specification: each
// iteration gets its own Store holding just the parsed terms, as after
// spec.Load, so no memo table is warm. HIBOU's time (nfa-sizes.tsv, HIBOU
// 0.8.7 on a machine like ours) excludes parsing likewise. Metrics: states
// and transitions of the NFA, HIBOU's states, and speedup = HIBOU's time /
// ours (the target is ≥ 10).
//
//	go test ./compile -run '^$' -bench Synthesis -count 5
func BenchmarkSynthesis(b *testing.B) {
	shared := testutil.Shared(b)
	rows := map[string]hibouRow{}
	for _, r := range readHibouSizes(b, shared) {
		rows[r.model] = r
	}
	for _, name := range []string{"abp", "hr", "rover", "sensor", "platoon2", "platoon3", "platoon4", "platoon5",
		"doors", "doors_strict_par", "maze", "maze_strict_par", "secret_code", "slice_i1", "network_synch"} {
		row, ok := rows[name]
		if !ok {
			b.Fatalf("model %s not in nfa-sizes.tsv", name)
		}
		hif := filepath.Join(shared, "corpus", row.hif)
		sp := loadModel(b, hsfOf(b, hif), hif)
		b.Run(name, func(b *testing.B) {
			var states, transitions int
			var stores []*interaction.Store
			var roots []interaction.Term
			for b.Loop() {
				if len(stores) == 0 {
					// Fresh stores in batches, so that starting and stopping
					// the timer does not dominate small models.
					b.StopTimer()
					for range 32 {
						st := interaction.NewStore(sp.Sig)
						stores = append(stores, st)
						roots = append(roots, st.Import(sp.Store, sp.Root))
					}
					b.StartTimer()
				}
				st, root := stores[len(stores)-1], roots[len(roots)-1]
				stores[len(stores)-1] = nil // let the store go once used
				stores, roots = stores[:len(stores)-1], roots[:len(roots)-1]
				a, err := compileNFA(st, root, Options{})
				if err != nil {
					b.Fatal(err)
				}
				states, transitions = a.NumStates(), a.NumTransitions()
			}
			b.ReportMetric(float64(states), "states")
			b.ReportMetric(float64(transitions), "transitions")
			b.ReportMetric(float64(row.states), "hibou-states")
			if b.N > 0 && b.Elapsed() > 0 {
				perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
				b.ReportMetric(float64(row.synthesisUS)*1e3/perOp, "speedup")
			}
		})
	}
}
