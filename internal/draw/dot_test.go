package draw

import (
	"github.com/ivc-project/ivc/internal/testutil"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

func TestInteractionDOT(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"a", "b", "c"}, []string{"m", "n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := "loopS(seq(a -- m -> (b,c), alt(b -- <synch>n -> a, o), coreg(c)(m -> c, c -- n ->|)))"
	node, err := interaction.ParseHIF("x.hif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := InteractionDOT(node, "x.hif")
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
	if g := InteractionDOT(st.Syntax(term), ""); !strings.Contains(g, `label="sync(a!m)"`) || !strings.Contains(g, `label="a -- <synch>m -> c"`) {
		t.Errorf("sync drawing:\n%s", g)
	}
	testutil.RenderDOT(t, got)
}
