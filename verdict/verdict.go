// Package verdict holds the answers of ivc: the question asked of a
// multi-trace (Mode), the answer (Verdict), why it was given (Reason), how
// a Fail is explained (Explanation), and how it is repaired (Repair: the
// fewest edits after which it passes). Both engines, the front door
// (package check) and the CLI's text and JSON output speak these types, so
// that every path prints alike and differential tests compare like with
// like.
//
// Generated verifiers carry a standard-library copy of the automata engine
// (package internal/nfa/engine) whose Mode, Verdict and Reason have the same names
// and strings as these (a test of this package checks it); the automata
// engine (internal/engine/automata, result.go) maps them onto these.
package verdict

import (
	"fmt"
	"slices"

	"github.com/ivc-project/ivc/internal/enum"
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
	// may also start late): Pass, WeakPass, Fail or Inconc.
	Slice
)

// modeNames are the modes as flags and JSON spell them, in lower case:
// not stringer's identifiers.
var modeNames = enum.New("Mode", map[Mode]string{Prefix: "prefix", Accept: "accept", Slice: "slice"})

func (m Mode) String() string { return modeNames.Name(m) }

// ParseMode reads "prefix", "accept" or "slice".
func ParseMode(s string) (Mode, error) {
	if m, ok := modeNames.Value(s); ok {
		return m, nil
	}
	return 0, fmt.Errorf("unknown mode %q (expected accept, prefix or slice)", s)
}

// Verdict is the answer about one multi-trace. Its String is stringer's
// (verdict_string.go).
type Verdict uint8

//go:generate go tool stringer -type Verdict

const (
	Pass     Verdict = iota // exactly accepted
	WeakPass                // a multi-prefix (or slice) of an accepted multi-trace, not accepted itself
	Fail                    // neither
	Inconc                  // a limit stopped the search before it could decide
)

// OK reports whether v is Pass or WeakPass.
func (v Verdict) OK() bool { return v == Pass || v == WeakPass }

// Reason is why a verdict was given: for a Fail of the automata engine, the
// diagnosis of the automata paper; for an Inconc (or a WeakPass that could
// not be told from a Pass), the limit that stopped the search.
type Reason uint8

const (
	NoReason     Reason = iota
	LocalError          // a local trace is impossible on its own (its projection DFA rejects it)
	InterError          // the areas of the local traces share no accepting path
	CentralError        // no interleaving of the local traces is accepted
	Error               // the centralized procedure found no accepted interleaving
	NodeLimit           // the search stopped at its node budget
	Timeout             // the search stopped at its time budget
	Budget              // slice mode: no explanation within the simulation budget
	Memory              // the search stopped at its memory budget
)

// reasonNames are the reasons as results print them: not stringer's
// identifiers, for NoReason prints as nothing and Memory as MemoryLimit.
var reasonNames = enum.New("Reason", map[Reason]string{NoReason: "", LocalError: "LocalError", InterError: "InterError",
	CentralError: "CentralError", Error: "Error", NodeLimit: "NodeLimit", Timeout: "Timeout", Budget: "Budget",
	Memory: "MemoryLimit"})

func (r Reason) String() string { return reasonNames.Name(r) }

// Limit reports whether r is a limit of the search (NodeLimit, Timeout,
// Budget, Memory) rather than a diagnosis.
func (r Reason) Limit() bool { return r == NodeLimit || r == Timeout || r == Budget || r == Memory }

// Result is the outcome of checking one multi-trace.
type Result struct {
	Verdict Verdict
	Mode    Mode
	// Reason says why: the diagnosis of a Fail (automata engine), the limit
	// behind an Inconc, or the limit that left a WeakPass undecided between
	// Pass and WeakPass. Detail says it in words (Text joins both).
	Reason Reason
	Detail string
	// Nodes counts the vertices of the global or central search; LocalNodes
	// those of the runtime engine's local analyses (and of its optimistic
	// first attempt in prefix mode, which belongs to them).
	Nodes      int
	LocalNodes int
	// Explanation describes a Fail.
	Explanation *Explanation
	// Simulated lists, for a slice (WeakPass in slice mode), the actions the
	// explanation assumed unobserved.
	Simulated []SimulatedAction
	// Unfinished lists, for a WeakPass of the automata engine, the
	// locations whose logs look unfinished.
	Unfinished []Unfinished
}

// Clone returns a copy of r that shares nothing with it: what a memo of
// verdicts keeps and hands out.
func (r Result) Clone() Result {
	if e := r.Explanation; e != nil {
		c := *e
		c.Components, c.Expected = slices.Clone(e.Components), slices.Clone(e.Expected)
		r.Explanation = &c
	}
	r.Simulated = slices.Clone(r.Simulated)
	if r.Unfinished != nil {
		u := slices.Clone(r.Unfinished)
		for i := range u {
			u[i].Expected = slices.Clone(u[i].Expected)
		}
		r.Unfinished = u
	}
	return r
}

// Unfinished is a location whose log, in a WeakPass, is no whole trace of
// the location on its own (its projection stops in a state that is not
// final): the logs stopped early there, and Expected lists what the
// location could do next (sorted).
type Unfinished struct {
	Lifelines string   `json:"lifelines"`
	Events    int      `json:"events"` // the events of its log
	Expected  []string `json:"expected"`
}

// Text is the reason as ivc prints it: "LocalError: [a] cannot read event
// 3 (a!m), expected a?n", "InterError", "node limit reached (10 vertices)".
// It is empty when there is no reason.
func (r Result) Text() string {
	switch {
	case r.Detail == "":
		return r.Reason.String()
	case r.Reason == NoReason || r.Reason.Limit():
		return r.Detail
	default:
		return r.Reason.String() + ": " + r.Detail
	}
}

// Explanation describes why a multi-trace fails: the furthest point a search
// reached, and what blocked it there.
type Explanation struct {
	// Components gives, per component, how far the furthest path consumed it.
	Components []ComponentProgress `json:"components"`
	// Expected lists the actions the interaction could execute at that point
	// (sorted), whichever way it read the events consumed; for a local
	// failure, those of the failing component's projection.
	Expected []string `json:"expected"`
	// LocalFailure names the lifelines of a component whose trace the
	// interaction rejects on its own, or is empty. Its progress then says
	// how far its projection follows its trace.
	LocalFailure string `json:"local_failure,omitempty"`
}

// ComponentProgress is how far a component (the log of one location) was
// consumed.
type ComponentProgress struct {
	Lifelines string `json:"lifelines"`
	Consumed  int    `json:"consumed"`
	Length    int    `json:"length"`
	// Head is the first action not consumed, if any.
	Head string `json:"head,omitempty"`
}

// SimulatedAction is an action a slice explanation assumed unobserved,
// before the log of its component starts.
type SimulatedAction struct {
	Action    string `json:"action"`
	Component string `json:"component"`
	// When is "before": the component's observation had not started yet.
	When string `json:"when"`
}
