package rewrite

import (
	"math/bits"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hashslots"
)

// vertices stores the vertices of a search — a term and one position per
// component — in chunks of int32s, and deduplicates them with an
// open-addressing hash set, so that exploring a vertex allocates nothing
// but, now and then, a new chunk. Chunks of a fixed size (not one slice
// that doubles) never move: a large search does not hold an old copy of
// its vertices while it makes a new one twice as large, nor leave behind
// the address space of the copies it dropped.
type vertices struct {
	n      int       // slots after the term
	key    int       // the term and the first key-1 slots identify a vertex
	per    int       // vertices per chunk
	chunks [][]int32 // vertex i: chunks[i/per][(i%per)*(n+1):], the term then n slots
	// chunkBytes is the memory of the chunks, kept as they are made and
	// dropped: bytes is asked at every vertex, and a large search makes
	// many thousands of chunks (summing them there made a search's time
	// grow with the square of its vertices).
	chunkBytes int64
	count      int // vertices stored
	// table is the hash set: each slot is 0 (empty) or a vertex's index +
	// 1 in its low 32 bits and the top 32 bits of its hash in its high
	// ones. A vertex lies at the slot of its hash's top bits (shift says
	// how many are left out), or after it. The hash bits make a probe
	// that meets another vertex cost no read of that vertex (a large
	// search's vertices are far out of the cache: reading each vertex
	// met on the way made a probe's time grow with the search), and let
	// the table grow without reading a vertex either.
	table []uint64
	shift uint8
	used  int
}

// chunkInts is the size of a chunk of vertices, in int32s (16 KiB: a
// small search touches no more); a search keeps keptChunks of them (4 MiB),
// and a table of keptTable slots at most, from the one before. A table
// starts with minTable slots.
const (
	minTable   = 1 << 6
	chunkInts  = 1 << 12
	keptChunks = 256
	keptTable  = 1 << 20
)

// reset empties the set for vertices of n slots, of which the last budget
// are budgets: a vertex is subsumed by a vertex with the same term and the
// same other slots and at least its budgets (more budget allows more moves,
// so it reaches every goal the poorer one reaches, and hits fewer limits).
func (vs *vertices) reset(n, budget int) {
	vs.n = n
	vs.key = n + 1 - budget
	vs.per = max(1, chunkInts/(n+1))
	for k, c := range vs.chunks {
		if len(c) < vs.per*(n+1) {
			// Too small for these vertices: chunks are of chunkInts, or
			// of one vertex when one takes more.
			clear(vs.chunks[k:])
			vs.chunks = vs.chunks[:k]
			break
		}
	}
	// Keep a few chunks and a small table for the next search, not all
	// that a large search took.
	if len(vs.chunks) > keptChunks {
		clear(vs.chunks[keptChunks:]) // for the collector
		vs.chunks = vs.chunks[:keptChunks]
	}
	vs.chunkBytes = 0
	for _, c := range vs.chunks {
		vs.chunkBytes += 4 * int64(len(c))
	}
	vs.count = 0
	if len(vs.table) > keptTable {
		vs.table = nil
	}
	// The set is emptied by clearing its table, whose size is that of the
	// largest search yet: after a large search, the next small ones would
	// each clear it whole. The table, empty, is cut down to the size the
	// last search needed, so that clearing costs no more than that search.
	if n := max(minTable, ceilPow2(2*vs.used)); n < len(vs.table) {
		vs.table = vs.table[:n]
	}
	clear(vs.table)
	if len(vs.table) == 0 {
		vs.table = make([]uint64, minTable)
	}
	vs.shift = uint8(64 - bits.TrailingZeros(uint(len(vs.table))))
	vs.used = 0
}

// bytes returns the memory the vertices take.
func (vs *vertices) bytes() int64 {
	return 8*int64(cap(vs.table)) + vs.chunkBytes
}

