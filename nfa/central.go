package nfa

import (
	"encoding/binary"
	"math"
	"math/bits"
	"time"
)

// search builds Central(A, (μi)i) (Definition 4) lazily, depth first, from
// its initial state, and stops at the first final state (Algorithm 1).
//
// A state of Central(A, (μi)i) is the positions p1..pn reached in the local
// traces (the suffixes w1..wn) and a state q of A. The search explores the
// position tuples, each with a set of states of A as a bitset: the visited
// set maps a tuple, packed into one integer Σ pi·stride_i (a string of the
// positions when the product does not fit in 64 bits), to the states of A
// already reached there, and a stack entry carries the states newly reached.
// Reading a symbol of A consumes, at once, the head of every location the
// symbol touches, which must be the letter the symbol shows there; a symbol
// touching no location consumes nothing. In prefix mode a location whose
// trace is consumed stops constraining the rest: its letters become ε
// (lifeline removal on automata), and the search succeeds as soon as every
// trace is consumed (A is trim, so a final state is still reachable).
//
// Depth first, so a final state is found after few steps when one is
// reachable; among the successors, the one advancing the location that is
// least far through its trace (relatively) is tried first, which follows a
// balanced interleaving such as the one that produced the traces.
type search struct {
	c      *Checker
	n, w   int
	tr     [][]Letter
	L      []int32
	total  int
	stride []uint64
	fits   bool
	prefix bool
	inter  Bits // nil: every transition of A
	// While location i is at position p, the states of A allowed are those
	// of its forward subset there (the projection DFA's state, a row of
	// c.fwd[i]) and of bwd[i][p*w:(p+1)*w], its backward subset there (a
	// row of c.back[i] or c.backAny[i], copied). prune is false when there
	// is no pruning.
	prune bool
	bwd   [][]uint64
	// masks[i][p*w:(p+1)*w] is the and of the two rows, once ready (see
	// ensureMasks).
	masks [][]uint64
	ready bool

	vis   posMap
	big   map[string]int32
	vbits []uint64 // visited states, w words per tuple

	kstack []uint64 // per entry: the tuple's key
	pstack []int32  // per entry: sum, next successor, p1..pn
	rstack []uint64 // per entry: w words, the states newly reached
	m, r   []uint64 // scratch sets
	saved  []int32
	ppos   []int32 // the probe's positions
	cur    []uint64
	// The probe's priorities and candidates, per location; probe1's heads,
	// masks and masks after the heads.
	qprio, qscale, qkey []uint64
	qhead               []int32
	lanes               []lane
	qmask, qnext, qpre  []uint64
	order               []int
	prio                []float64
	inv                 []float64 // 1/|μi|

	maxNodes int
	deadline time.Time
	timedOut bool
	nodes    int
	best     int
	bestPos  []int32
	bestQ    State
}

// init prepares a search of mt. With prune, it computes the masks from the
// projections' walks (and then inter is not needed: see the Checker's
// NoPruning).
func (s *search) init(c *Checker, mt [][]Letter, prefix bool, inter Bits, prune bool) {
	n := len(mt)
	s.c, s.n, s.tr, s.prefix, s.inter = c, n, mt, prefix, inter
	s.maxNodes = c.opt.MaxNodes
	s.deadline, s.timedOut = time.Time{}, false
	if c.opt.Timeout > 0 {
		s.deadline = time.Now().Add(c.opt.Timeout)
	}
	s.nodes, s.best, s.bestPos, s.bestQ = 0, -1, s.bestPos[:0], -1
	s.L = s.L[:0]
	s.stride = s.stride[:0]
	s.total = 0
	s.fits = true
	st := uint64(1)
	for _, t := range mt {
		s.L = append(s.L, int32(len(t)))
		s.total += len(t)
		s.stride = append(s.stride, st)
		hi, lo := bits.Mul64(st, uint64(len(t))+1)
		if hi != 0 || lo >= 1<<62 {
			s.fits = false
		}
		st = lo
	}
	if s.fits {
		s.vis.reset()
	} else {
		s.big = map[string]int32{}
	}
	s.vbits = s.vbits[:0]
	s.kstack, s.pstack, s.rstack = s.kstack[:0], s.pstack[:0], s.rstack[:0]
	s.w = nwords(c.a.n)
	s.m, s.r, s.cur = resize(s.m, s.w), resize(s.r, s.w), resize(s.cur, s.w)
	s.order, s.prio, s.inv = s.order[:0], s.prio[:0], s.inv[:0]
	for _, t := range mt {
		s.order = append(s.order, 0)
		s.prio = append(s.prio, 0)
		s.inv = append(s.inv, 1/float64(max(len(t), 1)))
	}
	if !prune || n == 0 {
		s.prune = false
		return
	}
	s.inter = nil
	s.prune = true
	s.ready = false
	for len(s.bwd) < n {
		s.bwd, s.masks = append(s.bwd, nil), append(s.masks, nil)
	}
	s.bwdRows(prefix)
}

