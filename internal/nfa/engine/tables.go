package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

// Tables are what the checks run on: the NFA (trimmed), what each location
// observes of each of its symbols, and one projection per location with its
// labels. They are plain data, built by package nfa or decoded from a
// generated verifier's source (DecodeTables), and must be prepared
// (Prepare) before use; prepared tables are read-only and safe for
// concurrent use.
//
// Sets are bitsets of uint64 words: bit k is bit k&63 of word k>>6. A set
// of NFA states has nwords(NumStates) words, a set of transitions (an area)
// nwords(len(Trans)) words; rows of sets are laid out one after the other.
type Tables struct {
	NumStates int
	Initial   []State
	Final     []uint64     // over states
	Trans     []Transition // sorted by (Src, Sym, Dst): transition k is bit k of an area
	// Parts[x] is what each location observes of symbol x (in location
	// order, at most one part per location).
	Parts [][]Part
	// Projs holds one projection per location.
	Projs []Proj

	prepared bool
	sw, tw   int     // words of a set of states, of a set of transitions
	out      []int32 // the transitions leaving q: out[q] to out[q+1]
	// Central tables. Letters are numbered globally: letter x of location i
	// is lbase[i]+x, G letters in all. The transitions whose symbol has
	// exactly one part are grouped by (source, global letter):
	// byLetter[first[q*G+g] : first[q*G+g+1]], their targets in ldst; the
	// others (several parts, or none) by source: others[ofirst[q]:ofirst[q+1]].
	lbase          []int32
	base           []Action // Projs[i].Base, at hand
	G              int
	first          []int32
	byLetter, ldst []int32
	ofirst, others []int32
	// succ[(q*(G+1)+g)*sw:][:sw] are the targets of byLetter[first[q*G+g] :
	// first[q*G+g+1]] as a set (column G is empty), when the table is small;
	// nil otherwise.
	succ []uint64
	// free[(q*L+i)*sw:][:sw] are the states reached from q (q included) by
	// the letters of location i alone, L the locations: a probe's free moves
	// once location i is consumed (see closeFree1). Only with succ, on
	// automata of two words of states at most; nil otherwise.
	free []uint64
}

// DFA is a projection DFA over a location's K letters, as a dense table.
type DFA struct {
	NumStates int
	Start     State    // -1 when the DFA has no state (no trace at all)
	Next      []State  // Next[q*K+x]: the successor of q by letter x, or -1
	Final     []uint64 // over the DFA's states (forward projections only)
	// Subsets[q*sw:(q+1)*sw] are the NFA states of DFA state q.
	Subsets []uint64
}

// Proj is the projection Proj(A, Σi) of the NFA on the letters of one
// location (Def. 5 of the automata paper), with its labels: AreaOf gives
// area(q –x→) (Def. 6) for each entry of Next, Init is init (Def. 7), and
// FutureOf gives, per DFA state, the transitions a multi-prefix ending
// there may still use. Back and BackAny are the backward projections the
// central search prunes with (nil: no pruning): subset DFAs of the reversed
// NFA started from its final states (from every state for BackAny), whose
// state after reading the reverse of a word u holds the NFA states from
// which some path whose projection is u reaches a final state (any state).
type Proj struct {
	Name string
	Base Action // the location's letter x is the action Base+x
	K    int
	DFA
	AreaOf   []int32  // per entry of Next: an area index, -1 where Next is -1
	Areas    []uint64 // the distinct areas, one row each
	Init     []uint64
	FutureOf []int32  // per DFA state: a future index
	Futures  []uint64 // the distinct futures, one row each

	Back, BackAny *DFA

	// off is the table with successors as row offsets (q·K), -1 for none.
	off []int32
	// wide is the table of words of w letters, w > 1 (nil when even pairs
	// would make it large): wide[q·K^w + a1·K^(w-1) + … + aw] is the offset
	// (q'·K^w) of the state reached from q by a1…aw, or -1. A walk reads w
	// letters per lookup, which divides its chain of dependent loads by w.
	wide []int32
	w    int
	// labels holds the areas, then the unions of the areas along the words
	// of wide; labelOf[i] indexes the label of wide[i] (AreaOf indexes the
	// areas, which come first).
	labels  []uint64
	labelOf []int32
	// For the pruning of the central search: the forward and backward DFAs
	// as row tables.
	fwd, back, backAny *rowTable
}

