// Package automata is ivc's compiled path for interactions: it compiles an
// interaction into an NFA (package compile) once, splits its symbols into
// the locations of each multi-trace's co-localizations, and decides
// multi-traces with the semi-centralized procedure of package nfa (local
// checks on projection DFAs, Inter of their areas, a central search), or the
// centralized one. Verdicts and explanations come in the runtime engine's
// types, so that both engines print alike and can be compared.
//
//	e, err := automata.New(sp.Store, sp.Root, automata.Options{Mode: runtime.Prefix})
//	var le *compile.LoopError
//	if errors.As(err, &le) { ... }   // outside the compiled sublanguage: use the runtime engine
//	res := e.Analyze(mt)             // Pass, WeakPass, Fail (Reason: LocalError(...), InterError, CentralError)
//
// It is a package of its own, not part of compile, because it joins three
// worlds that compile does not need: multi-traces and their partitions, the
// checker of nfa, and the runtime's verdicts; compile stays the translation
// from interaction terms to automata.
//
// # Locations of multi-actions
//
// The locations are the components of the multi-trace, in order. A symbol
// of the NFA is a multi-action; its part at a location is its restriction to
// the lifelines of that component (a <synch> message {a!m,b?m} with a and b
// apart shows a!m at a's location and b?m at b's), which is exactly what the
// component's log records. The letters of a location are the distinct
// restrictions; an event of a log that is no restriction of any symbol is
// no letter, and its location's local check gets stuck on it.
package automata

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ivc-project/ivc/compile"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/nfa"
	"github.com/ivc-project/ivc/runtime"
)

// Procedure chooses the decision procedure.
type Procedure uint8

const (
	AS Procedure = iota // semi-centralized (Algorithms 2–3): local checks, Inter, central search
	AC                  // centralized (Algorithm 1): the central search on the whole NFA
)

// Options configure an Engine. The zero value is prefix mode with AS.
type Options struct {
	Mode      runtime.Mode // runtime.Prefix or runtime.Accept
	Procedure Procedure
	// MaxStates bounds the NFA synthesis (0: compile's default).
	MaxStates int
	// MaxProjStates bounds each projection DFA (0: nfa's default).
	MaxProjStates int
	// MaxNodes and Timeout bound each central search (0: nfa's default,
	// none); hitting one answers Inconc.
	MaxNodes int
	Timeout  time.Duration
	// NoPruning: see nfa.CheckerOptions.
	NoPruning bool
	// File and Syntax locate the interaction's source, so that a loop
	// outside the sublanguage is reported at its file:line:col (optional).
	File   string
	Syntax *interaction.Node
}

// Engine decides multi-traces against one interaction on its NFA. It is
// safe for concurrent use: the checker of each partition of the lifelines
// is built once, on first use.
type Engine struct {
	sig  *interaction.Signature
	a    *nfa.NFA
	acts []interaction.MultiAction // per symbol
	opt  Options

	mu       sync.Mutex
	checkers map[string]*located
}

// New compiles root (a term of st) into its reduced NFA. It fails with the
// errors of compile.Compile (a *compile.LoopError outside the sublanguage,
// a *compile.StateLimitError past Options.MaxStates).
func New(st *interaction.Store, root interaction.Term, opt Options) (*Engine, error) {
	if opt.Mode != runtime.Prefix && opt.Mode != runtime.Accept {
		return nil, fmt.Errorf("the automata engine answers accept and prefix modes, not %s", opt.Mode)
	}
	a, err := compile.Compile(st, root, compile.Options{MaxStates: opt.MaxStates, File: opt.File, Syntax: opt.Syntax})
	if err != nil {
		return nil, err
	}
	e := &Engine{sig: st.Signature(), a: a, opt: opt, checkers: map[string]*located{}}
	sig := st.Signature()
	syms := a.Symbols()
	e.acts = make([]interaction.MultiAction, syms.Len())
	for x := range e.acts {
		m, err := parseMultiAction(sig, syms.Name(nfa.Symbol(x)))
		if err != nil {
			return nil, fmt.Errorf("automata: symbol %q: %w", syms.Name(nfa.Symbol(x)), err)
		}
		e.acts[x] = m
	}
	return e, nil
}

// parseMultiAction reads back the name of a symbol (MultiAction.Format).
func parseMultiAction(sig *interaction.Signature, name string) (interaction.MultiAction, error) {
	name = strings.TrimSuffix(strings.TrimPrefix(name, "{"), "}")
	var acts []interaction.Action
	for _, s := range strings.Split(name, ",") {
		a, err := sig.ParseAction(s)
		if err != nil {
			return nil, err
		}
		acts = append(acts, a)
	}
	return interaction.NewMultiAction(acts...), nil
}

