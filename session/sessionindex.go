package session

import "hash/maphash"

// sessionIndex finds a session of a gatherer by its id: an open-addressing
// table (linear probing, at most half full) of the sessions' indexes, each
// with the high half of its id's hash, which places it and tells most
// other ids apart without reading the session. Growing it moves the
// entries by that half alone, not reading an id again. It costs 16 to 32
// bytes a session (within sessionBytes).
type sessionIndex struct {
	seed  maphash.Seed
	slots []uint64 // hash>>32 << 32 | (session index + 1); 0: empty
	n     int
}

func newSessionIndex() sessionIndex { return sessionIndex{seed: maphash.MakeSeed()} }

// find returns the index of the session id among sess, or -1 and the
// place where id's entry goes (put).
func (x *sessionIndex) find(id []byte, sess []sessionState) (int32, int, uint32) {
	if len(x.slots) == 0 {
		x.slots = make([]uint64, 64)
	}
	tag := uint32(maphash.Bytes(x.seed, id) >> 32)
	mask := len(x.slots) - 1
	for i := int(tag) & mask; ; i = (i + 1) & mask {
		e := x.slots[i]
		if e == 0 {
			return -1, i, tag
		}
		if uint32(e>>32) == tag {
			if s := int32(uint32(e)) - 1; sess[s].id == string(id) {
				return s, i, tag
			}
		}
	}
}

// put records session s at place i (found by find for its id, with its
// tag, and nothing put since).
func (x *sessionIndex) put(i int, tag uint32, s int32) {
	x.slots[i] = uint64(tag)<<32 | uint64(uint32(s+1))
	x.n++
	if 2*x.n > len(x.slots) {
		old := x.slots
		x.slots = make([]uint64, 2*len(old))
		mask := len(x.slots) - 1
		for _, e := range old {
			if e == 0 {
				continue
			}
			j := int(e>>32) & mask
			for x.slots[j] != 0 {
				j = (j + 1) & mask
			}
			x.slots[j] = e
		}
	}
}

// reset empties x, keeping its room.
func (x *sessionIndex) reset() {
	clear(x.slots)
	x.n = 0
}
