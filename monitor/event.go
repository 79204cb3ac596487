package monitor

import (
	"unsafe"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// liveEvent is a logs.Event as a session of the table holds it: without
// its session's id (the session's own), its source an index into
// Table.sources, its line clamped to 32 bits (as session's records hold
// it), and its span's logs.SpanLink inline but for the rare fields (its
// links, the names of undeclared messages), which its session holds
// (liveSession.rares): 72 bytes where an event and its link took 184, and
// nothing for the garbage collector to follow. A session's slice of 8
// events takes 576 bytes; with a pointer, an 88-byte event took 768 (a
// slice of a type with pointers has a header), and the first writes into
// the memory of the sessions a monitor holds were a fifth of its time
// with its defaults (docs/benchmarks.md).
type liveEvent struct {
	index int64 // logs.Event.Index (the table's arrival rank)
	span  uint64
	hi    int64 // Key.Hi
	// linkSpan and linkParent, own, pair, the flags linkOwnOK, linkPairOK
	// and linkReply, and rare are the SpanLink's fields, when linked:
	// linkKind is its kind + 1 (0: no link), and the flag final whether
	// the event is final (Event.Final), as the early check asks for each
	// event it meets.
	linkSpan, linkParent uint64
	line                 uint32 // logs.Event.Line, clamped
	lo                   uint32 // Key.Lo
	action               interaction.Action
	source               uint32 // Table.sources
	rare                 uint32 // liveSession.rares[rare-1] (0: none)
	own, pair            interaction.MessageID
	kind                 logs.KeyKind
	linkKind             logs.SpanKind // + 1
	flags                eventFlags
}

// eventFlags are a liveEvent's booleans.
type eventFlags uint8

const (
	eventIgnored  eventFlags = 1 << iota // logs.Event.Ignored
	eventDropped                         // logs.Event.Dropped
	eventUnpaired                        // logs.Event.Unpaired
	eventFinal                           // logs.SpanLink.Final
	linkOwnOK                            // logs.SpanLink.OwnOK
	linkPairOK                           // logs.SpanLink.PairOK
	linkReply                            // logs.SpanLink.Reply
)

// flagIf returns f when b holds, else 0.
func flagIf(b bool, f eventFlags) eventFlags {
	if b {
		return f
	}
	return 0
}

func (e *liveEvent) ignored() bool { return e.flags&eventIgnored != 0 }
func (e *liveEvent) dropped() bool { return e.flags&eventDropped != 0 }

// linkRare holds the fields of a span's link that most spans leave empty.
type linkRare struct {
	links             []uint64
	ownName, pairName string
}

// linkRareBytes is what a linkRare holds beyond its links and names.
const linkRareBytes = int64(unsafe.Sizeof(linkRare{}))

// hold returns ev, read from source, as session s holds it (its link
// copied: a TraceReader lends its links until its next request), and the
// bytes it holds beyond itself.
func (t *Table) hold(s *liveSession, ev *logs.Event, source string) (liveEvent, int64) {
	if source != t.lastSource || len(t.sources) == 0 {
		i, ok := t.sourceIndex[source]
		if !ok {
			i = uint32(len(t.sources))
			t.sources = append(t.sources, source)
			t.sourceIndex[source] = i
		}
		t.lastSource, t.lastSourceAt = source, i
	}
	e := liveEvent{index: int64(ev.Index), line: logs.Line32(ev.Line), span: ev.Span, hi: ev.Key.Hi,
		lo: ev.Key.Lo, action: ev.Action, source: t.lastSourceAt, kind: ev.Key.Kind,
		flags: flagIf(ev.Ignored, eventIgnored) | flagIf(ev.Dropped, eventDropped) | flagIf(ev.Unpaired, eventUnpaired)}
	var held int64
	if l := ev.Link; l != nil {
		e.linkSpan, e.linkParent, e.linkKind = l.Span, l.Parent, l.Kind+1
		e.own, e.pair = l.Own, l.Pair
		e.flags |= flagIf(l.OwnOK, linkOwnOK) | flagIf(l.PairOK, linkPairOK) | flagIf(l.Reply, linkReply) | flagIf(l.Final(), eventFinal)
		if len(l.Links) > 0 || l.OwnName != "" || l.PairName != "" {
			r := &linkRare{links: l.Links, ownName: l.OwnName, pairName: l.PairName}
			s.rares = append(s.rares, r)
			e.rare = uint32(len(s.rares))
			held = 8 + linkRareBytes + 8*int64(cap(r.links)) + int64(len(r.ownName)+len(r.pairName))
		}
	}
	return e, held
}

// spanLink returns e's link as it was read (e, an event of s, is
// linked).
func (s *liveSession) spanLink(e *liveEvent) logs.SpanLink {
	l := logs.SpanLink{Span: e.linkSpan, Parent: e.linkParent, Kind: e.linkKind - 1,
		Own: e.own, Pair: e.pair, OwnOK: e.flags&linkOwnOK != 0, PairOK: e.flags&linkPairOK != 0, Reply: e.flags&linkReply != 0}
	if e.rare != 0 {
		r := s.rares[e.rare-1]
		l.Links, l.OwnName, l.PairName = r.links, r.ownName, r.pairName
	}
	return l
}

// event returns e, an event of session s, as it was read, its link (if
// any) in *link; link nil leaves the event without its link.
func (t *Table) event(s *liveSession, e *liveEvent, link *logs.SpanLink) logs.Event {
	ev := logs.Event{Session: s.id, Index: int(e.index), Line: int(e.line), File: t.sources[e.source],
		Ignored: e.ignored(), Dropped: e.dropped(), Action: e.action, Key: logs.Key{Kind: e.kind, Hi: e.hi, Lo: e.lo},
		Span: e.span, Unpaired: e.flags&eventUnpaired != 0}
	if e.linked() && link != nil {
		*link = s.spanLink(e)
		ev.Link = link
	}
	return ev
}

// final is logs.Event.Final.
func (e *liveEvent) final() bool { return !e.linked() || e.flags&eventFinal != 0 }

// linked reports whether e has a link.
func (e *liveEvent) linked() bool { return e.linkKind != 0 }

// orderable is logs.Event.Orderable, of two events of session s.
func (t *Table) orderable(s *liveSession, e, d *liveEvent) bool {
	return t.event(s, e, nil).Orderable(t.event(s, d, nil))
}

// after is logs.Event.After, of two events of session s.
func (t *Table) after(s *liveSession, e, d *liveEvent) bool {
	return t.event(s, e, nil).After(t.event(s, d, nil))
}
