package runtime

import "github.com/ivc-project/ivc/verdict"

// verdictMemo holds the verdicts an analyzer decided, by multi-trace: the
// sessions of a log repeat, and a session met before costs the hash of its
// events and a lookup. A multi-trace is keyed by the id of its partition
// (located.id) and each component's trace in the store's actions, its length
// first (problem.key); the keys are kept, one after the other, so that a hash
// collision is told apart from an equal multi-trace. Only decided verdicts
// are remembered: an Inconc depends on the limits, not only on the
// multi-trace.
type verdictMemo struct {
	index   map[uint64]int32 // by hash: the last entry of that hash, plus 1
	entries []memoEntry
	keys    []int32 // the entries' keys
}

type memoEntry struct {
	from, to int32 // its key: keys[from:to]
	prev     int32 // the entry before of the same hash, plus 1 (0: none)
	res      verdict.Result
}

// hashKey hashes a multi-trace's key (FNV-1a over its integers, mixed).
func hashKey(key []int32) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range key {
		h ^= uint64(uint32(x))
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// find returns the verdict remembered for key, of hash h, or nil.
func (m *verdictMemo) find(h uint64, key []int32) *verdict.Result {
	for i := m.index[h]; i != 0; {
		e := &m.entries[i-1]
		if equalInts(m.keys[e.from:e.to], key) {
			return &e.res
		}
		i = e.prev
	}
	return nil
}

func equalInts(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// add remembers res for key, of hash h.
func (m *verdictMemo) add(h uint64, key []int32, res verdict.Result) {
	if m.index == nil {
		m.index = map[uint64]int32{}
	}
	from := int32(len(m.keys))
	m.keys = append(m.keys, key...)
	m.entries = append(m.entries, memoEntry{from: from, to: int32(len(m.keys)), prev: m.index[h], res: res})
	m.index[h] = int32(len(m.entries))
}

// size counts what the memo holds in entries of the analyzer's kept
// memos (see maxKept): one a verdict, one per 8 integers of keys.
func (m *verdictMemo) size() int { return len(m.entries) + len(m.keys)/8 }

func (m *verdictMemo) clear() {
	clear(m.index)
	clear(m.entries) // for the collector: results hold explanations
	m.entries, m.keys = m.entries[:0], m.keys[:0]
}
