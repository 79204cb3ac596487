package repair

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/verdict"
)

// The bounded search over edits: candidate repairs by increasing number
// of edits, each judged by an engine, until one is no longer Fail. The
// first one found is a smallest repair when every candidate with fewer
// edits was judged (none Inconc). Candidates are:
//
//   - the deletion of every event that is no event of its location's
//     alphabet (no execution of the interaction shows it there), which
//     every repair makes, and
//   - with k more edits, every choice of k of: the deletion of another
//     event, the insertion of an event of the location's alphabet at any
//     index (the insertions at one index in every order), each multi-trace
//     judged once.
//
// Within a number of edits, the edits nearest to where the check got stuck
// (Options.Near, Focus) come first: a noise event is mostly there, and the
// search then ends at its first candidates.

// Options bound and guide Search.
type Options struct {
	// MaxNodes bounds the work of the search: the vertices of the checks
	// of the candidates (verdict.Result.TotalNodes, at least 1 each; 0:
	// DefaultMaxNodes). Deadline bounds its time (the zero Time: none).
	MaxNodes int
	Deadline time.Time
	// MaxEdits bounds the edits of the candidates (0: none): past it the
	// search ends without a repair, and is complete.
	MaxEdits int
	// Near gives, per component, the index around which edits are tried
	// first (where the check got stuck; nil: the start of each). Focus is
	// one more than the component whose edits come first (one whose log is
	// impossible on its own), 0 for none.
	Near  []int
	Focus int
	// Truncate: when a limit stops the search before it finds a repair,
	// try the deletion of the end of every log from Near on, then of every
	// event. In prefix and slice modes a log that stops early fails
	// nothing: the first is often a repair, the second is one unless the
	// interaction accepts nothing (the judge checks them as any candidate).
	Truncate bool
}

// DefaultMaxNodes bounds the work of Search when Options.MaxNodes is 0.
const DefaultMaxNodes = 1 << 20

// Result is what a search for a repair found.
type Result struct {
	// Edits is the repair (Found), in the order of its insertions.
	Edits []Edit
	Found bool
	// Verdict is the judge's verdict of the repaired multi-trace.
	Verdict verdict.Verdict
	// Incomplete: a limit stopped the search before it proved the repair
	// smallest, or before it found one; or the judge left candidates with
	// fewer edits undecided (Inconc). Reason says which limit, Detail says
	// it in words.
	Incomplete bool
	Reason     verdict.Reason
	Detail     string
	// Nodes counts the work of the search (see Options.MaxNodes).
	Nodes int
}

// atom is an edit that a candidate may choose: the deletion of event j of
// component c (ev < 0), or the insertion of event ev of its alphabet
// before it. A log of thousands of events has hundreds of thousands of
// them: small, and without pointers.
type atom struct{ c, j, ev int32 }

func (a atom) insert() bool { return a.ev >= 0 }

// edit returns the edit of a.
func (s *searcher) edit(a atom) Edit {
	if a.ev < 0 {
		return Edit{Op: verdict.Delete, Component: int(a.c), Index: int(a.j), Event: s.mt.Components[a.c].Trace[a.j]}
	}
	return Edit{Op: verdict.Insert, Component: int(a.c), Index: int(a.j), Event: s.alph[a.c][a.ev]}
}

// searcher is the state of one Search.
type searcher struct {
	mt     *multitrace.MultiTrace
	judge  func(*multitrace.MultiTrace) verdict.Result
	opt    Options
	alph   [][]interaction.MultiAction
	forced []Edit
	atoms  []atom
	seen   map[uint64]bool
	seed   maphash.Seed

	chosen []int
	res    Result
	stop   verdict.Reason // the limit that stopped the search
	// undecided counts the candidates judged Inconc below the current
	// number of edits, and at it; why is the reason of the last one.
	undecided, undecidedNow int
	why                     verdict.Reason
	dups                    int // candidates judged already
}

