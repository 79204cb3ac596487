package engine

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
)

// A Checker decides multi-traces on prepared tables, by the
// semi-centralized procedure (Check: Algorithms 2 and 3 of the automata
// paper; CheckCentral when the local checks ran elsewhere) or the
// centralized one (CheckAC: Algorithm 1), in accept or prefix mode. It is
// safe for concurrent use.
//
// A multi-trace is one slice of actions per location, in location order.
type Checker struct {
	t     *Tables
	opt   Options
	prune bool
	// The working memory of checks: spare, made by NewChecker (one-time
	// work, not the first check's), serves one check at a time; pool
	// serves the others (the collector may empty a sync.Pool, not spare).
	spare atomic.Pointer[scratch]
	pool  sync.Pool
}

// NewChecker returns a checker on t, which it prepares.
func NewChecker(t *Tables, opt Options) (*Checker, error) {
	if err := t.Prepare(); err != nil {
		return nil, err
	}
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = DefaultMaxNodes
	}
	prune := !opt.NoPruning
	for i := range t.Projs {
		prune = prune && t.Projs[i].Back != nil
	}
	c := &Checker{t: t, opt: opt, prune: prune}
	c.spare.Store(c.newScratch())
	c.warmUp()
	return c, nil
}

// warmUp judges one multi-trace of the NFA on the spare working memory,
// in prefix mode then in accept mode, and runs its central search without
// the probe that decides most: the letters of the path from the
// first initial state that takes the first transition out of each state,
// warmSteps transitions at most, split into locations. Its checks size the
// working memory (the search's per-location rows, its visited set and
// stacks, the probes' lanes) and touch the tables as a check does, so that
// the first multi-trace judged costs what the others do: this one-time
// work is the checker's construction (setup), not the first check's. The
// checks run within warmNodes (the path may be hard to interleave when
// the options switch the pruning off); their verdicts are dropped, and a
// check's verdict does not depend on what the checker judged before.
func (c *Checker) warmUp() {
	t := c.t
	mt := make([][]Action, len(t.Projs))
	if len(t.Initial) > 0 {
		q := t.Initial[0]
		for range warmSteps {
			if t.out[q] == t.out[q+1] {
				break
			}
			tr := t.Trans[t.out[q]]
			for _, p := range t.Parts[tr.Sym] {
				mt[p.Loc] = append(mt[p.Loc], p.Action)
			}
			q = tr.Dst
		}
	}
	max := c.opt.MaxNodes
	c.opt.MaxNodes = min(max, warmNodes)
	defer func() { c.opt.MaxNodes = max }()
	c.Check(mt, Prefix)
	c.Check(mt, Accept)
	// The probe decides most multi-traces alone: the search proper (its
	// visited set, stacks and masks) is warmed up apart.
	s := c.getScratch()
	defer c.putScratch(s)
	s.s.init(c, mt, true, nil, c.prune)
	s.s.run()
	s.s.release()
}

// The transitions of warmUp's path, and the nodes its searches may visit.
const (
	warmSteps = 16
	warmNodes = 1 << 10
)

// Tables returns the checker's tables.
func (c *Checker) Tables() *Tables { return c.t }

// scratch is the working memory of a check, pooled.
type scratch struct {
	lv    []*LocalVerifier
	areas []Area
	order []int
	inter []uint64
	seen  []uint64
	stack []State
	s     search
	// pending: the sets of areas are still to be computed from the walks
	// of lv (Check), with the futures when future; Check sets it, and
	// CheckCentral, whose areas are given, clears it.
	pending, future bool
}

func (c *Checker) getScratch() *scratch {
	if s := c.spare.Swap(nil); s != nil {
		return s
	}
	if s, ok := c.pool.Get().(*scratch); ok {
		return s
	}
	return c.newScratch()
}

func (c *Checker) putScratch(s *scratch) {
	if !c.spare.CompareAndSwap(nil, s) {
		c.pool.Put(s)
	}
}

func (c *Checker) newScratch() *scratch {
	t := c.t
	s := &scratch{inter: make([]uint64, t.tw), seen: make([]uint64, t.sw)}
	for l := range t.Projs {
		s.lv = append(s.lv, t.NewLocalVerifier(Location(l)))
	}
	s.areas = make([]Area, len(t.Projs))
	return s
}

