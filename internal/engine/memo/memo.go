// Package memo remembers the verdicts an engine decided, by multi-trace:
// the sessions of a log repeat, and a session met before costs the hash of
// its events and a lookup. Both engines keep one (the runtime engine's
// analyzers, the automata engine's checks), each keying a multi-trace by
// integers of its own: the id of its partition, then each component's
// trace, its length first. The keys are kept, one after the other, so that
// a hash collision is told apart from an equal multi-trace. Only verdicts
// that depend on the multi-trace alone are to be remembered: not an Inconc,
// nor a verdict a limit decided.
package memo

import (
	"slices"

	"github.com/ivc-project/ivc/internal/hashslots"
	"github.com/ivc-project/ivc/verdict"
)

// Verdicts holds the verdicts decided, by the key of their multi-trace.
// Its zero value is empty and ready to use. It is not safe for concurrent
// use.
type Verdicts struct {
	index   map[uint64]int32 // by hash: the last entry of that hash, plus 1
	entries [][]memoEntry    // in chunks of memoChunk
	n       int              // entries
	ints    int              // integers of keys
	keys    [][]int32        // the entries' keys, in chunks of keyChunk ints (or one key)
}

// The memo grows by chunks that never move, so that remembering a verdict
// copies nothing but itself (a fresh analyzer judging distinct sessions
// would otherwise copy its memo again and again as it doubles).
const (
	memoChunk = 256
	keyChunk  = 1 << 14
)

type memoEntry struct {
	key  []int32 // in keys
	prev int32   // the entry before of the same hash, plus 1 (0: none)
	res  verdict.Result
}

// Hash hashes a multi-trace's key (hashslots.Ints).
func Hash(key []int32) uint64 { return hashslots.Ints(key) }

func (m *Verdicts) entry(i int32) *memoEntry {
	return &m.entries[i/memoChunk][i%memoChunk]
}

// Find returns the verdict remembered for key, of hash h, or nil.
func (m *Verdicts) Find(h uint64, key []int32) *verdict.Result {
	for i := m.index[h]; i != 0; {
		e := m.entry(i - 1)
		if slices.Equal(e.key, key) {
			return &e.res
		}
		i = e.prev
	}
	return nil
}

// Add remembers res for key, of hash h; it copies key, and keeps res as
// it is (a caller that keeps res's slices passes a clone).
func (m *Verdicts) Add(h uint64, key []int32, res verdict.Result) {
	if m.index == nil {
		m.index = make(map[uint64]int32, 64)
	}
	k := len(m.keys) - 1
	if k < 0 || len(m.keys[k])+len(key) > cap(m.keys[k]) {
		m.keys = append(m.keys, make([]int32, 0, max(keyChunk, len(key))))
		k++
	}
	from := len(m.keys[k])
	m.keys[k] = append(m.keys[k], key...)
	m.ints += len(key)
	if m.n/memoChunk == len(m.entries) {
		m.entries = append(m.entries, make([]memoEntry, memoChunk))
	}
	e := m.entry(int32(m.n))
	m.n++
	*e = memoEntry{key: m.keys[k][from:len(m.keys[k]):len(m.keys[k])], prev: m.index[h], res: res}
	m.index[h] = int32(m.n)
}

// Size counts what the memo holds in units of about 40 bytes (the
// runtime engine's maxKept counts its memos' entries so): 4 a verdict (its
// entry of 128 bytes on a 64-bit system, and its place in the index), and
// one per 8 integers of keys.
func (m *Verdicts) Size() int {
	return 4*m.n + m.ints/8
}

// Clear empties the memo; it keeps its first chunks.
func (m *Verdicts) Clear() {
	clear(m.index)
	for k, c := range m.entries {
		// For the collector (results hold explanations): the entries in
		// use, as those past them were never written since the last clear.
		if used := m.n - k*memoChunk; used > 0 {
			clear(c[:min(used, memoChunk)])
		}
	}
	m.n, m.ints = 0, 0
	if len(m.keys) > 0 {
		m.keys = append(m.keys[:0], m.keys[0][:0])
	}
}
