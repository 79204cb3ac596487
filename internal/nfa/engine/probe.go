package engine

import (
	"math"
	"math/bits"
)

// probe follows the search's first choices without a visited set: from
// the initial states, it reads at each step the head of the least advanced
// location (relative to its length) whose head leads to allowed states,
// and fails at the first step where none does. It decides most accepted
// multi-traces at a fraction of the search's cost (the search never
// backtracks on them); a failed probe decides nothing. It takes only
// single-part symbols, which consume an event each, and where it is stuck
// in prefix mode the free moves of consumed locations (see closeFree),
// which only add states; so it ends.
//
// Priorities are pos/len in fixed point (scale = 2^40/len), the maximum
// for a consumed trace; ties go to the first location.
func (s *search) probe() bool {
	n := s.n
	pos := resize32(s.ppos, n)
	clear(pos)
	s.ppos = pos
	s.qprio, s.qscale, s.qkey = resize(s.qprio, n), resize(s.qscale, n), resize(s.qkey, n)
	for i := range n {
		s.qprio[i], s.qscale[i] = math.MaxUint64, 0
		if s.L[i] > 0 {
			s.qprio[i], s.qscale[i] = 0, (1<<40)/uint64(s.L[i])
		}
	}
	if s.t.succ != nil && s.inter == nil {
		switch s.w {
		case 1:
			if n <= maxLanes {
				return s.probe1()
			}
		case 2:
			if n <= 64 {
				return s.probe2()
			}
		}
	}
	s.ensureMasks()
	t := s.t
	cur := s.cur
	clear(cur)
	for _, q := range t.Initial {
		cur[q>>6] |= 1 << (q & 63)
	}
	if s.prune {
		s.allowed(pos)
		for k := range cur {
			cur[k] &= s.m[k]
		}
	}
	prio, key := s.qprio, s.qkey
	for sum := 0; sum < s.total; sum++ {
		copy(key, prio)
		best := 0
		for {
			best = argmin(key[:n])
			if key[best] == math.MaxUint64 {
				if !s.closeFree(cur, pos) {
					return false
				}
				copy(key, prio) // more states: every candidate again
				continue
			}
			if s.probeStep(cur, pos, best) {
				break
			}
			key[best] = math.MaxUint64
		}
		if pos[best] < s.L[best] {
			prio[best] += s.qscale[best]
		} else {
			prio[best] = math.MaxUint64
		}
		for _, w := range cur {
			s.nodes += bits.OnesCount64(w)
		}
		if s.nodes > s.maxNodes {
			return false
		}
	}
	copy(s.r, cur)
	return s.final(int32(s.total))
}

// closeFree adds to the states cur, at positions pos, those the letters
// of the consumed locations lead to, within the allowed states, as the
// search's free moves do (prefix mode: those letters are ε), and reports
// whether it added any. The probes take free moves only where they are
// stuck: a multi-prefix mostly needs none, or a few where a removed
// lifeline's actions come before what is left to read. Each state is
// followed once, by its own transitions (a worklist): passes over every
// consumed location and every state of cur until none is added cost
// locations × states each, and a multi-prefix of one event among many
// lifelines takes as many passes as the free moves before it.
func (s *search) closeFree(cur []uint64, pos []int32) bool {
	if !s.prefix {
		return false
	}
	t := s.t
	if s.prune {
		s.allowed(pos)
	}
	stack := s.fstack[:0]
	for k, x := range cur {
		for x != 0 {
			stack = append(stack, int32(k<<6+bits.TrailingZeros64(x)))
			x &= x - 1
		}
	}
	G := t.G
	grew := false
	for len(stack) > 0 {
		q := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		for j := t.first[q*G]; j < t.first[q*G+G]; j++ {
			k := t.byLetter[j]
			if s.inter != nil && !has(s.inter, int(k)) {
				continue
			}
			if i := t.Parts[t.Trans[k].Sym][0].Loc; pos[i] != s.L[i] {
				continue
			}
			d := t.ldst[j]
			w, bit := d>>6, uint64(1)<<(d&63)
			if cur[w]&bit != 0 || s.prune && s.m[w]&bit == 0 {
				continue
			}
			cur[w] |= bit
			s.nodes++
			grew = true
			stack = append(stack, d)
		}
	}
	s.fstack = stack
	return grew
}

