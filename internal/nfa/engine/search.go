package engine

import (
	"encoding/binary"
	"math/bits"
	"time"
)

// search builds Central(A, (μi)i) (Definition 4 of the automata paper)
// lazily, depth first, from its initial state, and stops at the first final
// state (Algorithm 1).
//
// A state of Central(A, (μi)i) is the positions p1..pn reached in the local
// traces (the suffixes w1..wn) and a state q of A. The search explores the
// position tuples, each with a set of states of A as a bitset: the visited
// set maps a tuple, packed into one integer Σ pi·stride_i (a string of the
// positions when the product does not fit in 64 bits), to the states of A
// already reached there, and a stack entry carries the states newly reached.
// Reading a symbol of A consumes, at once, the head of every location the
// symbol touches, which must be the action the symbol shows there; a symbol
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
	t      *Tables
	n, w   int
	tr     [][]Action
	L      []int32
	total  int
	stride []uint64
	fits   bool
	prefix bool
	inter  []uint64 // nil: every transition of A
	// While location i is at position p, the states of A allowed are those
	// of its forward subset there (the projection DFA's state, a row of
	// Proj.fwd) and of bwd[i][p*w:(p+1)*w], its backward subset there (a
	// row of Proj.back or Proj.backAny, copied). prune is false when there
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
	rpos   []int32  // run's positions
	saved  []int32  // others' copy of them
	ppos   []int32  // the probe's positions
	fstack []int32  // closeFree's states to follow
	cur    []uint64
	// The probe's priorities and candidates, per location; probe1's heads,
	// masks and masks after the heads.
	qprio, qscale, qkey []uint64
	qhead               []int32
	lanes               []lane
	qmask, qnext        []uint64
	order               []int
	prio                []uint64
	scale               []uint64 // 2^40/|μi|: priorities are positions relative to the lengths, in fixed point

	maxNodes int
	deadline time.Time
	timedOut bool
	nodes    int
	best     int
	bestPos  []int32
	bestQ    State
}

// init prepares a search of mt. With prune, it computes the backward rows
// of the traces (the masks wait for ensureMasks).
func (s *search) init(c *Checker, mt [][]Action, prefix bool, inter []uint64, prune bool) {
	t := c.t
	n := len(mt)
	s.t, s.n, s.tr, s.prefix, s.inter = t, n, mt, prefix, inter
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
	for _, tr := range mt {
		s.L = append(s.L, int32(len(tr)))
		s.total += len(tr)
		s.stride = append(s.stride, st)
		hi, lo := bits.Mul64(st, uint64(len(tr))+1)
		if hi != 0 || lo >= 1<<62 {
			s.fits = false
		}
		st = lo
	}
	s.w = t.sw
	s.m, s.r, s.cur = resize(s.m, s.w), resize(s.r, s.w), resize(s.cur, s.w)
	s.order, s.prio, s.scale = s.order[:0], s.prio[:0], s.scale[:0]
	for _, tr := range mt {
		s.order = append(s.order, 0)
		s.prio = append(s.prio, 0)
		s.scale = append(s.scale, (1<<40)/uint64(max(len(tr), 1)))
	}
	s.prune = prune && n > 0
	s.ready = false
	if !s.prune {
		return
	}
	for len(s.bwd) < n {
		s.bwd, s.masks = append(s.bwd, nil), append(s.masks, nil)
	}
	s.bwdRows()
}

// release drops the search's references to the multi-trace, so that a
// pooled search does not keep it alive.
func (s *search) release() {
	s.tr = nil
	for i := range s.lanes {
		s.lanes[i].tr = nil
	}
}

// ensureMasks computes the table of masks (the forward rows and the ands),
// which init leaves to the first user: the fast probes need the backward
// rows only (see setLanes).
func (s *search) ensureMasks() {
	if !s.prune || s.ready {
		return
	}
	s.ready = true
	for i, tr := range s.tr {
		s.masks[i] = s.maskRows(s.masks[i], i, tr)
	}
}

// maskRows walks trace tr of location i on its projection DFA and returns,
// for each position p, the and of the forward row there (the DFA state's
// subset; a stuck walk allows nothing, and in prefix mode the position past
// the end allows every state) with the backward row s.bwd[i] there.
func (s *search) maskRows(m []uint64, i int, tr []Action) []uint64 {
	p := &s.t.Projs[i]
	w, fwd, bwd, base := s.w, p.fwd, s.bwd[i], p.Base
	n := len(tr)
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
			f = fwd.next(f, uint32(tr[j]-base))
		}
	}
	return m
}