// add appends a vertex and returns its index; its slots are to be
// written, all of them, through pos: they hold what a dropped vertex
// left there, or fresh memory (apply copies the parent's; decide clears
// the root's). Clearing them here as well wrote each vertex's memory
// twice; in a large search, the first write of fresh memory is most of
// its cost.
func (vs *vertices) add(t interaction.Term) int32 {
	i := vs.count
	if c := i / vs.per; c == len(vs.chunks) {
		vs.chunks = append(vs.chunks, make([]int32, max(chunkInts, vs.per*(vs.n+1))))
		vs.chunkBytes += 4 * int64(len(vs.chunks[c]))
	}
	vs.count++
	vs.slots(int32(i))[0] = int32(t)
	return int32(i)
}

// slots returns the term and slots of vertex i.
func (vs *vertices) slots(i int32) []int32 {
	o := int(i) % vs.per * (vs.n + 1)
	return vs.chunks[int(i)/vs.per][o : o+vs.n+1]
}

func (vs *vertices) term(i int32) interaction.Term {
	return interaction.Term(vs.slots(i)[0])
}

func (vs *vertices) pos(i int32) []int32 {
	return vs.slots(i)[1:]
}

// hash hashes vertex i's key (hashslots.Ints). The table places a vertex
// by the hash's top bits, so the hash ends with a full mix: without one,
// the vertices of a long run of positions (the last slot one more than its
// neighbour's) fell on a few slots in a row and each insertion probed the
// whole cluster (a search's time grew with the square of its vertices).
func (vs *vertices) hash(i int32) uint64 {
	return hashslots.Ints(vs.slots(i)[:vs.key])
}

// sameKey reports whether vertices i and j differ at most in their budgets.
func (vs *vertices) sameKey(i, j int32) bool {
	a, b := vs.slots(i)[:vs.key], vs.slots(j)[:vs.key]
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// covers reports whether every budget of vertex i is at least vertex j's.
func (vs *vertices) covers(i, j int32) bool {
	a, b := vs.slots(i)[vs.key:], vs.slots(j)[vs.key:]
	for k := range a {
		if a[k] < b[k] {
			return false
		}
	}
	return true
}

// insert adds vertex i to the set; it returns the index of a vertex already
// there that subsumes i and false, or i and true. The set keeps one vertex
// per key: i replaces a vertex it subsumes; when neither subsumes the other,
// i is to be explored but the set keeps the older one.
func (vs *vertices) insert(i int32) (int32, bool) {
	if 4*(vs.used+1) > 3*len(vs.table) {
		vs.grow()
	}
	h := vs.hash(i)
	tag := h &^ (1<<32 - 1)
	mask := uint64(len(vs.table) - 1)
	for s := h >> vs.shift; ; s = (s + 1) & mask {
		e := vs.table[s]
		if e == 0 {
			vs.table[s] = tag | uint64(i+1)
			vs.used++
			return i, true
		}
		j := int32(uint32(e)) - 1
		if e&^(1<<32-1) == tag && vs.sameKey(j, i) {
			switch {
			case vs.covers(j, i):
				return j, false
			case vs.covers(i, j):
				vs.table[s] = tag | uint64(i+1)
			}
			return i, true
		}
	}
}

// ceilPow2 returns the least power of 2 at least n (n ≥ 1).
func ceilPow2(n int) int {
	p := 1
	for p < n {
		p <<= 1
	}
	return p
}

// grow doubles the table (package hashslots).
func (vs *vertices) grow() { vs.table, vs.shift = hashslots.Grow(vs.table, vs.shift) }

// drop removes vertex i, the last one added (and not in the set).
func (vs *vertices) drop(i int32) {
	vs.count = int(i)
}

// find returns a vertex of the set that subsumes vertex i, or -1.
func (vs *vertices) find(i int32) int32 {
	h := vs.hash(i)
	tag := h &^ (1<<32 - 1)
	mask := uint64(len(vs.table) - 1)
	for s := h >> vs.shift; ; s = (s + 1) & mask {
		e := vs.table[s]
		if e == 0 {
			return -1
		}
		j := int32(uint32(e)) - 1
		if e&^(1<<32-1) == tag && vs.sameKey(j, i) {
			if vs.covers(j, i) {
				return j
			}
			return -1
		}
	}
}

func (vs *vertices) setTerm(i int32, t interaction.Term) {
	vs.slots(i)[0] = int32(t)
}