// free1 adds to the states cur of probe1 those its free moves lead to, in
// prefix mode, and reports whether there are more (then counted as nodes):
// out of the probe's loop, which it leaves lean.
func (s *search) free1(cur uint64) (uint64, bool) {
	if !s.prefix {
		return cur, false
	}
	more := closeFree1(s.lanes, s.t.free, cur) &^ cur
	s.nodes += bits.OnesCount64(more)
	return cur | more, more != 0
}

// free2 is free1 for probe2.
func (s *search) free2(c0, c1 uint64) (uint64, uint64, bool) {
	if !s.prefix {
		return c0, c1, false
	}
	m0, m1 := closeFree2(s, c0, c1)
	s.nodes += bits.OnesCount64(m0&^c0) + bits.OnesCount64(m1&^c1)
	return m0, m1, m0 != c0 || m1 != c1
}

// closeFree1 is closeFree for probe1: the states one word, the locations
// its lanes, by the table of free moves (Tables.free). The allowed states
// are kept at the end only: a state a free move leaves from can read what
// the lane of any other location has left if the state it reaches can
// (those letters are free for that lane too), and a consumed lane allows
// every state; so no state is kept that closeFree would not keep.
func closeFree1(ls []lane, free []uint64, cur uint64) uint64 {
	L := len(ls)
	allowed := ^uint64(0)
	for i := range ls {
		allowed &= ls[i].mask
	}
	for todo := cur; todo != 0; {
		more := uint64(0)
		for x := todo; x != 0; x &= x - 1 {
			row := free[bits.TrailingZeros64(x)*L:][:L]
			for i := range ls {
				if ls[i].at == ls[i].L {
					more |= row[i]
				}
			}
		}
		todo = more &^ cur
		cur |= todo
	}
	return cur & allowed
}

// closeFree2 is closeFree1 for probe2: the states two words (c0, c1),
// the allowed states its masks.
func closeFree2(s *search, c0, c1 uint64) (uint64, uint64) {
	n, free := s.n, s.t.free
	a0, a1 := ^uint64(0), ^uint64(0)
	if s.prune {
		for i := range n {
			a0 &= s.qmask[2*i]
			a1 &= s.qmask[2*i+1]
		}
	}
	for t0, t1 := c0, c1; t0|t1 != 0; {
		var m0, m1 uint64
		for k, x := range [2]uint64{t0, t1} {
			for ; x != 0; x &= x - 1 {
				row := free[(k<<6+bits.TrailingZeros64(x))*n*2:][:2*n]
				for i := range n {
					if s.ppos[i] == s.L[i] {
						m0 |= row[2*i]
						m1 |= row[2*i+1]
					}
				}
			}
		}
		t0, t1 = m0&^c0, m1&^c1
		c0, c1 = c0|t0, c1|t1
	}
	return c0 & a0, c1 & a1
}

// argmin returns the index of the least key, the first of equal ones.
func argmin(key []uint64) int {
	best := 0
	for i, k := range key {
		if k < key[best] {
			best = i
		}
	}
	return best
}

// probeStep reads the head of location i from the states cur at pos, if
// that leads to allowed states; it reports whether it did.
func (s *search) probeStep(cur []uint64, pos []int32, i int) bool {
	g := s.letter(i, pos[i])
	if g < 0 || !s.post(cur, g, g+1) {
		return false
	}
	pos[i]++
	any := uint64(0)
	if s.prune {
		s.allowed(pos)
		for k := range s.r {
			s.r[k] &= s.m[k]
			any |= s.r[k]
		}
	} else {
		for _, w := range s.r {
			any |= w
		}
	}
	if any == 0 {
		pos[i]--
		return false
	}
	copy(cur, s.r)
	return true
}

