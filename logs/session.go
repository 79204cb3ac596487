package logs

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
)

// Session is one multi-trace of a log: the events of one session id.
type Session struct {
	File string
	// ID is the session id as written (OTLP and Jaeger: the hex trace id);
	// "" for the events that have none (when the log has no session field,
	// every event).
	ID   string
	Line int // line of its first event
	// MT is nil when Err != nil; otherwise one component per location (empty
	// when no event), in the order of Options.Locations.
	MT *multitrace.MultiTrace
	// Events is the number of events of the session in the signature: those
	// of MT (when Err is nil).
	Events int
	// Ignored is the number of events outside the signature, not in MT
	// (counted, not judged).
	Ignored int
	// Err says why this session alone cannot be judged (its events mix
	// order keys), naming file:line.
	Err error
}

// Stats count what a log held. Every event read is one of Events (in a
// session: judged, or in a session with an Err), Ignored (outside the
// signature) or Malformed (reported).
type Stats struct{ Sessions, Events, Ignored, Malformed int }

// Error is a malformed line or record, or a session that cannot be judged:
// it prints as "file:line:col: message", or "file:line: message" when the
// column is not known (Col == 0).
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// keyKind is what orders the events of a location: one kind per session.
type keyKind uint8

const (
	keyLine   keyKind = iota // line order: no seq, no time
	keySeq                   // an integer sequence number
	keyTime                  // an RFC 3339 time
	keyNumber                // a time given as a number (of any unit)
)

var keyNames = [...]string{keyLine: "neither seq nor time", keySeq: "a seq", keyTime: "an RFC 3339 time",
	keyNumber: "a numeric time"}

// orderKey is an event's position in its location's order: hi then lo
// (seconds and nanoseconds of a time, the integer and fractional parts of
// a number, or a seq and 0).
type orderKey struct {
	kind keyKind
	hi   int64
	lo   uint32
}

// record is an event as kept until the end of the file: compact, and
// chained to the next event of its session.
type record struct {
	hi   int64
	act  interaction.Action
	lo   uint32
	next int32 // the session's next record, -1 at the end
}

// sessionState is a session being read.
type sessionState struct {
	id              string
	line            int
	kind            keyKind
	kindLine        int // the line of the first event in the signature, 0 before it
	err             error
	head, tail      int32
	events, ignored int
}

// builder gathers the events of a log into sessions: every reader feeds
// one.
type builder struct {
	file   string
	sig    *interaction.Signature
	strict bool
	report func(error)

	locs      []interaction.Lifelines
	locOf     []int32 // location of each lifeline
	lifelines map[string]interaction.LifelineID
	messages  map[string]interaction.MessageID

	ids   map[string]int32
	sess  []sessionState
	recs  []record
	stats Stats
}

func newBuilder(file string, opt *Options, report func(error)) (*builder, error) {
	sig := opt.Sig
	if sig == nil {
		return nil, fmt.Errorf("%s: no signature to read the log against", file)
	}
	if report == nil {
		report = func(error) {}
	}
	b := &builder{file: file, sig: sig, strict: opt.Strict, report: report,
		lifelines: make(map[string]interaction.LifelineID, len(sig.Lifelines)),
		messages:  make(map[string]interaction.MessageID, len(sig.Messages)),
		ids:       map[string]int32{}}
	for i, l := range sig.Lifelines {
		b.lifelines[l] = interaction.LifelineID(i)
	}
	for i, m := range sig.Messages {
		b.messages[m] = interaction.MessageID(i)
	}
	b.locOf = make([]int32, len(sig.Lifelines))
	for i := range b.locOf {
		b.locOf[i] = -1
	}
	for _, g := range opt.Locations {
		for l := range g.All() {
			if int(l) >= len(sig.Lifelines) {
				return nil, fmt.Errorf("locations: lifeline %d is not in the signature", l)
			}
			if b.locOf[l] >= 0 {
				return nil, fmt.Errorf("locations: lifeline %s is in two locations", sig.Lifelines[l])
			}
			b.locOf[l] = int32(len(b.locs))
		}
		if !g.IsEmpty() {
			b.locs = append(b.locs, g)
		}
	}
	for l := range b.locOf {
		if b.locOf[l] < 0 {
			b.locOf[l] = int32(len(b.locs))
			b.locs = append(b.locs, interaction.LifelinesOf(interaction.LifelineID(l)))
		}
	}
	return b, nil
}

