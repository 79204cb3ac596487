package nfa

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"time"
)

// Mode is the question a check answers about a multi-trace.
type Mode uint8

const (
	// Accept asks whether some interleaving of the local traces is accepted
	// (the paper's problem): Pass or Fail.
	Accept Mode = iota
	// Prefix asks whether the local traces are prefixes of the projections
	// of one accepted word (logs may stop early, locations may be
	// unobserved): Pass when exactly accepted, WeakPass when only a
	// multi-prefix, Fail otherwise.
	Prefix
)

func (m Mode) String() string {
	if m == Prefix {
		return "prefix"
	}
	return "accept"
}

// Verdict is the answer of a check.
type Verdict uint8

const (
	Pass     Verdict = iota // an interleaving of the local traces is accepted
	WeakPass                // (prefix mode) a multi-prefix of an accepted word, not accepted itself
	Fail                    // neither; Result.Reason says why
	Inconc                  // the central search hit its node budget
)

var verdictNames = [...]string{Pass: "Pass", WeakPass: "WeakPass", Fail: "Fail", Inconc: "Inconc"}

func (v Verdict) String() string { return verdictNames[v] }

// Reason is why a check failed, in the paper's words.
type Reason uint8

const (
	NoReason     Reason = iota
	LocalError          // a local trace is impossible on its own (Proj(A, Σi) rejects it)
	InterError          // the areas of the local traces have no common accepting path
	CentralError        // no interleaving is accepted (the central search found none)
	Error               // the centralized procedure (AC) found no accepted interleaving
	NodeLimit           // the central search stopped at its node budget (Inconc)
	Timeout             // the central search stopped at its time budget (Inconc)
)

var reasonNames = [...]string{NoReason: "", LocalError: "LocalError", InterError: "InterError",
	CentralError: "CentralError", Error: "Error", NodeLimit: "NodeLimit", Timeout: "Timeout"}

func (r Reason) String() string { return reasonNames[r] }

// LocalFailure is a location whose trace its projection DFA rejects.
type LocalFailure struct {
	Loc int
	// Pos is the number of events the DFA read before it got stuck, or the
	// trace's length when it read them all but stopped in a non-final state
	// (AtEnd).
	Pos   int
	AtEnd bool
	// Expected are the letters the DFA could read at that point.
	Expected []Letter
}

// Result is the outcome of a check.
type Result struct {
	Verdict Verdict
	Reason  Reason // for Fail (and Inconc): why
	// Locals lists every location whose trace fails its local check, with
	// Reason LocalError.
	Locals []LocalFailure
	// Nodes counts the states of the central search (both searches of prefix
	// mode).
	Nodes int
	// Progress and Expected explain a central failure (InterError,
	// CentralError, Error): the furthest point a search reached, as the
	// number of events consumed per location (nil for InterError: none),
	// and the symbols the automaton could read there.
	Progress []int
	Expected []Symbol
}

// String returns "Pass", "Fail LocalError(L2@3)", "Fail CentralError", ...
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
			fmt.Fprintf(&b, "%d@%d", f.Loc, f.Pos)
		}
		b.WriteByte(')')
	}
	return b.String()
}

// DefaultMaxProjStates bounds the states of each projection DFA when
// CheckerOptions.MaxProjStates is 0.
const DefaultMaxProjStates = 1 << 18

// DefaultMaxNodes bounds the states of one central search when
// CheckerOptions.MaxNodes is 0.
const DefaultMaxNodes = 50_000_000

