package monitor

// The early check of live sessions: each event steps the walk of its
// location (check.Walker), and one that makes a local error certain fails
// its session at once (see the package comment).

import (
	"fmt"
	"slices"
	"time"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/verdict"
)

// watch steps the early check of s with its last event, and judges s
// early when that event makes a local error certain (see the package
// comment).
func (t *Table) watch(s *liveSession, now time.Time) {
	k := len(s.events) - 1
	ev := &s.events[k]
	switch {
	case ev.dropped(): // Inconc, whatever else
		t.unwatch(s)
		return
	case !ev.final(): // decided at assembly (span pairing): not read
		if ev.kind == logs.KeyLine { // its arrival is its place
			t.unwatch(s)
		}
		return
	case ev.ignored():
		return
	case t.again(s, k):
		// The same event again (an exporter's retry): assembly drops
		// it, and the walk has read it.
		return
	}
	if s.walks == nil {
		if n := len(t.freeWalks); n > 0 {
			s.walks, s.subs = t.freeWalks[n-1].walks, t.freeWalks[n-1].subs
			t.freeWalks[n-1] = walkStore{}
			t.freeWalks = t.freeWalks[:n-1]
		} else {
			s.walks = make([]walk, len(t.subAt)-1)
			s.subs = make([]uint64, t.subAt[len(t.subAt)-1])
		}
		for i := range s.walks {
			s.walks[i] = walk{q: t.online.Start(i), last: -1}
		}
		for i := range s.walks {
			t.online.StartSub(i, s.subs[t.subAt[i]:t.subAt[i+1]])
		}
		t.bytes += t.walkBytes
	}
	i := t.asm.Location(ev.action)
	w := &s.walks[i]
	if w.last >= 0 && !t.orderable(s, ev, &s.events[w.last]) {
		t.unwatch(s) // an error when it closes
		return
	}
	inOrder := w.last < 0 || t.after(s, ev, &s.events[w.last])
	if inOrder {
		w.last = int32(k)
	}
	set := s.subs[t.subAt[i]:t.subAt[i+1]]
	var ok bool
	switch {
	case ev.kind == logs.KeyLine: // its arrival is its place
		w.q = t.online.Step(i, w.q, ev.action)
		ok = w.q >= 0
	case len(set) == 0: // no subword walk of this location
		return
	case inOrder:
		ok = t.online.StepSub(i, set, t.tmp[:len(set)], ev.action)
	default:
		var walked bool
		if ok, walked = t.rewalk(s, i, set); !walked {
			t.unwatch(s)
			return
		}
	}
	if ok {
		return
	}
	o := t.judge(s)
	t.unwatch(s)
	switch {
	case o.Err != nil:
		// Reported when it closes.
	case o.Result.Verdict != verdict.Fail:
		t.opt.Report(fmt.Errorf("%s (session %s): the early check found a local error at event %d, the checker %s: judged when it closes",
			s.file, s.id, k+1, o.Result.Verdict))
	default:
		t.close(s, ClosedEarly, now, &o)
	}
}

// maxRewalk bounds the events of a location that the early check walks
// again when one arrives out of order: past it, the session is judged
// when it closes.
const maxRewalk = 4096

// rewalk walks the subword walk of location i of s again, into set, on
// the location's events in their order, and reports whether it is not
// stuck; walked is false past maxRewalk events.
func (t *Table) rewalk(s *liveSession, i int, set []uint64) (ok, walked bool) {
	order := t.order[:0]
	for j := range s.events {
		if e := &s.events[j]; !e.ignored() && !e.dropped() && t.asm.Location(e.action) == i && !s.repeated(j) {
			order = append(order, int32(j))
		}
	}
	t.order = order
	if len(order) > maxRewalk {
		return false, false
	}
	slices.SortFunc(order, func(a, b int32) int {
		switch {
		case a == b:
			return 0
		case t.after(s, &s.events[a], &s.events[b]):
			return 1
		}
		return -1
	})
	t.online.StartSub(i, set)
	for _, j := range order {
		if !t.online.StepSub(i, set, t.tmp[:len(set)], s.events[j].action) {
			return false, true
		}
	}
	return true, true
}

// unwatch ends the early check of s. Its walks are kept for a new
// session's (Table.freeWalks).
func (t *Table) unwatch(s *liveSession) {
	if s.walks != nil {
		t.bytes -= t.walkBytes
		if len(t.freeWalks) < maxFree {
			t.freeWalks = append(t.freeWalks, walkStore{s.walks, s.subs})
		}
	}
	t.bytes -= int64(len(s.seen)) * seenBytes
	s.walks, s.subs, s.unwatched, s.seen = nil, nil, true, nil
}

// eventKey is what makes an event the same as another of its session for
// the early check, as session's assembly tells duplicates: a span's id and
// the side of its action, or an event log's seq and action.
type eventKey struct {
	span uint64
	hi   int64
	lo   uint32
	act  uint32 // a span's side, an event's action
}

// seenBytes is what an entry of liveSession.seen holds.
const seenBytes = 48

// keyOf returns the eventKey of ev, ok false for an event that has none
// (no span id, no seq): it cannot be told from a repeat.
func keyOf(ev *liveEvent) (key eventKey, ok bool) {
	switch {
	case ev.span != 0:
		return eventKey{span: ev.span, act: uint32(ev.action.Kind())}, true
	case ev.kind == logs.KeySeq:
		return eventKey{hi: ev.hi, lo: ev.lo, act: uint32(ev.action)}, true
	}
	return eventKey{}, false
}

// again reports whether event k of s, watched, repeats one watched before
// it (a span of the same id and side, an event of the same seq and
// action), keeping it otherwise.
func (t *Table) again(s *liveSession, k int) bool {
	key, ok := keyOf(&s.events[k])
	if !ok {
		return false
	}
	if s.seen == nil {
		if k < seenScan {
			return s.firstWatched(key, k) < k
		}
		s.seen = make(map[eventKey]int32, k)
		for j := range k {
			if kj, ok := s.watchedKey(j); ok {
				if _, ok := s.seen[kj]; !ok {
					s.seen[kj] = int32(j)
					t.bytes += seenBytes
				}
			}
		}
	}
	if _, ok := s.seen[key]; ok {
		return true
	}
	s.seen[key] = int32(k)
	t.bytes += seenBytes
	return false
}

// seenScan is the number of events of a session up to which its repeats
// are found by reading its events again, rather than in the map seen:
// most sessions are that small, and their map was two allocations each.
const seenScan = 16

// watchedKey returns the eventKey of event j of s if the early check kept
// it (again): an event it walked, with a key.
func (s *liveSession) watchedKey(j int) (eventKey, bool) {
	if ev := &s.events[j]; ev.dropped() || ev.ignored() || !ev.final() {
		return eventKey{}, false
	}
	return keyOf(&s.events[j])
}

// firstWatched returns the index of the first event of s before k that
// the early check kept with key, or k if none.
func (s *liveSession) firstWatched(key eventKey, k int) int {
	for j := range k {
		if kj, ok := s.watchedKey(j); ok && kj == key {
			return j
		}
	}
	return k
}

// repeated reports whether event j of s, watched, repeats one before it.
func (s *liveSession) repeated(j int) bool {
	key, ok := keyOf(&s.events[j])
	if !ok {
		return false
	}
	if s.seen == nil {
		first := s.firstWatched(key, len(s.events))
		return first < len(s.events) && first != j
	}
	first, ok := s.seen[key]
	return ok && int(first) != j
}
