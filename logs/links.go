package logs

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"unsafe"

	"github.com/ivc-project/ivc/interaction"
)

// HTTPRoute is the attribute of the OpenTelemetry semantic conventions
// that names the route of an HTTP server span.
const HTTPRoute = "http.route"

// SpanKind is the kind of a span that carries an action, as OpenTelemetry
// and Jaeger write it: it says which partner a span may have.
type SpanKind uint8

const (
	SpanClient SpanKind = iota
	SpanProducer
	SpanServer
	SpanConsumer
)

// Action returns the kind of the action a span of kind k carries: CLIENT
// and PRODUCER spans send (l!m), SERVER and CONSUMER spans receive (l?m).
func (k SpanKind) Action() interaction.Kind {
	if k == SpanClient || k == SpanProducer {
		return interaction.Emission
	}
	return interaction.Reception
}

// heldSpan is a span with an action, held until the file is read: its
// message may come from its linked partner.
type heldSpan struct {
	trace, spanID, parent string
	links                 []string
	line, col             int
	l, m                  string
	pairM                 string // the message of the pair, when this span is the receiving side
	kind                  SpanKind
	start                 int64
}

// pairKey is a span's trace and span ids, to find its partner.
type pairKey struct{ trace, span string }

// heldSpanBytes is what a held span takes besides the bytes of its
// strings.
const heldSpanBytes = int64(unsafe.Sizeof(heldSpan{}))

// hold keeps a span until flush, its names shortened past the longest
// name of the signature. The spans held count in the file's limit
// (Options.maxHeld): past it, a positioned error ends the reading.
func (r *spanReader) hold(s heldSpan) error {
	s.l, s.m, s.pairM = r.short(s.l), r.short(s.m), r.short(s.pairM)
	n := heldSpanBytes + int64(len(s.trace)+len(s.spanID)+len(s.parent)+len(s.l)+len(s.m)+len(s.pairM))
	for _, l := range s.links {
		n += 16 + int64(len(l))
	}
	if err := r.take(n, s.line, s.col); err != nil {
		return err
	}
	r.held = append(r.held, s)
	return nil
}

// take counts n more bytes held by the file's spans (at line:col), and
// returns an error past the file's limit.
func (r *spanReader) take(n int64, line, col int) error {
	r.heldBytes += n
	if r.maxHeld > 0 && r.heldBytes > r.maxHeld {
		r.over = true
		return errorAt(r.b.file, line, col, fmt.Sprintf(
			"the spans read so far take more than %d bytes, the most a file may hold until it is read (to pair them; --max-memory raises it)", r.maxHeld))
	}
	return nil
}

// short returns name, or, when it is longer than any name of the
// signature (it cannot be declared), a copy of its start ending in "…":
// a span holds it until its file is read, and a summary may print it.
func (r *spanReader) short(name string) string {
	if len(name) <= r.maxName {
		return name
	}
	return shortName(name, r.maxName)
}

// flush pairs the held spans and adds them, in the order read. A SERVER
// span whose parent is a CLIENT span of its trace, and a CONSUMER span
// whose parent or one of its links is a PRODUCER span, is linked with that
// span: both carry the receiving side's message (OpenTelemetry names the
// two sides of one call differently). A span without a partner in the file
// goes to a consumer that pairs the spans of several files (PairsAcross:
// session.Joiner, Scan) with what pairs it at its session's assembly
// (SpanLink), where its partner may come from another file; to any other
// consumer, and with Options.Strict, it keeps its own message. With
// pairLater (a TraceReader's requests, whose partners mostly come in other
// requests), no span is paired here: each goes to the consumer with its
// SpanLink, and its session's assembly pairs them all, once.
func (r *spanReader) flush() error {
	if r.over {
		// The file's reading stopped at the limit: the sessions of the
		// spans held are not judged without the rest (session.Session.Dropped).
		for _, s := range r.held {
			r.b.stats.Malformed++
			r.b.sink.Drop([]byte(s.trace), s.line, r.b.index)
			r.b.index++
		}
		r.held, r.heldBytes = nil, 0
		return nil
	}
	if len(r.held) == 0 {
		return nil
	}
	across := r.b.sink.PairsAcross() && !r.b.strict
	paired := slices.Grow(r.paired[:0], len(r.held))[:len(r.held)]
	clear(paired)
	r.paired = paired
	if !across || !r.pairLater {
		r.pair(paired)
	}
	held := r.held
	r.held, r.heldBytes = nil, 0
	defer func() { clear(held); r.held = held[:0] }() // its room, for the next spans
	for i, s := range held {
		r.id = append(r.id[:0], s.trace...)
		if across && !paired[i] {
			if s.unpaired(&r.link) {
				if err := r.linked(r.id, s.line, s.col, s.spanID, s.l, s.kind, s.m, s.pairM, s.start, &r.link); err != nil {
					return err
				}
				continue
			}
		}
		if err := r.span(r.id, s.line, s.col, s.spanID, s.l, s.kind.Action(), s.m, s.start); err != nil {
			return err
		}
	}
	return nil
}

