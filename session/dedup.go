package session

// Duplicates: a span is its id within its session (a trace id), on one
// side of its call or message (Zipkin gives the two halves of an RPC one
// id: one call, two spans). The same span read twice (two copies of a
// file, one trace exported to two files, an exporter's retry) is one
// event: the copies after the first are dropped when the session is
// built, and counted (Meta.Duplicates). A copy whose content differs (its
// action or start) is dropped too, the session judged on the first, and
// reported (Meta.Conflict). The events of an event log have no id: one
// whose seq, location and action repeat an event's of its session is the
// same event logged twice.

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hashslots"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/syntax"
)

// spanEntry is a span of a session being built: its id, the side of its
// action, and its place among the session's records.
type spanEntry struct {
	id   uint64
	side interaction.Kind
	at   int32
}

// dedup drops the spans of a session (its records recs, in the order read)
// read before: a span is kept the first time its id is read on its side,
// and out counts the others. It runs once the spans are paired, so that
// two copies of a span compare by the message their pair gives them.
func (g *gatherer) dedup(recs []int32, a *arena, out *Session) {
	es := a.spans[:0]
	for i, r := range recs {
		rec := g.recs.at(r)
		if id := g.spanOf(rec); id != 0 {
			es = append(es, spanEntry{id: id, side: rec.act.Kind(), at: int32(i)})
		}
	}
	a.spans = es
	if len(es) <= smallDedup && !anyDuplicate(es) || len(es) > smallDedup && a.distinct(es) {
		return // most sessions: no span read twice, told without a sort
	}
	slices.SortFunc(es, func(x, y spanEntry) int {
		return cmp.Or(cmp.Compare(x.id, y.id), cmp.Compare(x.side, y.side), cmp.Compare(x.at, y.at))
	})
	first := 0
	for i := 1; i < len(es); i++ {
		if es[i].id != es[first].id || es[i].side != es[first].side {
			first = i
			continue
		}
		orig, dup := g.recs.at(recs[es[first].at]), g.recs.at(recs[es[i].at])
		ignored := g.dropped(dup) // a span held whose message is not declared
		if dup.meta&unpairedMark != 0 {
			// A span counted unpaired once, whichever copies a file left
			// alone: the mark goes to the copy kept.
			if orig.meta&unpairedMark != 0 {
				out.Unpaired--
			}
			orig.meta |= unpairedMark
		}
		dup.meta |= dupMark
		out.Duplicates++
		if ignored {
			out.Ignored--
		} else {
			out.Events--
		}
		if !g.sameSpan(orig, dup) {
			out.Conflicts++
			if out.Conflict == nil {
				out.Conflict = g.conflict(out.ID, es[i].id, orig, dup)
			}
		}
	}
}

// smallDedup is the most spans of a session that anyDuplicate compares
// pair by pair rather than dedup sorts them.
const smallDedup = 32

// anyDuplicate reports whether two of es have the same id on the same side.
func anyDuplicate(es []spanEntry) bool {
	for i := range es {
		for j := i + 1; j < len(es); j++ {
			if es[i].id == es[j].id && es[i].side == es[j].side {
				return true
			}
		}
	}
	return false
}

// distinct reports whether no two of es have the same id on the same
// side, in one pass over a table of them (a.seen), for the sessions too
// long to compare their spans pair by pair: a sort of a session of 40
// spans was a tenth of reading OTLP/protobuf traces of such sessions. It
// gives up (false: the sort decides) at the first duplicate, or when its
// probes run past a few a span, as ids chosen to collide would make them
// (the table's hash is no secret).
func (a *arena) distinct(es []spanEntry) bool {
	size := 64
	for size < 2*len(es) {
		size *= 2
	}
	t := slices.Grow(a.seen[:0], size)[:size]
	clear(t)
	a.seen = t
	mask, probes := uint64(size-1), 0
	for i := range es {
		e := &es[i]
		for p := hashslots.Mix(e.id+uint64(e.side)) & mask; ; p = (p + 1) & mask {
			j := t[p]
			if j == 0 {
				t[p] = int32(i + 1)
				break
			}
			if d := &es[j-1]; d.id == e.id && d.side == e.side {
				return false
			}
			if probes++; probes > 4*len(es) {
				return false
			}
		}
	}
	return true
}

// sameSpan reports whether two records of one span id say the same: the
// same action (its message as pairing gave it) at the same start.
func (g *gatherer) sameSpan(x, y *record) bool {
	if x.act != y.act || x.hi != y.hi || x.lo != y.lo || x.kind() != y.kind() {
		return false
	}
	xi, yi := x.span > 0 && g.spans.at(x.span-1).ignored, y.span > 0 && g.spans.at(y.span-1).ignored
	if xi || yi {
		return xi && yi && g.spans.at(x.span-1).own == g.spans.at(y.span-1).own
	}
	return true
}

// conflict returns the error of dup, a record of span id read again with
// another content than orig.
func (g *gatherer) conflict(session string, id uint64, orig, dup *record) error {
	at := fmt.Sprintf("%s:%d", syntax.FileName(g.inputs[orig.input()]), orig.line)
	if orig.input() == dup.input() {
		at = fmt.Sprintf("line %d", orig.line)
	}
	return &syntax.Error{File: g.inputs[dup.input()], Pos: syntax.Pos{Line: int(dup.line)}, Msg: fmt.Sprintf(
		"session %q: span %016x read again with other content: %s here, %s at %s; judged on the first",
		session, id, g.spanText(dup), g.spanText(orig), at)}
}

// spanText says what a span's record holds: its action and start.
func (g *gatherer) spanText(r *record) string {
	act := r.act.Format(g.sig)
	if r.span > 0 && g.spans.at(r.span-1).ignored {
		act = "an event outside the signature"
	}
	if r.kind() == logs.KeyTime {
		return act + " starting " + time.Unix(r.hi, int64(r.lo)).UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("%s at %d.%09d", act, r.hi, r.lo)
}

// dedupSeq drops from loc, the events of a location ordered by their seqs,
// an event whose seq and action repeat an event's before it, and returns
// what is left (the same array); out counts the events dropped.
func dedupSeq(loc []origin, out *Session) []origin {
	kept := loc[:1]
	for _, e := range loc[1:] {
		dup := false
		for j := len(kept) - 1; j >= 0 && kept[j].hi == e.hi && kept[j].lo == e.lo; j-- {
			if kept[j].act == e.act {
				dup = true
				break
			}
		}
		if dup {
			out.Duplicates++
			out.Events--
			continue
		}
		kept = append(kept, e)
	}
	return kept
}
