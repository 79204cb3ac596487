package logs

import (
	"cmp"

	"github.com/ivc-project/ivc/interaction"
)

// Stats count what a log held. Every event read is one of Events (in a
// session: judged, or in a session with an Err), Ignored (outside the
// signature) or Malformed (reported). Unkinded counts the spans of a trace
// file that carry no action, INTERNAL or without a kind: not events, but
// counted, so that a file of them does not look empty. Sessions is
// counted by what gathers the sessions (session.Read), 0 otherwise.
type Stats struct{ Sessions, Events, Ignored, Malformed, Unkinded int }

// KeyKind is what orders the events of a location: the events of one
// location of a session have keys of one kind.
type KeyKind uint8

const (
	KeyLine   KeyKind = iota // line order: no seq, no time
	KeySeq                   // an integer sequence number
	KeyTime                  // a time: RFC 3339, or a span's start
	KeyNumber                // a time given as a number (of any unit)
)

var keyNames = [...]string{KeyLine: "neither seq nor time", KeySeq: "a seq", KeyTime: "an RFC 3339 time (or a span's start)",
	KeyNumber: "a numeric time"}

// String says what orders an event as messages say it: "a seq", "neither
// seq nor time", ...
func (k KeyKind) String() string {
	if int(k) < len(keyNames) {
		return keyNames[k]
	}
	return "an unknown order key"
}

// Key is an event's position in its location's order: Hi then Lo (the
// seconds and nanoseconds of a time, the integer part and billionths of a
// number, or a seq and 0), between keys of one Kind.
type Key struct {
	Kind KeyKind
	Hi   int64
	Lo   uint32
}

// Compare compares the positions of k and l, keys of one kind.
func (k Key) Compare(l Key) int { return cmp.Or(cmp.Compare(k.Hi, l.Hi), cmp.Compare(k.Lo, l.Lo)) }

// A Consumer takes the events of a log as a reader reads them, one call
// an event, in the order read: index counts the events of the input from
// 0, line is where the event was read (for a span, its object's line), id
// is its session's id as written, valid only during the call (a consumer
// that keeps it copies it: a reader allocates nothing an event); span is
// a span's own id (its hex id as a number), which with its session's id and
// the side of its action says which span it is, so that a span read twice
// (two copies of a file, an exporter's retry) counts once; 0 for an event
// of an event log; and where a judgment names the span. The gatherers of package session (Read, a Joiner, an
// Assembler) are consumers, and so is Scan's, which hands out Events.
type Consumer interface {
	// Add takes an event in the signature: the action act, with its order
	// key. An error (a limit of what the consumer holds) ends the reading.
	Add(id []byte, line, index int, act interaction.Action, key Key, span uint64) error
	// Ignore takes an event outside the signature (counted, not judged).
	Ignore(id []byte, line, index int)
	// Drop takes a malformed event of session id (reported): the session
	// lost it.
	Drop(id []byte, line, index int)
	// PairsAcross reports whether the consumer pairs the spans of several
	// files, as a session's assembly does: then a span left without a
	// partner in its file comes to AddSpan, with what pairs it, instead of
	// to Add or Ignore with its own message.
	PairsAcross() bool
	// AddSpan takes a span left without a partner in its file, its action's
	// message its own (OwnOK) or none yet (it is then ignored until a
	// partner names it), and link, which pairs it at assembly; link is
	// valid only during the call.
	AddSpan(id []byte, line, index int, act interaction.Action, key Key, span uint64, link *SpanLink) error
	// Unpaired counts, for a consumer that does not pair across files, a
	// CLIENT or PRODUCER span of session id left without its partner in
	// its file, span its id, right after the span's own event (Add or
	// Ignore): once a file, and the consumer counts a span whose event it
	// deduplicates once, whatever the files that leave it alone. A consumer
	// that pairs across files counts those it cannot pair itself.
	Unpaired(id []byte, line, index int, span uint64)
}