// nwords returns the number of words of a set of n elements.
func nwords(n int) int { return (n + 63) >> 6 }

// ErrTables is wrapped by the errors of Prepare and DecodeTables.
var ErrTables = errors.New("invalid verifier tables")

func tablesErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrTables, fmt.Sprintf(format, args...))
}

// maxWideTable bounds the entries of a projection's table of words.
const maxWideTable = 1 << 13

// maxWide bounds the length of the words of the table.
const maxWide = 4

// maxWideLabels bounds the words of the labels of a table of words (each
// label is a set of transitions): an NFA with many transitions gets no
// table rather than one of large labels.
const maxWideLabels = 1 << 22

// maxDenseSucc bounds the words of the dense successor table.
const maxDenseSucc = 1 << 20

// maxCentral bounds the entries of the central search's index (a state
// times a global letter, 4 bytes each: 256 MiB): tables are refused past
// it, rather than a few characters of a generated verifier's tables
// asking for more memory than the machine has.
const maxCentral = 1 << 26

// Prepare checks the tables and builds what the checks need besides them:
// row tables, tables of words, the central index. It is idempotent; it must
// not run concurrently with anything else on t.
func (t *Tables) Prepare() error {
	if t.prepared {
		return nil
	}
	if err := t.validate(); err != nil {
		return err
	}
	t.sw, t.tw = nwords(t.NumStates), nwords(len(t.Trans))
	t.out = make([]int32, t.NumStates+1)
	for _, tr := range t.Trans {
		t.out[tr.Src+1]++
	}
	for q := range t.NumStates {
		t.out[q+1] += t.out[q]
	}
	for i := range t.Projs {
		p := &t.Projs[i]
		p.off = rowOffsets(&p.DFA, p.K)
		p.wideOffsets(t.tw)
		if p.Back != nil {
			p.fwd = newRowTable(&p.DFA, p.K, t.sw, false)
			p.back = newRowTable(p.Back, p.K, t.sw, true)
			p.backAny = newRowTable(p.BackAny, p.K, t.sw, true)
		}
	}
	t.central()
	t.prepared = true
	return nil
}