// CheckerOptions configure NewChecker. The zero value is usable.
type CheckerOptions struct {
	// MaxProjStates bounds the states of each projection DFA (0:
	// DefaultMaxProjStates); beyond it NewChecker fails.
	MaxProjStates int
	// MaxNodes bounds the states of one central search (0:
	// DefaultMaxNodes); beyond it the check answers Inconc.
	MaxNodes int
	// Timeout bounds the time of one central search (0: none); beyond it
	// the check answers Inconc.
	Timeout time.Duration
	// NoPruning makes the central search of the semi-centralized procedure
	// use Inter alone, as Algorithm 3 does. By default it also keeps, at
	// each point, only the states of A that the local walks allow there:
	// the DFA state each location's forward walk reached at its position,
	// and the states from which its rest can still be read (a backward walk
	// on the reversed automaton). Both are necessary conditions on any
	// accepted interleaving, so verdicts do not change; dead ends do.
	NoPruning bool
	// FirstLocalError makes the semi-centralized procedure stop at the first
	// location whose local check fails, as Algorithm 2 does, and report that
	// location only. The locations are then checked shortest trace first,
	// the cheapest order to find a failing one when nothing says where it
	// is. By default every location is checked, so that the result names
	// every failing one.
	FirstLocalError bool
}

// A Checker decides multi-traces against an NFA split into locations, by
// the centralized procedure (CheckAC: Algorithm 1) or the semi-centralized
// one (CheckAS: Algorithms 2 and 3), in accept or prefix mode. It is built
// once per automaton (the projections, their labels and the central
// tables) and is safe for concurrent use.
//
// A multi-trace is one slice of letters per location, in the order of the
// Locations.
type Checker struct {
	a     *NFA
	locs  *Locations
	opt   CheckerOptions
	projs []*Proj
	// For pruning, as tables for the walks of maskRows and bwdRows: the
	// projections, and the backward projections (see projectBack), exact and
	// any-end.
	fwd, back, backAny []*rowTable

	// Central tables. Letters are numbered globally: letter x of location i
	// is base[i]+x. The transitions of A whose symbol has exactly one part
	// are grouped by (source, global letter): byLetter[first[q*G+g] :
	// first[q*G+g+1]]; the others (several parts, or none) by source:
	// others[ofirst[q]:ofirst[q+1]]. Both hold transition indices.
	base     []int32
	G        int
	first    []int32
	byLetter []int32
	ldst     []int32 // the targets of byLetter's transitions
	// succ[(q*(G+1)+g)*w:][:w] are the targets of byLetter[first[q*G+g] :
	// first[q*G+g+1]] as a set of w = nwords(|Q|) words (column G is
	// empty), when A has at most 128 states and the table is small; nil
	// otherwise.
	succ      []uint64
	ofirst    []int32
	others    []int32
	hasOthers bool
	nmax      int

	pool sync.Pool
}

// NewChecker builds the checker of a under locs: the projections of every
// location with their labels (Defs. 5–7) and the tables of the central
// search. a is trimmed first (its useful part has the same language), unless
// it is trim already: transition indices in areas refer to Checker.NFA.
func NewChecker(a *NFA, locs *Locations, opt CheckerOptions) (*Checker, error) {
	if opt.MaxProjStates <= 0 {
		opt.MaxProjStates = DefaultMaxProjStates
	}
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = DefaultMaxNodes
	}
	for x := range a.syms.Len() {
		for _, p := range locs.Parts(Symbol(x)) {
			if p.Loc < 0 || p.Loc >= locs.Num() || p.Letter < 0 || int(p.Letter) >= len(locs.Letters(p.Loc)) {
				return nil, fmt.Errorf("symbol %s: part %v out of range", a.syms.Name(Symbol(x)), p)
			}
		}
	}
	if !a.isTrim() {
		a = a.Trim()
	}
	c := &Checker{a: a, locs: locs, opt: opt}
	n := locs.Num()
	for i := range n {
		p, err := Project(a, locs, i, opt.MaxProjStates)
		if err != nil {
			return nil, err
		}
		c.projs = append(c.projs, p)
		if !opt.NoPruning {
			d, sub, err := projectBack(a, locs, i, false, opt.MaxProjStates)
			if err != nil {
				return nil, err
			}
			da, suba, err := projectBack(a, locs, i, true, opt.MaxProjStates)
			if err != nil {
				return nil, err
			}
			c.back = append(c.back, newRowTable(d, sub, a.n))
			c.backAny = append(c.backAny, newRowTable(da, suba, a.n))
			c.fwd = append(c.fwd, newRowTable(p.dfa, p.subset, a.n))
		}
	}
	c.tables()
	return c, nil
}