func (c *Checker) checkShape(n int) {
	if n != len(c.t.Projs) {
		panic(fmt.Sprintf("engine: multi-trace of %d local traces for %d locations", n, len(c.t.Projs)))
	}
}

// Check decides mt by the semi-centralized procedure: a local check per
// location on its projection DFA (Algorithm 2), each giving its area; the
// intersection of the areas and its accepting-path check; then the central
// search on it (Algorithm 3), whose probe comes first (see semi). In
// prefix mode the local checks accept any prefix of a projected word (a
// walk that does not get stuck), the area of a local trace also holds what
// its end state may still reach (its future), and the central search lets
// a location whose trace is consumed stop constraining the rest (its
// letters become ε).
func (c *Checker) Check(mt [][]Action, mode Mode) Result {
	c.checkShape(len(mt))
	s := c.getScratch()
	defer c.putScratch(s)
	var res Result
	walked := c.localChecks(s, mt, mode)
	for _, i := range walked {
		v := s.lv[i]
		switch {
		case v.stuck >= 0:
			res.Locals = append(res.Locals, LocalFailure{Loc: i, Pos: int(v.stuck), Expected: v.Expected()})
		case mode == Accept && !v.Final():
			res.Locals = append(res.Locals, LocalFailure{Loc: i, Pos: int(v.n), AtEnd: true, Expected: v.Expected()})
		}
	}
	if len(res.Locals) > 0 {
		slices.SortFunc(res.Locals, func(a, b LocalFailure) int { return a.Loc - b.Loc })
		res.Verdict, res.Reason = Fail, LocalError
		return res
	}
	if len(mt) == 1 {
		// One location: its projection is the determinized (trimmed) NFA,
		// so the local check decides alone. A walk that does not get stuck
		// reads a prefix of a word, and a word when it ends final.
		if s.lv[0].Final() {
			return Result{Verdict: Pass}
		}
		return Result{Verdict: WeakPass}
	}
	// The areas' sets wait until a search needs them (see intersection):
	// with the pruning, one whose probe decides does not.
	for i, v := range s.lv {
		v.areaHead(&s.areas[i])
	}
	s.pending, s.future = true, mode == Prefix
	return c.central(s, s.areas, mt, mode)
}