// bwdRows sets s.bwd[i], for each location i and each position p of its
// trace, to the row of the states of A from which the rest of the trace can
// be read: the backward walk's subset (a final state must then be reachable
// (exact) or any state (prefix)).
//
// A walk is a chain of dependent loads, one per event: on automata of one
// word of states, the walks of two locations go together, so that each
// one's loads wait while the other's run.
func (s *search) bwdRows() {
	w := s.w
	for i, tr := range s.tr {
		s.bwd[i] = resize(s.bwd[i], (len(tr)+1)*w)
	}
	if w == 1 {
		for i := 0; i < s.n; i += 2 {
			if i+1 < s.n {
				walkBack2(s.backOf(i), s.backOf(i+1), s.tr[i], s.tr[i+1], s.t.Projs[i].Base, s.t.Projs[i+1].Base, s.bwd[i], s.bwd[i+1])
			} else {
				b := s.backOf(i)
				s.bwd[i][len(s.tr[i])] = b.wordStart.row
				walkBack1(b, b.wordStart, s.tr[i], s.t.Projs[i].Base, s.bwd[i])
			}
		}
		return
	}
	for i, tr := range s.tr {
		p := &s.t.Projs[i]
		back := s.backOf(i)
		n := len(tr)
		bwd := s.bwd[i]
		rows, base := back.rows, p.Base
		b := back.start
		for j := n; ; j-- {
			if w == 2 {
				bwd[2*j], bwd[2*j+1] = rows[b.row], rows[b.row+1]
			} else {
				copy(bwd[j*w:(j+1)*w], rows[b.row:])
			}
			if j == 0 {
				break
			}
			b = back.next(b, uint32(tr[j-1]-base))
		}
	}
}

// backOf returns the backward DFA of location i that the search prunes
// with: a final state must be reachable after the trace (exact) or any
// state (prefix).
func (s *search) backOf(i int) *rowTable {
	if s.prefix {
		return s.t.Projs[i].backAny
	}
	return s.t.Projs[i].back
}

// walkBack1 sets bwd[j], for j from len(tr)-1 down to 0, to the row (one
// word) of the state the backward walk of b reaches from f by reading tr[j:]
// backwards.
func walkBack1(b *rowTable, f wordStep, tr []Action, base Action, bwd []uint64) {
	word, k := b.word, b.k
	for j := len(tr) - 1; j >= 0; j-- {
		f = word[uint32(f.next)+min(uint32(tr[j]-base), k)]
		bwd[j] = f.row
	}
}

