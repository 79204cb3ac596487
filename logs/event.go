package logs

import (
	"cmp"
	"hash/maphash"
	"io"
	"math"

	"github.com/ivc-project/ivc/interaction"
)

// Line32 returns line as those who hold many events keep it (a session's
// records, the monitor's held events): in 32 bits, clamped, so that a log
// of more than 4,294,967,295 lines names its last ones by that line.
func Line32(line int) uint32 { return uint32(min(max(int64(line), 0), math.MaxUint32)) }

// Event is one event of a log as Scan hands it out, before it is gathered
// into its session (by a session.Assembler): judged (its action is in the
// signature) or Ignored (outside it: counted, not judged).
type Event struct {
	Session string // the session id as written
	// Index is the event's rank among the events of its file, from 0, in
	// the order read: assembly puts a session's events back in this order,
	// so that ties of the order key keep it, as session.Read does.
	Index int
	Line  int // where the event was read (for a span, its object's line)
	// File is the input the event was read from, when a caller gathers a
	// session's events from several (Scan leaves it empty, and the binary
	// form does not hold it): assembly orders inputs by name.
	File string
	// Ignored marks an event outside the signature, Dropped a malformed
	// one (reported, and its session incomplete): Action and the order key
	// are then unset.
	Ignored, Dropped bool
	Action           interaction.Action
	Key              Key // its place in its location's order
	// Span is a span's own id (spanNum), 0 for an event of an event log:
	// with Session and the side of Action, it says which span the event
	// is, so that assembly counts a span read twice once.
	Span uint64
	// Link is set for a span left without a partner in its file: the
	// session's assembly pairs it with a span of another file of its
	// session. Until then it is Ignored when its own message is not
	// declared.
	Link *SpanLink
	// Unpaired marks the event of a CLIENT or PRODUCER span that a reading
	// which pairs no span across files (Options.Strict) left without its
	// partner in its file: its session counts it (session.Meta.Unpaired,
	// once a Span whatever the files that leave it alone), as an assembly
	// counts those it cannot pair itself.
	Unpaired bool
}

// Scan reads a log as session.ReadFrom does, but hands each event to emit
// as soon as it is read instead of gathering the sessions: for a caller
// that groups the events by session itself (a distributed pipeline, across
// machines), then builds each session with a session.Assembler. Malformed
// lines go to report as with session.Read, and Stats count the same, but
// for Sessions (0). Options.Locations is not used: the Assembler applies
// it.
func Scan(name string, r io.Reader, f Format, opt Options, emit func(Event), report func(error)) (Stats, error) {
	in, err := NewInput(name, r, f, opt)
	if err != nil {
		return Stats{}, err
	}
	return in.Scan(emit, report)
}

// emitter is the Consumer of Scan: it hands out Events.
type emitter struct {
	emit func(Event)
	// pending is the event held (held) while the reader holds them
	// (holding): see hold.
	pending       Event
	held, holding bool
	ids           *[idSlots]string // the session ids met recently (id), made on first use
	links         []SpanLink       // room for the links of the next spans
	// lend: the links are lent until the next request (TraceReader.LendLinks),
	// whose links reuse links' room, grown to a request's.
	lend bool
}

// linkChunk is the number of SpanLinks an emitter makes at once: a
// TraceReader hands out most spans with one, and a span is not worth an
// allocation of its own.
const linkChunk = 64

// idSlots is the number of session ids an emitter keeps, and idSeed the
// seed of the hash that places them.
const idSlots = 1 << 10

var idSeed = maphash.MakeSeed()

// id returns b as a string, made once for the ids met recently: each id
// has a slot, by a hash of its bytes, and keeps it until another id takes
// it. A map of the ids met was larger than the caches (a request's
// sessions are mostly new, and ivc monitor's reader served many requests):
// looking it up took 6 % of the monitor's time a span.
func (e *emitter) id(b []byte) string {
	if e.ids == nil {
		e.ids = new([idSlots]string)
	}
	slot := &e.ids[maphash.Bytes(idSeed, b)&(idSlots-1)]
	if *slot != string(b) {
		*slot = string(b)
	}
	return *slot
}

