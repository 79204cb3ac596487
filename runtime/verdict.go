package runtime

import (
	"fmt"
	"time"
)

// Mode is the question asked about a multi-trace.
type Mode uint8

const (
	// Prefix asks whether the multi-trace is a multi-prefix of an accepted one
	// (logs may stop early, lifelines may be unobserved): Pass, WeakPass or Fail.
	Prefix Mode = iota
	// Accept asks whether the multi-trace is exactly accepted: Pass or Fail.
	Accept
	// Slice asks whether the multi-trace is a slice of an accepted one (logs
	// may also start late): Pass, WeakPass, Fail or Inconc (see Simulation).
	Slice
)

var modeNames = [...]string{Prefix: "prefix", Accept: "accept", Slice: "slice"}

func (m Mode) String() string { return modeNames[m] }

// ParseMode reads "prefix" or "accept".
func ParseMode(s string) (Mode, error) {
	for m, n := range modeNames {
		if n == s {
			return Mode(m), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q (expected accept, prefix or slice)", s)
}

// Verdict is the answer of an analysis.
type Verdict uint8

const (
	Pass     Verdict = iota // exactly accepted
	WeakPass                // a multi-prefix of an accepted multi-trace, not accepted itself
	Fail                    // neither
	Inconc                  // a limit stopped the search before it could decide
)

var verdictNames = [...]string{Pass: "Pass", WeakPass: "WeakPass", Fail: "Fail", Inconc: "Inconc"}

func (v Verdict) String() string { return verdictNames[v] }

// OK reports whether v is Pass or WeakPass.
func (v Verdict) OK() bool { return v == Pass || v == WeakPass }

// Strategy is the order in which the analysis graph is explored.
type Strategy uint8

const (
	DFS Strategy = iota // depth first: stops at the first success, memory ∝ depth
	BFS                 // breadth first
)

var strategyNames = [...]string{DFS: "dfs", BFS: "bfs"}

func (s Strategy) String() string { return strategyNames[s] }

// ParseStrategy reads "dfs" or "bfs".
func ParseStrategy(s string) (Strategy, error) {
	for k, n := range strategyNames {
		if n == s {
			return Strategy(k), nil
		}
	}
	return 0, fmt.Errorf("unknown strategy %q (expected dfs or bfs)", s)
}

// DefaultMaxNodes bounds the vertices one analysis may explore when
// Options.MaxNodes is 0.
const DefaultMaxNodes = 10_000_000

// Options configure an Analyzer.
type Options struct {
	Mode     Mode
	POR      bool          // partial order reduction by one-unambiguous actions
	LOC      bool          // local analyses: prune vertices whose components fail alone
	Strategy Strategy      // DFS (default) or BFS
	MaxNodes int           // vertex budget per multi-trace; 0 means DefaultMaxNodes
	Timeout  time.Duration // time budget per multi-trace; 0 means none
	// RecordGraph keeps the explored graph in Result.Graph (slow: for review).
	RecordGraph bool
	// Simulation configures slice mode (DefaultOptions sets DefaultSimulation).
	Simulation Simulation
}

// DefaultOptions are prefix mode with POR and local analyses on.
func DefaultOptions() Options {
	return Options{Mode: Prefix, POR: true, LOC: true, Simulation: DefaultSimulation()}
}

// Result is the outcome of analyzing one multi-trace.
type Result struct {
	Verdict Verdict
	Mode    Mode
	// Reason says why an Inconc was given (the limit hit), or why a WeakPass
	// could not be told from a Pass.
	Reason string
	// Nodes counts the vertices of the global search explored (in both phases
	// of prefix mode); LocalNodes those of local analyses. Options.MaxNodes
	// bounds their sum.
	Nodes      int
	LocalNodes int
	// Explanation describes a Fail.
	Explanation *Explanation
	// Graph is the explored graph, with Options.RecordGraph.
	Graph *Graph
	// Simulated lists, for a slice (WeakPass in slice mode), the actions the
	// explanation found assumed unobserved.
	Simulated []SimulatedAction
}

// Explanation describes why a multi-trace fails: the furthest point any
// path of the search reached, and what blocked it there.
type Explanation struct {
	// Components gives, per component, how far the furthest path consumed it.
	Components []ComponentProgress `json:"components"`
	// Expected lists the actions the interaction could execute at that point.
	Expected []string `json:"expected"`
	// LocalFailure names the lifelines of a component whose trace the
	// interaction rejects on its own (a failed local analysis at the start),
	// or is empty.
	LocalFailure string `json:"local_failure,omitempty"`
}

// ComponentProgress is how far a component was consumed.
type ComponentProgress struct {
	Lifelines string `json:"lifelines"`
	Consumed  int    `json:"consumed"`
	Length    int    `json:"length"`
	// Head is the first action not consumed, if any.
	Head string `json:"head,omitempty"`
}
