package automata

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ivc-project/ivc/internal/nfa"
	"github.com/ivc-project/ivc/verdict"
)

// The automata engine's answers in verdict's terms. The checks run in
// package internal/nfa/engine, which has its own Mode, Verdict and Reason
// (internal/nfa names them): generated verifiers embed its files, so it
// imports the standard library only. They are named and numbered as
// verdict's (verdict's tests check the names); this file is the one place
// that maps them, and that words a result of nfa as verdict's Result with
// its explanation.

// modeOf is the engine's mode of a mode the automata engine answers (see
// Answers).
func modeOf(m verdict.Mode) nfa.Mode {
	if m == verdict.Accept {
		return nfa.Accept
	}
	return nfa.Prefix
}

// verdictOf and reasonOf map nfa's verdicts and reasons to verdict's.
var (
	verdictOf = [...]verdict.Verdict{nfa.Pass: verdict.Pass, nfa.WeakPass: verdict.WeakPass, nfa.Fail: verdict.Fail, nfa.Inconc: verdict.Inconc}
	reasonOf  = [...]verdict.Reason{nfa.NoReason: verdict.NoReason, nfa.LocalError: verdict.LocalError,
		nfa.InterError: verdict.InterError, nfa.CentralError: verdict.CentralError, nfa.Error: verdict.Error,
		nfa.NodeLimit: verdict.NodeLimit, nfa.Timeout: verdict.Timeout}
)

// names are what a result of nfa refers to, in words: the locations (and
// the components of the multi-trace they stand for), their events and
// letters, and the symbols of the NFA.
type names struct {
	locs      *nfa.Alphabets
	syms      *nfa.Symbols
	letters   [][]nfa.Letter
	component func(i int) string      // location i as the explanation names it
	event     func(i, pos int) string // event pos of location i's trace
}

// result puts a result of nfa in verdict's terms; n is needed for a Fail
// only. A Fail's Reason is the paper's (LocalError with every failing
// location, InterError, CentralError, Error), and its explanation says how
// far each component got and what was expected there.
func result(r nfa.Result, opt Options, n *names) verdict.Result {
	res := verdict.Result{Verdict: verdictOf[r.Verdict], Mode: opt.Mode, Nodes: r.Nodes}
	switch r.Verdict {
	case nfa.WeakPass:
		if r.Reason == nfa.NodeLimit || r.Reason == nfa.Timeout {
			res.Reason = reasonOf[r.Reason]
			res.Detail = "a multi-prefix; whether it is exactly accepted is undecided: " + limitText(r.Reason, opt)
		}
	case nfa.Inconc:
		res.Reason, res.Detail = reasonOf[r.Reason], limitText(r.Reason, opt)
	case nfa.Fail:
		res.Reason = reasonOf[r.Reason]
		res.Explanation, res.Detail = n.explain(r)
	}
	return res
}

func limitText(r nfa.Reason, opt Options) string {
	if r == nfa.Timeout {
		return fmt.Sprintf("timeout after %v", opt.Timeout)
	}
	n := opt.MaxNodes
	if n <= 0 {
		n = nfa.DefaultMaxNodes
	}
	return fmt.Sprintf("node limit reached (%d states of the central search)", n)
}

// explain describes a Fail: the detail of its reason (for LocalError, where
// each failing location got stuck and what it expected) and how far each
// component was consumed.
func (n *names) explain(r nfa.Result) (*verdict.Explanation, string) {
	ex := &verdict.Explanation{}
	var room [16]int
	consumed := room[:0]
	for i, tr := range n.letters {
		c := len(tr)
		if r.Progress != nil {
			c = r.Progress[i]
		}
		consumed = append(consumed, c)
	}
	// Written piece by piece, into room made once: fmt took a tenth of a
	// failing check, and the explanation's allocations half of it.
	var detail strings.Builder
	if len(r.Locals) > 0 {
		detail.Grow(96 * len(r.Locals))
	}
	for k, f := range r.Locals {
		consumed[f.Loc] = f.Pos
		if k == 0 {
			ex.LocalFailure = n.component(f.Loc)
			if len(f.Expected) > 0 {
				ex.Expected = make([]string, 0, len(f.Expected))
				for _, x := range f.Expected {
					ex.Expected = append(ex.Expected, n.locs.Letters(f.Loc)[x])
				}
			}
		} else {
			detail.WriteString("; ")
		}
		detail.WriteString(n.locs.Name(f.Loc))
		if f.AtEnd {
			detail.WriteString(" ends after ")
			detail.WriteString(strconv.Itoa(f.Pos))
			if f.Pos == 1 {
				detail.WriteString(" event, which no accepted trace does there")
			} else {
				detail.WriteString(" events, which no accepted trace does there")
			}
		} else {
			detail.WriteString(" cannot read event ")
			detail.WriteString(strconv.Itoa(f.Pos + 1))
			detail.WriteString(" (")
			detail.WriteString(n.event(f.Loc, f.Pos))
			detail.WriteString(")")
		}
		for j, x := range f.Expected {
			if j == 0 {
				detail.WriteString(", expected ")
			} else {
				detail.WriteByte(' ')
			}
			detail.WriteString(n.locs.Letters(f.Loc)[x])
		}
	}
	if len(r.Locals) == 0 && len(r.Expected) > 0 {
		ex.Expected = make([]string, 0, len(r.Expected))
		for _, x := range r.Expected {
			ex.Expected = append(ex.Expected, n.syms.Name(x))
		}
	}
	slices.Sort(ex.Expected)
	if len(n.letters) > 0 {
		ex.Components = make([]verdict.ComponentProgress, 0, len(n.letters))
	}
	for i, tr := range n.letters {
		cp := verdict.ComponentProgress{Lifelines: n.component(i), Consumed: consumed[i], Length: len(tr)}
		if consumed[i] < len(tr) {
			cp.Head = n.event(i, consumed[i])
		}
		ex.Components = append(ex.Components, cp)
	}
	return ex, detail.String()
}

// inconcOf is the answer of every multi-trace of a partition whose
// checker could not be built: Inconc with err's reason and text.
func inconcOf(err error, mode verdict.Mode) verdict.Result {
	res := verdict.Result{Verdict: verdict.Inconc, Mode: mode, Detail: err.Error()}
	if le := (*nfa.LimitError)(nil); errors.As(err, &le) {
		switch le.Limit {
		case nfa.LimitTime:
			res.Reason = verdict.Timeout
		case nfa.LimitMemory:
			res.Reason = verdict.Memory
		}
	}
	return res
}