// pair pairs the held spans of each call or message, marking them in
// paired: both carry the receiving side's message.
func (r *spanReader) pair(paired []bool) {
	if r.pairs == nil {
		r.pairs = map[pairKey]int{}
	}
	index := r.pairs
	clear(index)
	for i, s := range r.held {
		// Only an emission is a partner: a Zipkin SERVER span shares its
		// CLIENT span's id (shared), and must not hide it.
		if s.spanID != "" && s.kind.Action() == interaction.Emission {
			index[pairKey{s.trace, s.spanID}] = i
		}
	}
	partner := func(id string, want SpanKind, trace string) int {
		if id == "" {
			return -1
		}
		if j, ok := index[pairKey{trace, id}]; ok && r.held[j].kind == want {
			return j
		}
		return -1
	}
	for i := range r.held {
		s := &r.held[i]
		j := -1
		switch s.kind {
		case SpanServer:
			j = partner(s.parent, SpanClient, s.trace)
		case SpanConsumer:
			if j = partner(s.parent, SpanProducer, s.trace); j < 0 {
				for _, id := range s.links {
					if j = partner(id, SpanProducer, s.trace); j >= 0 {
						break
					}
				}
			}
		}
		if j >= 0 {
			s.m = s.pairM
			r.held[j].m = s.pairM
			paired[i], paired[j] = true, true
		}
	}
}

// unpaired sets sl to what a span left without a partner in its file
// carries to be paired at the assembly of its session, with a span of
// another file (session.Joiner joins the files of a run): an emission its
// id, a reception its parent and links; it is false for a span that
// cannot have a partner.
func (s *heldSpan) unpaired(sl *SpanLink) (ok bool) {
	*sl = SpanLink{Kind: s.kind} // Links anew: the consumer may keep them
	if s.kind.Action() == interaction.Emission {
		sl.Span = spanNum(s.spanID)
		return sl.Span != 0
	}
	sl.Parent = spanNum(s.parent)
	for _, l := range s.links {
		if n := spanNum(l); n != 0 {
			sl.Links = append(sl.Links, n)
		}
	}
	return sl.Parent != 0 || len(sl.Links) > 0
}

// spanNum returns a span id written in hex as a number; an id that is not
// hex (Jaeger's spanID is a string) is hashed, 0 for none: what consumers
// know a span by (Consumer.Add, Event.Span, SpanLink).
func spanNum(id string) uint64 {
	if id == "" {
		return 0
	}
	if n, err := strconv.ParseUint(id, 16, 64); err == nil {
		return n
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64() | 1<<63
}

// SpanLink is what a span left without a partner in its file carries to
// its Consumer, so that its session's assembly (package session) can pair
// it with a span of another file, as the reader pairs the spans of one
// file: a SERVER span with the CLIENT span that is its parent, a CONSUMER
// span with the PRODUCER span that is its parent or one of its links. Span
// ids are numbers (spanNum: hex, or a hash of another id).
type SpanLink struct {
	Span, Parent uint64   // its id (emissions), its parent's (receptions); 0: none
	Links        []uint64 // receptions: the spans it links to
	Kind         SpanKind
	// Own is its message alone, Pair the receiving side's message of a
	// linked pair (receptions), which both spans of a pair carry: declared
	// when OwnOK and PairOK, else named by OwnName and PairName.
	Own, Pair         interaction.MessageID
	OwnOK, PairOK     bool
	OwnName, PairName string
}

// linked adds a span left without a partner in its file, with what pairs
// it at assembly: it counts as an event when its own message is declared,
// else as ignored, until then. A span whose lifeline is not declared is
// ignored, as span ignores it.
func (r *spanReader) linked(id []byte, line, col int, spanID, l string, kind SpanKind, m, pairM string, start int64, sl *SpanLink) error {
	lid, ok := r.b.lifelines.findString(l)
	if !ok {
		return r.span(id, line, col, spanID, l, kind.Action(), m, start)
	}
	own, ownOK := r.b.messages.findString(m)
	sl.Own, sl.OwnOK = interaction.MessageID(own), ownOK
	if !sl.OwnOK {
		sl.OwnName = m
	}
	if kind.Action() == interaction.Reception {
		pair, pairOK := r.b.messages.findString(pairM)
		sl.Pair, sl.PairOK = interaction.MessageID(pair), pairOK
		if !sl.PairOK {
			sl.PairName = pairM
		}
	}
	act := interaction.MakeAction(interaction.LifelineID(lid), kind.Action(), sl.Own)
	if sl.OwnOK {
		r.b.stats.Events++
	} else {
		r.b.stats.Ignored++
	}
	r.b.index++
	return r.b.sink.AddSpan(id, line, r.b.index-1, act, spanKey(start), spanNum(spanID), sl)
}

// spanKey is the order key of a span starting at start (in nanoseconds
// since the Unix epoch): a time like an event log's RFC 3339 time, so that
// a location's spans and events order together.
func spanKey(start int64) Key {
	sec, nsec := start/1e9, start%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	return Key{Kind: KeyTime, Hi: sec, Lo: uint32(nsec)}
}