// walkBack2 is walkBack1 from the start (the walk's state after the whole
// trace, bwd[len(tr)] included) on the traces of two locations: together on
// the last events of both, then on the first ones of the longer alone.
func walkBack2(b0, b1 *rowTable, tr0, tr1 []Action, base0, base1 Action, bwd0, bwd1 []uint64) {
	f0, f1 := b0.wordStart, b1.wordStart
	n0, n1 := len(tr0), len(tr1)
	bwd0[n0], bwd1[n1] = f0.row, f1.row
	word0, k0 := b0.word, b0.k
	word1, k1 := b1.word, b1.k
	m := min(n0, n1)
	t0, t1 := tr0[n0-m:], tr1[n1-m:]
	o0, o1 := bwd0[n0-m:n0], bwd1[n1-m:n1]
	for j := m - 1; j >= 0; j-- {
		f0 = word0[uint32(f0.next)+min(uint32(t0[j]-base0), k0)]
		f1 = word1[uint32(f1.next)+min(uint32(t1[j]-base1), k1)]
		o0[j], o1[j] = f0.row, f1.row
	}
	if n0 > m {
		walkBack1(b0, f0, tr0[:n0-m], base0, bwd0)
	} else if n1 > m {
		walkBack1(b1, f1, tr1[:n1-m], base1, bwd1)
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
	// Loops, not copies: the slices are a few words, for which a call to
	// memmove costs more than the copy.
	//lint:ignore S1011 a few words: see above
	for _, p := range pos {
		s.pstack = append(s.pstack, p)
	}
	//lint:ignore S1011 a few words: see above
	for _, x := range r {
		s.rstack = append(s.rstack, x)
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
		if x&s.t.Final[k] != 0 {
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
		//lint:ignore S1011 a few words, for which memmove costs more (see push)
		for _, p := range pos {
			s.bestPos = append(s.bestPos, p)
		}
		s.bestQ = State(firstBit(r))
	}
	return added
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

// letter returns the global letter of event p of location i's trace, or
// -1 when the location has no such letter.
func (s *search) letter(i int, p int32) int {
	t := s.t
	x := uint32(s.tr[i][p] - t.base[i])
	if x >= uint32(t.lbase[i+1]-t.lbase[i]) {
		return -1
	}
	return int(t.lbase[i]) + int(x)
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
	t, n, w := s.t, s.n, s.w
	if s.fits {
		s.vis.reset()
	} else {
		s.big = map[string]int32{}
	}
	s.vbits = s.vbits[:0]
	s.kstack, s.pstack, s.rstack = s.kstack[:0], s.pstack[:0], s.rstack[:0]
	s.rpos = resize32(s.rpos, n)
	pos := s.rpos
	clear(pos)
	clear(s.r)
	for _, q := range t.Initial {
		s.r[q>>6] |= 1 << (q & 63)
	}
	if s.push(0, 0, pos) {
		return true, false
	}
	hasOthers := len(t.others) > 0
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
		//lint:ignore S1001 a few words, for which memmove costs more (see push)
		for i, p := range s.pstack[top+2 : top+2+n] {
			pos[i] = p
		}
		rtop := len(s.rstack) - w
		//lint:ignore S1001 a few words, for which memmove costs more (see push)
		for k, x := range s.rstack[rtop:] {
			cur[k] = x
		}
		// The single-part directions, least advanced location first.
		k := 0
		for i := range n {
			if pos[i] < s.L[i] {
				s.order[k] = i
				s.prio[k] = uint64(pos[i]) * s.scale[i]
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
			if k == 1 && !s.prefix && !hasOthers {
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
			if s.post(cur, int(t.lbase[i]), int(t.lbase[i+1])) && s.push(key, sum, pos) {
				return true, false
			}
		case d == k+n && hasOthers:
			for k, x := range cur {
				for x != 0 {
					q := State(k<<6 + bits.TrailingZeros64(x))
					x &= x - 1
					if t.ofirst[q] < t.ofirst[q+1] && s.others(q, key, sum, pos) {
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
		//lint:ignore S1001 a few words, for which memmove costs more (see push)
		for k, x := range s.r {
			cur[k] = x
		}
	}
	return s.final(sum)
}

// post sets s.r to the targets of the single-part transitions leaving the
// states of from whose global letter is in [glo, ghi), and reports whether
// there is one.
func (s *search) post(from []uint64, glo, ghi int) bool {
	t := s.t
	G := t.G
	r := s.r
	for k := range r {
		r[k] = 0
	}
	any := false
	for k, x := range from {
		for x != 0 {
			q := k<<6 + bits.TrailingZeros64(x)
			x &= x - 1
			lo, hi := t.first[q*G+glo], t.first[q*G+ghi]
			for j := lo; j < hi; j++ {
				if s.inter != nil && !has(s.inter, int(t.byLetter[j])) {
					continue
				}
				d := t.ldst[j]
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
	t := s.t
	s.saved = resize32(s.saved, len(pos))
	saved := s.saved
	for _, k := range t.others[t.ofirst[q]:t.ofirst[q+1]] {
		if s.inter != nil && !has(s.inter, int(k)) {
			continue
		}
		tt := t.Trans[k]
		ok, adv, nkey := true, int32(0), key
		copy(saved, pos)
		for _, p := range t.Parts[tt.Sym] {
			switch i := p.Loc; {
			case pos[i] < s.L[i] && s.tr[i][pos[i]] == p.Action:
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
		return prog, s.t.expectedAt(s.t.Initial, s.inter)
	}
	for i, p := range s.bestPos {
		prog[i] = int(p)
	}
	return prog, s.t.expectedAt([]State{s.bestQ}, s.inter)
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

func (m *posMap) reset() {
	// Shrink a table that a big search left behind, when the last search
	// used little of it.
	if len(m.slots) == 0 || len(m.slots) > 1<<16 && m.n < len(m.slots)/16 {
		size := minSetSize
		for size < 4*m.n {
			size <<= 1
		}
		m.alloc(size)
		return
	}
	m.gen++
	m.n = 0
	if m.gen == 0 {
		clear(m.slots)
		m.gen = 1
	}
}

func (m *posMap) alloc(size int) {
	m.slots = make([]slot, size)
	m.shift = uint(64 - bits.TrailingZeros(uint(size)))
	m.gen, m.n = 1, 0
}

// get returns the value of k, or adds k with value v.
func (m *posMap) get(k uint64, v int32) (int32, bool) {
	if 2*(m.n+1) > len(m.slots) {
		m.grow()
	}
	mask := uint64(len(m.slots) - 1)
	h := (k * 0x9e3779b97f4a7c15) >> m.shift
	for {
		sl := &m.slots[h]
		if sl.gen != m.gen {
			sl.key, sl.gen, sl.val = k, m.gen, v
			m.n++
			return v, true
		}
		if sl.key == k {
			return sl.val, false
		}
		h = (h + 1) & mask
	}
}

func (m *posMap) grow() {
	old, gen := m.slots, m.gen
	m.alloc(2 * len(old))
	for _, sl := range old {
		if sl.gen == gen {
			m.get(sl.key, sl.val)
		}
	}
}
