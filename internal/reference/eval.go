package reference

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ivc-project/ivc/interaction"
)

// evaluator computes the truncated trace sets of the subterms of a term.
//
// Inside the evaluator a trace is a string of 2-byte event ids (events are
// interned per evaluator), so that concatenation is string concatenation
// and a set of traces is a map keyed by the trace itself.
type evaluator struct {
	st     *interaction.Store
	maxLen int
	events []event
	index  map[string]uint16 // traceKey of a one-event trace -> event id
	memo   map[interaction.Term]set

	// within, when non-nil, keeps only the traces that embed into the
	// multi-trace of an Accepts question (see embeds).
	within *observation
}

type event struct {
	acts interaction.MultiAction
	lls  interaction.Lifelines
	// parts[c] is the part of the event observed by location c of
	// the evaluator's observation (nil if none); outside reports actions
	// that no location observes.
	parts   []interaction.MultiAction
	outside bool
}

// observation is the multi-trace of an Accepts question.
//
// Every operator builds its traces by interleaving its operands' traces,
// keeping the order of each and merging events only in sync (e ⊆ e∪e′). So
// the events of a subterm's trace map, in order and injectively, to events
// of the final trace that contain them; projected on a location c,
// the subterm's c-events embed in order into the final c-events, each in a
// superset. A trace that does not embed into mt component by component can
// therefore not be part of a global trace whose projection is mt, nor can
// any trace built from it: dropping it early is exact.
type observation struct {
	groups interaction.Locations
	traces [][]interaction.MultiAction
}

// set is a set of traces (each a string of event ids).
type set map[string]struct{}

func newEvaluator(st *interaction.Store, maxLen int, within *observation) *evaluator {
	return &evaluator{st: st, maxLen: maxLen, index: map[string]uint16{}, memo: map[interaction.Term]set{},
		within: within}
}

// traceSet returns the traces of t as a TraceSet.
func (e *evaluator) traceSet(t interaction.Term) TraceSet {
	out := TraceSet{byKey: map[string]Trace{}}
	for s := range e.sem(t) {
		tr := e.decode(s)
		out.byKey[traceKey(tr)] = tr
	}
	return out
}

func (e *evaluator) intern(m interaction.MultiAction) string {
	k := traceKey(Trace{m})
	id, ok := e.index[k]
	if !ok {
		if len(e.events) == 1<<16 {
			panic("reference: more than 65536 distinct events")
		}
		id = uint16(len(e.events))
		ev := event{acts: m, lls: m.Lifelines()}
		if o := e.within; o != nil {
			ev.parts = make([]interaction.MultiAction, len(o.groups))
			var seen interaction.Lifelines
			for c, g := range o.groups {
				for _, a := range m {
					if g.Has(a.Lifeline()) {
						ev.parts[c] = append(ev.parts[c], a)
					}
				}
				seen = seen.Union(g)
			}
			ev.outside = !ev.lls.SubsetOf(seen)
		}
		e.events = append(e.events, ev)
		e.index[k] = id
	}
	return string([]byte{byte(id >> 8), byte(id)})
}

func (e *evaluator) decode(s string) Trace {
	tr := make(Trace, 0, len(s)/2)
	for i := 0; i < len(s); i += 2 {
		tr = append(tr, e.events[e.at(s, i/2)].acts)
	}
	return tr
}

// at returns the id of the i-th event of the trace s.
func (e *evaluator) at(s string, i int) uint16 { return uint16(s[2*i])<<8 | uint16(s[2*i+1]) }

func (e *evaluator) ev(s string, i int) event { return e.events[e.at(s, i)] }

func length(s string) int { return len(s) / 2 }

// admit reports whether a trace may be kept: at most maxLen events, and
// embedding into the observation if there is one.
func (e *evaluator) admit(s string) bool {
	return length(s) <= e.maxLen && (e.within == nil || e.embeds(s))
}