// probe1 is probe for automata of one word of states without areas, on
// words and the table succ. At each step in one state (the common case), it
// takes the least advanced location whose head leads somewhere its next mask
// allows, branch-free, then checks the others' masks (fastSteps); when they
// refuse, or in several states, it tries the candidates in priority order.
// The masks of a location are its backward rows (see setLanes).
func (s *search) probe1() bool {
	t := s.t
	G := int32(t.G)
	G1 := int(G) + 1
	succ := t.succ
	s.setLanes()
	ls := s.lanes
	cur := uint64(0)
	for _, q := range t.Initial {
		cur |= 1 << q
	}
	for i := range ls {
		l := &ls[i]
		l.mask = l.mask1(0)
		cur &= l.mask
		l.head, l.next = l.ahead1(0, G)
		l.prio, l.scale = math.MaxUint64, 0
		if l.L > 0 {
			l.prio, l.scale = uint64(i), (1<<40)/uint64(l.L)<<20
		}
	}
	if cur == 0 {
		return false
	}
	for sum := 0; sum < s.total; {
		var k, nodes int
		if len(ls) == 4 {
			cur, k, nodes = fastSteps4((*[4]lane)(ls), succ, G1, G, cur, s.total-sum)
		} else {
			cur, k, nodes = fastSteps(ls, succ, G1, G, cur, s.total-sum)
		}
		sum += k
		s.nodes += nodes
		if s.nodes > s.maxNodes {
			return false
		}
		if sum == s.total {
			break
		}
		// Several states, or the least advanced candidate's successors are
		// not allowed: the candidates' successors in priority order, until
		// one has some.
		tried := uint64(0)
		best, br := 0, uint64(0)
		for {
			bk := uint64(math.MaxUint64)
			for i := range ls {
				if k := ls[i].prio; k < bk && (i >= 64 || tried&(1<<i) == 0) {
					best, bk = i, k
				}
			}
			if best >= 64 {
				return false // more locations than tried has bits
			}
			if bk == math.MaxUint64 {
				// None: free moves, if they lead to more states (see
				// closeFree), then every candidate again.
				var ok bool
				if cur, ok = s.free1(cur); !ok {
					return false
				}
				tried = 0
				continue
			}
			h := int(ls[best].head)
			br = 0
			for x := cur; x != 0; x &= x - 1 {
				br |= succ[bits.TrailingZeros64(x)*G1+h]
			}
			br &= ls[best].next
			for j := range ls {
				if j != best {
					br &= ls[j].mask
				}
			}
			if br != 0 {
				break
			}
			tried |= 1 << best
		}
		cur = br
		ls[best].advance(G)
		sum++
		s.nodes += bits.OnesCount64(cur)
	}
	s.r[0] = cur
	return s.final(int32(s.total))
}

// fastSteps runs at most max steps of probe1 from the states cur while they
// are one state and the least advanced candidate's successors are allowed:
// the common case, in a loop small enough for the registers and without
// branches that depend on which lane is taken (they would be mispredicted
// at most steps: the lanes take turns). It returns the states reached, the
// steps taken and the nodes visited.
func fastSteps(ls []lane, succ []uint64, G1 int, G int32, cur uint64, max int) (uint64, int, int) {
	nodes := 0
	for k := range max {
		if cur&(cur-1) != 0 {
			return cur, k, nodes
		}
		row := succ[bits.TrailingZeros64(cur)*G1:][:G1]
		// The least priority among the lanes whose head leads somewhere
		// their next mask allows: a minimum, the lane's index being in the
		// priority's low bits.
		bk := uint64(math.MaxUint64)
		for i := range ls {
			l := &ls[i]
			p := l.prio
			if row[l.head]&l.next == 0 {
				p = math.MaxUint64
			}
			bk = min(bk, p)
		}
		if bk == math.MaxUint64 {
			return cur, k, nodes
		}
		best := int(bk & laneBits)
		br := row[ls[best].head] & ls[best].next
		for j := range ls {
			m := ls[j].mask
			if j == best {
				m = math.MaxUint64
			}
			br &= m
		}
		if br == 0 {
			return cur, k, nodes
		}
		cur = br
		// ls[best].advance(G) by hand: it is too large to be inlined, and
		// a call would spill the loop's registers.
		l := &ls[best]
		l.at++
		l.mask = l.next
		l.head, l.next = l.ahead1(l.at, G)
		l.prio += l.scale
		if l.at >= l.L {
			l.prio = math.MaxUint64
		}
		nodes += bits.OnesCount64(cur)
	}
	return cur, max, nodes
}