// validate checks every index of the tables, so that the checks cannot go
// out of range: tables decoded from a generated verifier's source are data.
func (t *Tables) validate() error {
	n := t.NumStates
	if n < 0 || int64(len(t.Trans)) >= 1<<31 {
		return tablesErr("%d states, %d transitions", n, len(t.Trans))
	}
	sw, tw := nwords(n), nwords(len(t.Trans))
	for _, q := range t.Initial {
		if q < 0 || int(q) >= n {
			return tablesErr("initial state %d out of range", q)
		}
	}
	if len(t.Final) != sw || !within(t.Final, n) {
		return tablesErr("final states: %d words for %d states", len(t.Final), n)
	}
	if len(t.Projs) == 0 {
		return tablesErr("no location")
	}
	for k, tr := range t.Trans {
		if tr.Src < 0 || int(tr.Src) >= n || tr.Dst < 0 || int(tr.Dst) >= n || tr.Sym < 0 || int(tr.Sym) >= len(t.Parts) {
			return tablesErr("transition %d out of range", k)
		}
		if k > 0 {
			p := t.Trans[k-1]
			if p.Src > tr.Src || p.Src == tr.Src && (p.Sym > tr.Sym || p.Sym == tr.Sym && p.Dst >= tr.Dst) {
				return tablesErr("transition %d out of order", k)
			}
		}
	}
	for x, ps := range t.Parts {
		for j, p := range ps {
			if p.Loc < 0 || p.Loc >= len(t.Projs) || j > 0 && ps[j-1].Loc >= p.Loc {
				return tablesErr("symbol %d: bad location", x)
			}
			pr := &t.Projs[p.Loc]
			if uint32(p.Action-pr.Base) >= uint32(pr.K) {
				return tablesErr("symbol %d: action %d is no letter of location %d", x, p.Action, p.Loc)
			}
		}
	}
	base := int64(0)
	for i := range t.Projs {
		p := &t.Projs[i]
		if p.K < 0 || p.K >= 1<<20 || int64(p.Base)+int64(p.K) >= 1<<31 || p.Base < 0 {
			return tablesErr("location %d: %d letters at %d", i, p.K, p.Base)
		}
		base += int64(p.K)
		if base >= 1<<24 {
			return tablesErr("too many letters")
		}
		if int64(n)*max(base, 1) > maxCentral {
			return tablesErr("%d states and %d letters: the central index would hold %d entries, more than %d", n, base, int64(n)*max(base, 1), maxCentral)
		}
		if err := p.DFA.validate(p.K, n, true); err != nil {
			return tablesErr("location %d: %v", i, err)
		}
		d := &p.DFA
		if len(p.AreaOf) != len(d.Next) || len(p.Areas)%max(tw, 1) != 0 || len(p.Init) != tw ||
			len(p.FutureOf) != d.NumStates || len(p.Futures)%max(tw, 1) != 0 {
			return tablesErr("location %d: labels of the wrong size", i)
		}
		if !rowsWithin(p.Areas, tw, len(t.Trans)) || !within(p.Init, len(t.Trans)) || !rowsWithin(p.Futures, tw, len(t.Trans)) {
			return tablesErr("location %d: labels with transitions out of range", i)
		}
		if tw == 0 && (len(p.Areas) > 0 || len(p.Futures) > 0) {
			return tablesErr("location %d: labels without transitions", i)
		}
		nAreas, nFut := 1<<31-1, 1<<31-1 // labels of no words: any index reads nothing
		if tw > 0 {
			nAreas, nFut = len(p.Areas)/tw, len(p.Futures)/tw
		}
		for e, x := range p.AreaOf {
			if (x < 0) != (d.Next[e] < 0) || int(x) >= nAreas || x < -1 {
				return tablesErr("location %d: area of entry %d", i, e)
			}
		}
		for q, x := range p.FutureOf {
			if x < 0 || int(x) >= nFut {
				return tablesErr("location %d: future of state %d", i, q)
			}
		}
		if (p.Back == nil) != (p.BackAny == nil) {
			return tablesErr("location %d: one backward projection of two", i)
		}
		if p.Back != nil {
			if err := p.Back.validate(p.K, n, false); err != nil {
				return tablesErr("location %d (backward): %v", i, err)
			}
			if err := p.BackAny.validate(p.K, n, false); err != nil {
				return tablesErr("location %d (backward, any end): %v", i, err)
			}
		}
	}
	return nil
}

func (d *DFA) validate(k, nfaStates int, final bool) error {
	sw := nwords(nfaStates)
	n := d.NumStates
	if n < 0 || int64(n)*int64(max(k, 1)) >= 1<<31 {
		return fmt.Errorf("%d states", n)
	}
	if d.Start < -1 || int(d.Start) >= n || n > 0 && d.Start < 0 {
		return fmt.Errorf("start state %d", d.Start)
	}
	if len(d.Next) != n*k || len(d.Subsets) != n*sw {
		return fmt.Errorf("tables of the wrong size")
	}
	if final && (len(d.Final) != nwords(n) || !within(d.Final, n)) {
		return fmt.Errorf("final states of the wrong size")
	}
	if !rowsWithin(d.Subsets, sw, nfaStates) {
		return fmt.Errorf("subsets with states out of range")
	}
	for e, r := range d.Next {
		if r < -1 || int(r) >= n {
			return fmt.Errorf("entry %d out of range", e)
		}
	}
	return nil
}

