package monitor

import (
	"fmt"
	"testing"
)

// TestSessionIndex: sessions of one hash are told apart by their ids, and
// removing any of them, first, middle or last of its chain, leaves the
// others found.
func TestSessionIndex(t *testing.T) {
	x := newSessionIndex()
	var all []*liveSession
	for i := range 12 {
		s := &liveSession{id: fmt.Sprint("s", i), hash: uint64(i % 3)} // chains of 4
		if x.get(s.id, s.hash) != nil {
			t.Fatalf("%s found before it is put", s.id)
		}
		x.put(s)
		all = append(all, s)
	}
	for _, k := range []int{9, 0, 4, 11, 1, 7, 10, 2, 3, 5, 6, 8} { // last, first, middle of their chains
		x.remove(all[k])
		all[k] = nil
		for i, s := range all {
			id := fmt.Sprint("s", i)
			if got := x.get(id, uint64(i%3)); got != s {
				t.Fatalf("after removing s%d: %s gives %p, want %p", k, id, got, s)
			}
		}
	}
	if len(x.m) != 0 {
		t.Errorf("%d keys left", len(x.m))
	}
	if y := newSessionIndex(); x.hash("a") == y.hash("a") {
		t.Errorf("two indexes hash alike: the seed is not random")
	}
}