// embeds reports whether the trace s embeds into the observed multi-trace:
// on each location c, the c-parts of its events map in order to
// events of the c-component that contain them. Matching each part to the
// earliest possible event is enough: it leaves the most room to the rest.
func (e *evaluator) embeds(s string) bool {
	o := e.within
	next := make([]int, len(o.groups))
	for i := range length(s) {
		ev := e.ev(s, i)
		if ev.outside {
			return false
		}
		for c, part := range ev.parts {
			if part == nil {
				continue
			}
			tr := o.traces[c]
			j := next[c]
			for j < len(tr) && !subset(part, tr[j]) {
				j++
			}
			if j == len(tr) {
				return false
			}
			next[c] = j + 1
		}
	}
	return true
}

// subset reports whether the sorted multi-action a is included in b.
func subset(a, b interaction.MultiAction) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}

func (e *evaluator) add(out set, s string) {
	if e.admit(s) {
		out[s] = struct{}{}
	}
}

// sem returns the traces of t of length at most maxLen.
func (e *evaluator) sem(t interaction.Term) set {
	if r, ok := e.memo[t]; ok {
		return r
	}
	st := e.st
	out := set{}
	switch op := st.Op(t); op {
	case interaction.OpEmpty:
		out[""] = struct{}{}
	case interaction.OpAct:
		e.add(out, e.intern(st.Action(t)))
	case interaction.OpAlt:
		for s := range e.sem(st.Left(t)) {
			out[s] = struct{}{}
		}
		for s := range e.sem(st.Right(t)) {
			out[s] = struct{}{}
		}
	case interaction.OpStrict, interaction.OpSeq, interaction.OpPar, interaction.OpCoreg, interaction.OpSync:
		comb := e.combinator(t)
		// Except for sync, which merges events, a combination is as long
		// as its operands together: skip the pairs that are too long.
		bounded := op != interaction.OpSync
		r := byLength(e.sem(st.Right(t)))
		for s1 := range e.sem(st.Left(t)) {
			for _, s2 := range r {
				if bounded && length(s1)+length(s2) > e.maxLen {
					break
				}
				comb(out, s1, s2)
			}
		}
	case interaction.OpLoopS, interaction.OpLoopW, interaction.OpLoopP, interaction.OpLoopH:
		out = e.loop(op, e.sem(st.Left(t)))
	default:
		panic("reference: unknown operator " + op.String())
	}
	e.memo[t] = out
	return out
}

// combinator returns how the binary term t combines one trace of each operand.
func (e *evaluator) combinator(t interaction.Term) func(out set, s1, s2 string) {
	st := e.st
	switch st.Op(t) {
	case interaction.OpStrict:
		return e.concat
	case interaction.OpSeq:
		return func(out set, s1, s2 string) { e.weak(out, s1, s2, "") }
	case interaction.OpCoreg:
		r := st.CoregLifelines(t)
		return func(out set, s1, s2 string) { e.weak(out, s1, s2, r) }
	case interaction.OpPar:
		return e.shuffle
	default: // OpSync
		a := st.SyncActions(t)
		return func(out set, s1, s2 string) { e.sync(out, s1, s2, a) }
	}
}

// concat adds s1.s2 (strict sequencing).
func (e *evaluator) concat(out set, s1, s2 string) {
	if length(s1)+length(s2) <= e.maxLen {
		e.add(out, s1+s2)
	}
}

// shuffle adds every interleaving of s1 and s2 (s1 ‖ s2).
func (e *evaluator) shuffle(out set, s1, s2 string) {
	e.interleave(out, s1, s2, func(string, event) bool { return true })
}

// weak adds s1 ××|r s2: the interleavings of s1 and s2 in which an event of
// s2 precedes an event of s1 only if that event of s1 has no action on a
// lifeline of the event of s2 outside r. With r = ∅ it is weak sequencing.
func (e *evaluator) weak(out set, s1, s2 string, r interaction.Lifelines) {
	e.interleave(out, s1, s2, func(rest1 string, e2 event) bool {
		ls := e2.lls.Minus(r)
		for i := range length(rest1) {
			if e.ev(rest1, i).lls.Meets(ls) {
				return false
			}
		}
		return true
	})
}

