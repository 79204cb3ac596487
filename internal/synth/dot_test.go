package synth

import (
	"github.com/ivc-project/ivc/internal/testutil"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/internal/nfa"
)

// TestDOTCorpus exports the NFAs of the corpus models of testdata (with and
// without term labels) and renders them with Graphviz.
func TestDOTCorpus(t *testing.T) {
	t.Parallel()
	var graphs []string
	for _, m := range corpusModels {
		sp := loadModel(t, filepath.Join("testdata", "models", m.hsf), m.hif)
		a, err := compileNFA(sp.Store, sp.Root, Options{Labels: true})
		if err != nil {
			continue
		}
		labelled := a.DOT(nfa.DOTOptions{Name: m.name, Labels: true})
		if again := a.DOT(nfa.DOTOptions{Name: m.name, Labels: true}); again != labelled {
			t.Errorf("%s: DOT output is not deterministic", m.name)
		}
		// Graphviz takes seconds to lay out the larger automata: the
		// default run renders the small ones (both styles of each), the
		// sweep every one.
		if a.NumStates() <= 20 || testutil.Sweep() {
			graphs = append(graphs, labelled, a.DOT(nfa.DOTOptions{}))
		}
	}
	testutil.RenderDOT(t, graphs...)
}