// fastSteps4 is fastSteps on four lanes, its loops over the lanes written
// out.
func fastSteps4(ls *[4]lane, succ []uint64, G1 int, G int32, cur uint64, max int) (uint64, int, int) {
	nodes := 0
	l0, l1, l2, l3 := &ls[0], &ls[1], &ls[2], &ls[3]
	for k := range max {
		if cur&(cur-1) != 0 {
			return cur, k, nodes
		}
		row := succ[bits.TrailingZeros64(cur)*G1:][:G1]
		p0, p1, p2, p3 := l0.prio, l1.prio, l2.prio, l3.prio
		if row[l0.head]&l0.next == 0 {
			p0 = math.MaxUint64
		}
		if row[l1.head]&l1.next == 0 {
			p1 = math.MaxUint64
		}
		if row[l2.head]&l2.next == 0 {
			p2 = math.MaxUint64
		}
		if row[l3.head]&l3.next == 0 {
			p3 = math.MaxUint64
		}
		bk := min(p0, p1, p2, p3)
		if bk == math.MaxUint64 {
			return cur, k, nodes
		}
		best := int(bk&laneBits) & 3
		m0, m1, m2, m3 := l0.mask, l1.mask, l2.mask, l3.mask
		if best == 0 {
			m0 = math.MaxUint64
		}
		if best == 1 {
			m1 = math.MaxUint64
		}
		if best == 2 {
			m2 = math.MaxUint64
		}
		if best == 3 {
			m3 = math.MaxUint64
		}
		l := &ls[best]
		br := row[l.head] & l.next & m0 & m1 & m2 & m3
		if br == 0 {
			return cur, k, nodes
		}
		cur = br
		l.at++
		l.mask = l.next
		l.head, l.next = l.ahead1(l.at, G)
		l.prio += l.scale
		if l.at >= l.L {
			l.prio = math.MaxUint64
		}
		nodes += bits.OnesCount64(cur)
	}
	return cur, max, nodes
}

// laneBits are the low bits of a lane's priority that hold its index (see
// lane), maxLanes the lanes they number.
const (
	laneBits = 1<<20 - 1
	maxLanes = laneBits + 1
)

// advance moves the lane past its head, for probe1.
func (l *lane) advance(G int32) {
	l.at++
	l.mask = l.next
	l.head, l.next = l.ahead1(l.at, G)
	if l.at < l.L {
		l.prio += l.scale
	} else {
		l.prio = math.MaxUint64
	}
}

// probe2 is probe1 for automata of two words of states: sets of two words,
// kept in pairs (mask[2i], mask[2i+1]). Unlike probe1, it computes the
// successors by one location at a time, the least advanced first, as probe
// does: the first one is nearly always taken.
func (s *search) probe2() bool {
	t, n := s.t, s.n
	G1 := t.G + 1
	succ := t.succ
	pos, prio := s.ppos, s.qprio
	G := int32(t.G)
	s.qhead = resize32(s.qhead, n)
	s.qmask, s.qnext = resize(s.qmask, 2*n), resize(s.qnext, 2*n)
	head := s.qhead
	mask, next := s.qmask, s.qnext
	var c0, c1 uint64
	for _, q := range t.Initial {
		if q < 64 {
			c0 |= 1 << q
		} else {
			c1 |= 1 << (q - 64)
		}
	}
	s.setLanes()
	lanes := s.lanes
	for i := range n {
		mask[2*i], mask[2*i+1] = lanes[i].mask2(0)
		c0 &= mask[2*i]
		c1 &= mask[2*i+1]
		head[i], next[2*i], next[2*i+1] = lanes[i].ahead2(0, G)
	}
	if c0|c1 == 0 {
		return false
	}
	for sum := 0; sum < s.total; sum++ {
		var best int
		var b0, b1 uint64
		tried := uint64(0)
		for {
			bk := uint64(math.MaxUint64)
			best = 0
			for i, k := range prio[:n] {
				if k < bk && tried&(1<<i) == 0 {
					best, bk = i, k
				}
			}
			if bk == math.MaxUint64 {
				// None: free moves (see closeFree), then every candidate again.
				var ok bool
				if c0, c1, ok = s.free2(c0, c1); !ok {
					return false
				}
				tried = 0
				continue
			}
			h := 2 * int(head[best])
			if c0&(c0-1) == 0 && c1 == 0 {
				row := succ[bits.TrailingZeros64(c0)*G1*2+h:]
				b0, b1 = row[0], row[1]
			} else if c0 == 0 && c1&(c1-1) == 0 {
				row := succ[(64+bits.TrailingZeros64(c1))*G1*2+h:]
				b0, b1 = row[0], row[1]
			} else {
				b0, b1 = 0, 0
				for x := c0; x != 0; x &= x - 1 {
					row := succ[bits.TrailingZeros64(x)*G1*2+h:]
					b0 |= row[0]
					b1 |= row[1]
				}
				for x := c1; x != 0; x &= x - 1 {
					row := succ[(64+bits.TrailingZeros64(x))*G1*2+h:]
					b0 |= row[0]
					b1 |= row[1]
				}
			}
			b0 &= next[2*best]
			b1 &= next[2*best+1]
			if s.prune {
				for j := range n {
					if j != best {
						b0 &= mask[2*j]
						b1 &= mask[2*j+1]
					}
				}
			}
			if b0|b1 != 0 {
				break
			}
			tried |= 1 << best
		}
		c0, c1 = b0, b1
		at := pos[best] + 1
		pos[best] = at
		mask[2*best], mask[2*best+1] = next[2*best], next[2*best+1]
		head[best], next[2*best], next[2*best+1] = lanes[best].ahead2(at, G)
		if at < s.L[best] {
			prio[best] += s.qscale[best]
		} else {
			prio[best] = math.MaxUint64
		}
		s.nodes += bits.OnesCount64(c0) + bits.OnesCount64(c1)
		if s.nodes > s.maxNodes {
			return false
		}
	}
	s.r[0], s.r[1] = c0, c1
	return s.final(int32(s.total))
}

