package nfa

import (
	"fmt"
	"strings"
)

// DOT draws the projection DFA in Graphviz DOT: each state shows its number
// and its subset of A's states (double circle when final), each edge its
// letter and its area (the transitions of A it stands for, in the dump form
// of FormatSub), and a note on the start state gives init.
func (p *Proj) DOT(a *NFA, opt DOTOptions) string {
	d := p.dfa
	g := newDrawing("proj", opt)
	nodes := g.states("s", d.n, func(q State) (string, bool) {
		return fmt.Sprintf("%d\n%s", q, p.Subset(q)), d.IsFinal(q)
	})
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
			g.edge(nodes[q], nodes[r], d.syms.names[x]+"\n"+wrapSub(a.FormatSub(p.Area(q, Letter(x)))))
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
	g := newDrawing("area", opt)
	nodes := g.states("q", a.n, func(q State) (string, bool) { return fmt.Sprint(q), a.IsFinal(q) })
	g.initial(a.initial, nodes)
	for k, t := range a.trans {
		label := a.syms.names[t.Sym]
		if len(in[k]) > 0 {
			label += "\n" + wrapSub(strings.Join(in[k], " "))
		}
		e := g.edge(nodes[t.Src], nodes[t.Dst], label)
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
