package nfa

import (
	"hash/maphash"
	"slices"
	"unsafe"
)

// rows is a set of bitsets of w words each, each stored once, numbered in
// the order they were added. The subsets, areas and futures of a
// projection are rows: once built, their words lie one after the other in
// data (row r is data[r*w:(r+1)*w]), which is at once the engine's table,
// with no copy, and the index costs a few words per row (a hash and a
// link) rather than a key string per row.
//
// While they are added, the rows are kept in chunks of a fixed number of
// rows, so that a growing table is not copied again and again (a large
// slice that grows by appending allocates about five times its final size
// in all); done lays them out in data.
type rows struct {
	w        int
	perChunk int        // rows per chunk
	chunks   [][]uint64 // while adding: the rows, perChunk per chunk
	data     []uint64   // after done: the rows one after the other
	n        int
	first    map[uint64]int32 // a row's hash -> the last row added with that hash
	same     []int32          // per row: the previous row with the same hash, or -1
	seed     maphash.Seed
}

// chunkBytes is about the size of a chunk of rows.
const chunkBytes = 1 << 20

// rowIndexBytes is the cost of indexing a row besides its words: its link,
// and its share of the hash map (a key, a value and the map's overhead).
const rowIndexBytes = 4 + 32

func newRows(w int) *rows {
	return &rows{w: w, perChunk: max(1, chunkBytes/8/max(w, 1)), first: map[uint64]int32{}, seed: maphash.MakeSeed()}
}

// len returns the number of rows.
func (r *rows) len() int { return r.n }

// row returns row i. It must not be modified.
func (r *rows) row(i int32) Bits {
	w := r.w
	if r.chunks == nil {
		return Bits(r.data[int(i)*w : (int(i)+1)*w : (int(i)+1)*w])
	}
	c, k := int(i)/r.perChunk, int(i)%r.perChunk
	return Bits(r.chunks[c][k*w : (k+1)*w : (k+1)*w])
}

func (r *rows) hash(b Bits) uint64 {
	if len(b) == 0 {
		return 0
	}
	return maphash.Bytes(r.seed, unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), 8*len(b)))
}

// add returns the index of row b (of r.w words), adding it when it is new;
// new reports whether it was, and grown the bytes r took for it (the words
// of a larger chunk when one grew, and the index's cost).
func (r *rows) add(b Bits) (i int32, new bool, grown int64) {
	h := r.hash(b)
	if j, ok := r.first[h]; ok {
		for ; j >= 0; j = r.same[j] {
			if slices.Equal(r.row(j), b) {
				return j, false, 0
			}
		}
	}
	i = int32(r.n)
	full := r.perChunk * r.w
	if r.n%r.perChunk == 0 {
		var c []uint64
		if r.n > 0 {
			c = make([]uint64, 0, full) // past the first chunk, rows are many
		}
		r.chunks = append(r.chunks, c)
	}
	last := &r.chunks[len(r.chunks)-1]
	c := cap(*last)
	if len(*last)+r.w > c {
		// The first chunk doubles: a small table stays small.
		*last = slices.Grow(*last, min(max(2*c, r.w), full)-len(*last))
	}
	*last = append(*last, b...)
	prev, ok := r.first[h]
	if !ok {
		prev = -1
	}
	r.first[h] = i
	r.same = append(r.same, prev)
	r.n++
	return i, true, int64(cap(*last)-c)*8 + rowIndexBytes
}

// done lays the rows out in data and drops the index: the rows are only
// read from now on. It returns the bytes this takes beyond what add
// reported (a copy of the rows when there is more than one chunk).
func (r *rows) done() int64 {
	r.first, r.same = nil, nil
	if r.chunks == nil {
		return 0
	}
	chunks := r.chunks
	r.chunks = nil
	if len(chunks) == 1 {
		r.data = chunks[0]
		return 0
	}
	r.data = make([]uint64, 0, r.n*r.w)
	for _, c := range chunks {
		r.data = append(r.data, c...)
	}
	return int64(len(r.data)) * 8
}
