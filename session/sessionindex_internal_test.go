package session

import (
	"fmt"
	"testing"
)

// TestSessionIndex finds sessions by id as a map does, through the
// table's growth and reset, and tells apart two ids of the same tag.
func TestSessionIndex(t *testing.T) {
	x := newSessionIndex()
	var sess []sessionState
	want := map[string]int32{}
	for round := range 2 {
		for i := range 50000 {
			id := fmt.Sprintf("s%d-%d", i*7919%50000, round)
			if i%3 == 0 {
				id = fmt.Sprint(i) // also short ones
			}
			s, at, tag := x.find([]byte(id), sess)
			if w, ok := want[id]; ok != (s >= 0) || ok && s != w {
				t.Fatalf("round %d: %q: %d, want %d %v", round, id, s, w, ok)
			}
			if s < 0 {
				s = int32(len(sess))
				sess = append(sess, sessionState{id: id})
				want[id] = s
				x.put(at, tag, s)
			}
		}
		for id, w := range want {
			if s, _, _ := x.find([]byte(id), sess); s != w {
				t.Fatalf("round %d: %q: %d, want %d", round, id, s, w)
			}
		}
		if s, _, _ := x.find([]byte("absent"), sess); s >= 0 {
			t.Fatalf("absent found: %d", s)
		}
		x.reset()
		sess, want = sess[:0], map[string]int32{}
	}
	// Two ids of one tag: the second is not the first.
	sess = []sessionState{{id: "other"}}
	_, at, tag := x.find([]byte("a"), nil)
	x.put(at, tag, 0) // "a"'s place and tag, but the session "other"
	if s, at2, tag2 := x.find([]byte("a"), sess); s >= 0 || at2 == at || tag2 != tag {
		t.Errorf("a: %d at %d (tag %x), want -1 past %d", s, at2, tag2, at)
	}
}
