package runtime

import (
	"slices"

	"github.com/ivc-project/ivc/interaction"
)

// Graph is the part of the analysis graph a search explored, for review
// (ivc analyze --graph draws it). A prefix-mode analysis that succeeds has
// two phases: the multi-prefix search, then the exact search that tells
// Pass from WeakPass.
type Graph struct {
	Vertices []GraphVertex
	Edges    []GraphEdge
}

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

type pendingEdge struct {
	from   int
	to     int32
	label  string
	term   interaction.Term
	consum []int
}

// graphRec records the graph of one problem's searches.
type graphRec struct {
	pb      *problem
	g       Graph
	phase   string
	ids     map[int32]int   // vertex (arena index) -> graph vertex
	canonOf map[int32]int32 // vertex -> the equal vertex first inserted
	pending []pendingEdge
}

func (r *graphRec) begin(exact bool) {
	r.finish()
	r.phase = "multi-prefix"
	if exact {
		r.phase = "exact"
	}
	r.ids = map[int32]int{}
	r.canonOf = map[int32]int32{}
}

func (r *graphRec) vertex(t interaction.Term, pos []int32, status string) int {
	cons := make([]int, len(pos))
	for i, x := range pos {
		cons[i] = int(x)
	}
	r.g.Vertices = append(r.g.Vertices, GraphVertex{Term: r.pb.a.st.Format(t), Consumed: cons, Status: status, Phase: r.phase})
	return len(r.g.Vertices) - 1
}

func (r *graphRec) reach(v, canon int32, fresh bool) {
	r.canonOf[v] = canon
	if fresh {
		vs := &r.pb.a.vs
		r.ids[v] = r.vertex(vs.term(v), vs.pos(v)[:len(r.pb.traces)], "")
	}
}

func (r *graphRec) status(v int32, s string) { r.g.Vertices[r.ids[v]].Status = s }

func (r *graphRec) edge(v, w int32, act interaction.ActID, removed interaction.Lifelines, simulated bool) {
	st := r.pb.a.st
	label := st.MultiAction(act).Format(st.Signature())
	if simulated {
		label = "sim " + label
	}
	if !removed.IsEmpty() {
		label += " rmv{" + removed.Format(st.Signature()) + "}"
	}
	vs := &r.pb.a.vs
	cons := make([]int, 0, len(r.pb.traces))
	for _, x := range vs.pos(w)[:len(r.pb.traces)] {
		cons = append(cons, int(x))
	}
	r.pending = append(r.pending, pendingEdge{from: r.ids[v], to: w, label: label, term: vs.term(w), consum: cons})
}

// finish resolves the edges of the current phase.
func (r *graphRec) finish() {
	for _, e := range r.pending {
		to, ok := -1, false
		if c, reached := r.canonOf[e.to]; reached {
			to, ok = r.ids[c]
		}
		if !ok {
			r.g.Vertices = append(r.g.Vertices, GraphVertex{Term: r.pb.a.st.Format(e.term),
				Consumed: slices.Clone(e.consum), Status: "unexplored", Phase: r.phase})
			to = len(r.g.Vertices) - 1
		}
		r.g.Edges = append(r.g.Edges, GraphEdge{From: e.from, To: to, Label: e.label})
	}
	r.pending = r.pending[:0]
}
