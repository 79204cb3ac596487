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
	g := newDrawing("nfa", opt)
	labels := opt.Labels && a.labels != nil
	nodes := g.states("q", a.n, func(q State) (string, bool) {
		if labels && a.labels[q] != "" {
			return fmt.Sprintf("%d\n%s", q, wrap(a.labels[q], labelWidth)), a.IsFinal(q)
		}
		return fmt.Sprint(q), a.IsFinal(q)
	})
	if labels {
		for q, n := range nodes {
			if a.labels[q] != "" {
				n.Attr("shape", "box").Attr("style", "rounded")
				if a.IsFinal(State(q)) {
					n.Attr("peripheries", "2")
				}
			}
		}
	}
	g.initial(a.initial, nodes)
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
			g.edge(nodes[q], nodes[p], strings.Join(names[p], "\n"))
		}
	}
	return g.String()
}

// drawing is a Graphviz graph in the style of every drawing of the
// package: left to right (top down with DOTOptions.TopDown), titled with
// DOTOptions.Name, in Helvetica, states as circles (double when final)
// with zero-padded ids, so that emicklei/dot's sorted node order is
// numeric.
type drawing struct {
	*dot.Graph
}

func newDrawing(id string, opt DOTOptions) drawing {
	g := dot.NewGraph(dot.Directed)
	g.ID(id)
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
	return drawing{g}
}

// states adds n states, node prefix+q for state q, with the label and
// finality that state gives.
func (g drawing) states(prefix string, n int, state func(q State) (label string, final bool)) []dot.Node {
	nodes := make([]dot.Node, n)
	width := len(fmt.Sprint(n))
	for q := range State(n) {
		label, final := state(q)
		node := g.Node(fmt.Sprintf("%s%0*d", prefix, width, q)).Label(label).Attr("fontname", "Helvetica")
		if final {
			node.Attr("shape", "doublecircle")
		} else {
			node.Attr("shape", "circle")
		}
		nodes[q] = node
	}
	return nodes
}

// initial marks the initial states with an arrow from a point each.
func (g drawing) initial(initial []State, nodes []dot.Node) {
	width := len(fmt.Sprint(len(nodes)))
	for i, q := range initial {
		p := g.Node(fmt.Sprintf("init%0*d", width, i)).Attr("shape", "point").Label("")
		g.Edge(p, nodes[q])
	}
}

// edge adds a labelled edge.
func (g drawing) edge(from, to dot.Node, label string) dot.Edge {
	return g.Edge(from, to, label).Attr("fontname", "Helvetica")
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
