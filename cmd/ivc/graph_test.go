package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestDrawGraphOmitted: a graph the recording cut short says so in its
// label.
func TestDrawGraphOmitted(t *testing.T) {
	g := &check.Graph{
		Vertices:        []check.GraphVertex{{Term: "a!m", Consumed: []int{0}}, {Term: "∅", Consumed: []int{1}, Status: "ok"}},
		Edges:           []check.GraphEdge{{From: 0, To: 1, Label: "a!m"}},
		OmittedVertices: 7, OmittedEdges: 9,
	}
	dot := drawGraph("x.htf", verdict.Result{Verdict: verdict.Pass, Nodes: 9}, g, maxDrawnVertices)
	if !strings.Contains(dot, `only the first 2 vertices are drawn: 7 more vertices and 9 more edges were left out`) {
		t.Errorf("no word of what was left out:\n%s", dot)
	}
	g.OmittedVertices, g.OmittedEdges = 0, 0
	if dot := drawGraph("x.htf", verdict.Result{Verdict: verdict.Pass, Nodes: 2}, g, maxDrawnVertices); strings.Contains(dot, "left out") {
		t.Errorf("a whole graph said to be cut:\n%s", dot)
	}
}

// TestDrawGraphReadable: the search of a real multi-trace (ABP's trace1,
// about 600 vertices whose terms run to a thousand characters) is drawn
// with labels that fit, cut with a marker, and at most the cap of
// vertices, the label saying how many were left out.
func TestDrawGraphReadable(t *testing.T) {
	sp, err := spec.Load("../../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	opt := check.DefaultOptions()
	opt.Engine = check.EngineRuntime
	c, err := check.New(sp, opt)
	if err != nil {
		t.Fatal(err)
	}
	var o check.Outcome
	c.Run(check.Files(c, []string{"../../testdata/abp/traces/trace1.htf"}), check.RunOptions{Jobs: 1, Explore: true},
		func(out check.Outcome) { o = out })
	if o.Err != nil || o.Graph == nil {
		t.Fatal(o.Err)
	}
	n := len(o.Graph.Vertices)
	if n <= 100 {
		t.Fatalf("%d vertices: not a search worth the test", n)
	}
	dot := drawGraph("trace1.htf", o.Result, o.Graph, 100)
	if want := fmt.Sprintf(`only the first 100 vertices are drawn: %d more vertices and `, n-100+o.Graph.OmittedVertices); !strings.Contains(dot, want) {
		t.Errorf("no %q in the graph's label", want)
	}
	// A vertex is a box, an edge is not.
	labels := regexp.MustCompile(`(?m)^\s*n\d+\[.*?\blabel="((?:[^"\\]|\\.)*)".*shape="box"`).FindAllStringSubmatch(dot, -1)
	cut := 0
	for _, l := range labels {
		lines := strings.Split(l[1], `\n`)
		if len(lines) > graphLabelLines+2 {
			t.Errorf("a label of %d lines: %q", len(lines), l[1])
		}
		for _, line := range lines {
			if utf8.RuneCountInString(line) > graphLabelWidth {
				t.Errorf("a label line of %d characters: %q", utf8.RuneCountInString(line), line)
			}
		}
		if strings.HasPrefix(lines[len(lines)-2], "… (+") {
			cut++
		}
	}
	if len(labels) != 100 || cut == 0 {
		t.Errorf("%d labels, %d cut with a marker", len(labels), cut)
	}
	testutil.RenderDOT(t, dot)
}
