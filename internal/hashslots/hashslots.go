// Package hashslots holds what the open-addressing tables of the store
// (package interaction: hash-consing of terms) and of the runtime engine's
// vertex set and memo of straight paths' steps (internal/engine/rewrite)
// share, the hash of a key of int32s (Ints: their vertices and steps, and
// the memo of verdicts of both engines), and the mix of a 64-bit key
// into a hash (Mix: the index of a file's held spans in package logs, the
// table of a session's span ids in package session, the ids package gen
// draws). Each of those tables is 2^k uint64 slots, 0 for
// empty, each slot holding an entry's index in its low 32 bits and
// the top 32 bits of the entry's hash in its high bits, so that a probe
// that meets another entry, and the table's growth, read nothing but the
// table. An entry lies at the slot of its hash's top k bits (slot = hash >>
// shift, shift = 64 − k), then the next free one (linear probing).
//
// The probes stay in the tables' own code (they compare the entries they
// meet with their own kind of key); the growth is here, and that of the
// slices whose entries the tables index (Doubled).
package hashslots

// Grow returns a table twice the size of old and its shift (shift − 1),
// every slot of old placed by its hash bits.
func Grow(old []uint64, shift uint8) ([]uint64, uint8) {
	table := make([]uint64, 2*len(old))
	shift--
	mask := uint64(len(table) - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := e >> shift
		for table[i] != 0 {
			i = (i + 1) & mask
		}
		table[i] = e
	}
	return table, shift
}

// Mix is SplitMix64's finalizer, a bijection of the 64-bit integers whose
// every output bit depends on every input bit: keys that differ in a few
// bits (span ids a file chose) get hashes that differ in their top and
// bottom bits alike.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Doubled returns s with room for one more element: twice its length when
// it is full and long (from 256 elements). Append grows a long slice by a
// quarter, so that the slices a table indexes (a gatherer's session
// states, a search's records of its vertices) were copied about four
// times over as they grew, into memory new to the process each time; a
// short one append doubles itself. The room to grow is then up to the
// length again (not more: slices.Grow steps by quarters past twice).
func Doubled[S ~[]E, E any](s S) S {
	if n := len(s); n == cap(s) && n >= 256 {
		d := make(S, n, 2*n)
		copy(d, s)
		return d
	}
	return s
}

// Ints hashes a key of int32s (a vertex of the runtime engine's search, a
// step of its straight paths, a multi-trace of the memo of verdicts): four
// integers at a time in two lanes of 64 bits, whose multiplications do not
// wait on each other (a chain of one multiplication an integer took about
// 40 ns for a vertex of 41 integers, against 15), then Mix, whose top bits
// place it in a table.
func Ints(key []int32) uint64 {
	a, b := uint64(0x9e3779b97f4a7c15), uint64(0xc2b2ae3d27d4eb4f)^uint64(len(key))
	i := 0
	for ; i+4 <= len(key); i += 4 {
		a = (a ^ (uint64(uint32(key[i])) | uint64(uint32(key[i+1]))<<32)) * 0xbf58476d1ce4e5b9
		b = (b ^ (uint64(uint32(key[i+2])) | uint64(uint32(key[i+3]))<<32)) * 0x94d049bb133111eb
		a ^= a >> 31
		b ^= b >> 29
	}
	for ; i < len(key); i++ {
		a = (a ^ uint64(uint32(key[i]))) * 0xbf58476d1ce4e5b9
		a ^= a >> 31
	}
	return Mix(a ^ b*0xff51afd7ed558ccd)
}
