package draw

import (
	"fmt"
	"strings"

	"github.com/emicklei/dot"
	"github.com/ivc-project/ivc/interaction"
)

// InteractionDOT returns an interaction in Graphviz DOT, for review: its
// operator tree drawn top-down, operands left to right in order, with the
// message arrows as leaves written as in .hif files ("a -- m -> b",
// "a -- <synch>m -> (b,c)", "m -> b", "a -- m ->|"). n is a syntax tree: the
// interaction as written (spec.Spec.Syntax) or a term's (Store.Syntax).
// title, when not empty, labels the graph. The output is deterministic.
func InteractionDOT(n *interaction.Node, title string) string {
	g := dot.NewGraph(dot.Directed)
	g.ID("interaction")
	g.Attr("rankdir", "TB")
	g.Attr("ordering", "out")
	g.Attr("fontname", "Helvetica")
	if title != "" {
		g.Label(title)
		g.Attr("labelloc", "t")
	}
	count := 0
	var draw func(n *interaction.Node) dot.Node
	draw = func(n *interaction.Node) dot.Node {
		count++
		v := g.Node(fmt.Sprintf("n%06d", count)).Attr("fontname", "Helvetica")
		switch n.Kind {
		case interaction.NodeEmpty:
			v.Label("∅").Attr("shape", "circle").Attr("fontsize", "10")
		case interaction.NodeMessage, interaction.NodeAct:
			v.Label(strings.TrimSpace(string(interaction.FormatHIF(n)))).Box()
			if n.Synch || n.Kind == interaction.NodeAct {
				v.Attr("style", "bold")
			}
		default:
			v.Label(n.OperatorLabel()).Attr("shape", "ellipse").Attr("style", "filled").Attr("fillcolor", "lightgrey")
			for _, a := range n.Args {
				g.Edge(v, draw(a)).Attr("arrowhead", "none")
			}
		}
		return v
	}
	draw(n)
	return g.String()
}
