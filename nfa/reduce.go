package nfa

import "slices"

// Reduce returns an automaton with the same language and at most as many
// states and transitions: the trimmed automaton quotiented by forward
// bisimulation (states with the same finality whose successors by each
// symbol are bisimilar) and by backward bisimulation (the same on the
// reversed automaton, where initial states play the part of final ones),
// alternately until neither merges anything. Both quotients preserve the
// language; on a DFA the forward quotient is minimization.
func (a *NFA) Reduce() *NFA {
	cur := a
	if !a.isTrim() {
		cur = a.Trim()
	}
	// Alternate the two quotients. A quotient that merges nothing right
	// after the other one's (or after both were tried) ends the loop: the
	// automaton is then stable for both.
	backward := false
	for step := 1; ; step++ {
		if block, n := cur.bisimulation(backward); n < cur.n {
			cur = cur.quotientBy(block)
		} else if step >= 2 {
			return cur
		}
		backward = !backward
	}
}

// isTrim reports whether every state is reachable and co-reachable.
func (a *NFA) isTrim() bool {
	return len(a.reachable().list) == a.n && len(a.coreachable().list) == a.n
}

// ForwardQuotient returns the quotient of a by its coarsest forward
// bisimulation. It preserves the language.
func (a *NFA) ForwardQuotient() *NFA { return a.quotient(false) }

// BackwardQuotient returns the quotient of a by its coarsest backward
// bisimulation (forward bisimulation of the reversed automaton). It
// preserves the language.
func (a *NFA) BackwardQuotient() *NFA { return a.quotient(true) }

// quotient merges the states of a that are bisimilar, forward or backward.
func (a *NFA) quotient(backward bool) *NFA {
	block, _ := a.bisimulation(backward)
	return a.quotientBy(block)
}

// quotientBy merges the states of each block.
func (a *NFA) quotientBy(block []int32) *NFA {
	first := make([]State, a.n) // block -> its smallest member + 1
	rep := make([]State, a.n)
	for q := range State(a.n) {
		b := block[q]
		if first[b] == 0 {
			first[b] = q + 1
		}
		rep[q] = first[b] - 1
	}
	return a.renumber(func(q State) State { return rep[q] })
}

// bisimulation returns the coarsest (forward or backward) bisimulation of a
// as a block number per state. It refines the partition by finality
// (backward: initiality) with splitters, as Hopcroft's algorithm does: for a
// block S and a symbol x, every block is split into the states with an
// x-transition into S (backward: from S) and the others. A block that
// splits queues both parts as splitters (an NFA's states may reach both, so
// the smaller-half shortcut of DFA minimization does not apply). The result
// is stable: no splitter splits any block. It also returns the number of
// blocks.
func (a *NFA) bisimulation(backward bool) ([]int32, int) {
	n := a.n
	p := newPartition(n)
	if n == 0 {
		return p.blk, 0
	}
	// The pre-image edges of each state, as (symbol, state) pairs: the
	// sources of the transitions entering it (forward), or the targets of
	// those leaving it (backward).
	start, edges := a.out, a.trans // backward: the transitions leaving each state (Src unused)
	if !backward {
		r := a.reverseIndex()
		start = r.start
		edges = make([]Transition, len(a.trans))
		for i, k := range r.idx {
			t := a.trans[k]
			edges[i] = Transition{Sym: t.Sym, Dst: t.Src}
		}
	}
	for q := range State(n) {
		var in bool
		if backward {
			_, in = slices.BinarySearch(a.initial, q)
		} else {
			in = a.IsFinal(q)
		}
		if in {
			p.mark(q)
		}
	}
	p.splitMarked(nil)
	queue := make([]int32, 0, 2*p.numBlocks())
	queued := make([]bool, p.numBlocks(), 2*p.numBlocks())
	push := func(b int32) {
		for int(b) >= len(queued) {
			queued = append(queued, false)
		}
		if !queued[b] {
			queued[b] = true
			queue = append(queue, b)
		}
	}
	for b := range int32(p.numBlocks()) {
		push(b)
	}
	// The pre-image of a splitter, grouped by symbol with a counting sort.
	count := make([]int32, a.syms.Len()+1)
	var pre []Transition
	var grouped []State
	var used []Symbol
	for len(queue) > 0 {
		s := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		queued[s] = false
		pre = pre[:0]
		for _, q := range p.members(s) {
			for _, e := range edges[start[q]:start[q+1]] {
				if count[e.Sym] == 0 {
					used = append(used, e.Sym)
				}
				count[e.Sym]++
				pre = append(pre, e)
			}
		}
		if len(used) == 1 {
			// One symbol: no grouping needed.
			for _, e := range pre {
				p.mark(e.Dst)
			}
			count[used[0]] = 0
			used = used[:0]
			p.splitMarked(push)
			continue
		}
		// count[x] becomes the end of x's group in grouped.
		var end int32
		for _, x := range used {
			end += count[x]
			count[x] = end
		}
		grouped = slices.Grow(grouped[:0], len(pre))[:len(pre)]
		for _, e := range pre {
			count[e.Sym]--
			grouped[count[e.Sym]] = e.Dst
		}
		// Groups are consecutive in the order of used: group i spans
		// [count[used[i]], count[used[i+1]]).
		for i, x := range used {
			from := count[x]
			to := int32(len(pre))
			if i+1 < len(used) {
				to = count[used[i+1]]
			}
			for _, q := range grouped[from:to] {
				p.mark(q)
			}
			p.splitMarked(push)
		}
		for _, x := range used {
			count[x] = 0
		}
		used = used[:0]
	}
	return p.blk, p.numBlocks()
}

