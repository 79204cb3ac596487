package engine

import (
	"fmt"
	"strings"
	"time"
)

// EngineVersion numbers the algorithms and the table layout of this engine.
// A generated verifier carries a copy of the engine's files; its header
// names the version it was copied from.
const EngineVersion = 1

// Action is an event of a local trace, as an integer. Location i reads the
// actions Proj.Base to Proj.Base+Proj.K-1 as the letters 0 to K-1 of its
// projection; any other action is one its projection cannot read (its
// local check gets stuck on it).
type Action int32

// Location is the index of a location: a group of lifelines that share a
// clock and log one local trace. A generated verifier gives it a String
// method with the location's name.
type Location int

// State is a state of an automaton, Symbol a symbol of the NFA (a
// multi-action, in a generated verifier's String).
type (
	State  int32
	Symbol int32
)

// Transition is a transition of the NFA.
type Transition struct {
	Src State
	Sym Symbol
	Dst State
}

// Part is what one location observes of a symbol: the action it reads.
type Part struct {
	Loc    int
	Action Action
}

// Mode is the question a check answers about a multi-trace.
type Mode uint8

// The modes are numbered as ivc's verdict.Mode numbers them (Prefix first,
// the default), so that a mode means the same number on both sides.
const (
	// Prefix asks whether the local traces are prefixes of the projections
	// of one accepted word (logs may stop early, locations may be
	// unobserved): Pass when exactly accepted, WeakPass when only a
	// multi-prefix, Fail otherwise.
	Prefix Mode = iota
	// Accept asks whether some interleaving of the local traces is accepted
	// (the paper's problem): Pass or Fail.
	Accept
)

// The name tables of this file are written by hand, not by stringer or
// internal/enum: gen copies the engine's files verbatim into every
// generated package, which imports the standard library only and is never
// given to go generate. verdict's test checks that the names are verdict's.
var modeNames = [...]string{Prefix: "prefix", Accept: "accept"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// Verdict is the answer of a check.
type Verdict uint8

const (
	Pass     Verdict = iota // an interleaving of the local traces is accepted
	WeakPass                // (Prefix) a multi-prefix of an accepted word, not accepted itself
	Fail                    // neither; Result.Reason says why
	Inconc                  // the central search hit a limit (Result.Reason)
)

var verdictNames = [...]string{Pass: "Pass", WeakPass: "WeakPass", Fail: "Fail", Inconc: "Inconc"}

func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", v)
}

// OK reports whether v is Pass or WeakPass.
func (v Verdict) OK() bool { return v == Pass || v == WeakPass }

// Reason is why a check failed, in the words of the automata paper, or
// which limit stopped it.
type Reason uint8

const (
	NoReason     Reason = iota
	LocalError          // a local trace is impossible on its own (its projection DFA rejects it)
	InterError          // the areas of the local traces have no common accepting path
	CentralError        // no interleaving is accepted (the central search found none)
	Error               // the centralized procedure (CheckAC) found no accepted interleaving
	NodeLimit           // the central search stopped at Options.MaxNodes (Inconc, or an undecided WeakPass)
	Timeout             // the central search stopped at Options.Timeout (Inconc, or an undecided WeakPass)
)

var reasonNames = [...]string{NoReason: "", LocalError: "LocalError", InterError: "InterError",
	CentralError: "CentralError", Error: "Error", NodeLimit: "NodeLimit", Timeout: "Timeout"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", r)
}

// LocalFailure is a location whose trace its projection DFA rejects.
type LocalFailure struct {
	Loc int
	// Pos is the number of events the DFA read before it got stuck, or the
	// trace's length when it read them all but stopped in a non-final state
	// (AtEnd).
	Pos   int
	AtEnd bool
	// Expected are the actions the DFA could read at that point.
	Expected []Action
}

// Result is the outcome of a check.
type Result struct {
	Verdict Verdict
	Reason  Reason // for Fail and Inconc: why; for WeakPass: a limit that left Pass undecided
	// Locals lists the locations whose traces fail their local checks,
	// with Reason LocalError, in location order.
	Locals []LocalFailure
	// Nodes counts the states of the central search (of every search of
	// prefix mode).
	Nodes int
	// Progress and Expected explain a central failure (InterError,
	// CentralError, Error): the furthest point a search reached, as the
	// number of events consumed per location (nil for InterError: none),
	// and the symbols the automaton could read there.
	Progress []int
	Expected []Symbol
}

// String returns "Pass", "Fail LocalError(L@3)", "Fail CentralError", ...:
// a location prints as fmt prints its Location (a number, or in a generated
// verifier its name).
func (r Result) String() string {
	var b strings.Builder
	b.WriteString(r.Verdict.String())
	if r.Reason != NoReason {
		b.WriteString(" " + r.Reason.String())
	}
	if r.Reason == LocalError {
		b.WriteByte('(')
		for k, f := range r.Locals {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%v@%d", Location(f.Loc), f.Pos)
		}
		b.WriteByte(')')
	}
	return b.String()
}

// DefaultMaxNodes bounds the states of one central search when
// Options.MaxNodes is 0.
const DefaultMaxNodes = 50_000_000

// Options configure a Checker. The zero value is usable.
type Options struct {
	// MaxNodes bounds the states of one central search (0:
	// DefaultMaxNodes); beyond it the check answers Inconc.
	MaxNodes int
	// Timeout bounds the time of one central search (0: none); beyond it
	// the check answers Inconc.
	Timeout time.Duration
	// NoPruning makes the central search use the intersection of the areas
	// alone, as Algorithm 3 does. By default (when the tables have the
	// backward projections) it keeps, at each point, only the states of the
	// NFA that the local walks allow there: the subset of the DFA state each
	// location's forward walk reached at its position, and the states from
	// which the rest of its trace can still be read. Both are necessary
	// conditions on any accepted interleaving, so verdicts do not change;
	// dead ends do.
	NoPruning bool
	// FirstLocalError makes the semi-centralized procedure stop at the first
	// location whose local check fails, as Algorithm 2 does, and report that
	// location only. The locations are then checked shortest trace first,
	// the cheapest order to find a failing one when nothing says where it
	// is. By default every location is checked, so that the result names
	// every failing one.
	FirstLocalError bool
}
