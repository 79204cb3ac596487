package compile

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/nfa"
)

func TestDrawInteraction(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := "loopS(seq(a -- m -> (b,c), alt(b -- <synch>n -> a, o), coreg(c)(m -> c, c -- n ->|)))"
	node, err := interaction.ParseHIF("x.hif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := DrawInteraction(node, "x.hif")
	want := `digraph interaction {
	fontname="Helvetica";label="x.hif";labelloc="t";ordering="out";rankdir="TB";
	n1[fillcolor="lightgrey",fontname="Helvetica",label="loopS",shape="ellipse",style="filled"];
	n2[fillcolor="lightgrey",fontname="Helvetica",label="seq",shape="ellipse",style="filled"];
	n3[fontname="Helvetica",label="a -- m -> (b,c)",shape="box"];
	n4[fillcolor="lightgrey",fontname="Helvetica",label="alt",shape="ellipse",style="filled"];
	n5[fontname="Helvetica",label="b -- <synch>n -> a",shape="box",style="bold"];
	n6[fontname="Helvetica",fontsize="10",label="∅",shape="circle"];
	n7[fillcolor="lightgrey",fontname="Helvetica",label="coreg(c)",shape="ellipse",style="filled"];
	n8[fontname="Helvetica",label="m -> c",shape="box"];
	n9[fontname="Helvetica",label="c -- n ->|",shape="box"];
	n1->n2[arrowhead="none"];
	n2->n3[arrowhead="none"];
	n2->n4[arrowhead="none"];
	n2->n7[arrowhead="none"];
	n4->n5[arrowhead="none"];
	n4->n6[arrowhead="none"];
	n7->n8[arrowhead="none"];
	n7->n9[arrowhead="none"];
	
}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	st := interaction.NewStore(sig)
	term := st.MustParseTerm("sync(a!m)(strict(a!m,b?m),{a!m,c?m})")
	if g := DrawInteraction(st.Syntax(term), ""); !strings.Contains(g, `label="sync(a!m)"`) || !strings.Contains(g, `label="a -- <synch>m -> c"`) {
		t.Errorf("sync drawing:\n%s", g)
	}
	renderDOT(t, got)
}

// TestDOTCorpus exports the corpus models of testdata (interaction, NFA with
// and without term labels) and renders them with Graphviz.
func TestDOTCorpus(t *testing.T) {
	t.Parallel()
	var graphs []string
	for _, m := range corpusModels {
		sp := loadModel(t, filepath.Join("testdata", "models", m.hsf), m.hif)
		graphs = append(graphs, DrawInteraction(sp.Syntax, sp.HIFPath))
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