// partition is a refinable partition of states: each block is a range of
// elems, with its marked members at the front of the range.
type partition struct {
	elems   []State
	pos     []int32 // position of each state in elems
	blk     []int32 // block of each state
	start   []int32 // per block
	end     []int32
	marked  []int32 // per block: how many members are marked
	touched []int32 // blocks with marked members
}

func newPartition(n int) *partition {
	p := &partition{elems: make([]State, n), pos: make([]int32, n), blk: make([]int32, n),
		start: make([]int32, 0, n), end: make([]int32, 0, n), marked: make([]int32, 0, n)}
	for q := range n {
		p.elems[q] = State(q)
		p.pos[q] = int32(q)
	}
	if n > 0 {
		p.start = append(p.start, 0)
		p.end = append(p.end, int32(n))
		p.marked = append(p.marked, 0)
	}
	return p
}

func (p *partition) numBlocks() int { return len(p.start) }

func (p *partition) members(b int32) []State { return p.elems[p.start[b]:p.end[b]] }

func (p *partition) mark(q State) {
	b := p.blk[q]
	i := p.pos[q]
	m := p.start[b] + p.marked[b]
	if i < m {
		return // already marked
	}
	if p.marked[b] == 0 {
		p.touched = append(p.touched, b)
	}
	r := p.elems[m]
	p.elems[m], p.elems[i] = q, r
	p.pos[q], p.pos[r] = m, i
	p.marked[b]++
}

// splitMarked splits every touched block into its marked and unmarked
// members, giving the marked ones a new block, and calls split (if not nil)
// with both parts of each block that split.
func (p *partition) splitMarked(split func(b int32)) {
	for _, b := range p.touched {
		m := p.marked[b]
		p.marked[b] = 0
		if p.start[b]+m == p.end[b] {
			continue // all marked: no split
		}
		nb := int32(len(p.start))
		p.start = append(p.start, p.start[b])
		p.end = append(p.end, p.start[b]+m)
		p.marked = append(p.marked, 0)
		p.start[b] += m
		for _, q := range p.members(nb) {
			p.blk[q] = nb
		}
		if split != nil {
			split(b)
			split(nb)
		}
	}
	p.touched = p.touched[:0]
}