// flatRows lays sets of states out as rows of nwords(n) words, followed by
// an empty row and a full one.
func flatRows(sets []Bits, n int) []uint64 {
	w := nwords(n)
	rows := make([]uint64, 0, (len(sets)+2)*w)
	for _, b := range sets {
		rows = append(rows, b...)
	}
	rows = append(rows, make([]uint64, w)...)
	for range w {
		rows = append(rows, ^uint64(0))
	}
	return rows
}

// tables builds the central search's transition index.
func (c *Checker) tables() {
	a, locs := c.a, c.locs
	n := locs.Num()
	c.base = make([]int32, n+1)
	for i := range n {
		c.base[i+1] = c.base[i] + int32(len(locs.Letters(i)))
	}
	G := int(c.base[n])
	c.G = G
	c.first = make([]int32, a.n*G+1)
	c.ofirst = make([]int32, a.n+1)
	glob := func(t Transition) int {
		ps := locs.Parts(t.Sym)
		if len(ps) != 1 {
			return -1
		}
		return int(c.base[ps[0].Loc] + int32(ps[0].Letter))
	}
	for _, t := range a.trans {
		if g := glob(t); g >= 0 {
			c.first[int(t.Src)*G+g+1]++
		} else {
			c.ofirst[t.Src+1]++
		}
	}
	for i := range a.n * G {
		c.first[i+1] += c.first[i]
	}
	for q := range a.n {
		c.ofirst[q+1] += c.ofirst[q]
	}
	c.byLetter = make([]int32, c.first[a.n*G])
	c.ldst = make([]int32, len(c.byLetter))
	c.others = make([]int32, c.ofirst[a.n])
	c.hasOthers = len(c.others) > 0
	fill := make([]int32, a.n*G)
	copy(fill, c.first)
	ofill := make([]int32, a.n)
	copy(ofill, c.ofirst)
	w := nwords(a.n)
	if a.n <= 128 && a.n*(G+1)*w <= 1<<20 {
		c.succ = make([]uint64, a.n*(G+1)*w)
	}
	for k, t := range a.trans {
		if g := glob(t); g >= 0 {
			i := int(t.Src)*G + g
			c.byLetter[fill[i]] = int32(k)
			c.ldst[fill[i]] = int32(t.Dst)
			fill[i]++
			if c.succ != nil {
				c.succ[(int(t.Src)*(G+1)+g)*w+int(t.Dst>>6)] |= 1 << (t.Dst & 63)
			}
		} else {
			c.others[ofill[t.Src]] = int32(k)
			ofill[t.Src]++
		}
	}
}

// NFA returns the (trimmed) automaton the checker works on.
func (c *Checker) NFA() *NFA { return c.a }

// Locations returns the checker's locations.
func (c *Checker) Locations() *Locations { return c.locs }

// Proj returns the projection of location i.
func (c *Checker) Proj(i int) *Proj { return c.projs[i] }

// scratch is the per-check working memory, pooled.
type scratch struct {
	marks []marks // per location: the table entries its walk took
	order []int   // the locations in the order of their walks
	end   []State // per location: the DFA state the walk ended in
	stuck []int   // per location: where the walk got stuck, or -1
	area  []Bits  // per location: Area(μi)
	inter Bits
	exact Bits
	seen  *stateSet
	s     search
}

func (c *Checker) getScratch() *scratch {
	if s, ok := c.pool.Get().(*scratch); ok {
		return s
	}
	n := c.locs.Num()
	s := &scratch{marks: make([]marks, n), end: make([]State, n), stuck: make([]int, n), area: make([]Bits, n)}
	tw := nwords(len(c.a.trans))
	for i, p := range c.projs {
		s.marks[i] = *p.newMarks()
		s.area[i] = make(Bits, tw)
	}
	s.inter = make(Bits, tw)
	s.exact = make(Bits, tw)
	s.seen = newStateSet(c.a.n)
	return s
}

