package compile

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/nfa"
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
		graphs = append(graphs, labelled, a.DOT(nfa.DOTOptions{}))
	}
	renderDOT(t, graphs...)
}

// renderDOT checks that Graphviz renders each graph (dot -Tsvg) without a
// complaint, when the dot binary is installed (CI installs it).
func renderDOT(t *testing.T, graphs ...string) {
	t.Helper()
	bin, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz dot not installed: DOT output not rendered")
	}
	dir := t.TempDir()
	for i, g := range graphs {
		file := filepath.Join(dir, fmt.Sprintf("g%03d.dot", i))
		if err := os.WriteFile(file, []byte(g), 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "-Tsvg", "-o", file+".svg", file)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("dot -Tsvg: %v %s\n%s", err, stderr.String(), g)
		}
	}
}
