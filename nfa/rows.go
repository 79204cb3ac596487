package nfa

import (
	"hash/maphash"
	"slices"
	"unsafe"
)

// rows is a set of bitsets of w words each, stored once each and one after
// the other in data: row r is data[r*w:(r+1)*w], rows are numbered in the
// order they were added. The subsets, areas and futures of a projection
// are rows: data is at once the engine's table, with no copy, and the
// index costs a few words per row (a hash and a link) rather than a key
// string per row.
type rows struct {
	w     int
	data  []uint64
	n     int
	first map[uint64]int32 // a row's hash -> the last row added with that hash
	same  []int32          // per row: the previous row with the same hash, or -1
	seed  maphash.Seed
}

// rowIndexBytes is the cost of indexing a row besides its words: its link,
// and its share of the hash map (a key, a value and the map's overhead).
const rowIndexBytes = 4 + 32

func newRows(w int) *rows {
	return &rows{w: w, first: map[uint64]int32{}, seed: maphash.MakeSeed()}
}

// len returns the number of rows.
func (r *rows) len() int { return r.n }

// row returns row i. It must not be modified.
func (r *rows) row(i int32) Bits { return Bits(r.data[int(i)*r.w : (int(i)+1)*r.w : (int(i)+1)*r.w]) }

func (r *rows) hash(b Bits) uint64 {
	if len(b) == 0 {
		return 0
	}
	return maphash.Bytes(r.seed, unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), 8*len(b)))
}

// add returns the index of row b (of r.w words), adding it when it is new;
// new reports whether it was, and grown the bytes r took for it (the words
// of a larger data array when it grew, and the index's cost).
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
	c := cap(r.data)
	r.data = append(r.data, b...)
	prev, ok := r.first[h]
	if !ok {
		prev = -1
	}
	r.first[h] = i
	r.same = append(r.same, prev)
	r.n++
	return i, true, int64(cap(r.data)-c)*8 + rowIndexBytes
}

// done drops the index: the rows are only read from now on.
func (r *rows) done() {
	r.first, r.same = nil, nil
	r.data = slices.Clip(r.data)
}
