package nfa

import "math/bits"

// Reduce returns an automaton with the same language and at most as many
// states and transitions: the trimmed automaton quotiented by forward
// bisimulation (states with the same finality whose successors by each
// symbol are bisimilar) and by backward bisimulation (the same on the
// reversed automaton, where initial states play the part of final ones),
// alternately until neither merges anything. Both quotients preserve the
// language; on a DFA the forward quotient is minimization.
func (a *NFA) Reduce() *NFA {
	// The scratch memory of every step, sized for the largest: the
	// automata only shrink.
	buf := make([]int32, 0, a.bisimulationMem())
	cur := a
	if !a.isTrimBuf(&buf) {
		cur = a.Trim()
	}
	// Alternate the two quotients. A quotient that merges nothing right
	// after the other one's (or after both were tried) ends the loop: the
	// automaton is then stable for both.
	backward := false
	for step := 1; ; step++ {
		if block, n := cur.bisimulation(backward, &buf); n < cur.n {
			cur = cur.quotientBy(block)
		} else if step >= 2 {
			return cur
		}
		backward = !backward
	}
}

// zeroed returns (*buf)[:n], zeroed, growing *buf when it is too short.
func zeroed(buf *[]int32, n int) []int32 {
	if cap(*buf) < n {
		*buf = make([]int32, n)
	}
	s := (*buf)[:n]
	clear(s)
	return s
}

// carve cuts the first n elements off *s, as a slice of capacity n.
func carve(s *[]int32, n int) []int32 {
	r := (*s)[:n:n]
	*s = (*s)[n:]
	return r
}

// isTrim reports whether every state is reachable and co-reachable.
func (a *NFA) isTrim() bool {
	var buf []int32
	return a.isTrimBuf(&buf)
}

// isTrimBuf is isTrim with its scratch memory in *buf.
func (a *NFA) isTrimBuf(buf *[]int32) bool {
	if a.n <= 64 {
		return a.isTrim64()
	}
	return a.isTrimIndex(buf)
}

// isTrimIndex is isTrim by searches forward and over an index of the
// transitions entering each state, its memory carved from *buf.
func (a *NFA) isTrimIndex(buf *[]int32) bool {
	n := a.n
	mem := zeroed(buf, 3*n+1+len(a.trans))
	seen, queue := carve(&mem, n), carve(&mem, n)
	// Reachability from the initial states.
	k := 0
	visit := func(q State) {
		if seen[q] == 0 {
			seen[q] = 1
			queue[k] = int32(q)
			k++
		}
	}
	for _, q := range a.initial {
		visit(q)
	}
	for i := 0; i < k; i++ {
		for _, t := range a.Out(State(queue[i])) {
			visit(t.Dst)
		}
	}
	if k < n {
		return false
	}
	// Co-reachability, over the transitions entering each state.
	start, src := carve(&mem, n+1), carve(&mem, len(a.trans))
	for _, t := range a.trans {
		start[t.Dst+1]++
	}
	for q := range n {
		start[q+1] += start[q]
	}
	fill := queue // free again: the fill pointers of the index
	copy(fill, start[:n])
	for _, t := range a.trans {
		src[fill[t.Dst]] = int32(t.Src)
		fill[t.Dst]++
	}
	k = 0
	for q := range State(n) {
		if a.IsFinal(q) {
			seen[q] = 2
			queue[k] = int32(q)
			k++
		}
	}
	for i := 0; i < k; i++ {
		q := queue[i]
		for _, p := range src[start[q]:start[q+1]] {
			if seen[p] != 2 {
				seen[p] = 2
				queue[k] = p
				k++
			}
		}
	}
	return k == n
}