// NFA returns the compiled automaton.
func (e *Engine) NFA() *nfa.NFA { return e.a }

// located is the checker of one partition of the lifelines into
// locations, with the maps from log events to letters.
type located struct {
	c      *nfa.Checker
	groups []interaction.Lifelines
	single []map[interaction.Action]nfa.Letter // per location: one-action events
	multi  []map[string]nfa.Letter             // per location: multi-action events, by Format
	err    error
}

// Locations returns the locations of the NFA's symbols for a partition of
// the lifelines into groups (co-localizations): a symbol's part at a group
// is its restriction to the group's lifelines, named by MultiAction.Format.
func Locations(a *nfa.NFA, sig *interaction.Signature, acts []interaction.MultiAction, groups []interaction.Lifelines) *nfa.Locations {
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = "[" + g.Format(sig) + "]"
	}
	locs := nfa.NewLocations(names...)
	for x, m := range acts {
		for i, g := range groups {
			if part := restrict(m, g); len(part) > 0 {
				locs.See(nfa.Symbol(x), i, locs.Letter(i, part.Format(sig)))
			}
		}
	}
	return locs
}

// restrict returns the actions of m on the lifelines of g.
func restrict(m interaction.MultiAction, g interaction.Lifelines) interaction.MultiAction {
	var part interaction.MultiAction
	for _, act := range m {
		if g.Has(act.Lifeline()) {
			part = append(part, act)
		}
	}
	return part
}

// Checker returns the checker of the partition groups (built on first use).
func (e *Engine) Checker(groups []interaction.Lifelines) (*nfa.Checker, error) {
	l := e.located(groups)
	return l.c, l.err
}

