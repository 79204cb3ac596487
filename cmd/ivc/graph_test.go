package main

import (
	"strings"
	"testing"

	"github.com/ivc-project/ivc/runtime"
	"github.com/ivc-project/ivc/verdict"
)

// TestDrawGraphOmitted: a graph the recording cut short says so in its
// label (issue 19, item 4).
func TestDrawGraphOmitted(t *testing.T) {
	g := &runtime.Graph{
		Vertices:        []runtime.GraphVertex{{Term: "a!m", Consumed: []int{0}}, {Term: "∅", Consumed: []int{1}, Status: "ok"}},
		Edges:           []runtime.GraphEdge{{From: 0, To: 1, Label: "a!m"}},
		OmittedVertices: 7, OmittedEdges: 9,
	}
	dot := drawGraph("x.htf", verdict.Result{Verdict: verdict.Pass, Nodes: 9}, g)
	if !strings.Contains(dot, `only the first 2 vertices are drawn: 7 more vertices and 9 more edges were left out`) {
		t.Errorf("no word of what was left out:\n%s", dot)
	}
	g.OmittedVertices, g.OmittedEdges = 0, 0
	if dot := drawGraph("x.htf", verdict.Result{Verdict: verdict.Pass, Nodes: 2}, g); strings.Contains(dot, "left out") {
		t.Errorf("a whole graph said to be cut:\n%s", dot)
	}
}
