package runtime

import "github.com/ivc-project/ivc/interaction"

// vertices stores the vertices of a search — a term and one position per
// component — in one arena of int32s, and deduplicates them with an
// open-addressing hash set, so that exploring a vertex allocates nothing
// but amortized arena growth.
type vertices struct {
	n     int     // components
	arena []int32 // vertex i: arena[i*(n+1)] = term, then n positions
	table []int32 // hash set of vertex indices + 1; 0 = empty slot
	used  int
}

func (vs *vertices) reset(n int) {
	vs.n = n
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

// drop removes the last added vertex.
func (vs *vertices) drop() { vs.arena = vs.arena[:len(vs.arena)-vs.n-1] }

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
	for _, x := range vs.arena[o : o+vs.n+1] {
		h ^= uint64(uint32(x))
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

func (vs *vertices) equal(i, j int32) bool {
	a := vs.arena[int(i)*(vs.n+1) : int(i+1)*(vs.n+1)]
	b := vs.arena[int(j)*(vs.n+1) : int(j+1)*(vs.n+1)]
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// insert adds vertex i to the set; it returns the index of an equal vertex
// already there and false, or i and true.
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
		if vs.equal(j-1, i) {
			return j - 1, false
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

func (vs *vertices) setTerm(i int32, t interaction.Term) {
	vs.arena[int(i)*(vs.n+1)] = int32(t)
}
