package logs

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

// Event is one event of a log as Scan hands it out, before it is gathered
// into its session: judged (its action is in the signature) or Ignored
// (outside it: counted, not judged).
type Event struct {
	Session string // the session id as written
	// Index is the event's rank among the events of its file, from 0, in
	// the order read: Assembler puts a session's events back in this order,
	// so that ties of the order key keep it, as with Read.
	Index int
	Line  int // where the event was read (for a span, its object's line)
	// File is the input the event was read from, when a caller gathers a
	// session's events from several (Scan leaves it empty, and the binary
	// form does not hold it): Assemble orders inputs by name.
	File string
	// Ignored marks an event outside the signature, Dropped a malformed
	// one (reported, and its session incomplete): Action and the order key
	// are then unset.
	Ignored, Dropped bool
	Action           interaction.Action
	key              orderKey
	// link is set for a span left without a partner in its file: Assemble
	// pairs it with a span of another file of its session. Until then it
	// is Ignored when its own message is not declared.
	link *spanLink
}

// Scan reads a log as ReadFrom does, but hands each event to emit as soon
// as it is read instead of gathering the sessions: for a caller that groups
// the events by session itself (a distributed pipeline, across machines),
// then builds each session with an Assembler. Malformed lines go to report
// as with Read, and Stats count the same, but for Sessions (0). Options.
// Locations is not used: the Assembler applies it.
func Scan(name string, r io.Reader, f Format, opt Options, emit func(Event), report func(error)) (Stats, error) {
	in, err := NewInput(name, r, f, opt)
	if err != nil {
		return Stats{}, err
	}
	return in.Scan(emit, report)
}

// emitter is the sink of Scan.
type emitter struct {
	emit func(Event)
	ids  map[string]string // the session ids met, so as to make each string once
}

// maxIDs bounds the session ids an emitter keeps.
const maxIDs = 1 << 16

// id returns b as a string, made once for the ids met recently.
func (e *emitter) id(b []byte) string {
	if s, ok := e.ids[string(b)]; ok {
		return s
	}
	if len(e.ids) == maxIDs {
		clear(e.ids)
	}
	s := string(b)
	e.ids[s] = s
	return s
}

func (e *emitter) add(id []byte, line, index int, act interaction.Action, key orderKey) error {
	e.emit(Event{Session: e.id(id), Index: index, Line: line, Action: act, key: key})
	return nil
}

func (e *emitter) holdsSpans() bool { return true }

func (e *emitter) addSpan(id []byte, line, index int, act interaction.Action, key orderKey, sl *spanLink) error {
	link := *sl
	e.emit(Event{Session: e.id(id), Index: index, Line: line, Action: act, key: key, Ignored: !sl.ownOK, link: &link})
	return nil
}

func (e *emitter) ignore(id []byte, line, index int) {
	e.emit(Event{Session: e.id(id), Index: index, Line: line, Ignored: true})
}

func (e *emitter) drop(id []byte, line, index int) {
	e.emit(Event{Session: e.id(id), Index: index, Line: line, Dropped: true})
}

// Assembler builds sessions from their events, as Read does once it has
// read a file: its multi-trace, its counts, and its error when its events
// mix order keys. It is safe for concurrent use.
type Assembler struct {
	sig      *interaction.Signature
	template *gatherer // the locations
}

// NewAssembler returns an assembler of sessions over opt.Sig and its
// Options.Locations (the other options are the readers').
func NewAssembler(opt Options) (*Assembler, error) {
	g, err := newGatherer("", &opt)
	if err != nil {
		return nil, err
	}
	return &Assembler{sig: opt.Sig, template: g}, nil
}

