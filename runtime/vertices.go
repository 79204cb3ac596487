package runtime

import "github.com/ivc-project/ivc/interaction"

// vertices stores the vertices of a search — a term and one position per
// component — in one arena of int32s, and deduplicates them with an
// open-addressing hash set, so that exploring a vertex allocates nothing
// but amortized arena growth.
type vertices struct {
	n     int     // slots after the term
	key   int     // the term and the first key-1 slots identify a vertex
	arena []int32 // vertex i: arena[i*(n+1)] = term, then n slots
	table []int32 // hash set of vertex indices + 1; 0 = empty slot
	used  int
}

// reset empties the set for vertices of n slots, of which the last budget
// are budgets: a vertex is subsumed by a vertex with the same term and the
// same other slots and at least its budgets (more budget allows more moves,
// so it reaches every goal the poorer one reaches, and hits fewer limits).
func (vs *vertices) reset(n, budget int) {
	vs.n = n
	vs.key = n + 1 - budget
	vs.arena = vs.arena[:0]
	clear(vs.table)
	if len(vs.table) == 0 {
		vs.table = make([]int32, 1024)
	}
	vs.used = 0
}

// add appends a vertex and returns its index; its positions are to be
// filled in through pos.
func (vs *vertices) add(t interaction.Term) int32 {
	i := int32(len(vs.arena) / (vs.n + 1))
	vs.arena = append(vs.arena, int32(t))
	for k := 0; k < vs.n; k++ {
		vs.arena = append(vs.arena, 0)
	}
	return i
}

func (vs *vertices) term(i int32) interaction.Term {
	return interaction.Term(vs.arena[int(i)*(vs.n+1)])
}

func (vs *vertices) pos(i int32) []int32 {
	o := int(i)*(vs.n+1) + 1
	return vs.arena[o : o+vs.n]
}

func (vs *vertices) hash(i int32) uint64 {
	o := int(i) * (vs.n + 1)
	h := uint64(14695981039346656037)
	for _, x := range vs.arena[o : o+vs.key] {
		h ^= uint64(uint32(x))
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// sameKey reports whether vertices i and j differ at most in their budgets.
func (vs *vertices) sameKey(i, j int32) bool {
	a := vs.arena[int(i)*(vs.n+1) : int(i)*(vs.n+1)+vs.key]
	b := vs.arena[int(j)*(vs.n+1) : int(j)*(vs.n+1)+vs.key]
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// covers reports whether every budget of vertex i is at least vertex j's.
func (vs *vertices) covers(i, j int32) bool {
	a := vs.arena[int(i)*(vs.n+1)+vs.key : int(i+1)*(vs.n+1)]
	b := vs.arena[int(j)*(vs.n+1)+vs.key : int(j+1)*(vs.n+1)]
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
	mask := uint64(len(vs.table) - 1)
	for h := vs.hash(i) & mask; ; h = (h + 1) & mask {
		j := vs.table[h]
		if j == 0 {
			vs.table[h] = i + 1
			vs.used++
			return i, true
		}
		if vs.sameKey(j-1, i) {
			switch {
			case vs.covers(j-1, i):
				return j - 1, false
			case vs.covers(i, j-1):
				vs.table[h] = i + 1
			}
			return i, true
		}
	}
}

func (vs *vertices) grow() {
	old := vs.table
	vs.table = make([]int32, 2*len(old))
	mask := uint64(len(vs.table) - 1)
	for _, j := range old {
		if j == 0 {
			continue
		}
		h := vs.hash(j-1) & mask
		for vs.table[h] != 0 {
			h = (h + 1) & mask
		}
		vs.table[h] = j
	}
}

// drop removes vertex i, the last one added (and not in the set).
func (vs *vertices) drop(i int32) {
	vs.arena = vs.arena[:int(i)*(vs.n+1)]
}

// find returns a vertex of the set that subsumes vertex i, or -1.
func (vs *vertices) find(i int32) int32 {
	mask := uint64(len(vs.table) - 1)
	for h := vs.hash(i) & mask; ; h = (h + 1) & mask {
		j := vs.table[h]
		if j == 0 {
			return -1
		}
		if vs.sameKey(j-1, i) {
			if vs.covers(j-1, i) {
				return j - 1
			}
			return -1
		}
	}
}

func (vs *vertices) setTerm(i int32, t interaction.Term) {
	vs.arena[int(i)*(vs.n+1)] = int32(t)
}