// ensureMasks computes the table of masks (the forward rows and the ands),
// which init leaves to the first user: the fast probes need the backward
// rows only (see setLanes).
func (s *search) ensureMasks() {
	if !s.prune || s.ready {
		return
	}
	s.ready = true
	for i, t := range s.tr {
		s.masks[i] = s.maskRows(s.masks[i], i, t)
	}
}

// maskRows walks trace t of location i on its projection DFA and returns,
// for each position p, the and of the forward row there (the DFA state's
// subset; a stuck walk allows nothing, and in prefix mode the position past
// the end allows every state) with the backward row s.bwd[i] there.
func (s *search) maskRows(m []uint64, i int, t []Letter) []uint64 {
	w, fwd, bwd := s.w, s.c.fwd[i], s.bwd[i]
	n := len(t)
	m = resize(m, (n+1)*w)
	rows := fwd.rows
	f := fwd.start
	for j := 0; j <= n; j++ {
		r := f.row
		if j == n && s.prefix {
			r = fwd.full
		}
		switch w {
		case 1:
			m[j] = rows[r] & bwd[j]
		case 2:
			m[2*j] = rows[r] & bwd[2*j]
			m[2*j+1] = rows[r+1] & bwd[2*j+1]
		default:
			fr, br, row := rows[r:][:w], bwd[j*w:][:w], m[j*w:][:w]
			for x := range row {
				row[x] = fr[x] & br[x]
			}
		}
		if j < n {
			f = fwd.next(f, t[j])
		}
	}
	return m
}

func resize32(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n, 2*n)
	}
	return b[:n]
}

func resize(b []uint64, n int) []uint64 {
	if cap(b) < n {
		return make([]uint64, n)
	}
	return b[:n]
}

// rowTable is a projection DFA (forward or backward) laid out for the
// walks that copy each state's row of states of A: the states are numbered
// by their row offsets o = q·k in step, whose entry step[o+x] gives the
// successor by letter x (next, -1 when there is none) and that successor's
// row (at rows[row:row+w]). One load per letter then carries both, and the
// walk's chain of dependent loads has no multiplication.
type rowTable struct {
	k           int32
	start       rowStep // the start state as a successor
	step        []rowStep
	rows        []uint64 // nwords(|Q|) words per state, then an empty row and a full one
	empty, full int32    // their offsets in rows
}

type rowStep struct{ next, row int32 }

// newRowTable lays out d, whose states stand for the sets of states of A
// (of n states).
func newRowTable(d *DFA, sets []Bits, n int) *rowTable {
	w := int32(nwords(n))
	b := &rowTable{k: int32(d.k), step: make([]rowStep, len(d.next)), rows: flatRows(sets, n),
		empty: int32(d.n) * w, full: int32(d.n+1) * w}
	at := func(q State) rowStep {
		if q < 0 {
			return rowStep{-1, b.empty}
		}
		return rowStep{int32(q) * b.k, int32(q) * w}
	}
	b.start = at(d.start)
	for x, q := range d.next {
		b.step[x] = at(q)
	}
	return b
}

