package check

import (
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
)

// What the pictures of a judgment need, in the front door's types: the
// part of the runtime engine's search that was explored (ivc analyze
// --graph) and an interleaving of a multi-trace's events that the
// interaction accepts (ivc draw, the failures of ivc analyze --report).
// The runtime engine records both as it searches; they are copied here
// once, on these slow paths for review, so that a driver never holds an
// engine's type.

// Graph is the part of the runtime engine's analysis graph that a search
// explored, for review (Checker.Explore, Outcome.Graph). A prefix-mode
// analysis that succeeds has two phases: the multi-prefix search, then the
// exact search that tells Pass from WeakPass.
//
// A long search explores more than anyone can look at: the graph keeps its
// first 10,000 vertices and 16 MiB of labels, and counts what it leaves
// out; a vertex's term is cut at 1,000 bytes, ending with "…".
type Graph struct {
	Vertices []GraphVertex
	Edges    []GraphEdge
	// OmittedVertices and OmittedEdges count the vertices and edges left
	// out once the graph was full.
	OmittedVertices, OmittedEdges int
}

// GraphVertex is a vertex of the search: an interaction, and how far each
// component of the multi-trace is consumed.
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

// graphOf copies the runtime engine's graph (nil: none).
func graphOf(g *rewrite.Graph) *Graph {
	if g == nil {
		return nil
	}
	out := &Graph{Vertices: make([]GraphVertex, len(g.Vertices)), Edges: make([]GraphEdge, len(g.Edges)),
		OmittedVertices: g.OmittedVertices, OmittedEdges: g.OmittedEdges}
	for i, v := range g.Vertices {
		out.Vertices[i] = GraphVertex(v)
	}
	for i, e := range g.Edges {
		out.Edges[i] = GraphEdge(e)
	}
	return out
}

// A Witness is one interleaving of a multi-trace's events that the
// interaction accepts (Checker.Witness): the path to the goal that the
// runtime engine's search found, as the steps that consume or simulate
// events, in order. Silent steps (ghosts executed for lifelines no longer
// observed) are left out.
type Witness []WitnessStep

// WitnessStep is the execution of one multi-action of the interaction.
type WitnessStep struct {
	// Action is the multi-action executed, its ghost actions left out.
	Action interaction.MultiAction
	// Events are the events it consumed, one per component it touches.
	Events []EventRef
	// Simulated reports that some of its actions were simulated (slice
	// mode): executed before their component's log starts, unobserved.
	// The actions of Action on no component of Events are those.
	Simulated bool
}

// EventRef names an event of a multi-trace: the Index-th event of
// component Component (both from 0).
type EventRef struct {
	Component, Index int
}

// witnessOf copies the runtime engine's witness.
func witnessOf(w rewrite.Witness) Witness {
	if w == nil {
		return nil
	}
	out := make(Witness, len(w))
	n := 0
	for _, s := range w {
		n += len(s.Events)
	}
	events := make([]EventRef, n) // one slice for every step's events
	for i, s := range w {
		out[i] = WitnessStep{Action: s.Action, Simulated: s.Simulated}
		if s.Events != nil {
			evs := events[:len(s.Events):len(s.Events)]
			events = events[len(s.Events):]
			for k, e := range s.Events {
				evs[k] = EventRef(e)
			}
			out[i].Events = evs
		}
	}
	return out
}