// Search looks for a smallest repair of mt, judging candidates with judge
// (a check in the mode of the repair), which the verdict of the repaired
// multi-trace must pass (Pass or WeakPass: Inconc is no repair). alphabet
// gives the events each component may show (see Alphabet). mt itself must
// fail: it is not judged.
func Search(mt *multitrace.MultiTrace, alphabet [][]interaction.MultiAction, judge func(*multitrace.MultiTrace) verdict.Result, opt Options) Result {
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = DefaultMaxNodes
	}
	s := &searcher{mt: mt, alph: alphabet, judge: judge, opt: opt, seen: map[uint64]bool{}, seed: maphash.MakeSeed()}
	s.prepare(alphabet)
	s.seen[s.key(mt)] = true
	for k := 0; ; k++ {
		if opt.MaxEdits > 0 && len(s.forced)+k > opt.MaxEdits {
			return Result{Nodes: s.res.Nodes}
		}
		s.undecided += s.undecidedNow
		s.undecidedNow = 0
		var done bool
		if k == 0 {
			done = len(s.forced) > 0 && s.try(nil)
		} else {
			done = s.choose(0, k)
		}
		switch {
		case s.res.Found:
			if s.undecided > 0 {
				s.res.Incomplete, s.res.Reason = true, s.why
				s.res.Detail = fmt.Sprintf("%d candidates of fewer edits were undecided (Inconc): a smaller repair may exist", s.undecided)
			}
			return s.res
		case done: // a limit
			s.res.Incomplete, s.res.Reason = true, s.stop
			s.res.Detail = fmt.Sprintf("the search stopped at %d edits: %s", len(s.forced)+k, limitText(s.stop))
			if opt.Truncate {
				s.truncate()
			}
			return s.res
		case k > 0 && len(s.atoms) == 0:
			return s.res // nothing else to try: no repair
		}
	}
}

func limitText(r verdict.Reason) string {
	if r == verdict.Timeout {
		return "time budget reached"
	}
	return "node budget reached"
}

// prepare lists the forced deletions and the other edits, nearest to
// Near first (the focus's first, then the other components'), the
// deletions before the insertions at one distance, by component and
// index: generated in that order, as a log of thousands of events has
// hundreds of thousands of insertions to sort.
func (s *searcher) prepare(alphabet [][]interaction.MultiAction) {
	comps := s.mt.Components
	in := make([][]bool, len(comps)) // whether each event is of its location's alphabet
	for c, comp := range comps {
		in[c] = make([]bool, len(comp.Trace))
		for j, ev := range comp.Trace {
			in[c][j] = slices.ContainsFunc(alphabet[c], func(x interaction.MultiAction) bool { return slices.Equal(x, ev) })
			if !in[c][j] {
				s.forced = append(s.forced, Edit{Op: verdict.Delete, Component: c, Index: j, Event: ev})
			}
		}
	}
	near := func(c int) int {
		if s.opt.Near == nil {
			return 0
		}
		return s.opt.Near[c]
	}
	var classes [][]int
	var rest []int
	for c := range comps {
		if c == s.opt.Focus-1 {
			classes = append(classes, []int{c})
		} else {
			rest = append(rest, c)
		}
	}
	classes = append(classes, rest)
	size := 0
	for c, comp := range comps {
		size += len(comp.Trace) + (len(comp.Trace)+1)*len(alphabet[c])
	}
	s.atoms = make([]atom, 0, size)
	var at [2]int
	for _, class := range classes {
		far := 0
		for _, c := range class {
			far = max(far, near(c)+1, len(comps[c].Trace)+1-near(c))
		}
		for d := 0; d <= far; d++ {
			for _, op := range []verdict.EditOp{verdict.Delete, verdict.Insert} {
				for _, c := range class {
					tr := comps[c].Trace
					at[0], at[1] = near(c)-d, near(c)+d
					js := at[:2]
					if d == 0 {
						js = at[:1]
					}
					for _, j := range js {
						switch {
						case op == verdict.Delete && j >= 0 && j < len(tr) && in[c][j]:
							s.atoms = append(s.atoms, atom{int32(c), int32(j), -1})
						case op == verdict.Insert && j >= 0 && j <= len(tr):
							for x, ev := range alphabet[c] {
								// Inserting ev just after an ev gives what
								// inserting it just before does: only the
								// first is tried.
								if j == 0 || !slices.Equal(tr[j-1], ev) {
									s.atoms = append(s.atoms, atom{int32(c), int32(j), int32(x)})
								}
							}
						}
					}
				}
			}
		}
	}
}

// choose tries every choice of left more edits from atom start on (an
// insertion may be chosen again: the same event twice at an index). It
// reports whether the search is over (a repair, or a limit).
func (s *searcher) choose(start, left int) bool {
	if left == 0 {
		return s.arrange()
	}
	for a := start; a < len(s.atoms); a++ {
		s.chosen = append(s.chosen, a)
		next := a + 1
		if s.atoms[a].insert() {
			next = a
		}
		done := s.choose(next, left-1)
		s.chosen = s.chosen[:len(s.chosen)-1]
		if done {
			return true
		}
	}
	return false
}