// next returns the successor of f by letter a (the empty row's when there
// is none).
func (t *rowTable) next(f rowStep, a Letter) rowStep {
	if x := uint32(a); f.next >= 0 && x < uint32(t.k) {
		return t.step[uint32(f.next)+x]
	}
	return rowStep{-1, t.empty}
}

// bwdRows sets s.bwd[i], for each location i and each position p of its
// trace, to the row of the states of A from which the rest of the trace can
// be read: the backward walk's subset (a final state must then be reachable
// (exact) or any state (prefix)).
func (s *search) bwdRows(prefix bool) {
	w := s.w
	for i, t := range s.tr {
		back := s.c.back[i]
		if prefix {
			back = s.c.backAny[i]
		}
		n := len(t)
		bwd := resize(s.bwd[i], (n+1)*w)
		s.bwd[i] = bwd
		rows := back.rows
		b := back.start
		for j := n; ; j-- {
			switch w {
			case 1:
				bwd[j] = rows[b.row]
			case 2:
				bwd[2*j], bwd[2*j+1] = rows[b.row], rows[b.row+1]
			default:
				copy(bwd[j*w:(j+1)*w], rows[b.row:])
			}
			if j == 0 {
				break
			}
			b = back.next(b, t[j-1])
		}
	}
}

// allowed sets s.m to the states allowed at positions pos (masks on).
func (s *search) allowed(pos []int32) {
	w, m := s.w, s.m
	if w == 1 {
		x := ^uint64(0)
		for i, p := range pos {
			x &= s.masks[i][p]
		}
		m[0] = x
		return
	}
	for k := 0; k < w; k++ {
		m[k] = ^uint64(0)
	}
	for i, p := range pos {
		row := s.masks[i][int(p)*w : int(p)*w+w]
		for k, x := range row {
			m[k] &= x
		}
	}
}

// push adds the states s.r at positions pos (key, sum events consumed):
// those not visited there yet are marked and stacked. It reports whether
// one of them is final.
func (s *search) push(key uint64, sum int32, pos []int32) bool {
	if s.mark(key, sum, pos) == 0 {
		return false
	}
	if s.final(sum) {
		return true
	}
	r := s.r
	s.kstack = append(s.kstack, key)
	s.pstack = append(s.pstack, sum, 0)
	for _, p := range pos {
		s.pstack = append(s.pstack, p)
	}
	for k := 0; k < len(r); k++ {
		s.rstack = append(s.rstack, r[k])
	}
	return false
}

// final reports whether the states s.r, reached after sum events, end the
// search.
func (s *search) final(sum int32) bool {
	if int(sum) != s.total {
		return false
	}
	if s.prefix {
		return true
	}
	for k, x := range s.r {
		if x&s.c.a.final[k] != 0 {
			return true
		}
	}
	return false
}

// mark keeps in s.r the states allowed at pos and not visited there yet,
// marks them visited, and returns how many there are.
func (s *search) mark(key uint64, sum int32, pos []int32) int {
	r := s.r
	if s.prune {
		s.allowed(pos)
		m := s.m
		for k := 0; k < len(r); k++ {
			r[k] &= m[k]
		}
	}
	off := s.visit(key, pos)
	v := s.vbits[off : off+s.w]
	added := 0
	for k := 0; k < len(r); k++ {
		x := r[k] &^ v[k]
		r[k] = x
		v[k] |= x
		added += bits.OnesCount64(x)
	}
	if added == 0 {
		return 0
	}
	s.nodes += added
	if int(sum) > s.best {
		s.best = int(sum)
		s.bestPos = s.bestPos[:0]
		for _, p := range pos {
			s.bestPos = append(s.bestPos, p)
		}
		s.bestQ = State(firstBit(r))
	}
	return added
}