// within reports whether the set s has no element past n.
func within(s []uint64, n int) bool {
	for k, w := range s {
		switch lo := k << 6; {
		case n <= lo:
			if w != 0 {
				return false
			}
		case n-lo < 64:
			if w>>(n-lo) != 0 {
				return false
			}
		}
	}
	return true
}

// rowsWithin reports whether the rows of w words of rows have no element
// past n.
func rowsWithin(rows []uint64, w, n int) bool {
	if w == 0 {
		return len(rows) == 0
	}
	for r := 0; r+w <= len(rows); r += w {
		if !within(rows[r:r+w], n) {
			return false
		}
	}
	return true
}

// IsFinal reports whether q is final.
func (d *DFA) IsFinal(q State) bool { return q >= 0 && d.Final[q>>6]&(1<<(q&63)) != 0 }

// rowOffsets returns d's table with each successor as its row offset.
func rowOffsets(d *DFA, k int) []int32 {
	off := make([]int32, len(d.Next))
	for i, r := range d.Next {
		off[i] = -1
		if r >= 0 {
			off[i] = int32(r) * int32(k)
		}
	}
	return off
}

// wideOffsets builds the table of words of p (see Proj.wide), of the
// longest words, up to maxWide letters, that keep it within maxWideTable
// entries; none when pairs are already too many. It also lays out the
// labels.
func (p *Proj) wideOffsets(tw int) {
	d, k := &p.DFA, p.K
	p.labels = slices.Clip(p.Areas)
	w, kw := wideShape(d.NumStates, k, tw)
	if w == 0 {
		return
	}
	p.wide, p.w = make([]int32, d.NumStates*kw), w
	p.labelOf = make([]int32, d.NumStates*kw)
	nAreas := 0
	if tw > 0 {
		nAreas = len(p.Areas) / tw
	}
	index := map[string]int32{}
	for x := range nAreas {
		index[string(wordBytes(p.Areas[x*tw:(x+1)*tw]))] = int32(x)
	}
	labels := slices.Clone(p.Areas)
	union := make([]uint64, tw)
	for i := range p.wide {
		q, rest := i/kw, i%kw
		p.wide[i], p.labelOf[i] = -1, -1
		clear(union)
		for div := kw / k; div > 0 && q >= 0; div /= k {
			e := q*k + rest/div%k
			if x := p.AreaOf[e]; x >= 0 {
				orInto(union, p.Areas[int(x)*tw:(int(x)+1)*tw])
			}
			q = int(d.Next[e])
		}
		if q < 0 {
			continue
		}
		p.wide[i] = int32(q * kw)
		key := string(wordBytes(union))
		x, ok := index[key]
		if !ok {
			x = int32(len(labels) / max(tw, 1))
			index[key] = x
			labels = append(labels, union...)
		}
		p.labelOf[i] = x
	}
	p.labels = labels
}

// wideShape returns the length w of the words of the table of words of a
// projection of n states over k letters whose labels have tw words each,
// and the number k^w of words (see Proj.wide); w is 0 when it has none.
func wideShape(n, k, tw int) (w, kw int) {
	if k < 2 || n*k*k > maxWideTable || n*k*k*max(tw, 1) > maxWideLabels {
		return 0, 0
	}
	kw, w = k*k, 2
	for w < maxWide && n*kw*k <= maxWideTable && n*kw*k*max(tw, 1) <= maxWideLabels {
		kw *= k
		w++
	}
	return w, kw
}