// arrange tries the chosen edits with the insertions at each index in
// every order.
func (s *searcher) arrange() bool {
	order := slices.Clone(s.chosen)
	// Group the insertions at one index, in increasing atom order: the
	// first of the permutations that nextArrangement enumerates.
	slices.SortStableFunc(order, func(x, y int) int {
		a, b := s.atoms[x], s.atoms[y]
		if c := cmp.Compare(a.c, b.c); c != 0 {
			return c
		}
		if c := cmp.Compare(a.j, b.j); c != 0 {
			return c
		}
		if c := cmp.Compare(min(a.ev, 0), min(b.ev, 0)); c != 0 {
			return -c // the deletion first
		}
		return cmp.Compare(x, y)
	})
	for {
		edits := make([]Edit, 0, len(order))
		for _, x := range order {
			edits = append(edits, s.edit(s.atoms[x]))
		}
		if s.try(edits) {
			return true
		}
		if !s.nextArrangement(order) {
			return false
		}
	}
}

// nextArrangement steps order to the next permutation of the insertions
// at each index (the last group varying fastest), and reports whether
// there is one.
func (s *searcher) nextArrangement(order []int) bool {
	same := func(x, y int) bool {
		a, b := s.atoms[x], s.atoms[y]
		return a.insert() && b.insert() && a.c == b.c && a.j == b.j
	}
	for end := len(order); end > 0; {
		start := end - 1
		for start > 0 && same(order[start-1], order[end-1]) {
			start--
		}
		if nextPermutation(order[start:end]) {
			return true
		}
		end = start // this group is back at its first permutation: step the one before
	}
	return false
}

// nextPermutation steps p to the next of its distinct permutations in
// lexicographic order, or back to the first (sorted), and reports whether
// it did not wrap.
func nextPermutation(p []int) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		slices.Reverse(p)
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}

// try judges the multi-trace of the forced deletions and edits, unless it
// was judged; it reports whether the search is over.
func (s *searcher) try(edits []Edit) bool {
	all := slices.Concat(s.forced, edits)
	cand := Apply(s.mt, all)
	k := s.key(cand)
	if s.seen[k] {
		// Judged already. Choosing many edits may give few new
		// multi-traces: the deadline is looked at here too.
		s.dups++
		if s.dups&1023 == 0 && !s.opt.Deadline.IsZero() && time.Now().After(s.opt.Deadline) {
			s.stop = verdict.Timeout
			return true
		}
		return false
	}
	s.seen[k] = true
	res := s.judge(cand)
	s.res.Nodes += max(res.TotalNodes(), 1)
	switch {
	case res.Verdict.OK():
		s.res.Edits, s.res.Found, s.res.Verdict = all, true, res.Verdict
		return true
	case res.Verdict == verdict.Inconc:
		s.undecidedNow++
		s.why = res.Reason
	}
	switch {
	case s.res.Nodes > s.opt.MaxNodes:
		s.stop = verdict.NodeLimit
	case !s.opt.Deadline.IsZero() && time.Now().After(s.opt.Deadline):
		s.stop = verdict.Timeout
	default:
		return false
	}
	return true
}

// truncate tries, after a limit, the deletion of the end of every log
// from Near on, then of every event (with the forced deletions).
func (s *searcher) truncate() {
	for _, from := range [][]int{s.opt.Near, nil} {
		var edits []Edit
		for c, comp := range s.mt.Components {
			start := 0
			if from != nil {
				start = from[c]
			}
			for _, f := range s.forced {
				if f.Component == c && f.Index < start {
					edits = append(edits, f)
				}
			}
			for j := start; j < len(comp.Trace); j++ {
				edits = append(edits, Edit{Op: verdict.Delete, Component: c, Index: j, Event: comp.Trace[j]})
			}
		}
		res := s.judge(Apply(s.mt, edits))
		s.res.Nodes += max(res.TotalNodes(), 1)
		if res.Verdict.OK() {
			s.res.Edits, s.res.Found, s.res.Verdict = edits, true, res.Verdict
			return
		}
	}
}

// key hashes the traces of mt, to judge each multi-trace once.
func (s *searcher) key(mt *multitrace.MultiTrace) uint64 {
	var h maphash.Hash
	h.SetSeed(s.seed)
	var buf [4]byte
	word := func(x uint32) {
		buf[0], buf[1], buf[2], buf[3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
		h.Write(buf[:])
	}
	for _, c := range mt.Components {
		word(uint32(len(c.Trace)))
		for _, ev := range c.Trace {
			word(uint32(len(ev)))
			for _, a := range ev {
				word(uint32(a))
			}
		}
	}
	return h.Sum64()
}