// isTrim64 is isTrim for automata of at most 64 states, with the successors
// and the predecessors of each state as bitsets.
func (a *NFA) isTrim64() bool {
	var succ, pred [64]uint64
	for _, t := range a.trans {
		succ[t.Src] |= 1 << t.Dst
		pred[t.Dst] |= 1 << t.Src
	}
	var start uint64
	for _, q := range a.initial {
		start |= 1 << q
	}
	all := ^uint64(0) >> (64 - a.n)
	closure := func(from uint64, next *[64]uint64) uint64 {
		seen := from
		for todo := from; todo != 0; {
			q := bits.TrailingZeros64(todo)
			todo &^= 1 << q
			add := next[q] &^ seen
			seen |= add
			todo |= add
		}
		return seen
	}
	return a.n == 0 || closure(start, &succ) == all && closure(a.final[0], &pred) == all
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
	var buf []int32
	block, _ := a.bisimulation(backward, &buf)
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
// as a block number per state, and the number of blocks. It refines the
// partition by finality (backward: initiality) with splitters, as
// Hopcroft's algorithm does: for a block S and a symbol x, every block is
// split into the states with an x-transition into S (backward: from S) and
// the others. A block that splits queues both parts as splitters (an NFA's
// states may reach both, so the smaller-half shortcut of DFA minimization
// does not apply). The result is stable: no splitter splits any block. Its
// memory is one scratch array, *buf, which the returned blocks are part
// of. Small automata take bisimulation64, the others bisimulationSplit.
func (a *NFA) bisimulation(backward bool, buf *[]int32) ([]int32, int) {
	if a.n == 0 {
		return nil, 0
	}
	mem := zeroed(buf, a.bisimulationMem())
	start, sym, other := a.preImages(backward, &mem)
	if a.n <= 64 && a.syms.Len() <= 64 {
		return bisimulation64(a, backward, start, sym, other, carve(&mem, a.n))
	}
	return bisimulationSplit(a, backward, start, sym, other, mem)
}

// bisimulationSplit is bisimulation on a refinable partition (see
// partition), the edges given by preImages; mem is its scratch memory
// (9n+m+2|Σ|+1 elements).
func bisimulationSplit(a *NFA, backward bool, start, sym, other, mem []int32) ([]int32, int) {
	n, m := a.n, len(a.trans)
	var p partition
	p.init(n, &mem)
	if backward {
		for _, q := range a.initial {
			p.mark(q)
		}
	} else {
		for q := range State(n) {
			if a.IsFinal(q) {
				p.mark(q)
			}
		}
	}
	p.splitMarked(nil)
	// A block is in the queue at most once: at most n entries.
	sq := splitQueue{queue: carve(&mem, n)[:0], queued: carve(&mem, n)}
	for b := range int32(p.numBlocks()) {
		sq.push(b)
	}
	// The pre-image of a splitter, grouped by symbol with a counting sort.
	count := carve(&mem, a.syms.Len()+1)
	used := carve(&mem, a.syms.Len())[:0]
	grouped := carve(&mem, m)
	// Once every block is a single state, nothing is left to split.
	for len(sq.queue) > 0 && p.numBlocks() < n {
		s := sq.pop()
		total := int32(0)
		for _, q := range p.members(s) {
			for _, x := range sym[start[q]:start[q+1]] {
				if count[x] == 0 {
					used = append(used, x)
				}
				count[x]++
				total++
			}
		}
		// Marking reorders the members of blocks, s among them: collect
		// the pre-image first.
		if len(used) == 1 {
			// One symbol: no grouping needed.
			k := 0
			for _, q := range p.members(s) {
				k += copy(grouped[k:], other[start[q]:start[q+1]])
			}
			for _, r := range grouped[:k] {
				p.mark(State(r))
			}
			count[used[0]] = 0
			used = used[:0]
			p.splitMarked(&sq)
			continue
		}
		// count[x] becomes the end of x's group in grouped.
		var end int32
		for _, x := range used {
			end += count[x]
			count[x] = end
		}
		for _, q := range p.members(s) {
			for i := start[q]; i < start[q+1]; i++ {
				count[sym[i]]--
				grouped[count[sym[i]]] = other[i]
			}
		}
		// Groups are consecutive in the order of used: group i spans
		// [count[used[i]], count[used[i+1]]).
		for i, x := range used {
			from, to := count[x], total
			if i+1 < len(used) {
				to = count[used[i+1]]
			}
			for _, r := range grouped[from:to] {
				p.mark(State(r))
			}
			p.splitMarked(&sq)
		}
		for _, x := range used {
			count[x] = 0
		}
		used = used[:0]
	}
	return p.blk, p.numBlocks()
}

// preImages returns the pre-image edges of each state for bisimulation, as
// (symbol, state) pairs: the sources of the transitions entering it
// (forward), or the targets of those leaving it (backward); those of q are
// sym[i], other[i] for i in [start[q], start[q+1]). The arrays are carved
// from *mem (2n+1+2m elements).
func (a *NFA) preImages(backward bool, mem *[]int32) (start, sym, other []int32) {
	n, m := a.n, len(a.trans)
	start, sym, other = carve(mem, n+1), carve(mem, m), carve(mem, m)
	if backward {
		copy(start, a.out)
		for i, t := range a.trans {
			sym[i], other[i] = int32(t.Sym), int32(t.Dst)
		}
		return start, sym, other
	}
	for _, t := range a.trans {
		start[t.Dst+1]++
	}
	for q := range n {
		start[q+1] += start[q]
	}
	fill := carve(mem, n)
	copy(fill, start[:n])
	for _, t := range a.trans {
		i := fill[t.Dst]
		sym[i], other[i] = int32(t.Sym), int32(t.Src)
		fill[t.Dst]++
	}
	return start, sym, other
}

// bisimulation64 is bisimulation for automata of at most 64 states and 64
// symbols, the edges given by preImages: the blocks are bitsets of states,
// and the pre-image of a splitter by a symbol is one bitset too, so a
// splitter splits every block with a few word operations. The block of
// each state is written to blk.
func bisimulation64(a *NFA, backward bool, start, sym, other, blk []int32) ([]int32, int) {
	n := a.n
	var blocks [64]uint64 // the blocks, as bitsets of states
	var blockOf [64]uint8 // the block of each state
	var pre [64]uint64    // by symbol: the pre-image of the splitter
	var in uint64         // the final states (backward: the initial ones)
	if backward {
		for _, q := range a.initial {
			in |= 1 << q
		}
	} else {
		in = a.final[0]
	}
	nb := 0
	for _, b := range [2]uint64{in, ^in & (^uint64(0) >> (64 - n))} {
		if b != 0 {
			blocks[nb] = b
			for ; b != 0; b &= b - 1 {
				blockOf[bits.TrailingZeros64(b)] = uint8(nb)
			}
			nb++
		}
	}
	// The splitters to process, a bitset of blocks (their order does not
	// change the result, the coarsest stable partition); a block that
	// splits queues both parts.
	queue := uint64(1)<<nb - 1
	for queue != 0 && nb < n {
		s := bits.TrailingZeros64(queue)
		queue &^= 1 << s
		var used uint64 // the symbols of the pre-image
		for ss := blocks[s]; ss != 0; ss &= ss - 1 {
			q := bits.TrailingZeros64(ss)
			for i := start[q]; i < start[q+1]; i++ {
				pre[sym[i]] |= 1 << other[i]
				used |= 1 << sym[i]
			}
		}
		for ; used != 0; used &= used - 1 {
			x := bits.TrailingZeros64(used)
			p := pre[x]
			pre[x] = 0
			var touched uint64 // the blocks that meet p
			for ps := p; ps != 0; ps &= ps - 1 {
				touched |= 1 << blockOf[bits.TrailingZeros64(ps)]
			}
			for ; touched != 0; touched &= touched - 1 {
				b := bits.TrailingZeros64(touched)
				part := blocks[b] & p
				if part == blocks[b] {
					continue
				}
				rest := blocks[b] &^ part
				blocks[b], blocks[nb] = part, rest
				for ; rest != 0; rest &= rest - 1 {
					blockOf[bits.TrailingZeros64(rest)] = uint8(nb)
				}
				queue |= 1<<b | 1<<nb
				nb++
			}
		}
	}
	for q := range n {
		blk[q] = int32(blockOf[q])
	}
	return blk, nb
}

// ReduceBytes returns about the bytes Reduce allocates at most: its
// scratch memory, and the automata of its steps, which only shrink.
func (a *NFA) ReduceBytes() int64 {
	return 4*int64(a.bisimulationMem()) + 2*(12*int64(len(a.trans))+8*int64(a.n))
}

// bisimulationMem is the size of the scratch memory of bisimulation (more
// than isTrim's).
func (a *NFA) bisimulationMem() int {
	if a.n <= 64 && a.syms.Len() <= 64 {
		return 3*a.n + 2*len(a.trans) + 1
	}
	return 12*a.n + 3*len(a.trans) + 2*a.syms.Len() + 2
}

// splitQueue is the queue of splitters of bisimulation.
type splitQueue struct {
	queue  []int32
	queued []int32 // by block: 1 when in queue
}

func (sq *splitQueue) push(b int32) {
	if sq.queued[b] == 0 {
		sq.queued[b] = 1
		sq.queue = append(sq.queue, b)
	}
}

func (sq *splitQueue) pop() int32 {
	b := sq.queue[len(sq.queue)-1]
	sq.queue = sq.queue[:len(sq.queue)-1]
	sq.queued[b] = 0
	return b
}

// partition is a refinable partition of states: each block is a range of
// elems, with its marked members at the front of the range. A partition
// has at most n blocks, so that its arrays never grow.
type partition struct {
	elems   []int32
	pos     []int32 // position of each state in elems
	blk     []int32 // block of each state
	start   []int32 // per block
	end     []int32
	marked  []int32 // per block: how many members are marked
	touched []int32 // blocks with marked members
}

// init makes p the partition of n > 0 states into one block, its arrays
// carved from *mem (7n elements).
func (p *partition) init(n int, mem *[]int32) {
	*p = partition{elems: carve(mem, n), pos: carve(mem, n), blk: carve(mem, n),
		start: carve(mem, n)[:1], end: carve(mem, n)[:1], marked: carve(mem, n)[:1], touched: carve(mem, n)[:0]}
	for q := range n {
		p.elems[q] = int32(q)
		p.pos[q] = int32(q)
		p.blk[q] = 0
	}
	p.start[0], p.end[0], p.marked[0] = 0, int32(n), 0
}

func (p *partition) numBlocks() int { return len(p.start) }

func (p *partition) members(b int32) []int32 { return p.elems[p.start[b]:p.end[b]] }

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
	p.elems[m], p.elems[i] = int32(q), r
	p.pos[q], p.pos[r] = m, i
	p.marked[b]++
}

// splitMarked splits every touched block into its marked and unmarked
// members, giving the marked ones a new block, and queues both parts of
// each block that splits in sq (when not nil).
func (p *partition) splitMarked(sq *splitQueue) {
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
		if sq != nil {
			sq.push(b)
			sq.push(nb)
		}
	}
	p.touched = p.touched[:0]
}
