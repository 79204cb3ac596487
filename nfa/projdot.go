package nfa

import (
	"fmt"
	"strings"

	"github.com/emicklei/dot"
)

// DOT draws the projection DFA in Graphviz DOT: each state shows its number
// and its subset of A's states (double circle when final), each edge its
// letter and its area (the transitions of A it stands for, in the dump form
// of FormatSub), and a note on the start state gives init.
func (p *Proj) DOT(a *NFA, opt DOTOptions) string {
	d := p.dfa
	g := dot.NewGraph(dot.Directed)
	g.ID("proj")
	g.Attr("rankdir", map[bool]string{true: "TB", false: "LR"}[opt.TopDown])
	if opt.Name != "" {
		g.Label(opt.Name)
		g.Attr("labelloc", "t")
	}
	g.Attr("fontname", "Helvetica")
	width := len(fmt.Sprint(d.n))
	nodes := make([]dot.Node, d.n)
	for q := range State(d.n) {
		n := g.Node(fmt.Sprintf("s%0*d", width, q))
		n.Label(fmt.Sprintf("%d\n%s", q, p.Subset(State(q)))).Attr("fontname", "Helvetica")
		if d.IsFinal(q) {
			n.Attr("shape", "doublecircle")
		} else {
			n.Attr("shape", "circle")
		}
		nodes[q] = n
	}
	if d.start >= 0 {
		init := g.Node("init").Attr("shape", "note").Attr("fontname", "Helvetica")
		init.Label("init\n" + wrapSub(a.FormatSub(p.init)))
		g.Edge(init, nodes[d.start]).Attr("style", "dashed")
	}
	for q := range State(d.n) {
		for x := range d.k {
			r := d.next[int(q)*d.k+x]
			if r < 0 {
				continue
			}
			label := d.syms.names[x] + "\n" + wrapSub(a.FormatSub(p.Area(q, Letter(x))))
			g.Edge(nodes[q], nodes[r], label).Attr("fontname", "Helvetica")
		}
	}
	return g.String()
}

// AreaDOT draws A with, on each transition, the labels of the projection
// that hold it: "init" and the DFA transitions "q-x->r" whose area contains
// it. A transition in no label is grey: the location never sees it used.
func (p *Proj) AreaDOT(a *NFA, opt DOTOptions) string {
	d := p.dfa
	in := make([][]string, len(a.trans))
	for _, t := range p.init.Elems() {
		in[t] = append(in[t], "init")
	}
	for q := range State(d.n) {
		for x := range d.k {
			r := d.next[int(q)*d.k+x]
			if r < 0 {
				continue
			}
			for _, t := range p.Area(q, Letter(x)).Elems() {
				in[t] = append(in[t], fmt.Sprintf("%d-%s->%d", q, d.syms.names[x], r))
			}
		}
	}
	g := dot.NewGraph(dot.Directed)
	g.ID("area")
	g.Attr("rankdir", map[bool]string{true: "TB", false: "LR"}[opt.TopDown])
	if opt.Name != "" {
		g.Label(opt.Name)
		g.Attr("labelloc", "t")
	}
	g.Attr("fontname", "Helvetica")
	width := len(fmt.Sprint(a.n))
	nodes := make([]dot.Node, a.n)
	for q := range State(a.n) {
		n := g.Node(fmt.Sprintf("q%0*d", width, q)).Label(fmt.Sprint(q)).Attr("fontname", "Helvetica")
		if a.IsFinal(q) {
			n.Attr("shape", "doublecircle")
		} else {
			n.Attr("shape", "circle")
		}
		nodes[q] = n
	}
	for i, q := range a.initial {
		pt := g.Node(fmt.Sprintf("init%0*d", width, i)).Attr("shape", "point").Label("")
		g.Edge(pt, nodes[q])
	}
	for k, t := range a.trans {
		label := a.syms.names[t.Sym]
		if len(in[k]) > 0 {
			label += "\n" + wrapSub(strings.Join(in[k], " "))
		}
		e := g.Edge(nodes[t.Src], nodes[t.Dst], label).Attr("fontname", "Helvetica")
		if len(in[k]) == 0 {
			e.Attr("color", "grey").Attr("fontcolor", "grey")
		}
	}
	return g.String()
}

// wrapSub puts a list of transitions on lines of a few items each.
func wrapSub(s string) string {
	fs := strings.Fields(s)
	var b strings.Builder
	for i, f := range fs {
		switch {
		case i == 0:
		case i%3 == 0:
			b.WriteByte('\n')
		default:
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	return b.String()
}
