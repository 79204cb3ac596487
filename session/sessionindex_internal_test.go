package session

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
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

// BenchmarkSessionLookup measures a gatherer's look-up of a session by id
// (sessionAt) as a joined log's later file makes it: 20,000 sessions
// ("s1" … "s20000", made by the first file), then a file in which each
// appears once or twice (1.35 events a session, as lfrem's i1 over its
// locations), 32 under way at a time in random order, so that most events
// are their session's first in the file: the recent slots do not know it,
// the index does.
func BenchmarkSessionLookup(b *testing.B) {
	const sessions, window = 20000, 32
	g := &gatherer{ids: newSessionIndex()}
	ids := make([][]byte, sessions)
	for i := range ids {
		ids[i] = []byte(fmt.Sprintf("s%d", i+1))
		g.sessionAt(ids[i], 0, i+1, i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var order []int32 // the sessions of the later file's events
	var open []int32
	for next := 0; next < sessions || len(open) > 0; {
		for next < sessions && len(open) < window {
			open = append(open, int32(next))
			if rng.IntN(100) < 35 {
				open = append(open, int32(next)) // a second event
			}
			next++
		}
		k := rng.IntN(len(open))
		order = append(order, open[k])
		open = append(open[:k], open[k+1:]...)
	}
	g.inputs = []string{"a", "b"}
	var cpu testutil.CPUClock
	for b.Loop() {
		cpu.Start()
		for i, s := range order {
			if got := g.sessionAt(ids[s], 1, i+1, i); got != s {
				b.Fatalf("%s: %d", ids[s], got)
			}
		}
		cpu.Stop()
	}
	cpu.Report(b, len(order)*b.N, "event")
}