// Assemble returns the session id of file made of events, all of whose
// Session is id, in any order: they are put back in the order read
// (Event.Index), then split by location and each location sorted by its
// order key, exactly as Read builds a session. Events that name their
// File may come from several inputs, joined as a Joiner joins them: the
// inputs in the order of their names, file is then the first. The error is
// for events that Scan cannot have given with this signature.
func (a *Assembler) Assemble(file, id string, events []Event) (Session, error) {
	if len(events) == 0 {
		return Session{}, fmt.Errorf("%s: session %q has no events", syntax.FileName(file), id)
	}
	slices.SortFunc(events, func(x, y Event) int { return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Index, y.Index)) })
	var inputs []string // the inputs, by name
	for _, e := range events {
		if len(inputs) == 0 || inputs[len(inputs)-1] != e.File {
			inputs = append(inputs, e.File)
		}
	}
	if len(inputs) == 1 && inputs[0] == "" {
		inputs[0] = file
	}
	file = inputs[0]
	g := a.template.empty()
	g.across = true
	g.names = &names{index: map[string]int32{}}
	g.tally = new(tally)
	g.recs.reserve(len(events))
	key := []byte(id)
	for i := range events {
		e := &events[i]
		if n := len(g.inputs); n == 0 || e.File != "" && g.inputs[n-1] != e.File {
			g.inputs = inputs[:n+1] // the input of e: g.input()
		}
		if e.Session != id {
			return Session{}, fmt.Errorf("%s:%d: an event of session %q among those of %q", syntax.FileName(file), e.Line, e.Session, id)
		}
		if e.link != nil && !e.Dropped {
			l := e.link
			if int(e.Action.Lifeline()) >= len(a.sig.Lifelines) || l.ownOK && int(l.own) >= len(a.sig.Messages) ||
				l.pairOK && int(l.pair) >= len(a.sig.Messages) {
				return Session{}, fmt.Errorf("%s:%d: event %d of session %q: action %d is not in the signature", syntax.FileName(file), e.Line, e.Index, id, e.Action)
			}
			if err := g.addSpan(key, e.Line, e.Index, e.Action, e.key, l); err != nil {
				return Session{}, err
			}
			continue
		}
		if e.Ignored {
			g.ignore(key, e.Line, e.Index)
			continue
		}
		if e.Dropped {
			g.drop(key, e.Line, e.Index)
			continue
		}
		if int(e.Action.Lifeline()) >= len(a.sig.Lifelines) || int(e.Action.Message()) >= len(a.sig.Messages) {
			return Session{}, fmt.Errorf("%s:%d: event %d of session %q: action %d is not in the signature", syntax.FileName(file), e.Line, e.Index, id, e.Action)
		}
		if err := g.add(key, e.Line, e.Index, e.Action, e.key); err != nil {
			return Session{}, err
		}
	}
	return g.finish()[0], nil
}

// Locations returns the locations a session is split into: those of
// Options.Locations, then one for each lifeline in none of them.
func (a *Assembler) Locations() interaction.Locations { return a.template.locs }

// Location returns the index in Locations of the location of act, an
// action of the signature.
func (a *Assembler) Location(act interaction.Action) int {
	return int(a.template.locOf[act.Lifeline()])
}

// InLineOrder reports whether e has neither seq nor time: its location's
// events are in the order read.
func (e Event) InLineOrder() bool { return e.key.kind == keyLine }

// Orderable reports whether Assemble can order e and d as events of one
// location of a session read from the inputs named in their File: keys of
// the same kind, and in line order, from the same input.
func (e Event) Orderable(d Event) bool {
	return e.key.kind == d.key.kind && (e.key.kind != keyLine || e.File == d.File)
}

// After reports whether Assemble puts e after d, two orderable events of
// one location, whatever other events the session holds: by their order
// keys, then (ties, and line order) by input and read order.
func (e Event) After(d Event) bool {
	c := cmp.Or(cmp.Compare(e.File, d.File), cmp.Compare(e.Index, d.Index))
	if e.key.kind != keyLine {
		c = cmp.Or(cmp.Compare(e.key.hi, d.key.hi), cmp.Compare(e.key.lo, d.key.lo), c)
	}
	return c > 0
}

// AppendBinary appends the encoding of e to b (encoding.BinaryAppender):
// a compact form for the events a pipeline moves between machines.
func (e Event) AppendBinary(b []byte) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(e.Session)))
	b = append(b, e.Session...)
	b = binary.AppendUvarint(b, uint64(e.Index))
	b = binary.AppendUvarint(b, uint64(e.Line))
	switch {
	case e.Ignored && e.link == nil:
		return append(b, 0xff), nil
	case e.Dropped:
		return append(b, 0xfe), nil
	}
	tag := byte(e.key.kind)
	if e.link != nil {
		tag |= linkFlag
	}
	b = append(b, tag)
	b = binary.AppendUvarint(b, uint64(e.Action))
	b = binary.AppendVarint(b, e.key.hi)
	b = binary.AppendUvarint(b, uint64(e.key.lo))
	if e.link != nil {
		b = e.link.appendBinary(b)
	}
	return b, nil
}