// PrepareBytes returns about the bytes Prepare allocates on t besides t's
// own slices, at most (its row tables, tables of words and central
// index), so that a builder of tables can bound its memory before
// preparing them.
func (t *Tables) PrepareBytes() int64 {
	n, sw, tw := int64(t.NumStates), int64(nwords(t.NumStates)), int64(nwords(len(t.Trans)))
	G := int64(0)
	b := 4 * (n + 1) // out
	for i := range t.Projs {
		p := &t.Projs[i]
		G += int64(p.K)
		next := int64(len(p.Next))
		b += 4 * next // off
		if w, kw := wideShape(p.NumStates, p.K, int(tw)); w > 0 {
			entries := int64(p.NumStates * kw)
			b += 8*entries + 8*int64(len(p.Areas)) + 8*entries*tw // wide, labelOf, labels
		}
		if p.Back != nil {
			for _, d := range []*DFA{&p.DFA, p.Back, p.BackAny} {
				b += 8*int64(d.NumStates+1)*int64(p.K+1) + 8*(int64(len(d.Subsets))+2*sw) // a row table
			}
			if sw == 1 {
				b += 16 * int64(p.Back.NumStates+p.BackAny.NumStates+2) * int64(p.K+1) // the backward ones' words
			}
		}
	}
	m := int64(len(t.Trans))
	b += 4*(n*G+1) + 4*(n+1) + 4*2*m + 4*m // first, ofirst, byLetter and ldst, others
	if succ := n * (G + 1) * sw; succ <= maxDenseSucc {
		b += 8 * succ
		if sw <= 2 {
			b += 8 * n * int64(len(t.Projs)) * sw // free
		}
	}
	return b
}

// wordBytes returns the bytes of ws, for map keys.
func wordBytes(ws []uint64) []byte {
	b := make([]byte, 0, 8*len(ws))
	for _, w := range ws {
		b = append(b, byte(w), byte(w>>8), byte(w>>16), byte(w>>24), byte(w>>32), byte(w>>40), byte(w>>48), byte(w>>56))
	}
	return b
}

// rowTable is a DFA (forward or backward) laid out for the walks that copy
// each state's row of NFA states: the states are numbered by their row
// offsets o = q·(k+1) in step, whose entry step[o+x] gives the successor by
// letter x (next) and that successor's row (at rows[row:row+sw]). One load
// per letter then carries both, and the walk's chain of dependent loads has
// no multiplication. A sink state, after the DFA's, stands for none: it is
// the successor of a missing transition, of every letter from the sink, and
// of column k, which every letter outside the alphabet reads, and its row
// is the empty one; so a walk has no branch per letter.
type rowTable struct {
	k           uint32
	start       rowStep // the start state as a successor
	step        []rowStep
	rows        []uint64 // sw words per state, then an empty row and a full one
	empty, full int32    // their offsets in rows
	// word is step on automata of one word of states, each entry with the
	// successor's row itself: a walk's step is one load (the backward
	// walks of bwdRows; nil for the others).
	word      []wordStep
	wordStart wordStep
}

type rowStep struct{ next, row int32 }

type wordStep struct {
	row  uint64
	next int32
}

func newRowTable(d *DFA, k, sw int, words bool) *rowTable {
	w := int32(sw)
	rows := make([]uint64, 0, len(d.Subsets)+2*sw)
	rows = append(rows, d.Subsets...)
	rows = append(rows, make([]uint64, sw)...)
	for range sw {
		rows = append(rows, ^uint64(0))
	}
	k1 := int32(k + 1)
	b := &rowTable{k: uint32(k), step: make([]rowStep, (d.NumStates+1)*int(k1)), rows: rows,
		empty: int32(d.NumStates) * w, full: int32(d.NumStates+1) * w}
	sink := rowStep{int32(d.NumStates) * k1, b.empty}
	at := func(q State) rowStep {
		if q < 0 {
			return sink
		}
		return rowStep{int32(q) * k1, int32(q) * w}
	}
	b.start = at(d.Start)
	for x := range b.step {
		b.step[x] = sink
	}
	for x, q := range d.Next {
		b.step[int32(x/k)*k1+int32(x%k)] = at(q)
	}
	if words && sw == 1 {
		b.word = make([]wordStep, len(b.step))
		for x, f := range b.step {
			b.word[x] = wordStep{rows[f.row], f.next}
		}
		b.wordStart = wordStep{rows[b.start.row], b.start.next}
	}
	return b
}

