package session

import (
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
)

// shapes remembers the multi-traces of the sessions a joiner built, by
// their shape: their events location by location, in the order read. The
// sessions of a log repeat (a few distinct ones among thousands, as a
// service's requests repeat), and a session of the shape of one built
// twice before shares that multi-trace rather than build its own: it is
// copied once into memory of its own, never changed, and handed out with
// Session.Shared, so that a judge may remember its verdict by its pointer
// (check.Checker does). Building a session and judging it again from the
// verdict memo were most of the cost of a repeated session of a few
// events; a shared one costs a pass over its events, which writes its
// origins.
//
// Only a session whose locations need no reordering has a shape (each
// location's events in the order their keys give, the order read; none
// ordered by seq, whose duplicates build drops), of at most
// maxShapeEvents events (a longer one holds more of the table's memory:
// it keeps 580 shapes of 64 events); anything else is built as before. The table is
// direct-mapped by the shape's hash (a shape seen again takes its slot),
// and holds at most maxBytes of multi-traces: it takes no more memory
// than that, and none per session.
type shapes struct {
	slots    [shapeSlots]shapeSlot
	bytes    int64 // of the multi-traces held
	maxBytes int64
	locs     []shapeLoc // the locations of the session being built
	ok       bool       // it has a shape so far
}

// shapeSlot holds the hash of a shape seen, and its multi-trace once seen
// twice.
type shapeSlot struct {
	h     uint64
	mt    *multitrace.MultiTrace
	bytes int64
}

// shapeLoc is a location of the session being built: the hash of its
// actions so far, its last event's order key, their number.
type shapeLoc struct {
	h      uint64
	hi     int64
	lo     uint32
	input  int32
	kind   logs.KeyKind
	events int32
}

const (
	shapeSlots     = 1 << 10
	maxShapeEvents = 64
	// maxShapeBytes is the most a joiner's shapes hold (less for a
	// joiner of a small budget: a sixteenth of it).
	maxShapeBytes = 1 << 20
	// shapeEventBytes is what a multi-trace costs an event: its action and
	// the multi-action of one action that holds it.
	shapeEventBytes = 4 + 24
	shapeLocBytes   = 48 // a component
	shapeBytes      = 64 // the multi-trace and its slot's share
)

// newShapes returns the shapes of a joiner of budget bytes (0: no bound).
func newShapes(budget int64) *shapes {
	x := &shapes{maxBytes: maxShapeBytes}
	if budget > 0 {
		x.maxBytes = min(x.maxBytes, budget/16)
	}
	return x
}

// begin starts the shape of a session of events events on locs locations.
func (x *shapes) begin(locs, events int) {
	x.ok = events <= maxShapeEvents
	if !x.ok {
		return
	}
	if cap(x.locs) < locs {
		x.locs = make([]shapeLoc, locs)
	}
	x.locs = x.locs[:locs]
	clear(x.locs)
}

// add adds an event of the session, at location k, to its shape: no
// shape when the event comes before the location's last one by their
// keys (build would reorder them), or with another kind of key, or a
// line order from another input (build reports both), or by seq.
func (x *shapes) add(k int32, rec *record) {
	l := &x.locs[k]
	kind := rec.kind()
	if l.events > 0 {
		switch {
		case kind != l.kind:
			x.ok = false
		case kind == logs.KeyLine:
			x.ok = x.ok && rec.input() == l.input
		default:
			x.ok = x.ok && (rec.hi > l.hi || rec.hi == l.hi && rec.lo >= l.lo)
		}
	}
	x.ok = x.ok && kind != logs.KeySeq
	l.h = (l.h ^ uint64(rec.act)) * 0x100000001b3
	l.hi, l.lo, l.kind, l.input = rec.hi, rec.lo, kind, rec.input()
	l.events++
}

// slot returns the slot of the session's shape, and its hash; nil when
// it has none.
func (x *shapes) slot() (*shapeSlot, uint64) {
	if !x.ok {
		return nil, 0
	}
	h := uint64(len(x.locs))
	for _, l := range x.locs {
		h = (h^l.h)*0x9e3779b97f4a7c15 + uint64(l.events)
		h ^= h >> 31
	}
	return &x.slots[h&(shapeSlots-1)], h
}

// same reports whether the events of the session, its origins in the
// order read (of locations locOf), are those of mt.
func (x *shapes) same(at []origin, locOf []int32, mt *multitrace.MultiTrace) bool {
	for k := range x.locs {
		if int(x.locs[k].events) != len(mt.Components[k].Trace) {
			return false
		}
		x.locs[k].events = 0 // a cursor now
	}
	for _, e := range at {
		k := locOf[e.act.Lifeline()]
		l, tr := &x.locs[k], mt.Components[k].Trace // as many events as tr (above)
		if a := tr[l.events]; len(a) != 1 || a[0] != e.act {
			return false
		}
		l.events++
	}
	return true
}

// keep makes s, of hash h, hold a copy of mt, the multi-trace of its shape
// built the second time it was seen, within the shapes' memory, and
// returns it; nil when there is no room.
func (x *shapes) keep(s *shapeSlot, h uint64, mt *multitrace.MultiTrace) *multitrace.MultiTrace {
	bytes := int64(shapeBytes + shapeLocBytes*len(mt.Components) + shapeEventBytes*mt.Len())
	x.drop(s)
	if x.bytes+bytes > x.maxBytes {
		return nil
	}
	kept := mt.Clone()
	*s = shapeSlot{h: h, mt: kept, bytes: bytes}
	x.bytes += bytes
	return kept
}

// seen marks the slot s as holding the shape of hash h, seen once.
func (x *shapes) seen(s *shapeSlot, h uint64) {
	x.drop(s)
	s.h = h
}

// drop empties slot s.
func (x *shapes) drop(s *shapeSlot) {
	x.bytes -= s.bytes
	*s = shapeSlot{}
}
