package rewrite

import (
	"slices"

	"github.com/ivc-project/ivc/interaction"
)

// oneUnambiguous reports a ∈₁ i (Def. 11 of the lifeline-removal paper) for
// a single action a: projected on θ(a), i has exactly one executable
// instance of a. Multi-actions are never selected: with <synch> messages the
// same local head may be consumed by a multi-action or by single actions,
// which the definition does not account for. Nor are silent ghost events:
// they are not observed, so nothing forces them.
func (pb *problem) oneUnambiguous(t interaction.Term, id interaction.ActID) bool {
	m := pb.a.st.MultiAction(id)
	return len(m) == 1 && !m[0].IsGhost() && pb.a.st.Instances(t, m[0]) == 1
}

// unambiguous is oneUnambiguous of the k-th frontier element of t,
// remembered in the analyzer's por, two bits an element (known, and the
// answer), for the first 32 elements of the first porTerms(opts) terms: partial
// order reduction asks it at nearly every vertex, and the store answers
// by a look-up in a table of every term and action. Only the look-ups
// that would find the store's memo are spared: the store grows as before.
func (pb *problem) unambiguous(t interaction.Term, k int) bool {
	a := pb.a
	if k >= 32 || int(t) >= a.porTerms {
		return pb.oneUnambiguous(t, a.st.FrontierAct(t, k))
	}
	if int(t) < len(a.por) {
		if w := a.por[t] >> (2 * k); w&1 != 0 {
			return w&2 != 0
		}
	}
	ok := pb.oneUnambiguous(t, a.st.FrontierAct(t, k))
	if int(t) >= len(a.por) {
		a.por = slices.Grow(a.por, int(t)+1-len(a.por))[:t+1]
	}
	bits := uint64(1)
	if ok {
		bits = 3
	}
	a.por[t] |= bits << (2 * k)
	return ok
}

// porTerms bounds the terms whose unambiguous elements an analyzer
// remembers (8 bytes each): 8 MiB, and 1/16 of a memory budget (twice as
// much with the room the table's slice grows with).
// The table is not charged to the analyses (which terms it holds depends
// on the analyses before, and a charge would make the verdicts near the
// budget depend on them too), so it is bounded by the budget instead.
func porTerms(opts Options) int {
	n := 1 << 20
	if opts.MaxMemory > 0 {
		n = min(n, int(opts.MaxMemory/16/8))
	}
	return n
}

// localOK runs the local analyses of vertex (t, pos): every component's
// remaining trace must be accepted (exact search) or be a prefix of a trace
// (multi-prefix search) of the interaction projected on the component. A
// component whose projection removes nothing is skipped: its local analysis
// would be the global search itself.
func (pb *problem) localOK(t interaction.Term, pos []int32) bool {
	st := pb.a.st
	occ := st.Occurring(t)
	// A component with one event left whose event some frontier element
	// reads is locally fine: its projection can execute it (Prop. 7).
	ready := pb.ready[:0]
	for k, nf := 0, st.NumFrontier(t); k < nf; k++ {
		for _, pt := range pb.a.parts(pb.p, st.FrontierAct(t, k)) {
			if pb.partMatches(pt, pos) && int(pos[pt.c])+1 == len(pb.traces[pt.c]) {
				ready = append(ready, pt.c)
			}
		}
	}
	pb.ready = ready
	for c, tr := range pb.traces {
		if c&63 == 63 && !pb.withinNow() {
			return false // a limit: with many components, one vertex takes long
		}
		if slices.Contains(ready, int32(c)) {
			continue
		}
		if !pb.exact && int(pos[c]) == len(tr) {
			continue // removed
		}
		if pb.kind == sliceSearch && pos[c] == 0 {
			continue // may still start late: its trace is a slice, not a prefix
		}
		if occ.SubsetOf(pb.p.lifelines[c]) {
			continue
		}
		// The first event left must be able to start the projection; with
		// one event left (multi-prefix), that is the whole local analysis.
		if int(pos[c]) < len(tr) && !pb.a.firstIn(pb.p, c, t, tr[pos[c]]) {
			pb.blame(c, t)
			return false
		}
		if !pb.exact && int(pos[c])+1 == len(tr) {
			continue
		}
		proj := pb.a.proj(pb.p, c, t)
		if !pb.local(proj, int32(c), pos[c]) {
			if pb.stopped == "" {
				pb.blame(c, t)
			}
			return false
		}
	}
	return true
}

// blame records that component c's trace is impossible on its own, when a
// local analysis of the root vertex (term t) finds it: from another vertex,
// it only says that the rest of the trace is impossible from there.
func (pb *problem) blame(c int, t interaction.Term) {
	if pb.atRoot {
		pb.locFail, pb.locTerm, pb.locSlice = c, t, false
	}
}

