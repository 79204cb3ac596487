package rewrite

import (
	"fmt"
	"time"

	"github.com/ivc-project/ivc/internal/enum"
	"github.com/ivc-project/ivc/verdict"
)

// Strategy is the order in which the analysis graph is explored.
type Strategy uint8

const (
	DFS Strategy = iota // depth first: stops at the first success, memory ∝ depth
	BFS                 // breadth first
)

// strategyNames are the strategies as flags spell them, in lower case: not
// stringer's identifiers.
var strategyNames = enum.New("Strategy", map[Strategy]string{DFS: "dfs", BFS: "bfs"})

func (s Strategy) String() string { return strategyNames.Name(s) }

// ParseStrategy reads "dfs" or "bfs".
func ParseStrategy(s string) (Strategy, error) {
	if k, ok := strategyNames.Value(s); ok {
		return k, nil
	}
	return 0, fmt.Errorf("unknown strategy %q (expected dfs or bfs)", s)
}

// DefaultMaxNodes bounds the vertices one analysis may explore when
// Options.MaxNodes is 0.
const DefaultMaxNodes = 10_000_000

// Options configure an Analyzer. Package check maps its own Options onto
// them, and names Strategy and Simulation for its callers (type aliases:
// one type each).
type Options struct {
	Mode     verdict.Mode  // the question: Prefix (the zero value), Accept or Slice
	POR      bool          // partial order reduction by one-unambiguous actions
	LOC      bool          // local analyses: prune vertices whose components fail alone
	Strategy Strategy      // DFS (default) or BFS
	MaxNodes int           // vertex budget per multi-trace; 0 means DefaultMaxNodes
	Timeout  time.Duration // time budget per multi-trace; 0 means none
	// MaxMemory bounds, in bytes, the data of an analysis: the terms and
	// memos its store holds beyond the interaction, and its search
	// (vertices, local analyses, recorded graph); 0 means no bound. Tables
	// an analyzer keeps from one analysis to the next besides the store
	// take at most 1/8 of it more. Go's collector may take up to twice as
	// much from the system (GOGC=100).
	MaxMemory int64
	// Simulation configures slice mode (DefaultOptions sets DefaultSimulation).
	Simulation Simulation
}

// DefaultOptions are prefix mode with POR and local analyses on.
func DefaultOptions() Options {
	return Options{Mode: verdict.Prefix, POR: true, LOC: true, Simulation: DefaultSimulation()}
}