// out hands out ev, or holds it while the reader asks (hold).
func (e *emitter) out(ev Event) {
	if !e.holding {
		e.emit(ev)
		return
	}
	if e.held {
		e.emit(e.pending)
	}
	e.pending, e.held = ev, true
}

// hold holds the events to come until release: Unpaired, which comes
// after a span's own event, marks it meanwhile.
func (e *emitter) hold() { e.holding = true }

// release hands out the event held, if any, and holds no more.
func (e *emitter) release() {
	e.holding = false
	if e.held {
		e.held = false
		e.emit(e.pending)
	}
}

func (e *emitter) Add(id []byte, line, index int, act interaction.Action, key Key, span uint64) error {
	e.out(Event{Session: e.id(id), Index: index, Line: line, Action: act, Key: key, Span: span})
	return nil
}

func (e *emitter) PairsAcross() bool { return true }

func (e *emitter) AddSpan(id []byte, line, index int, act interaction.Action, key Key, span uint64, sl *SpanLink) error {
	if len(e.links) == cap(e.links) {
		n := linkChunk
		if e.lend {
			n = max(n, 2*cap(e.links))
		}
		e.links = make([]SpanLink, 0, n)
	}
	e.links = append(e.links, *sl)
	link := &e.links[len(e.links)-1]
	e.out(Event{Session: e.id(id), Index: index, Line: line, Action: act, Key: key, Span: span, Ignored: !sl.OwnOK, Link: link})
	return nil
}

// Unpaired is called only when reading strictly (Options.Strict), which
// pairs no span across files, after the span's own event: it marks that
// event (Event.Unpaired), held meanwhile (see spanReader.flush).
func (e *emitter) Unpaired(id []byte, line, index int, span uint64) {
	if e.held && e.pending.Index == index && e.pending.Session == string(id) {
		e.pending.Unpaired = true
	}
}

func (e *emitter) Ignore(id []byte, line, index int) {
	e.out(Event{Session: e.id(id), Index: index, Line: line, Ignored: true})
}

func (e *emitter) Drop(id []byte, line, index int) {
	e.out(Event{Session: e.id(id), Index: index, Line: line, Dropped: true})
}

// Final reports whether e's Action and Ignored are those a session's
// assembly gives it: false for a span left without its partner in its
// file (OTLP, Jaeger) whose pairing at assembly may change them, an
// emission taking its partner's naming of the pair (a reception names the
// pair as it names itself alone: it is final unless ignored), and for the
// reply of a CLIENT span (SpanLink.Reply), which follows its call.
func (e Event) Final() bool { return e.Link == nil || e.Link.Final() }

// Final reports whether the event of a span held with l is final (see
// Event.Final): a reception that names the pair as it names itself alone,
// not a CLIENT span's reply.
func (l SpanLink) Final() bool {
	return !l.Reply && l.Kind.Action() == interaction.Reception && l.OwnOK && l.PairOK && l.Own == l.Pair
}

// InLineOrder reports whether e has neither seq nor time: its location's
// events are in the order read.
func (e Event) InLineOrder() bool { return e.Key.Kind == KeyLine }

// Orderable reports whether assembly can order e and d as events of one
// location of a session read from the inputs named in their File: keys of
// the same kind, and in line order, from the same input.
func (e Event) Orderable(d Event) bool {
	return e.Key.Kind == d.Key.Kind && (e.Key.Kind != KeyLine || e.File == d.File)
}

// After reports whether assembly puts e after d, two orderable events of
// one location, whatever other events the session holds: by their order
// keys, then (ties, and line order) by input and read order.
func (e Event) After(d Event) bool {
	c := cmp.Or(cmp.Compare(e.File, d.File), cmp.Compare(e.Index, d.Index))
	if e.Key.Kind != KeyLine {
		c = cmp.Or(e.Key.Compare(d.Key), c)
	}
	return c > 0
}