// Walk reads trace on the projection DFA from its start (Algorithm 2 and
// Definition 8): it returns Area(trace), the union of init and of the labels
// of the transitions taken, and the DFA state reached; stuck is the number
// of letters read before the DFA had no transition, or -1 when it read them
// all (the trace is locally correct iff stuck < 0 and the end state is
// final).
func (p *Proj) Walk(trace []Letter) (area Bits, end State, stuck int) {
	m := p.newMarks()
	end, stuck = p.walk(trace, m)
	area = make(Bits, len(p.init))
	p.collect(area, m)
	return area, end, stuck
}

// marks remember the table entries a walk took, so that their labels are
// or-ed once each, afterwards (collect): one bit per entry of the DFA's
// table and of its table of words, and the lists of the set bits.
type marks struct {
	vis, vis2   Bits
	used, used2 []int32
}

func (p *Proj) newMarks() *marks {
	return &marks{vis: make(Bits, nwords(p.dfa.n*p.dfa.k)), vis2: make(Bits, nwords(len(p.wide)))}
}

// room makes used hold at least n+1 entries: a walk of n steps marks at
// most n entries, and writes one past the last it marked.
func room(used []int32, n int) []int32 {
	if cap(used) <= n {
		return make([]int32, n+1)
	}
	return used[:cap(used)]
}

// walk is the local check's hot loop: one table lookup per word of w
// events (Proj.wide) and per event left, and one bit per table entry to
// remember the transitions taken.
func (p *Proj) walk(trace []Letter, m *marks) (State, int) {
	d := p.dfa
	if d.start < 0 {
		return -1, 0
	}
	k := uint32(d.k)
	if k == 0 { // a location that observes nothing
		if len(trace) > 0 {
			return d.start, 0
		}
		return d.start, -1
	}
	q := int32(d.start) * int32(k) // the current state's row offset in off
	j := 0
	if p.wide != nil {
		q, j = p.walkWide(trace, m)
	}
	off, vis, used := p.off, m.vis, room(m.used, len(trace)-j)
	n := 0
	for ; j < len(trace); j++ {
		a := uint32(trace[j])
		if a >= k {
			m.used = used[:n]
			return State(q / int32(k)), j
		}
		i := uint32(q) + a
		r := off[i]
		if r < 0 {
			m.used = used[:n]
			return State(q / int32(k)), j
		}
		n = mark(vis, used, n, i)
		q = r
	}
	m.used = used[:n]
	return State(q / int32(k)), -1
}

// mark sets bit i of vis and lists i at used[n] if the bit was clear; it
// returns the new length of the list. It has no branch: a walk's first
// visits are too irregular to predict. used must have room at n.
func mark(vis Bits, used []int32, n int, i uint32) int {
	x := vis[i>>6]
	vis[i>>6] = x | 1<<(i&63)
	used[n] = int32(i)
	return n + int(^x>>(i&63)&1)
}

// walkWide reads the longest prefix of trace it can in words of w letters
// on Proj.wide, marking the entries it takes in m.vis2 and m.used2, and
// returns the row offset in off of the state reached and the number of
// letters read.
func (p *Proj) walkWide(trace []Letter, m *marks) (int32, int) {
	wide, w, k := p.wide, p.w, uint32(p.dfa.k)
	kw := uint32(len(wide) / p.dfa.n)
	q := int32(p.dfa.start) * int32(kw) // the current state's row offset in wide
	vis, used := m.vis2, room(m.used2, len(trace)/w)
	n, j := 0, 0
	// The steps for w = 2, 3 and 4 differ only in how they read the word.
	switch w {
	case 2:
		for ; j+2 <= len(trace); j += 2 {
			a, b := uint32(trace[j]), uint32(trace[j+1])
			if a >= k || b >= k {
				break
			}
			i := uint32(q) + a*k + b
			r := wide[i]
			if r < 0 {
				break
			}
			n = mark(vis, used, n, i)
			q = r
		}
	case 3:
		for ; j+3 <= len(trace); j += 3 {
			a, b, c := uint32(trace[j]), uint32(trace[j+1]), uint32(trace[j+2])
			if a >= k || b >= k || c >= k {
				break
			}
			i := uint32(q) + (a*k+b)*k + c
			r := wide[i]
			if r < 0 {
				break
			}
			n = mark(vis, used, n, i)
			q = r
		}
	case 4:
		for ; j+4 <= len(trace); j += 4 {
			a, b, c, d := uint32(trace[j]), uint32(trace[j+1]), uint32(trace[j+2]), uint32(trace[j+3])
			if a >= k || b >= k || c >= k || d >= k {
				break
			}
			i := uint32(q) + ((a*k+b)*k+c)*k + d
			r := wide[i]
			if r < 0 {
				break
			}
			n = mark(vis, used, n, i)
			q = r
		}
	}
	m.used2 = used[:n]
	return q / int32(kw/k), j
}

