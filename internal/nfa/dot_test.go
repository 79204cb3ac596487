package nfa

import (
	"github.com/ivc-project/ivc/internal/testutil"
	"strings"
	"testing"
)

func TestDOT(t *testing.T) {
	b := NewBuilder()
	a, m, s := b.Symbol("a!m"), b.Symbol("b?m"), b.Symbol("{a!n,b?n}")
	q0, q1, q2 := b.State(false), b.State(false), b.State(true)
	b.Initial(q0)
	b.Transition(q0, a, q1)
	b.Transition(q1, m, q2)
	b.Transition(q1, s, q2)
	b.Transition(q2, a, q1)
	b.SetLabel(q0, `strict(a!m,b?m) "quoted"`)
	n := b.Build()

	got := n.DOT(DOTOptions{Name: "example"})
	want := `digraph nfa {
	fontname="Helvetica";label="example";labelloc="t";rankdir="LR";
	n4[label="",shape="point"];
	n1[fontname="Helvetica",label="0",shape="circle"];
	n2[fontname="Helvetica",label="1",shape="circle"];
	n3[fontname="Helvetica",label="2",shape="doublecircle"];
	n4->n1;
	n1->n2[fontname="Helvetica",label="a!m"];
	n2->n3[fontname="Helvetica",label="b?m\n{a!n,b?n}"];
	n3->n2[fontname="Helvetica",label="a!m"];
	
}
`
	if got != want {
		t.Errorf("DOT:\n%s\nwant\n%s", got, want)
	}
	if again := n.DOT(DOTOptions{Name: "example"}); again != got {
		t.Error("DOT output is not deterministic")
	}
	labelled := n.DOT(DOTOptions{Labels: true, TopDown: true})
	for _, s := range []string{`label="0\nstrict(a!m,b?m) \"quoted\""`, `shape="box"`, `rankdir="TB"`} {
		if !strings.Contains(labelled, s) {
			t.Errorf("labelled DOT lacks %s:\n%s", s, labelled)
		}
	}
	testutil.RenderDOT(t, got, labelled)
}