// malformed reports a malformed line or record.
func (b *builder) malformed(line, col int, format string, args ...any) {
	b.stats.Malformed++
	b.report(&Error{File: b.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// stop ends the reading of a stream on err: a positioned *Error (a syntax
// error in a JSON document) is reported as malformed, and the events read
// before it are kept; any other error (reading the input) is returned.
func (b *builder) stop(err error) error {
	var e *Error
	if errors.As(err, &e) {
		b.stats.Malformed++
		b.report(e)
		return nil
	}
	return err
}

// session returns the index of the session id, made at line if new.
func (b *builder) session(id []byte, line int) int32 {
	if s, ok := b.ids[string(id)]; ok {
		return s
	}
	s, text := int32(len(b.sess)), string(id)
	b.ids[text] = s
	b.sess = append(b.sess, sessionState{id: text, line: line, head: -1, tail: -1})
	return s
}

// action looks the names of an action up in the signature. When one is
// not declared, the event is ignored and counted in session id, and ok is
// false; with Options.Strict, undeclared says which name is not declared,
// for the caller to report, and nothing is counted.
func (b *builder) action(id []byte, line int, l []byte, k interaction.Kind, m []byte) (act interaction.Action, ok bool, undeclared string) {
	lid, lok := b.lifelines[string(l)]
	mid, mok := b.messages[string(m)]
	switch {
	case lok && mok:
		return interaction.MakeAction(lid, k, mid), true, ""
	case b.strict && !lok:
		return 0, false, fmt.Sprintf("lifeline %q is not declared in the signature", l)
	case b.strict:
		return 0, false, fmt.Sprintf("message %q is not declared in the signature", m)
	}
	s := b.session(id, line)
	b.sess[s].ignored++
	b.stats.Ignored++
	return 0, false, ""
}

// add records the event act of session id, read at line, with its order
// key. A session whose events do not all have the same kind of key gets an
// error, and keeps its count of events.
func (b *builder) add(id []byte, line int, act interaction.Action, key orderKey) error {
	if len(b.recs) >= math.MaxInt32 {
		return fmt.Errorf("%s:%d: too many events (at most %d per log)", b.file, line, math.MaxInt32)
	}
	si := b.session(id, line)
	s := &b.sess[si]
	s.events++
	b.stats.Events++
	if s.kindLine == 0 {
		s.kind, s.kindLine = key.kind, line
	} else if key.kind != s.kind && s.err == nil {
		s.err = &Error{File: b.file, Line: line, Msg: fmt.Sprintf(
			"session %q mixes order keys: this event has %s, the one at line %d has %s (a session's events are ordered by seq, by time, or by line)",
			s.id, keyNames[key.kind], s.kindLine, keyNames[s.kind])}
	}
	if s.err != nil {
		return nil
	}
	r := int32(len(b.recs))
	b.recs = append(b.recs, record{hi: key.hi, act: act, lo: key.lo, next: -1})
	if s.tail >= 0 {
		b.recs[s.tail].next = r
	} else {
		s.head = r
	}
	s.tail = r
	return nil
}

// finish returns the sessions, in order of first appearance, with their
// multi-traces.
func (b *builder) finish() ([]Session, Stats) {
	out := make([]Session, len(b.sess))
	var tmp []keyed
	count := make([]int, len(b.locs))
	for i := range b.sess {
		s := &b.sess[i]
		out[i] = Session{File: b.file, ID: s.id, Line: s.line, Events: s.events, Ignored: s.ignored, Err: s.err}
		if s.err == nil {
			out[i].MT, tmp = b.multiTrace(s, count, tmp)
		}
	}
	b.stats.Sessions = len(out)
	return out, b.stats
}

// keyed is an event with its order key, while its location is sorted.
type keyed struct {
	hi  int64
	lo  uint32
	act interaction.Action
}

// multiTrace builds the multi-trace of s: its events split by location,
// each location sorted by its order key (stably: ties keep line order).
// The actions share one backing array, the events another.
func (b *builder) multiTrace(s *sessionState, count []int, tmp []keyed) (*multitrace.MultiTrace, []keyed) {
	clear(count)
	n := 0
	for r := s.head; r >= 0; r = b.recs[r].next {
		count[b.locOf[b.recs[r].act.Lifeline()]]++
		n++
	}
	pos := make([]int, len(count)+1)
	for k, c := range count {
		pos[k+1] = pos[k] + c
	}
	tmp = slices.Grow(tmp[:0], n)[:n]
	next := slices.Clone(pos[:len(count)])
	for r := s.head; r >= 0; r = b.recs[r].next {
		rec := &b.recs[r]
		k := b.locOf[rec.act.Lifeline()]
		tmp[next[k]] = keyed{hi: rec.hi, lo: rec.lo, act: rec.act}
		next[k]++
	}
	acts := make([]interaction.Action, n)
	trace := make([]interaction.MultiAction, n)
	mt := &multitrace.MultiTrace{Components: make([]multitrace.Component, len(b.locs))}
	for k, g := range b.locs {
		loc := tmp[pos[k]:pos[k+1]]
		if s.kind != keyLine {
			slices.SortStableFunc(loc, func(x, y keyed) int {
				if c := cmp.Compare(x.hi, y.hi); c != 0 {
					return c
				}
				return cmp.Compare(x.lo, y.lo)
			})
		}
		for i, e := range loc {
			j := pos[k] + i
			acts[j] = e.act
			trace[j] = acts[j : j+1 : j+1]
		}
		mt.Components[k] = multitrace.Component{Lifelines: g, Trace: trace[pos[k]:pos[k+1]:pos[k+1]]}
	}
	return mt, tmp
}