// The local check of a slice. A slice's component logs a factor of the
// local trace of an accepted multi-trace: some actions of its lifelines
// may come before its log starts, others after it ends. So a component's
// trace that is no factor of any trace of the interaction projected on it
// (Remove of the other lifelines, as for local analyses) makes the
// multi-trace no slice. The check explores every term the projection
// reaches, then follows the trace from all of them at once; when the
// projection reaches too many terms (its loops may grow without bound) it
// claims nothing.

// maxSliceCheck bounds the terms a slice's local check explores, and the
// frontier elements it goes through (times 16).
const maxSliceCheck = 1 << 14

// notSlice returns a component whose trace is no factor of a trace of its
// projection, or -1.
func (pb *problem) notSlice() int {
	st := pb.a.st
	for c, tr := range pb.traces {
		if len(tr) == 0 {
			continue
		}
		level := pb.closure(st.Remove(pb.a.root, pb.a.complementOf(pb.p, c)), maxSliceCheck)
		for q := 0; level != nil && q < len(tr); q++ {
			if level = pb.consume(level, tr[q]); len(level) == 0 {
				pb.locFail, pb.locTerm, pb.locSlice = c, pb.a.root, true
				return c
			}
			if !pb.count(true) {
				return -1
			}
		}
	}
	return -1
}

// closure returns the terms reachable from t, t included, or nil when there
// are more than max, when one of them is much larger than t (loops that
// unfold without bound), when going through their frontiers takes long, or
// when a limit stopped the exploration.
func (pb *problem) closure(t interaction.Term, max int) []interaction.Term {
	st := pb.a.st
	seen := map[interaction.Term]bool{t: true}
	out := []interaction.Term{t}
	size, work := 2*st.NumActions(t)+16, 16*max
	defer func() { pb.extra = 0 }()
	for i := 0; i < len(out); i++ {
		u := out[i]
		nf := st.NumFrontier(u)
		if work -= nf; work < 0 {
			return nil
		}
		for k := range nf {
			w := st.Step(u, k)
			if seen[w] {
				continue
			}
			if len(out) == max || st.NumActions(w) > size {
				return nil
			}
			seen[w] = true
			out = append(out, w)
			if pb.extra = int64(len(out)) * 24; !pb.count(true) {
				return nil
			}
		}
	}
	return out
}

// local decides whether component c's trace from position q is a prefix
// (or, in an exact search, a complete trace) of the projected term t. It is a
// depth-first search whose every finished vertex is cached: a vertex on the
// path to success is good, a vertex whose subtree failed is bad. As the global
// search moves along a component, its next local analyses start from vertices
// already decided, which keeps the cost of local analyses linear in the trace.
func (pb *problem) local(t interaction.Term, c, q int32) bool {
	st := pb.a.st
	tr := pb.traces[c]
	// The memo is the analysis's (see newProblem and locKey).
	memo := pb.a.loc
	key := func(t interaction.Term, q int32) uint64 { return pb.locKey(t, c, q) }
	if ok, known := memo[key(t, q)]; known {
		return ok
	}
	stack := append(pb.locStack[:0], locFrame{t: t, q: q})
	defer func() { pb.locStack = stack[:0] }()
	success := func() bool {
		for _, f := range stack {
			memo[key(f.t, f.q)] = true
		}
		return true
	}
	fresh := true
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if fresh {
			fresh = false
			if !pb.count(true) {
				return false
			}
			if int(f.q) == len(tr) && (!pb.exact || st.Nullable(f.t)) {
				return success()
			}
			if int(f.q) == len(tr) || pb.exact && pb.a.minEvents(pb.p, int(c), f.t) > len(tr)-int(f.q) {
				f.next = st.NumFrontier(f.t) // no successor
			}
		}
		pushed := false
		for nf := st.NumFrontier(f.t); f.next < nf; {
			k := f.next
			f.next++
			if st.FrontierAct(f.t, k) != tr[f.q] {
				continue
			}
			child := st.Step(f.t, k)
			ok, known := memo[key(child, f.q+1)]
			if known && ok {
				return success()
			}
			if !known {
				stack = append(stack, locFrame{t: child, q: f.q + 1})
				fresh, pushed = true, true
				break
			}
		}
		if !pushed {
			memo[key(f.t, f.q)] = false
			stack = stack[:len(stack)-1]
		}
	}
	return false
}

// locFrame is a vertex on the path of a local analysis.
type locFrame struct {
	t    interaction.Term
	q    int32
	next int // next frontier element to try
}