// lane is what the fast probes use of a location, at hand: its trace and
// backward rows, and probe1's state of it.
type lane struct {
	tr        []Action
	bwd       []uint64 // the backward rows by position; nil: no pruning
	base      Action   // the location's letters are base..base+nl-1
	lbase, nl int32    // their global numbers start at lbase
	L         int32    // the trace's length
	// probe1: the position, the global letter of the head (G when none),
	// the states allowed now and after the head, the priority (the
	// position relative to L in fixed point, 2^40 for the whole trace, in
	// the bits above laneBits, and the lane's index in those bits, so that
	// ties go to the first lane: scale = 2^40/L << 20; the maximum when
	// the trace is consumed).
	at, head    int32
	mask, next  uint64
	prio, scale uint64
}

// setLanes sets s.lanes for the fast probes.
//
// Their masks are the backward rows alone: the forward rows cannot prune
// there. The probe's states start in the forward rows of every location
// (the start subsets hold the initial states), and a step by a letter of
// location i leads from the forward row of i to the next one (a subset
// state is the closure of the targets), and stays in those of the others
// (their subsets are closed under the letters they do not observe).
func (s *search) setLanes() {
	t := s.t
	s.lanes = s.lanes[:0]
	for i, tr := range s.tr {
		p := &t.Projs[i]
		l := lane{tr: tr, base: p.Base, lbase: t.lbase[i], nl: int32(p.K), L: s.L[i]}
		if s.prune {
			l.bwd = s.bwd[i]
		}
		s.lanes = append(s.lanes, l)
	}
}

// headAt returns the global letter of the lane's head at position p, or g
// (the empty column of succ) when there is none.
func (l *lane) headAt(p int32, g int32) int32 {
	if p >= l.L {
		return g
	}
	x := uint32(l.tr[p] - l.base)
	if x >= uint32(l.nl) {
		return g
	}
	return l.lbase + int32(x)
}

// mask1 returns the states allowed while the lane is at position p (one
// word).
func (l *lane) mask1(p int32) uint64 {
	if l.bwd == nil {
		return ^uint64(0)
	}
	return l.bwd[p]
}

// mask2 is mask1 on two words.
func (l *lane) mask2(p int32) (uint64, uint64) {
	if l.bwd == nil {
		return ^uint64(0), ^uint64(0)
	}
	br := l.bwd[2*p:]
	return br[0], br[1]
}

// ahead2 returns the global letter of the lane's head at position p (G
// when there is none) and the states allowed after reading it.
func (l *lane) ahead2(p int32, G int32) (int32, uint64, uint64) {
	h := l.headAt(p, G)
	if h == G {
		return G, 0, 0
	}
	m0, m1 := l.mask2(p + 1)
	return h, m0, m1
}

// ahead1 is ahead2 on one word.
func (l *lane) ahead1(p int32, G int32) (int32, uint64) {
	h := l.headAt(p, G)
	if h == G {
		return G, 0
	}
	return h, l.mask1(p + 1)
}