func (e *Engine) located(groups []interaction.Lifelines) *located {
	var key strings.Builder
	for _, g := range groups {
		key.WriteString(string(g))
		key.WriteByte(0xff)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if l, ok := e.checkers[key.String()]; ok {
		return l
	}
	locs := Locations(e.a, e.sig, e.acts, groups)
	c, err := nfa.NewChecker(e.a, locs, nfa.CheckerOptions{MaxProjStates: e.opt.MaxProjStates,
		MaxNodes: e.opt.MaxNodes, Timeout: e.opt.Timeout, NoPruning: e.opt.NoPruning})
	l := &located{c: c, groups: slices.Clone(groups), err: err}
	for range groups {
		l.single = append(l.single, map[interaction.Action]nfa.Letter{})
		l.multi = append(l.multi, map[string]nfa.Letter{})
	}
	for x := range e.acts {
		for _, p := range locs.Parts(nfa.Symbol(x)) {
			name := locs.Letters(p.Loc)[p.Letter]
			if m := restrict(e.acts[x], groups[p.Loc]); len(m) == 1 {
				l.single[p.Loc][m[0]] = p.Letter
			} else {
				l.multi[p.Loc][name] = p.Letter
			}
		}
	}
	e.checkers[key.String()] = l
	return l
}

// Letters maps the logs of mt to the letters of its locations (the
// checker of its partition). An event that is no letter maps to a value
// outside the location's alphabet.
func (e *Engine) Letters(mt *multitrace.MultiTrace) ([][]nfa.Letter, error) {
	l := e.located(groups(mt))
	if l.err != nil {
		return nil, l.err
	}
	return l.letters(e.sig, mt), nil
}

func groups(mt *multitrace.MultiTrace) []interaction.Lifelines {
	gs := make([]interaction.Lifelines, len(mt.Components))
	for i, c := range mt.Components {
		gs[i] = c.Lifelines
	}
	return gs
}

func (l *located) letters(sig *interaction.Signature, mt *multitrace.MultiTrace) [][]nfa.Letter {
	out := make([][]nfa.Letter, len(mt.Components))
	for i, c := range mt.Components {
		unknown := nfa.Letter(len(l.c.Locations().Letters(i)))
		tr := make([]nfa.Letter, len(c.Trace))
		for j, ev := range c.Trace {
			x, ok := unknown, false
			if len(ev) == 1 {
				x, ok = l.single[i][ev[0]]
			} else {
				x, ok = l.multi[i][ev.Format(sig)]
			}
			if !ok {
				x = unknown
			}
			tr[j] = x
		}
		out[i] = tr
	}
	return out
}

// Analyze decides mt. A multi-trace whose partition makes a projection too
// big answers Inconc with the reason.
func (e *Engine) Analyze(mt *multitrace.MultiTrace) runtime.Result {
	l := e.located(groups(mt))
	if l.err != nil {
		return runtime.Result{Verdict: runtime.Inconc, Mode: e.opt.Mode, Reason: l.err.Error()}
	}
	letters := l.letters(e.sig, mt)
	mode := nfa.Prefix
	if e.opt.Mode == runtime.Accept {
		mode = nfa.Accept
	}
	var r nfa.Result
	if e.opt.Procedure == AC {
		r = l.c.CheckAC(letters, mode)
	} else {
		r = l.c.CheckAS(letters, mode)
	}
	return e.result(l, mt, r)
}

// result converts a verdict of nfa into the runtime's terms: the paper's
// reason (LocalError with every failing location, InterError, CentralError)
// goes to Reason, and the explanation says how far each component got and
// what was expected there.
func (e *Engine) result(l *located, mt *multitrace.MultiTrace, r nfa.Result) runtime.Result {
	res := runtime.Result{Mode: e.opt.Mode, Nodes: r.Nodes}
	switch r.Verdict {
	case nfa.Pass:
		res.Verdict = runtime.Pass
	case nfa.WeakPass:
		res.Verdict = runtime.WeakPass
		if r.Reason == nfa.NodeLimit || r.Reason == nfa.Timeout {
			res.Reason = "a multi-prefix; whether it is exactly accepted is undecided: " + limitReason(r.Reason, e.opt)
		}
	case nfa.Inconc:
		res.Verdict = runtime.Inconc
		res.Reason = limitReason(r.Reason, e.opt)
	case nfa.Fail:
		res.Verdict = runtime.Fail
		res.Explanation, res.Reason = e.explain(l, mt, r)
	}
	return res
}

func limitReason(r nfa.Reason, opt Options) string {
	if r == nfa.Timeout {
		return fmt.Sprintf("timeout after %v", opt.Timeout)
	}
	n := opt.MaxNodes
	if n <= 0 {
		n = nfa.DefaultMaxNodes
	}
	return fmt.Sprintf("node limit reached (%d states of the central search)", n)
}

func (e *Engine) explain(l *located, mt *multitrace.MultiTrace, r nfa.Result) (*runtime.Explanation, string) {
	sig := e.sig
	locs := l.c.Locations()
	ex := &runtime.Explanation{}
	consumed := make([]int, len(mt.Components))
	for i, c := range mt.Components {
		consumed[i] = len(c.Trace)
		if r.Progress != nil {
			consumed[i] = r.Progress[i]
		}
	}
	letterNames := func(i int, xs []nfa.Letter) []string {
		var out []string
		for _, x := range xs {
			out = append(out, locs.Letters(i)[x])
		}
		return out
	}
	var reason strings.Builder
	reason.WriteString(r.Reason.String())
	if r.Reason == nfa.LocalError {
		reason.WriteString(":")
		for k, f := range r.Locals {
			consumed[f.Loc] = f.Pos
			if k == 0 {
				ex.LocalFailure = mt.Components[f.Loc].Lifelines.Format(sig)
				ex.Expected = letterNames(f.Loc, f.Expected)
			}
			if k > 0 {
				reason.WriteString(";")
			}
			fmt.Fprintf(&reason, " %s", locs.Name(f.Loc))
			if f.AtEnd {
				fmt.Fprintf(&reason, " ends after %d events, which no accepted trace does there", f.Pos)
			} else {
				fmt.Fprintf(&reason, " cannot read event %d (%s)", f.Pos+1, mt.Components[f.Loc].Trace[f.Pos].Format(sig))
			}
			if exp := letterNames(f.Loc, f.Expected); len(exp) > 0 {
				fmt.Fprintf(&reason, ", expected %s", strings.Join(exp, " "))
			}
		}
	} else {
		for _, x := range r.Expected {
			ex.Expected = append(ex.Expected, e.a.Symbols().Name(x))
		}
	}
	for i, c := range mt.Components {
		cp := runtime.ComponentProgress{Lifelines: c.Lifelines.Format(sig), Consumed: consumed[i], Length: len(c.Trace)}
		if consumed[i] < len(c.Trace) {
			cp.Head = c.Trace[consumed[i]].Format(sig)
		}
		ex.Components = append(ex.Components, cp)
	}
	return ex, reason.String()
}
