package monitor

import (
	"unsafe"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// liveEvent is a logs.Event as a session of the table holds it: without
// its session's id (the session's own), its source an index into
// Table.sources, and its span's logs.SpanLink inline but for the rare
// fields (its links, the names of undeclared messages): 80 bytes where an
// event and its link took 184, and for the garbage collector at most one
// pointer to follow instead of three and a link's.
type liveEvent struct {
	index, line int64 // logs.Event.Index (the table's arrival rank), Line
	span        uint64
	hi          int64 // Key.Hi
	// linkSpan and linkParent, own, pair, ownOK, pairOK, reply and rare
	// are the SpanLink's fields, when linked: linkKind is its kind + 1 (0:
	// no link), and isFinal whether the event is final (Event.Final),
	// as the early check asks for each event it meets.
	linkSpan, linkParent uint64
	rare                 *linkRare
	lo                   uint32 // Key.Lo
	action               interaction.Action
	source               uint32 // Table.sources
	own, pair            interaction.MessageID
	kind                 logs.KeyKind
	linkKind             logs.SpanKind // + 1
	ignored, dropped     bool
	unpaired             bool // logs.Event.Unpaired
	isFinal              bool
	ownOK, pairOK, reply bool
}

// linkRare holds the fields of a span's link that most spans leave empty.
type linkRare struct {
	links             []uint64
	ownName, pairName string
}

// linkRareBytes is what a linkRare holds beyond its links and names.
const linkRareBytes = int64(unsafe.Sizeof(linkRare{}))

// hold returns ev, read from source, as a session holds it: its link
// copied (a TraceReader lends its links until its next request).
func (t *Table) hold(ev *logs.Event, source string) liveEvent {
	if source != t.lastSource || len(t.sources) == 0 {
		i, ok := t.sourceIndex[source]
		if !ok {
			i = uint32(len(t.sources))
			t.sources = append(t.sources, source)
			t.sourceIndex[source] = i
		}
		t.lastSource, t.lastSourceAt = source, i
	}
	e := liveEvent{index: int64(ev.Index), line: int64(ev.Line), span: ev.Span, hi: ev.Key.Hi,
		lo: ev.Key.Lo, action: ev.Action, source: t.lastSourceAt, kind: ev.Key.Kind, ignored: ev.Ignored, dropped: ev.Dropped,
		unpaired: ev.Unpaired}
	if l := ev.Link; l != nil {
		e.linkSpan, e.linkParent, e.linkKind = l.Span, l.Parent, l.Kind+1
		e.own, e.pair, e.ownOK, e.pairOK, e.reply = l.Own, l.Pair, l.OwnOK, l.PairOK, l.Reply
		e.isFinal = l.Final()
		if len(l.Links) > 0 || l.OwnName != "" || l.PairName != "" {
			e.rare = &linkRare{links: l.Links, ownName: l.OwnName, pairName: l.PairName}
		}
	}
	return e
}

// heldBytes returns what e holds beyond itself.
func (e *liveEvent) heldBytes() int64 {
	if e.rare == nil {
		return 0
	}
	return linkRareBytes + 8*int64(cap(e.rare.links)) + int64(len(e.rare.ownName)+len(e.rare.pairName))
}

// spanLink returns e's link as it was read (e is linked).
func (e *liveEvent) spanLink() logs.SpanLink {
	l := logs.SpanLink{Span: e.linkSpan, Parent: e.linkParent, Kind: e.linkKind - 1,
		Own: e.own, Pair: e.pair, OwnOK: e.ownOK, PairOK: e.pairOK, Reply: e.reply}
	if r := e.rare; r != nil {
		l.Links, l.OwnName, l.PairName = r.links, r.ownName, r.pairName
	}
	return l
}

// event returns e, an event of session s, as it was read, its link (if
// any) in *link; link nil leaves the event without its link.
func (t *Table) event(s *liveSession, e *liveEvent, link *logs.SpanLink) logs.Event {
	ev := logs.Event{Session: s.id, Index: int(e.index), Line: int(e.line), File: t.sources[e.source],
		Ignored: e.ignored, Dropped: e.dropped, Action: e.action, Key: logs.Key{Kind: e.kind, Hi: e.hi, Lo: e.lo},
		Span: e.span, Unpaired: e.unpaired}
	if e.linked() && link != nil {
		*link = e.spanLink()
		ev.Link = link
	}
	return ev
}

// final is logs.Event.Final.
func (e *liveEvent) final() bool { return !e.linked() || e.isFinal }

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
