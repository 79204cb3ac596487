package interaction

import "unsafe"

// mapEntryBytes is about what an entry of one of the store's maps costs:
// its key and value (a few words) and the map's own overhead.
const mapEntryBytes = 48

// Footprint returns about the bytes the store holds: its terms, their facts
// and memos, the frontiers and the caches of the semantic functions. It
// reads the sizes of the store's tables (a few dozen additions, no walk
// over the terms), so that a construction that adds terms, such as the NFA
// synthesis, can bound its memory as it goes.
func (s *Store) Footprint() int64 {
	c := &s.sem
	b := int64(cap(s.nodes))*int64(unsafe.Sizeof(node{})) +
		int64(cap(s.props))*int64(unsafe.Sizeof(props{})) +
		int64(cap(s.index))*int64(unsafe.Sizeof(Term(0))) +
		int64(cap(c.byTerm))*int64(unsafe.Sizeof(termMemo{})) +
		int64(cap(c.prunedFrom))*int64(unsafe.Sizeof(prunedLink{}))
	for _, ch := range c.felts {
		b += int64(cap(ch)) * int64(unsafe.Sizeof(felt{}))
	}
	// The multi-actions, of one or two actions each as a rule.
	b += int64(cap(s.acts)) * int64(unsafe.Sizeof(MultiAction(nil))+2*unsafe.Sizeof(Action(0)))
	entries := len(s.actIndex) + len(s.setIndex) + len(c.prune) + len(c.avoids) + len(c.remove) +
		len(c.mentions) + len(c.minActs) + len(c.incl) + len(c.instances) + len(c.mixed) +
		len(c.needsGhosts) + len(c.ghost) + len(c.loopDepth) + len(c.eta) + len(c.first) + len(c.firstQ)
	return b + int64(entries)*mapEntryBytes
}
