package monitor

import "hash/maphash"

// sessionIndex finds the table's sessions by id. Its map is keyed by a
// seeded hash of the id rather than by the id: a map of string keys hashes
// every key again as it grows, reading each id where it lies (a cache miss
// a session; with a quarter of a million sessions held, growing took 7 % of
// ivc monitor's time), where a number is hashed in the map's own slots.
// The sessions of one hash are chained through liveSession.sameHash, and
// their ids compared; the seed is random, so that a client cannot choose
// ids that collide.
type sessionIndex struct {
	seed maphash.Seed
	m    map[uint64]*liveSession
}

func newSessionIndex() sessionIndex {
	return sessionIndex{seed: maphash.MakeSeed(), m: map[uint64]*liveSession{}}
}

// hash returns the key of id.
func (x *sessionIndex) hash(id string) uint64 { return maphash.String(x.seed, id) }

// get returns the session of id, of key h, or nil.
func (x *sessionIndex) get(id string, h uint64) *liveSession {
	s := x.m[h]
	for s != nil && s.id != id {
		s = s.sameHash
	}
	return s
}

// put adds s, whose key is s.hash and whose id is not in x.
func (x *sessionIndex) put(s *liveSession) {
	s.sameHash = x.m[s.hash]
	x.m[s.hash] = s
}

// remove takes s out of x.
func (x *sessionIndex) remove(s *liveSession) {
	p := x.m[s.hash]
	if p == s {
		if s.sameHash == nil {
			delete(x.m, s.hash)
		} else {
			x.m[s.hash] = s.sameHash
		}
	} else {
		for p.sameHash != s {
			p = p.sameHash
		}
		p.sameHash = s.sameHash
	}
	s.sameHash = nil
}
