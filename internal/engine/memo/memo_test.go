package memo

import (
	"testing"

	"github.com/ivc-project/ivc/verdict"
)

// TestVerdicts: what is added is found by its key, keys of one hash are
// told apart, a key is copied (the caller reuses its buffer), keys past a
// chunk and longer than one are kept whole, and Clear empties the memo.
func TestVerdicts(t *testing.T) {
	var m Verdicts
	if m.Find(Hash([]int32{1}), []int32{1}) != nil {
		t.Fatal("the zero memo finds a verdict")
	}
	pass := verdict.Result{Verdict: verdict.Pass, Nodes: 3}
	weak := verdict.Result{Verdict: verdict.WeakPass, Nodes: 4}
	buf := []int32{0, 2, 5, 6}
	m.Add(7, buf, pass)
	buf[3] = 9 // another key in the same buffer, of the same hash
	m.Add(7, buf, weak)
	for _, c := range []struct {
		key  []int32
		want *verdict.Result
	}{
		{[]int32{0, 2, 5, 6}, &pass},
		{[]int32{0, 2, 5, 9}, &weak},
		{[]int32{0, 2, 5}, nil},
		{[]int32{0, 2, 5, 6, 0}, nil},
	} {
		got := m.Find(7, c.key)
		if (got == nil) != (c.want == nil) || got != nil && got.Verdict != c.want.Verdict {
			t.Errorf("Find(%v) = %+v, want %+v", c.key, got, c.want)
		}
	}
	if Hash([]int32{0, 2, 5, 6}) == Hash([]int32{0, 2, 6, 5}) {
		t.Error("the hash ignores the order of a key")
	}
	// Many keys, past the chunks of keys and of entries, and one longer
	// than a chunk.
	long := make([]int32, keyChunk+3)
	for i := range long {
		long[i] = int32(i)
	}
	for i := range 3 * keyChunk / 4 {
		k := []int32{int32(i), int32(i >> 3), -1, 1}
		m.Add(Hash(k), k, verdict.Result{Verdict: verdict.Pass, Nodes: i})
	}
	m.Add(Hash(long), long, weak)
	for i := range 3 * keyChunk / 4 {
		k := []int32{int32(i), int32(i >> 3), -1, 1}
		if r := m.Find(Hash(k), k); r == nil || r.Nodes != i {
			t.Fatalf("key %v: %+v", k, r)
		}
	}
	if r := m.Find(Hash(long), long); r == nil || r.Verdict != verdict.WeakPass {
		t.Fatalf("long key: %+v", r)
	}
	if n := m.Size(); n < 4*(3*keyChunk/4) {
		t.Fatalf("Size %d, want at least 4 for each of the %d entries", n, 3*keyChunk/4)
	}
	m.Clear()
	if m.Size() != 0 || m.Find(Hash(long), long) != nil || m.Find(7, []int32{0, 2, 5, 6}) != nil {
		t.Fatalf("after Clear: size %d", m.Size())
	}
	m.Add(7, []int32{1}, pass)
	if r := m.Find(7, []int32{1}); r == nil || r.Verdict != verdict.Pass {
		t.Fatalf("after Clear, added again: %+v", r)
	}
}
