package session

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// The binary form of an event: what a distributed pipeline (ivc-beam)
// moves between the machines that read logs (logs.Scan) and those that
// assemble their sessions (Assembler). It holds every field of a
// Event but File, which the pipeline keeps beside it.

// AppendEvent appends the binary form of e to b: its session id, its index
// and line, then its order key and action (an event in the signature) or a
// tag (ignored, dropped), a span's id, and its SpanLink (a span held for
// pairing); and whether it is marked unpaired (logs.Event.Unpaired).
func AppendEvent(b []byte, e logs.Event) []byte {
	b = binary.AppendUvarint(b, uint64(len(e.Session)))
	b = append(b, e.Session...)
	b = binary.AppendUvarint(b, uint64(e.Index))
	b = binary.AppendUvarint(b, uint64(e.Line))
	switch {
	case e.Ignored && e.Link == nil && e.Unpaired:
		return append(b, ignoredUnpaired)
	case e.Ignored && e.Link == nil:
		return append(b, ignoredEvent)
	case e.Dropped:
		return append(b, droppedEvent)
	}
	tag := byte(e.Key.Kind)
	if e.Link != nil {
		tag |= linkFlag
	}
	if e.Span != 0 {
		tag |= idFlag
	}
	if e.Unpaired {
		tag |= unpairedFlag
	}
	b = append(b, tag)
	b = binary.AppendUvarint(b, uint64(e.Action))
	b = binary.AppendVarint(b, e.Key.Hi)
	b = binary.AppendUvarint(b, uint64(e.Key.Lo))
	if e.Span != 0 {
		b = binary.AppendUvarint(b, e.Span)
	}
	if e.Link != nil {
		b = appendLink(b, e.Link)
	}
	return b
}

// The tags of an encoded event outside the signature and of a malformed
// one, in the place of its key kind.
const (
	ignoredEvent = 0xff
	droppedEvent = 0xfe
	// ignoredUnpaired is an ignored event marked unpaired.
	ignoredUnpaired = 0xfd
)

// linkFlag marks, in the key kind of an encoded event, a span held for
// pairing: its SpanLink follows; idFlag a span's id (logs.Event.Span),
// after its key; unpairedFlag an event marked unpaired.
const (
	linkFlag     = 0x40
	idFlag       = 0x20
	unpairedFlag = 0x10
	eventFlags   = linkFlag | idFlag | unpairedFlag
)

// appendLink appends the encoding of l: flags, kind, ids, links, then
// each message as an id or a name.
func appendLink(b []byte, l *logs.SpanLink) []byte {
	var flags byte
	if l.OwnOK {
		flags |= 1
	}
	if l.PairOK {
		flags |= 2
	}
	if l.Reply {
		flags |= 4
	}
	b = append(b, flags, byte(l.Kind))
	b = binary.AppendUvarint(b, l.Span)
	b = binary.AppendUvarint(b, l.Parent)
	b = binary.AppendUvarint(b, uint64(len(l.Links)))
	for _, id := range l.Links {
		b = binary.AppendUvarint(b, id)
	}
	for _, m := range [...]struct {
		ok   bool
		id   interaction.MessageID
		name string
	}{{l.OwnOK, l.Own, l.OwnName}, {l.PairOK, l.Pair, l.PairName}} {
		if m.ok {
			b = binary.AppendUvarint(b, uint64(m.id))
		} else {
			b = binary.AppendUvarint(b, uint64(len(m.name)))
			b = append(b, m.name...)
		}
	}
	return b
}

// readLink decodes what appendLink encodes into l.
func (d *decoder) readLink(l *logs.SpanLink) {
	flags, kind := d.byte(), d.byte()
	if flags > 7 || kind > byte(logs.SpanConsumer) {
		d.err = errEventEncoding
		return
	}
	l.OwnOK, l.PairOK, l.Reply, l.Kind = flags&1 != 0, flags&2 != 0, flags&4 != 0, logs.SpanKind(kind)
	l.Span, l.Parent = d.uvarint(math.MaxUint64), d.uvarint(math.MaxUint64)
	n := d.uvarint(uint64(len(d.b)))
	for range n {
		l.Links = append(l.Links, d.uvarint(math.MaxUint64))
	}
	msg := func(ok bool, id *interaction.MessageID, name *string) {
		if ok {
			*id = interaction.MessageID(d.uvarint(1<<16 - 1))
			return
		}
		*name = string(d.bytes(int(d.uvarint(uint64(len(d.b))))))
	}
	msg(l.OwnOK, &l.Own, &l.OwnName)
	msg(l.PairOK, &l.Pair, &l.PairName)
}

var errEventEncoding = errors.New("session: invalid event encoding")

// DecodeEvent decodes what AppendEvent encodes: any other bytes, a
// truncated or extended encoding among them, are an error.
func DecodeEvent(data []byte) (logs.Event, error) {
	d := decoder{b: data}
	n := d.uvarint(uint64(len(data)))
	s := string(d.bytes(int(n)))
	index, line := d.uvarint(math.MaxInt), d.uvarint(math.MaxInt)
	kind := d.byte()
	ev := logs.Event{Session: s, Index: int(index), Line: int(line)}
	switch {
	case kind == ignoredEvent || kind == ignoredUnpaired:
		ev.Ignored, ev.Unpaired = true, kind == ignoredUnpaired
	case kind == droppedEvent:
		ev.Dropped = true
	case kind&^eventFlags <= byte(logs.KeyNumber):
		ev.Unpaired = kind&unpairedFlag != 0
		ev.Action = interaction.Action(d.uvarint(1<<32 - 1))
		ev.Key = logs.Key{Kind: logs.KeyKind(kind &^ eventFlags), Hi: d.varint()}
		ev.Key.Lo = uint32(d.uvarint(1<<32 - 1))
		if kind&idFlag != 0 {
			if ev.Span = d.uvarint(math.MaxUint64); ev.Span == 0 {
				d.err = errEventEncoding
			}
		}
		if kind&linkFlag != 0 {
			ev.Link = new(logs.SpanLink)
			d.readLink(ev.Link)
			ev.Ignored = !ev.Link.OwnOK
		}
	default:
		d.err = errEventEncoding
	}
	if d.err != nil || len(d.b) != 0 {
		return logs.Event{}, errEventEncoding
	}
	return ev, nil
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

// uint64 and uint32 read a spill's fixed-width fields. They are not built
// on bytes: through it, a spill's run decoded 5-10% slower
// (BenchmarkSpilledRead), its bounds checks not removed.
func (d *decoder) uint64() uint64 {
	if len(d.b) < 8 {
		d.err, d.b = errEventEncoding, nil
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

func (d *decoder) uint32() uint32 {
	if len(d.b) < 4 {
		d.err, d.b = errEventEncoding, nil
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b)
	d.b = d.b[4:]
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