// localChecks runs the walks of Algorithm 2 for every location, or, with
// FirstLocalError, shortest trace first up to the first failing one, and
// returns the locations walked.
func (c *Checker) localChecks(s *scratch, mt [][]Action, mode Mode) []int {
	order := s.order[:0]
	for i := range mt {
		order = append(order, i)
	}
	s.order = order
	if !c.opt.FirstLocalError {
		for i, v := range s.lv {
			v.Reset()
			v.StepAll(mt[i])
		}
		return order
	}
	for k := 1; k < len(order); k++ { // insertion sort: a few locations
		for j := k; j > 0 && len(mt[order[j]]) < len(mt[order[j-1]]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for k, i := range order {
		v := s.lv[i]
		v.Reset()
		if !v.StepAll(mt[i]) || mode == Accept && !v.Final() {
			return order[:k+1]
		}
	}
	return order
}

// CheckCentral decides mt given the areas of its local traces, as the
// LocalVerifier of each location computed them (possibly on other
// machines): it reports their local errors, then intersects them and
// searches the interleavings of the traces on the NFA restricted to that
// intersection. It fails when the areas do not fit the tables or the traces.
func (c *Checker) CheckCentral(areas []Area, mt [][]Action, mode Mode) (Result, error) {
	c.checkShape(len(mt))
	if len(areas) != len(mt) {
		return Result{}, fmt.Errorf("engine: %d areas for %d locations", len(areas), len(mt))
	}
	t := c.t
	var res Result
	for i := range areas {
		a := &areas[i]
		if len(a.Exact) != t.tw || len(a.Future) != t.tw || int(a.Len) != len(mt[i]) ||
			a.Stuck < -1 || a.Stuck > a.Len || a.End < -1 || int(a.End) >= t.Projs[i].NumStates {
			return Result{}, fmt.Errorf("engine: the area of location %d does not fit its trace or the tables", i)
		}
		switch {
		case a.Stuck >= 0:
			res.Locals = append(res.Locals, LocalFailure{Loc: i, Pos: int(a.Stuck), Expected: t.Projs[i].expected(a.End)})
		case mode == Accept && !a.Final:
			res.Locals = append(res.Locals, LocalFailure{Loc: i, Pos: int(a.Len), AtEnd: true, Expected: t.Projs[i].expected(a.End)})
		}
	}
	if len(res.Locals) > 0 {
		res.Verdict, res.Reason = Fail, LocalError
		return res, nil
	}
	if len(mt) == 1 {
		if areas[0].Final {
			return Result{Verdict: Pass}, nil
		}
		return Result{Verdict: WeakPass}, nil
	}
	s := c.getScratch()
	defer c.putScratch(s)
	s.pending = false // the areas are given
	return c.central(s, areas, mt, mode), nil
}

// central is the central check on the areas of locally correct traces. In
// prefix mode, when every local trace ends where accepted ones end, an exact
// interleaving is searched first (it is a multi-prefix too, and Pass); else,
// or when there is none, the multi-prefix search decides between WeakPass
// and Fail.
func (c *Checker) central(s *scratch, areas []Area, mt [][]Action, mode Mode) Result {
	if mode == Accept {
		return c.semi(s, areas, mt, false, 0)
	}
	exact := true
	for i := range areas {
		exact = exact && areas[i].Final
	}
	nodes := 0
	undecided := NoReason
	if exact {
		r := c.semi(s, areas, mt, false, 0)
		if r.Verdict == Pass {
			return r
		}
		nodes = r.Nodes
		if r.Verdict == Inconc {
			undecided = r.Reason
		}
	}
	r := c.semi(s, areas, mt, true, nodes)
	if r.Verdict != Pass {
		return r
	}
	return Result{Verdict: WeakPass, Reason: undecided, Nodes: r.Nodes}
}

// semi is Algorithm 3: the intersection of the exact (or, for a
// multi-prefix, future) areas, its accepting-path check, then the search.
// On a multi-trace of fewer events than the automaton has states, the
// search's probe comes first. It adds nodes to the search's count.
func (c *Checker) semi(s *scratch, areas []Area, mt [][]Action, prefix bool, nodes int) Result {
	// The probe decides most multi-traces that pass, for which the areas
	// and the accepting-path check of their intersection would find a
	// path anyway: on a small multi-prefix they take half of the check,
	// the probe less. On a long multi-trace the check of the areas costs
	// less than the probe, and decides a Fail of the intersection alone
	// (Table 1's InterError sets: 2.1-2.5 times the time with the probe
	// first). With the pruning, the probe's masks are stronger than the
	// areas, and the fast probes need none.
	total := 0
	for _, tr := range mt {
		total += len(tr)
	}
	var inter []uint64
	if !c.prune || total > c.t.NumStates {
		inter = c.intersection(s, areas, prefix)
		if !c.t.hasAcceptingPath(inter, s) {
			return c.interError(inter, nodes)
		}
	}
	srch := &s.s
	if c.prune {
		srch.init(c, mt, prefix, nil, true)
	} else {
		srch.init(c, mt, prefix, inter, false)
	}
	found := srch.probe()
	if !found && inter == nil {
		inter = c.intersection(s, areas, prefix)
		if !c.t.hasAcceptingPath(inter, s) {
			nodes += srch.nodes
			srch.release()
			return c.interError(inter, nodes)
		}
	}
	return srch.result(found, true, nodes)
}

// interError is the Fail of a multi-trace whose areas' intersection inter
// has no accepting path.
func (c *Checker) interError(inter []uint64, nodes int) Result {
	t := c.t
	return Result{Verdict: Fail, Reason: InterError, Nodes: nodes, Expected: t.expectedAt(t.Initial, inter)}
}

// intersection returns the intersection of the exact areas (or, for a
// multi-prefix, the future ones), in s.inter. It computes the sets of the
// areas first when they are pending (see scratch).
func (c *Checker) intersection(s *scratch, areas []Area, prefix bool) []uint64 {
	if s.pending {
		s.pending = false
		for i, v := range s.lv {
			v.areaSets(&areas[i], s.future, true)
		}
	}
	inter := s.inter
	for k := range inter {
		inter[k] = ^uint64(0)
	}
	for i := range areas {
		if prefix {
			andInto(inter, areas[i].Future)
		} else {
			andInto(inter, areas[i].Exact)
		}
	}
	return inter
}

// CheckAC decides mt by the centralized procedure (Algorithm 1): the search
// of Central(A, (μi)i) from its initial state, stopping at the first final
// state. In prefix mode it searches for a multi-prefix (letters of consumed
// locations become ε), then for an exact interleaving.
func (c *Checker) CheckAC(mt [][]Action, mode Mode) Result {
	c.checkShape(len(mt))
	s := c.getScratch()
	defer c.putScratch(s)
	if mode == Accept {
		return c.search(s, mt, false, nil, false, false, 0)
	}
	r := c.search(s, mt, true, nil, false, false, 0)
	if r.Verdict != Pass {
		return r
	}
	e := c.search(s, mt, false, nil, false, false, r.Nodes)
	switch e.Verdict {
	case Fail:
		return Result{Verdict: WeakPass, Nodes: e.Nodes}
	case Inconc:
		return Result{Verdict: WeakPass, Reason: e.Reason, Nodes: e.Nodes}
	}
	return e
}

// search runs the central search of mt (on the transitions of inter, all
// when nil) and gives its verdict; semi says which procedure's reason a
// failure gets.
func (c *Checker) search(s *scratch, mt [][]Action, prefix bool, inter []uint64, prune, semi bool, nodes int) Result {
	srch := &s.s
	srch.init(c, mt, prefix, inter, prune)
	return srch.result(srch.probe(), semi, nodes)
}

// result runs the search proper unless its probe found an interleaving,
// and gives the verdict (see Checker.search).
func (srch *search) result(found, semi bool, nodes int) Result {
	stopped := false
	if !found {
		found, stopped = srch.run()
	}
	res := Result{Nodes: nodes + srch.nodes}
	switch {
	case found:
		res.Verdict = Pass
	case stopped:
		res.Verdict, res.Reason = Inconc, NodeLimit
		if srch.timedOut {
			res.Reason = Timeout
		}
	default:
		res.Verdict, res.Reason = Fail, CentralError
		if !semi {
			res.Reason = Error
		}
		res.Progress, res.Expected = srch.explain()
	}
	srch.release()
	return res
}

// hasAcceptingPath reports whether the transitions in sub make a path from
// an initial state to a final one.
func (t *Tables) hasAcceptingPath(sub []uint64, s *scratch) bool {
	if t.NumStates <= 64 {
		return t.hasAcceptingPath64(sub)
	}
	seen := s.seen
	clear(seen)
	stack := s.stack[:0]
	defer func() { s.stack = stack[:0] }()
	for _, q := range t.Initial {
		if seen[q>>6]&(1<<(q&63)) == 0 {
			seen[q>>6] |= 1 << (q & 63)
			stack = append(stack, q)
		}
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t.Final[q>>6]&(1<<(q&63)) != 0 {
			return true
		}
		for k := t.out[q]; k < t.out[q+1]; k++ {
			if sub[k>>6]&(1<<(k&63)) == 0 {
				continue
			}
			if r := t.Trans[k].Dst; seen[r>>6]&(1<<(r&63)) == 0 {
				seen[r>>6] |= 1 << (r & 63)
				stack = append(stack, r)
			}
		}
	}
	return false
}

// hasAcceptingPath64 is hasAcceptingPath for at most 64 states, on words.
func (t *Tables) hasAcceptingPath64(sub []uint64) bool {
	seen := uint64(0)
	for _, q := range t.Initial {
		seen |= 1 << q
	}
	final := uint64(0)
	if len(t.Final) > 0 {
		final = t.Final[0]
	}
	for todo := seen; todo != 0; {
		if seen&final != 0 {
			return true
		}
		q := bits.TrailingZeros64(todo)
		todo &= todo - 1
		for k := t.out[q]; k < t.out[q+1]; k++ {
			if sub[k>>6]&(1<<(k&63)) != 0 {
				d := uint64(1) << t.Trans[k].Dst
				todo |= d &^ seen
				seen |= d
			}
		}
	}
	return seen&final != 0
}

// expectedAt lists the symbols of the transitions in sub (all when nil)
// leaving the states qs, sorted and distinct.
func (t *Tables) expectedAt(qs []State, sub []uint64) []Symbol {
	var buf [16]Symbol // then one allocation, of the right size
	out := buf[:0]
	for _, q := range qs {
		for k := t.out[q]; k < t.out[q+1]; k++ {
			x := t.Trans[k].Sym
			if (sub == nil || has(sub, int(k))) && !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	slices.Sort(out)
	return slices.Clone(out)
}