// localChecks runs the walks of Algorithm 2 for every location, or, with
// FirstLocalError, shortest trace first up to the first failing one. The
// walked locations are s.order[:checked]. Their areas wait for
// collectAreas: a local error does not need them.
func (c *Checker) localChecks(s *scratch, mt [][]Letter, mode Mode) (checked int) {
	order := s.order[:0]
	for i := range c.projs {
		order = append(order, i)
	}
	s.order = order
	if !c.opt.FirstLocalError {
		for i, p := range c.projs {
			s.end[i], s.stuck[i] = p.walk(mt[i], &s.marks[i])
		}
		return len(order)
	}
	for k := 1; k < len(order); k++ { // insertion sort: a few locations
		for j := k; j > 0 && len(mt[order[j]]) < len(mt[order[j-1]]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for k, i := range order {
		p := c.projs[i]
		s.end[i], s.stuck[i] = p.walk(mt[i], &s.marks[i])
		if s.stuck[i] >= 0 || mode == Accept && !p.dfa.IsFinal(s.end[i]) {
			return k + 1
		}
	}
	return len(order)
}

// collectAreas sets s.area[i] to Area(μi) for the locations walked,
// s.order[:n], or only clears their marks when areas is false.
func (c *Checker) collectAreas(s *scratch, n int, areas bool) {
	for _, i := range s.order[:n] {
		p, m := c.projs[i], &s.marks[i]
		if areas {
			p.collect(s.area[i], m)
			continue
		}
		for _, e := range m.used {
			m.vis[e>>6] = 0
		}
		for _, e := range m.used2 {
			m.vis2[e>>6] = 0
		}
		m.used, m.used2 = m.used[:0], m.used2[:0]
	}
}

// collect or-s init and the labels of the entries m marked into area (which
// it overwrites), and clears m. An entry of the table of words has the
// label of its whole word.
func (p *Proj) collect(area Bits, m *marks) {
	copy(area, p.init)
	nw := len(area)
	if p.labels == nil { // no table of words
		for _, i := range m.used {
			orInto(area, p.areas[p.areaOf[i]])
			m.vis[i>>6] = 0
		}
		m.used = m.used[:0]
		return
	}
	for _, i := range m.used {
		x := int(p.areaOf[i]) * nw
		orInto(area, p.labels[x:x+nw])
		m.vis[i>>6] = 0
	}
	for _, i := range m.used2 {
		x := int(p.wideArea[i]) * nw
		orInto(area, p.labels[x:x+nw])
		m.vis2[i>>6] = 0
	}
	m.used, m.used2 = m.used[:0], m.used2[:0]
}

// expected lists the letters DFA state q can read, in a slice of their
// number (one allocation).
func (p *Proj) expected(q State) []Letter {
	if q < 0 {
		return nil
	}
	k := p.dfa.k
	row := p.dfa.next[int(q)*k : (int(q)+1)*k]
	n := 0
	for _, r := range row {
		if r >= 0 {
			n++
		}
	}
	out := make([]Letter, 0, n)
	for a, r := range row {
		if r >= 0 {
			out = append(out, Letter(a))
		}
	}
	return out
}

// Inter returns Inter(A, (μi)i) (Def. 9) for the areas of the local traces:
// the transitions in every area.
func Inter(areas ...Bits) Bits {
	if len(areas) == 0 {
		return nil
	}
	out := append(Bits(nil), areas[0]...)
	for _, s := range areas[1:] {
		andInto(out, s)
	}
	return out
}

// HasAcceptingPath reports whether the sub-automaton of a made of the
// transitions in sub has a path from an initial state to a final state.
func (a *NFA) HasAcceptingPath(sub Bits) bool {
	return a.hasAcceptingPath(sub, newStateSet(a.n))
}

// hasAcceptingPath is HasAcceptingPath with a scratch set, which it leaves
// empty.
func (a *NFA) hasAcceptingPath(sub Bits, seen *stateSet) bool {
	if a.n <= 64 {
		return a.hasAcceptingPath64(sub)
	}
	defer seen.clear()
	for _, q := range a.initial {
		seen.add(q)
	}
	for i := 0; i < len(seen.list); i++ {
		q := seen.list[i]
		if a.IsFinal(q) {
			return true
		}
		for t := a.out[q]; t < a.out[q+1]; t++ {
			if sub.Has(int(t)) {
				seen.add(a.trans[t].Dst)
			}
		}
	}
	return false
}

// hasAcceptingPath64 is hasAcceptingPath for at most 64 states, on words.
func (a *NFA) hasAcceptingPath64(sub Bits) bool {
	seen := uint64(0)
	for _, q := range a.initial {
		seen |= 1 << q
	}
	final := a.final[0]
	for todo := seen; todo != 0; {
		if seen&final != 0 {
			return true
		}
		q := bits.TrailingZeros64(todo)
		todo &= todo - 1
		for t := a.out[q]; t < a.out[q+1]; t++ {
			if sub[t>>6]&(1<<(t&63)) != 0 {
				d := uint64(1) << a.trans[t].Dst
				todo |= d &^ seen
				seen |= d
			}
		}
	}
	return seen&final != 0
}

func (c *Checker) checkShape(mt [][]Letter) {
	if len(mt) != c.locs.Num() {
		panic(fmt.Sprintf("nfa: multi-trace of %d local traces for %d locations", len(mt), c.locs.Num()))
	}
}

// CheckAS decides mt by the semi-centralized procedure (Algorithms 2 and
// 3): local checks on the projections, each giving its area; Inter and its
// accepting-path check; then the central search on Inter. In prefix mode the
// local checks accept any prefix of a projected word (a DFA that does not get
// stuck), the area of a local trace also holds what its end state may still
// reach (Future), and the central search lets a location whose trace is
// consumed stop constraining the rest (its letters become ε); a multi-prefix
// found that way is then checked exactly, for Pass against WeakPass.
func (c *Checker) CheckAS(mt [][]Letter, mode Mode) Result {
	c.checkShape(mt)
	s := c.getScratch()
	defer c.pool.Put(s)
	var res Result
	exactLocal := true
	checked := c.localChecks(s, mt, mode)
	for _, i := range s.order[:checked] {
		p, end, stuck := c.projs[i], s.end[i], s.stuck[i]
		switch {
		case stuck >= 0:
			res.Locals = append(res.Locals, LocalFailure{Loc: i, Pos: stuck, Expected: p.expected(end)})
		case !p.dfa.IsFinal(end):
			exactLocal = false
			if mode == Accept {
				res.Locals = append(res.Locals, LocalFailure{Loc: i, Pos: len(mt[i]), AtEnd: true, Expected: p.expected(end)})
			}
		}
	}
	c.collectAreas(s, checked, len(res.Locals) == 0 && len(c.projs) > 1)
	if len(res.Locals) > 0 {
		res.Verdict, res.Reason = Fail, LocalError
		return res
	}
	if len(c.projs) == 1 {
		// One location: its projection is the determinized (trimmed)
		// automaton, so the local check decides alone. A walk that does not
		// get stuck reads a prefix of a word, and a word when it ends final.
		if exactLocal {
			res.Verdict = Pass
		} else {
			res.Verdict = WeakPass
		}
		return res
	}
	if mode == Accept {
		return c.central(s, mt, false, true, res)
	}
	// Prefix mode: the multi-prefix check, then the exact one.
	exact := s.exact // Inter of the exact areas, for later
	copy(exact, s.area[0])
	for i := 1; i < len(s.area); i++ {
		andInto(exact, s.area[i])
	}
	for i, p := range c.projs {
		orInto(s.area[i], p.Future(s.end[i]))
	}
	res = c.central(s, mt, true, true, res)
	if res.Verdict != Pass {
		return res
	}
	if !exactLocal {
		return Result{Verdict: WeakPass, Nodes: res.Nodes}
	}
	for i := range s.area {
		copy(s.area[i], exact)
	}
	return weak(c.central(s, mt, false, true, res))
}

// weak turns the exact check that follows a found multi-prefix into the
// verdict of prefix mode: Pass, or WeakPass (with NodeLimit when the exact
// search was stopped before it could tell).
func weak(res Result) Result {
	switch res.Verdict {
	case Fail:
		return Result{Verdict: WeakPass, Nodes: res.Nodes}
	case Inconc:
		return Result{Verdict: WeakPass, Reason: res.Reason, Nodes: res.Nodes}
	}
	return res
}

// CheckAC decides mt by the centralized procedure (Algorithm 1): the
// search of Central(A, (μi)i) from its initial state, stopping at the first
// final state. In prefix mode it searches for a multi-prefix first (letters
// of consumed locations become ε), then for an exact interleaving.
func (c *Checker) CheckAC(mt [][]Letter, mode Mode) Result {
	c.checkShape(mt)
	s := c.getScratch()
	defer c.pool.Put(s)
	if mode == Accept {
		return c.central(s, mt, false, false, Result{})
	}
	res := c.central(s, mt, true, false, Result{})
	if res.Verdict != Pass {
		return res
	}
	return weak(c.central(s, mt, false, false, res))
}

// central runs the central check: with semi, on Inter of s.area after its
// accepting-path check (Algorithm 3), else on the whole automaton
// (Algorithm 1). It adds its nodes to res.Nodes.
func (c *Checker) central(s *scratch, mt [][]Letter, prefix, semi bool, res Result) Result {
	nodes := res.Nodes
	res = Result{Nodes: nodes}
	srch := &s.s
	if semi {
		copy(s.inter, s.area[0])
		for i := 1; i < len(s.area); i++ {
			andInto(s.inter, s.area[i])
		}
		if !c.a.hasAcceptingPath(s.inter, s.seen) {
			res.Verdict, res.Reason = Fail, InterError // Progress nil: nothing consumed
			res.Expected = c.expectedAt(c.a.initial, s.inter)
			return res
		}
		srch.init(c, mt, prefix, s.inter, !c.opt.NoPruning)
		return c.searched(srch, srch.probe(), semi, res)
	}
	srch.init(c, mt, prefix, nil, false)
	return c.searched(srch, srch.probe(), semi, res)
}

// searched runs the search unless a probe found a final state already, and
// gives the verdict.
func (c *Checker) searched(srch *search, found, semi bool, res Result) Result {
	stopped := false
	if !found {
		found, stopped = srch.run()
	}
	res.Nodes += srch.nodes
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
	return res
}

// expectedAt lists the symbols of the transitions in sub (all when nil)
// leaving the states qs, sorted and distinct.
func (c *Checker) expectedAt(qs []State, sub Bits) []Symbol {
	var buf [16]Symbol // then one allocation, of the right size
	out := buf[:0]
	for _, q := range qs {
		for t := c.a.out[q]; t < c.a.out[q+1]; t++ {
			x := c.a.trans[t].Sym
			if (sub == nil || sub.Has(int(t))) && !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	sortSymbols(out)
	return append(make([]Symbol, 0, len(out)), out...)
}

func sortSymbols(xs []Symbol) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
