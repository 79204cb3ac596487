package nfa

import (
	"fmt"
	"strings"

	"github.com/emicklei/dot"
)

// DOTOptions configure DOT export.
type DOTOptions struct {
	// Name is the graph's name (its label when non-empty).
	Name string
	// Labels shows each state's label (e.g. its interaction term) beside its
	// number, when the automaton has labels.
	Labels bool
	// TopDown lays the graph out top to bottom instead of left to right.
	TopDown bool
}

// DOT returns the automaton in Graphviz DOT: states are circles numbered as
// in the dump (double circles when final, boxes with two borders when
// labelled), an arrow from a point marks each initial state, and parallel
// transitions share one edge labelled with their symbols, one per line. The
// output is deterministic: it depends only on the automaton.
func (a *NFA) DOT(opt DOTOptions) string {
	g := dot.NewGraph(dot.Directed)
	g.ID("nfa")
	if opt.TopDown {
		g.Attr("rankdir", "TB")
	} else {
		g.Attr("rankdir", "LR")
	}
	if opt.Name != "" {
		g.Label(opt.Name)
		g.Attr("labelloc", "t")
	}
	g.Attr("fontname", "Helvetica")
	labels := opt.Labels && a.labels != nil
	nodes := make([]dot.Node, a.n)
	width := len(fmt.Sprint(a.n))
	for q := range State(a.n) {
		// Zero-padded ids keep emicklei/dot's (sorted) node order numeric.
		n := g.Node(fmt.Sprintf("q%0*d", width, q))
		n.Attr("fontname", "Helvetica")
		if labels && a.labels[q] != "" {
			n.Label(fmt.Sprintf("%d\n%s", q, wrap(a.labels[q], labelWidth)))
			n.Attr("shape", "box").Attr("style", "rounded")
			if a.IsFinal(q) {
				n.Attr("peripheries", "2")
			}
		} else {
			n.Label(fmt.Sprint(q))
			if a.IsFinal(q) {
				n.Attr("shape", "doublecircle")
			} else {
				n.Attr("shape", "circle")
			}
		}
		nodes[q] = n
	}
	for i, q := range a.initial {
		p := g.Node(fmt.Sprintf("init%0*d", width, i))
		p.Attr("shape", "point").Label("")
		g.Edge(p, nodes[q])
	}
	// Transitions are sorted by source then symbol: group them by target.
	for q := range State(a.n) {
		out := a.Out(q)
		var order []State
		names := map[State][]string{}
		for _, t := range out {
			if _, ok := names[t.Dst]; !ok {
				order = append(order, t.Dst)
			}
			names[t.Dst] = append(names[t.Dst], a.syms.names[t.Sym])
		}
		for _, p := range order {
			g.Edge(nodes[q], nodes[p], strings.Join(names[p], "\n")).Attr("fontname", "Helvetica")
		}
	}
	return g.String()
}

// labelWidth is the width past which DOT state labels are wrapped.
const labelWidth = 48

// wrap breaks a label into lines of about width characters, after commas
// (where a term in operator form has its operands), so that long terms stay
// readable in a drawing.
func wrap(s string, width int) string {
	if len([]rune(s)) <= width {
		return s
	}
	var b strings.Builder
	line := 0
	for _, r := range s {
		b.WriteRune(r)
		line++
		if r == ',' && line >= width {
			b.WriteByte('\n')
			line = 0
		}
	}
	return b.String()
}

// DOT returns the DFA in Graphviz DOT (see NFA.DOT).
func (d *DFA) DOT(opt DOTOptions) string { return d.NFA().DOT(opt) }
