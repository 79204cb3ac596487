package interaction

import "unsafe"

// Bytes returns, roughly, the memory the store holds: its terms, their
// facts, the interned actions and lifeline sets, and the memos of the
// semantic functions. It is cheap (a sum over the store's tables, not a
// walk of them), so that a search can check it at every step.
func (s *Store) Bytes() int64 {
	c := &s.sem
	b := sliceBytes(s.nodes) + sliceBytes(s.props) + sliceBytes(s.index) + s.lifelineBytes
	b += sliceBytes(s.acts) + sliceBytes(s.actLls) + sliceBytes(s.actSet) + sliceBytes(s.sets)
	b += int64(len(s.acts)) * 16 // the actions of each multi-action, and its key
	b += mapBytes(s.actIndex, 24) + mapBytes(s.setIndex, 24)
	b += sliceBytes(c.byTerm) + sliceBytes(c.prunedFrom)
	b += c.feltBytes
	b += mapBytes(c.prune, 12) + mapBytes(c.avoids, 9) + mapBytes(c.remove, 12) + mapBytes(c.mentions, 9) +
		mapBytes(c.minActs, 12) + mapBytes(c.incl, 9) + mapBytes(c.instances, 9) + mapBytes(c.mixed, 9) +
		mapBytes(c.needsGhosts, 9) + mapBytes(c.ghost, 12) +
		mapBytes(c.first, 9) + mapBytes(c.firstQ, 12)
	return b
}

// OnGrowth installs f (nil: none), which the store calls before it takes a
// new chunk of memory for frontiers. Computing one frontier can take much
// memory and time, as it computes the frontiers of the subterms first (a
// chain of n operands has frontiers of n²/2 elements in all), so a caller
// that bounds the memory or the time of its operations checks there, and
// may panic to abandon the operation in progress: the store stays
// consistent, as no frontier is recorded before it is complete, and
// nothing computes a frontier in the middle of another memo.
func (s *Store) OnGrowth(f func()) { s.onGrowth = f }

func (s *Store) grows() {
	if s.onGrowth != nil {
		s.onGrowth()
	}
}

func sliceBytes[E any](s []E) int64 {
	var e E
	return int64(cap(s)) * int64(unsafe.Sizeof(e))
}

// mapBytes estimates the memory of a map whose entries (key and value)
// take kv bytes: Go's maps keep between 7/16 and 7/8 of their slots full,
// with a control byte per slot.
func mapBytes[K comparable, V any](m map[K]V, kv int) int64 {
	return int64(len(m)) * int64(2*kv+2)
}

// Fresh returns an empty store with the signature and settings of s, and
// a copy of t in it (see Import): a store to go on with when s has grown
// too large.
func (s *Store) Fresh(t Term) (*Store, Term) {
	f := NewStore(s.sig)
	f.raw = s.raw
	return f, f.Import(s, t)
}
