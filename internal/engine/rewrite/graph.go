package rewrite

import (
	"unicode/utf8"

	"github.com/ivc-project/ivc/interaction"
)

// Graph is the part of the analysis graph a search explored, for review
// (ivc analyze --graph draws it). A prefix-mode analysis that succeeds has
// two phases: the multi-prefix search, then the exact search that tells
// Pass from WeakPass.
//
// A long search explores more than anyone can look at: the graph keeps its
// first MaxGraphVertices vertices and MaxGraphBytes bytes of labels, and
// counts what it leaves out.
type Graph struct {
	Vertices []GraphVertex
	Edges    []GraphEdge
	// OmittedVertices and OmittedEdges count the vertices and edges left
	// out once the graph was full.
	OmittedVertices, OmittedEdges int
}

// The size limits of a recorded Graph, and of the interaction drawn in one
// of its vertices (longer ones are cut, ending with "…").
const (
	MaxGraphVertices = 10_000
	MaxGraphBytes    = 16 << 20
	MaxGraphTerm     = 1000
)

// GraphVertex is a vertex (interaction, how far each component is consumed).
type GraphVertex struct {
	Term     string // the interaction, in operator form
	Consumed []int  // per component
	// Status is "ok" (the goal), "dead" (no action matches), "local-fail"
	// (a local analysis failed), "too-short" (a component has fewer actions
	// left than the term demands), "limit" (a limit stopped the search),
	// "unexplored" (reached but not expanded), or empty.
	Status string
	Phase  string // "multi-prefix" or "exact"
}

// GraphEdge is the execution of an action, followed by the removal of the
// lifelines of the components it finished (multi-prefix phase), as
// "l1!m rmv{l1}", or its simulation in slice mode, as "sim l1!m".
type GraphEdge struct {
	From, To int
	Label    string
}

// graphRec records the graph of one problem's searches.
type graphRec struct {
	pb    *problem
	g     Graph
	bytes int // the size of the recorded graph, roughly
	phase string
	ids   map[int32]int // vertex (arena index) -> graph vertex
	// The edge that reached the vertex added last, until reach says where
	// it leads: from is -1 when there is none, or when its source was left
	// out.
	from  int
	label string
	any   bool // an edge is pending
}

// Bytes a graph vertex and a graph edge take besides their labels, roughly.
const (
	graphVertexBytes = 120
	graphEdgeBytes   = 64
)

func (r *graphRec) begin(exact bool) {
	r.phase = "multi-prefix"
	if exact {
		r.phase = "exact"
	}
	r.ids = map[int32]int{}
	r.any = false
}

// full reports whether the graph has reached its limits.
func (r *graphRec) full() bool {
	return len(r.g.Vertices) >= MaxGraphVertices || r.bytes >= MaxGraphBytes
}

// vertex adds a graph vertex for the arena vertex v, unless the graph is
// full (-1).
func (r *graphRec) vertex(v int32, status string) int {
	if r.full() {
		r.g.OmittedVertices++
		return -1
	}
	vs := &r.pb.a.vs
	pos := vs.pos(v)[:len(r.pb.traces)]
	cons := make([]int, len(pos))
	for i, x := range pos {
		cons[i] = int(x)
	}
	term := r.pb.a.st.Format(vs.term(v))
	if len(term) > MaxGraphTerm {
		cut := MaxGraphTerm
		for cut > 0 && !utf8.RuneStart(term[cut]) {
			cut--
		}
		term = term[:cut] + "…"
	}
	r.g.Vertices = append(r.g.Vertices, GraphVertex{Term: term, Consumed: cons, Status: status, Phase: r.phase})
	r.bytes += graphVertexBytes + len(term) + 8*len(cons)
	return len(r.g.Vertices) - 1
}

// edge records the move from v that reached w: the next call of reach or
// unexplored (for w) says where it leads.
func (r *graphRec) edge(v, w int32, act interaction.ActID, removed interaction.Lifelines, simulated bool) {
	st := r.pb.a.st
	label := st.MultiAction(act).Format(st.Signature())
	if simulated {
		label = "sim " + label
	}
	if !removed.IsEmpty() {
		label += " rmv{" + removed.Format(st.Signature()) + "}"
	}
	r.from, r.label, r.any = -1, label, true
	if id, ok := r.ids[v]; ok {
		r.from = id
	}
}

// reach records that the search took vertex v, equal to the vertex canon
// (itself when fresh).
func (r *graphRec) reach(v, canon int32, fresh bool) {
	if fresh {
		if id := r.vertex(v, ""); id >= 0 {
			r.ids[v] = id
		}
	}
	to, ok := r.ids[canon]
	if !ok {
		to = -1
	}
	r.link(to)
}

// unexplored records a move the search left untaken, to vertex v, equal to
// the vertex canon that was explored (or -1).
func (r *graphRec) unexplored(v, canon int32) {
	to, ok := r.ids[canon]
	if canon < 0 || !ok {
		to = r.vertex(v, "unexplored")
	}
	r.link(to)
}

// link ends the pending edge at the graph vertex to (-1: left out).
func (r *graphRec) link(to int) {
	if !r.any {
		return
	}
	r.any = false
	if r.from < 0 || to < 0 || r.full() {
		r.g.OmittedEdges++
		return
	}
	r.g.Edges = append(r.g.Edges, GraphEdge{From: r.from, To: to, Label: r.label})
	r.bytes += graphEdgeBytes + len(r.label)
}

func (r *graphRec) status(v int32, s string) {
	if id, ok := r.ids[v]; ok {
		r.g.Vertices[id].Status = s
	}
}
