package main

import (
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/emicklei/dot"
	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/atomicfile"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/syntax"
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
func writeGraph(path, file string, r verdict.Result, g *check.Graph) error {
	if err := atomicfile.WriteFile(path, []byte(drawGraph(file, r, g, maxDrawnVertices)), 0o644); err != nil {
		return syntax.FileError(err)
	}
	return nil
}

// The limits that keep a drawn search readable: a vertex's term is drawn
// in lines of graphLabelWidth characters, at most graphLabelLines of them
// (the rest cut, with a marker; the whole term is the vertex's tooltip),
// and at most maxDrawnVertices vertices are drawn, the first explored.
const (
	graphLabelWidth  = 80
	graphLabelLines  = 3
	maxDrawnVertices = 500
)

// drawGraph draws the explored graph eg of the multi-trace file, at most
// maxVertices of its vertices (the label says how many were left out).
func drawGraph(file string, r verdict.Result, eg *check.Graph, maxVertices int) string {
	g := dot.NewGraph(dot.Directed)
	label := fmt.Sprintf("%s: %s (%s mode, %s)", file, r.Verdict, r.Mode, r.Cost())
	drawn := min(len(eg.Vertices), maxVertices)
	omittedEdges := eg.OmittedEdges
	for _, e := range eg.Edges {
		if e.From >= drawn || e.To >= drawn {
			omittedEdges++
		}
	}
	if omitted := eg.OmittedVertices + len(eg.Vertices) - drawn; omitted > 0 || omittedEdges > 0 {
		label += fmt.Sprintf("\nonly the first %d vertices are drawn: %d more vertices and %d more edges were left out",
			drawn, omitted, omittedEdges)
	}
	g.Attr("label", label)
	g.Attr("labelloc", "t")
	g.Attr("fontname", "monospace")
	phases := map[string]*dot.Graph{}
	nodes := make([]dot.Node, drawn)
	for i, v := range eg.Vertices[:drawn] {
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
		term, cut := wrapTerm(v.Term)
		label := term + "\n[" + strings.Join(consumed, ",") + "]"
		if v.Status != "" {
			label += " " + v.Status
		}
		n := sub.Node("v"+strconv.Itoa(i)).Label(label).Box().Attr("fontname", "monospace")
		if cut {
			n.Attr("tooltip", v.Term)
		}
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
	return graphMarker + g.String()
}

// wrapTerm returns term in lines of graphLabelWidth characters, at most
// graphLabelLines of them, then a line that says what was cut ("… (+1234
// characters)"); cut says whether any was.
func wrapTerm(term string) (string, bool) {
	runes := []rune(term)
	if len(runes) <= graphLabelWidth {
		return term, false
	}
	var lines []string
	for len(runes) > 0 && len(lines) < graphLabelLines {
		n := min(len(runes), graphLabelWidth)
		lines = append(lines, string(runes[:n]))
		runes = runes[n:]
	}
	if len(runes) == 0 {
		return strings.Join(lines, "\n"), false
	}
	lines = append(lines, fmt.Sprintf("… (+%d characters)", len(runes)))
	return strings.Join(lines, "\n"), true
}

// graphMarker starts every graph file ivc analyze --graph writes, so that
// it may replace one without --force.
const graphMarker = "// written by ivc analyze --graph\n"

// graphSessions picks the one multi-trace whose search ivc analyze --graph
// draws: the .htf file, or the session --session names in a log; the
// graph file is then written once.
type graphSessions struct {
	a       *app
	file    string
	session string // --session
	found   bool   // the session was read
	log     bool   // a log was read without --session: refused
}

// graphSessions checks the arguments of --graph before the batch runs: one
// file, and --session for a log (or a session of standard input).
func (a *app) graphSessions(fl *analyzeFlags, paths, files []string, src *session.Source) (*graphSessions, error) {
	if len(files) != 1 || len(paths) != 1 {
		return nil, a.usagef("--graph draws the search of one multi-trace: give exactly one .htf file, or a log and --session ID")
	}
	g := &graphSessions{a: a, file: files[0], session: fl.session}
	f, err := src.Detect(g.file) // the batch opens it without deciding it again
	if err != nil || f == logs.Auto {
		return g, nil // reported as the batch reads it, or standard input: its format is known once read
	}
	switch {
	case f != logs.HTF && g.session == "":
		return nil, a.usagef("--graph draws the search of one multi-trace: %s is a log, give --session ID", syntax.FileName(g.file))
	case f == logs.HTF && g.session != "":
		return nil, a.usagef("--session chooses a session of a log: %s is one multi-trace", syntax.FileName(g.file))
	}
	return g, nil
}

// explore leaves out the sessions of a log but the one chosen; the errors
// (unreadable files, malformed lines) are still reported.
func (g *graphSessions) explore(sessions iter.Seq[session.Session]) iter.Seq[session.Session] {
	return func(yield func(session.Session) bool) {
		for s := range sessions {
			switch {
			case s.ID != "" && g.session == "":
				g.log = true
				return
			case s.ID != "" && s.ID != g.session:
				continue
			case s.ID != "":
				g.found = true
			}
			if !yield(s) {
				return
			}
		}
	}
}

// check says, after the batch, what went wrong in the choice: a log read
// without --session, or a session that is not there.
func (g *graphSessions) check() error {
	switch {
	case g == nil:
		return nil
	case g.log:
		return g.a.usagef("--graph draws the search of one multi-trace: %s is a log, give --session ID", syntax.FileName(g.file))
	case g.session != "" && !g.found:
		return fmt.Errorf("%s: no session %s (--session)", syntax.FileName(g.file), syntax.FileName(g.session))
	}
	return nil
}
