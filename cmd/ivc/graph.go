package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/emicklei/dot"
	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/runtime"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// statusColors fill the vertices of an explored graph by their status.
var statusColors = map[string]string{
	"ok":         "palegreen",
	"dead":       "lightpink",
	"local-fail": "orange",
	"too-short":  "khaki",
	"limit":      "lightgray",
}

// writeGraph draws the graph the runtime engine explored for the
// multi-trace file (Analyzer.Explore) as a Graphviz file at path.
func writeGraph(path, file string, r verdict.Result, g *runtime.Graph) error {
	if err := atomicfile.WriteFile(path, []byte(drawGraph(file, r, g)), 0o644); err != nil {
		return spec.FileError(err)
	}
	return nil
}

func drawGraph(file string, r verdict.Result, eg *runtime.Graph) string {
	g := dot.NewGraph(dot.Directed)
	label := fmt.Sprintf("%s: %s (%s mode, %d nodes)", file, r.Verdict, r.Mode, r.Nodes)
	if eg.OmittedVertices > 0 || eg.OmittedEdges > 0 {
		label += fmt.Sprintf("\nonly the first %d vertices are drawn: %d more vertices and %d more edges were left out",
			len(eg.Vertices), eg.OmittedVertices, eg.OmittedEdges)
	}
	g.Attr("label", label)
	g.Attr("labelloc", "t")
	g.Attr("fontname", "monospace")
	phases := map[string]*dot.Graph{}
	nodes := make([]dot.Node, len(eg.Vertices))
	for i, v := range eg.Vertices {
		sub := g
		if v.Phase != "" {
			if phases[v.Phase] == nil {
				phases[v.Phase] = g.Subgraph(v.Phase, dot.ClusterOption{}).Label(v.Phase + " phase")
			}
			sub = phases[v.Phase]
		}
		consumed := make([]string, len(v.Consumed))
		for k, c := range v.Consumed {
			consumed[k] = strconv.Itoa(c)
		}
		label := v.Term + "\n[" + strings.Join(consumed, ",") + "]"
		if v.Status != "" {
			label += " " + v.Status
		}
		n := sub.Node("v"+strconv.Itoa(i)).Label(label).Box().Attr("fontname", "monospace")
		if c, ok := statusColors[v.Status]; ok {
			n.Attr("style", "filled").Attr("fillcolor", c)
		} else if v.Status == "unexplored" {
			n.Attr("style", "dashed")
		}
		nodes[i] = n
	}
	for _, e := range eg.Edges {
		if e.From < 0 || e.From >= len(nodes) || e.To < 0 || e.To >= len(nodes) {
			continue
		}
		g.Edge(nodes[e.From], nodes[e.To], e.Label).Attr("fontname", "monospace")
	}
	return g.String()
}