// linkFlag marks, in the key kind of an encoded event, a span held for
// pairing: its spanLink follows.
const linkFlag = 0x40

// appendBinary appends the encoding of l: flags, kind, ids, links, then
// each message as an id or a name.
func (l *spanLink) appendBinary(b []byte) []byte {
	var flags byte
	if l.ownOK {
		flags |= 1
	}
	if l.pairOK {
		flags |= 2
	}
	b = append(b, flags, byte(l.kind))
	b = binary.AppendUvarint(b, l.span)
	b = binary.AppendUvarint(b, l.parent)
	b = binary.AppendUvarint(b, uint64(len(l.links)))
	for _, id := range l.links {
		b = binary.AppendUvarint(b, id)
	}
	for _, m := range [...]struct {
		ok   bool
		id   interaction.MessageID
		name string
	}{{l.ownOK, l.own, l.ownName}, {l.pairOK, l.pair, l.pairName}} {
		if m.ok {
			b = binary.AppendUvarint(b, uint64(m.id))
		} else {
			b = binary.AppendUvarint(b, uint64(len(m.name)))
			b = append(b, m.name...)
		}
	}
	return b
}

// read decodes what appendBinary encodes.
func (l *spanLink) read(d *decoder) {
	flags, kind := d.byte(), d.byte()
	if flags > 3 || kind > byte(kindConsumer) {
		d.err = errEventEncoding
		return
	}
	l.ownOK, l.pairOK, l.kind = flags&1 != 0, flags&2 != 0, spanKind(kind)
	l.span, l.parent = d.uvarint(math.MaxUint64), d.uvarint(math.MaxUint64)
	n := d.uvarint(uint64(len(d.b)))
	for range n {
		l.links = append(l.links, d.uvarint(math.MaxUint64))
	}
	msg := func(ok bool, id *interaction.MessageID, name *string) {
		if ok {
			*id = interaction.MessageID(d.uvarint(1<<16 - 1))
			return
		}
		*name = string(d.bytes(int(d.uvarint(uint64(len(d.b))))))
	}
	msg(l.ownOK, &l.own, &l.ownName)
	msg(l.pairOK, &l.pair, &l.pairName)
}

// MarshalBinary returns the encoding of e (encoding.BinaryMarshaler).
func (e Event) MarshalBinary() ([]byte, error) { return e.AppendBinary(nil) }

var errEventEncoding = errors.New("logs: invalid event encoding")

// UnmarshalBinary decodes what AppendBinary encodes
// (encoding.BinaryUnmarshaler).
func (e *Event) UnmarshalBinary(data []byte) error {
	d := decoder{b: data}
	n := d.uvarint(uint64(len(data)))
	s := string(d.bytes(int(n)))
	index, line := d.uvarint(math.MaxInt), d.uvarint(math.MaxInt)
	kind := d.byte()
	ev := Event{Session: s, Index: int(index), Line: int(line)}
	switch {
	case kind == 0xff:
		ev.Ignored = true
	case kind == 0xfe:
		ev.Dropped = true
	case int(kind&^linkFlag) < len(keyNames):
		ev.Action = interaction.Action(d.uvarint(1<<32 - 1))
		ev.key = orderKey{kind: keyKind(kind &^ linkFlag), hi: d.varint()}
		ev.key.lo = uint32(d.uvarint(1<<32 - 1))
		if kind&linkFlag != 0 {
			ev.link = new(spanLink)
			ev.link.read(&d)
			ev.Ignored = !ev.link.ownOK
		}
	default:
		d.err = errEventEncoding
	}
	if d.err != nil || len(d.b) != 0 {
		return errEventEncoding
	}
	*e = ev
	return nil
}

// decoder reads the fields of an encoded event; the first error sticks.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint(max uint64) uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > max {
		d.err, d.b = errEventEncoding, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err, d.b = errEventEncoding, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes(n int) []byte {
	if n > len(d.b) {
		d.err, d.b = errEventEncoding, nil
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.err = errEventEncoding
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}