func firstBit(b []uint64) int {
	for k, x := range b {
		if x != 0 {
			return k<<6 + bits.TrailingZeros64(x)
		}
	}
	return -1
}

// visit returns the offset in vbits of the states visited at the tuple
// pos (of key), adding an empty set for a new tuple.
func (s *search) visit(key uint64, pos []int32) int {
	if s.fits {
		off, isNew := s.vis.get(key, int32(len(s.vbits)))
		if isNew {
			for k := 0; k < s.w; k++ {
				s.vbits = append(s.vbits, 0)
			}
		}
		return int(off)
	}
	var b []byte
	for _, p := range pos {
		b = binary.LittleEndian.AppendUint32(b, uint32(p))
	}
	if off, ok := s.big[string(b)]; ok {
		return int(off)
	}
	off := int32(len(s.vbits))
	s.big[string(b)] = off
	s.vbits = append(s.vbits, make([]uint64, s.w)...)
	return int(off)
}

// probe follows the search's first choices without a visited set: from
// the initial states, it reads at each step the head of the least advanced
// location (relative to its length) whose head leads to allowed states,
// and fails at the first step where none does. It decides most accepted
// multi-traces at a fraction of the search's cost (the search never
// backtracks on them); a failed probe decides nothing. It takes only
// single-part symbols, which consume an event each, so it ends.
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
	if s.c.succ != nil && s.inter == nil {
		switch s.w {
		case 1:
			return s.probe1()
		case 2:
			if n <= 64 {
				return s.probe2()
			}
		}
	}
	s.ensureMasks()
	c := s.c
	cur := s.cur
	clear(cur)
	for _, q := range c.a.initial {
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
				return false
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

// letter returns the global letter of event p of location i's trace, or
// -1 when the location has no such letter.
func (s *search) letter(i int, p int32) int {
	c := s.c
	x := int32(s.tr[i][p])
	if x < 0 || x >= c.base[i+1]-c.base[i] {
		return -1
	}
	return int(c.base[i] + x)
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

// probe1 is probe for automata of at most 64 states without areas, on
// words and the table succ: each step computes the successors by every
// location at once, without branches, then picks one. The masks of a
// location are computed as it moves (its forward DFA state is walked
// along), not taken from the table of ensureMasks.
func (s *search) probe1() bool {
	c, n := s.c, s.n
	G := c.G
	pos, prio, key := s.ppos, s.qprio, s.qkey
	s.qhead = resize32(s.qhead, n)
	s.qmask, s.qnext = resize(s.qmask, n), resize(s.qnext, n)
	s.qpre = resize(s.qpre, n)
	head := s.qhead
	mask, next, pre := s.qmask, s.qnext, s.qpre
	s.setLanes()
	lanes := s.lanes
	cur := uint64(0)
	for _, q := range c.a.initial {
		cur |= 1 << q
	}
	for i := range n {
		mask[i] = lanes[i].mask1(0)
		cur &= mask[i]
		head[i], next[i] = lanes[i].ahead1(0, int32(G))
	}
	if cur == 0 {
		return false
	}
	for sum := 0; sum < s.total; sum++ {
		var best int
		var br uint64
		if cur&(cur-1) == 0 {
			// One state (the common case): every location's candidate
			// from its row of successors, branch-free. res[i]: the states
			// reached by reading the head of location i and allowed there
			// (by its next mask and the others' masks); the candidates are
			// the locations where there are some, the least advanced
			// (ties: the first) wins.
			row := c.succ[bits.TrailingZeros64(cur)*(G+1):]
			acc := ^uint64(0)
			for i := range n {
				pre[i] = acc
				acc &= mask[i]
			}
			bk := uint64(math.MaxUint64)
			acc = ^uint64(0)
			for i := n - 1; i >= 0; i-- {
				r := row[head[i]] & next[i] & pre[i] & acc
				acc &= mask[i]
				k := prio[i]
				if r == 0 {
					k = math.MaxUint64
				}
				if k <= bk {
					best, bk, br = i, k, r
				}
			}
			if bk == math.MaxUint64 {
				return false
			}
		} else {
			// Several states: the same choice, but the candidates'
			// successors are computed in priority order, until one has
			// some (usually the first: the traces' own interleaving is
			// balanced).
			copy(key, prio)
			for {
				best = argmin(key[:n])
				if key[best] == math.MaxUint64 {
					return false
				}
				h := int(head[best])
				br = 0
				for x := cur; x != 0; x &= x - 1 {
					br |= c.succ[bits.TrailingZeros64(x)*(G+1)+h]
				}
				br &= next[best]
				for j, m := range mask[:n] {
					if j != best {
						br &= m
					}
				}
				if br != 0 {
					break
				}
				key[best] = math.MaxUint64
			}
		}
		cur = br
		at := pos[best] + 1
		pos[best] = at
		mask[best] = next[best]
		head[best], next[best] = lanes[best].ahead1(at, int32(G))
		if at < s.L[best] {
			prio[best] += s.qscale[best]
		} else {
			prio[best] = math.MaxUint64
		}
		s.nodes += bits.OnesCount64(cur)
		if s.nodes > s.maxNodes {
			return false
		}
	}
	s.r[0] = cur
	return s.final(int32(s.total))
}

// probe2 is probe1 for automata of 65 to 128 states: sets of two words,
// kept in pairs (mask[2i], mask[2i+1]). Unlike probe1, it computes the
// successors by one location at a time, the least advanced first, as
// probe does: the first one is nearly always taken.
func (s *search) probe2() bool {
	c, n := s.c, s.n
	G1 := c.G + 1
	succ := c.succ
	pos, prio := s.ppos, s.qprio
	G := int32(c.G)
	s.qhead = resize32(s.qhead, n)
	s.qmask, s.qnext = resize(s.qmask, 2*n), resize(s.qnext, 2*n)
	head := s.qhead
	mask, next := s.qmask, s.qnext
	var c0, c1 uint64
	for _, q := range c.a.initial {
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
				return false
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

// lane is what the fast probes use of a location, at hand.
type lane struct {
	tr          []Letter
	bwd         []uint64 // the backward rows by position; nil: no pruning
	base, nl, L int32    // the location's letters; the trace's length
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
	c := s.c
	s.lanes = s.lanes[:0]
	for i, t := range s.tr {
		l := lane{tr: t, base: c.base[i], nl: c.base[i+1] - c.base[i], L: s.L[i]}
		if s.prune {
			l.bwd = s.bwd[i]
		}
		s.lanes = append(s.lanes, l)
	}
}

// head returns the global letter of the lane's head at position p, or g
// (the empty column of succ) when there is none.
func (l *lane) head(p int32, g int32) int32 {
	if p >= l.L {
		return g
	}
	x := int32(l.tr[p])
	if x < 0 || x >= l.nl {
		return g
	}
	return l.base + x
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
	h := l.head(p, G)
	if h == G {
		return G, 0, 0
	}
	m0, m1 := l.mask2(p + 1)
	return h, m0, m1
}

// ahead1 is ahead2 on one word.
func (l *lane) ahead1(p int32, G int32) (int32, uint64) {
	h := l.head(p, G)
	if h == G {
		return G, 0
	}
	return h, l.mask1(p + 1)
}

// run searches; found is true when a final state was reached, stopped when
// a budget ran out first.
//
// The stack holds frames: a tuple, the states newly reached there, and the
// next successor to generate. Successors are generated one at a time, most
// promising first, so that a search that does not backtrack computes one
// successor per step. The successors of a frame are, in order: reading the
// head of one location (single-part symbols; the least advanced location
// first), in prefix mode the free moves on the letters of consumed
// locations, and the symbols of several parts or none (all at once).
func (s *search) run() (found, stopped bool) {
	s.ensureMasks()
	c, n, w := s.c, s.n, s.w
	a := c.a
	pos := make([]int32, n)
	clear(s.r)
	for _, q := range a.initial {
		s.r[q>>6] |= 1 << (q & 63)
	}
	if s.push(0, 0, pos) {
		return true, false
	}
	steps := 0
	cur := s.cur
	for len(s.kstack) > 0 {
		if s.nodes > s.maxNodes {
			return false, true
		}
		steps++
		if steps&1023 == 0 && !s.deadline.IsZero() && time.Now().After(s.deadline) {
			s.timedOut = true
			return false, true
		}
		key := s.kstack[len(s.kstack)-1]
		top := len(s.pstack) - (n + 2)
		sum, dir := s.pstack[top], s.pstack[top+1]
		s.pstack[top+1]++
		for i, p := range s.pstack[top+2 : top+2+n] {
			pos[i] = p
		}
		rtop := len(s.rstack) - w
		for k, x := range s.rstack[rtop:] {
			cur[k] = x
		}
		// The single-part directions, least advanced location first.
		k := 0
		for i := range n {
			if pos[i] < s.L[i] {
				s.order[k] = i
				s.prio[k] = float64(pos[i]) * s.inv[i]
				k++
			}
		}
		switch d := int(dir); {
		case d < k:
			for x := 1; x < k; x++ {
				for y := x; y > 0 && s.prio[y] < s.prio[y-1]; y-- {
					s.order[y], s.order[y-1] = s.order[y-1], s.order[y]
					s.prio[y], s.prio[y-1] = s.prio[y-1], s.prio[y]
				}
			}
			i := s.order[d]
			if k == 1 && !s.prefix && !c.hasOthers {
				// One location left and nothing else to read: no choice
				// of interleaving remains, so read the rest of its trace
				// as a subset simulation, without stacking frames.
				if s.chain(i, key, sum, pos, cur) {
					return true, false
				}
				continue
			}
			g := s.letter(i, pos[i])
			if g < 0 || !s.post(cur, g, g+1) {
				continue // no symbol shows this event here, or no transition
			}
			pos[i]++
			if s.push(key+s.stride[i], sum+1, pos) {
				return true, false
			}
		case d < k+n:
			// Prefix mode: the letters of a consumed location are ε.
			i := d - k
			if !s.prefix || pos[i] != s.L[i] {
				continue
			}
			if s.post(cur, int(c.base[i]), int(c.base[i+1])) && s.push(key, sum, pos) {
				return true, false
			}
		case d == k+n && c.hasOthers:
			for k, x := range cur {
				for x != 0 {
					q := State(k<<6 + bits.TrailingZeros64(x))
					x &= x - 1
					if c.ofirst[q] < c.ofirst[q+1] && s.others(q, key, sum, pos) {
						return true, false
					}
				}
			}
		default:
			// Every successor generated: pop the frame.
			s.kstack = s.kstack[:len(s.kstack)-1]
			s.pstack = s.pstack[:top]
			s.rstack = s.rstack[:rtop]
		}
	}
	return false, false
}

// chain reads the rest of location i's trace from the states cur at pos,
// the other locations being consumed; it reports whether a final state is
// reached at the end. The tuples it passes are marked visited as usual.
func (s *search) chain(i int, key uint64, sum int32, pos []int32, cur []uint64) bool {
	w := s.w
	for pos[i] < s.L[i] {
		g := s.letter(i, pos[i])
		if g < 0 || !s.post(cur, g, g+1) {
			return false
		}
		pos[i]++
		key += s.stride[i]
		sum++
		if s.mark(key, sum, pos) == 0 {
			return false
		}
		for k := 0; k < w; k++ {
			cur[k] = s.r[k]
		}
	}
	return s.final(sum)
}

// post sets s.r to the targets of the single-part transitions leaving the
// states of from whose global letter is in [glo, ghi), and reports whether
// there is one.
func (s *search) post(from []uint64, glo, ghi int) bool {
	c := s.c
	G := c.G
	r := s.r
	for k := 0; k < len(r); k++ {
		r[k] = 0
	}
	any := false
	for k, x := range from {
		for x != 0 {
			q := k<<6 + bits.TrailingZeros64(x)
			x &= x - 1
			lo, hi := c.first[q*G+glo], c.first[q*G+ghi]
			for j := lo; j < hi; j++ {
				if s.inter != nil && !s.inter.Has(int(c.byLetter[j])) {
					continue
				}
				d := c.ldst[j]
				r[d>>6] |= 1 << (d & 63)
				any = true
			}
		}
	}
	return any
}

// others pushes the successors of q by its transitions of several parts or
// none.
func (s *search) others(q State, key uint64, sum int32, pos []int32) bool {
	c := s.c
	for _, t := range c.others[c.ofirst[q]:c.ofirst[q+1]] {
		if s.inter != nil && !s.inter.Has(int(t)) {
			continue
		}
		tt := c.a.trans[t]
		ok, adv, nkey := true, int32(0), key
		saved := append(s.saved[:0], pos...)
		for _, p := range c.locs.Parts(tt.Sym) {
			switch i := p.Loc; {
			case pos[i] < s.L[i] && s.tr[i][pos[i]] == p.Letter:
				pos[i]++
				adv++
				nkey += s.stride[i]
			case pos[i] == s.L[i] && s.prefix:
			default:
				ok = false
			}
		}
		if ok {
			clear(s.r)
			s.r[tt.Dst>>6] |= 1 << (tt.Dst & 63)
			if s.push(nkey, sum+adv, pos) {
				return true
			}
		}
		copy(pos, saved)
	}
	return false
}

// explain returns the furthest positions reached and the symbols A could
// read there.
func (s *search) explain() ([]int, []Symbol) {
	prog := make([]int, s.n)
	if s.bestQ < 0 {
		return prog, s.c.expectedAt(s.c.a.initial, s.inter)
	}
	for i, p := range s.bestPos {
		prog[i] = int(p)
	}
	return prog, s.c.expectedAt([]State{s.bestQ}, s.inter)
}

// posMap maps uint64 keys to int32 values by open addressing. Clearing it
// is O(1): a slot belongs to the map only when it carries the current
// generation.
type posMap struct {
	slots []slot
	gen   uint32
	n     int
	shift uint
}

type slot struct {
	key uint64
	gen uint32
	val int32
}

const minSetSize = 1 << 10

func (s *posMap) reset() {
	// Shrink a table that a big search left behind, when the last search
	// used little of it.
	if len(s.slots) == 0 || len(s.slots) > 1<<16 && s.n < len(s.slots)/16 {
		size := minSetSize
		for size < 4*s.n {
			size <<= 1
		}
		s.alloc(size)
		return
	}
	s.gen++
	s.n = 0
	if s.gen == 0 {
		clear(s.slots)
		s.gen = 1
	}
}

func (s *posMap) alloc(size int) {
	s.slots = make([]slot, size)
	s.shift = uint(64 - bits.TrailingZeros(uint(size)))
	s.gen, s.n = 1, 0
}

// get returns the value of k, or adds k with value v.
func (s *posMap) get(k uint64, v int32) (int32, bool) {
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	h := (k * 0x9e3779b97f4a7c15) >> s.shift
	for {
		sl := &s.slots[h]
		if sl.gen != s.gen {
			sl.key, sl.gen, sl.val = k, s.gen, v
			s.n++
			return v, true
		}
		if sl.key == k {
			return sl.val, false
		}
		h = (h + 1) & mask
	}
}

func (s *posMap) grow() {
	old, gen := s.slots, s.gen
	s.alloc(2 * len(old))
	for _, sl := range old {
		if sl.gen == gen {
			s.get(sl.key, sl.val)
		}
	}
}
