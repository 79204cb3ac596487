package monitor

import (
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// liveEvent is a logs.Event as a session of the table holds it: without
// its session's id (the session's own) and with its source as an index
// into Table.sources, 56 bytes instead of 96, and one pointer (its
// SpanLink) for the garbage collector to follow instead of three.
type liveEvent struct {
	index, line int64 // logs.Event.Index (the table's arrival rank), Line
	span        uint64
	hi          int64 // Key.Hi
	link        *logs.SpanLink
	lo          uint32 // Key.Lo
	action      interaction.Action
	source      uint32 // Table.sources
	kind        logs.KeyKind
	ignored     bool
	dropped     bool
}

// hold returns ev, read from source, as a session holds it.
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
	return liveEvent{index: int64(ev.Index), line: int64(ev.Line), span: ev.Span, hi: ev.Key.Hi, link: ev.Link,
		lo: ev.Key.Lo, action: ev.Action, source: t.lastSourceAt, kind: ev.Key.Kind, ignored: ev.Ignored, dropped: ev.Dropped}
}

// event returns e, an event of session s, as it was read.
func (t *Table) event(s *liveSession, e *liveEvent) logs.Event {
	return logs.Event{Session: s.id, Index: int(e.index), Line: int(e.line), File: t.sources[e.source],
		Ignored: e.ignored, Dropped: e.dropped, Action: e.action, Key: logs.Key{Kind: e.kind, Hi: e.hi, Lo: e.lo},
		Span: e.span, Link: e.link}
}

// final is logs.Event.Final.
func (e *liveEvent) final() bool { return logs.Event{Link: e.link}.Final() }

// orderable is logs.Event.Orderable, of two events of session s.
func (t *Table) orderable(s *liveSession, e, d *liveEvent) bool {
	return t.event(s, e).Orderable(t.event(s, d))
}

// after is logs.Event.After, of two events of session s.
func (t *Table) after(s *liveSession, e, d *liveEvent) bool {
	return t.event(s, e).After(t.event(s, d))
}