// interleave adds the interleavings of s1 and s2 that keep the order of each
// and in which the next event e2 of s2 is taken before the remaining events
// rest1 of s1 only if overtake(rest1, e2).
func (e *evaluator) interleave(out set, s1, s2 string, overtake func(rest1 string, e2 event) bool) {
	if length(s1)+length(s2) > e.maxLen {
		return
	}
	var rec func(prefix, rest1, rest2 string)
	rec = func(prefix, rest1, rest2 string) {
		if rest1 == "" && rest2 == "" {
			e.add(out, prefix)
			return
		}
		if rest1 != "" {
			rec(prefix+rest1[:2], rest1[2:], rest2)
		}
		if rest2 != "" && (rest1 == "" || overtake(rest1, e.ev(rest2, 0))) {
			rec(prefix+rest2[:2], rest1, rest2[2:])
		}
	}
	rec("", s1, s2)
}

// sync adds the traces of sync(A) built from s1 and s2: events that share no
// action with A interleave freely; an event e1 of s1 meeting A is merged with
// an event e2 of s2 with e2∩A = e1∩A into e1∪e2.
func (e *evaluator) sync(out set, s1, s2 string, a interaction.MultiAction) {
	inA := func(ev event) interaction.MultiAction {
		var common []interaction.Action
		for _, x := range ev.acts {
			for _, y := range a {
				if x == y {
					common = append(common, x)
				}
			}
		}
		return interaction.NewMultiAction(common...)
	}
	var rec func(prefix, rest1, rest2 string)
	rec = func(prefix, rest1, rest2 string) {
		if length(prefix) > e.maxLen {
			return // every completion is at least as long
		}
		if rest1 == "" && rest2 == "" {
			e.add(out, prefix)
			return
		}
		var c1, c2 interaction.MultiAction
		if rest1 != "" {
			e1 := e.ev(rest1, 0)
			if c1 = inA(e1); len(c1) == 0 {
				rec(prefix+rest1[:2], rest1[2:], rest2)
			}
		}
		if rest2 != "" {
			e2 := e.ev(rest2, 0)
			if c2 = inA(e2); len(c2) == 0 {
				rec(prefix+rest2[:2], rest1, rest2[2:])
			}
		}
		if len(c1) > 0 && len(c2) > 0 && slices.Equal(c1, c2) {
			merged := append(append([]interaction.Action{}, e.ev(rest1, 0).acts...), e.ev(rest2, 0).acts...)
			rec(prefix+e.intern(interaction.NewMultiAction(merged...)), rest1[2:], rest2[2:])
		}
	}
	rec("", s1, s2)
}

// byLength returns the traces of s, shortest first.
func byLength(s set) []string {
	out := make([]string, 0, len(s))
	for x := range s {
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b string) int {
		if c := cmp.Compare(len(a), len(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out
}

// loop returns the least fixpoint of X = {ε} ∪ step(B∖{ε}, X) truncated at
// maxLen, where step is the loop's composition of one iteration (a trace of
// the body B) with the traces X of the remaining iterations.
//
// It is computed semi-naively: every round composes the body with the traces
// found in the previous round only. This is exact because each step
// distributes over unions of its second argument, and it terminates because
// a body trace is never empty: a trace found in round k has at least k
// events.
func (e *evaluator) loop(op interaction.Op, body set) set {
	var step func(out set, b, x string)
	switch op {
	case interaction.OpLoopS:
		step = e.concat
	case interaction.OpLoopW:
		step = func(out set, b, x string) { e.weak(out, b, x, "") }
	case interaction.OpLoopP:
		step = e.shuffle
	case interaction.OpLoopH:
		// The first event comes from the first iteration; the rest of that
		// iteration is weakly sequenced with the following iterations.
		step = func(out set, b, x string) {
			if length(b)+length(x) > e.maxLen {
				return
			}
			rest := set{}
			e.weak(rest, b[2:], x, "")
			for s := range rest {
				e.add(out, b[:2]+s)
			}
		}
	}
	iteration := byLength(body)
	all := set{"": {}}
	last := set{"": {}}
	for len(last) > 0 {
		next := set{}
		for x := range last {
			for _, b := range iteration {
				if length(b)+length(x) > e.maxLen {
					break
				}
				if b != "" {
					step(next, b, x)
				}
			}
		}
		last = set{}
		for s := range next {
			if _, seen := all[s]; !seen {
				all[s] = struct{}{}
				last[s] = struct{}{}
			}
		}
	}
	return all
}