// next returns the successor of f by letter x (the sink when there is
// none).
func (t *rowTable) next(f rowStep, x uint32) rowStep {
	return t.step[uint32(f.next)+min(x, t.k)]
}

// central builds the central search's index of the transitions.
func (t *Tables) central() {
	n := len(t.Projs)
	t.lbase = make([]int32, n+1)
	t.base = make([]Action, n)
	for i := range n {
		t.lbase[i+1] = t.lbase[i] + int32(t.Projs[i].K)
		t.base[i] = t.Projs[i].Base
	}
	G := int(t.lbase[n])
	t.G = G
	t.first = make([]int32, t.NumStates*G+1)
	t.ofirst = make([]int32, t.NumStates+1)
	glob := func(tr Transition) int {
		ps := t.Parts[tr.Sym]
		if len(ps) != 1 {
			return -1
		}
		p := ps[0]
		return int(t.lbase[p.Loc] + int32(p.Action-t.Projs[p.Loc].Base))
	}
	for _, tr := range t.Trans {
		if g := glob(tr); g >= 0 {
			t.first[int(tr.Src)*G+g+1]++
		} else {
			t.ofirst[tr.Src+1]++
		}
	}
	for i := range t.NumStates * G {
		t.first[i+1] += t.first[i]
	}
	for q := range t.NumStates {
		t.ofirst[q+1] += t.ofirst[q]
	}
	t.byLetter = make([]int32, t.first[t.NumStates*G])
	t.ldst = make([]int32, len(t.byLetter))
	t.others = make([]int32, t.ofirst[t.NumStates])
	fill := slices.Clone(t.first[:t.NumStates*G])
	ofill := slices.Clone(t.ofirst[:t.NumStates])
	sw := t.sw
	t.succ = nil
	if t.NumStates*(G+1)*sw <= maxDenseSucc {
		t.succ = make([]uint64, t.NumStates*(G+1)*sw)
	}
	for k, tr := range t.Trans {
		if g := glob(tr); g >= 0 {
			i := int(tr.Src)*G + g
			t.byLetter[fill[i]] = int32(k)
			t.ldst[fill[i]] = int32(tr.Dst)
			fill[i]++
			if t.succ != nil {
				t.succ[(int(tr.Src)*(G+1)+g)*sw+int(tr.Dst>>6)] |= 1 << (tr.Dst & 63)
			}
		} else {
			t.others[ofill[tr.Src]] = int32(k)
			ofill[tr.Src]++
		}
	}
	t.freeMoves()
}

// freeMoves computes t.free (see Tables), on automata of two words of
// states at most (a closure per state and location: a few thousand words).
func (t *Tables) freeMoves() {
	t.free = nil
	sw, L, G := t.sw, len(t.Projs), t.G
	if t.succ == nil || sw > 2 {
		return
	}
	t.free = make([]uint64, t.NumStates*L*sw)
	set := make([]uint64, sw)
	var todo []int
	for q := range t.NumStates {
		for i := range L {
			clear(set)
			set[q>>6] |= 1 << (q & 63)
			todo = append(todo[:0], q)
			for len(todo) > 0 {
				u := todo[len(todo)-1]
				todo = todo[:len(todo)-1]
				for g := t.lbase[i]; g < t.lbase[i+1]; g++ {
					row := t.succ[(u*(G+1)+int(g))*sw:][:sw]
					for k, x := range row {
						for x &^= set[k]; x != 0; x &= x - 1 {
							d := k<<6 + bits.TrailingZeros64(x)
							set[k] |= 1 << (d & 63)
							todo = append(todo, d)
						}
					}
				}
			}
			copy(t.free[(q*L+i)*sw:], set)
		}
	}
}

// NumLocations returns the number of locations.
func (t *Tables) NumLocations() int { return len(t.Projs) }
