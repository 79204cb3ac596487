package logs

import (
	"errors"
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/syntax"
)

// Session is one multi-trace of a log: the events of one session id.
type Session struct {
	// File is the input of its first event; Files, every input that holds
	// one of its events in the signature (its first event's too), in the
	// order read: more than one when the session is joined across the logs
	// of a run (Joiner).
	File  string
	Files []string
	// Input is the rank of File among the inputs read (for a Joiner: in
	// the order of its Read calls).
	Input int
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
	// Dropped is the number of the session's events that could not be
	// read, malformed or past a reading limit (each reported with its
	// error, not in MT), the first of them at line FirstDropped: a session
	// that lost events cannot be judged truthfully (Incomplete).
	Dropped, FirstDropped int
	// Err says why this session alone cannot be judged (the events of one
	// of its locations mix order keys, or come from several files with
	// line order only), naming file:line.
	Err error
}

// Incomplete says why the session cannot be judged truthfully when it lost
// events that could not be read ("" when it lost none; the error reported
// at their line says why: malformed, or past a limit): judged without them,
// a Fail could turn into a WeakPass. ivc gives it Inconc with this reason.
func (s *Session) Incomplete() string {
	switch s.Dropped {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("1 event of the session could not be read (line %d): not judged without it", s.FirstDropped)
	}
	return fmt.Sprintf("%d events of the session could not be read (the first at line %d): not judged without them", s.Dropped, s.FirstDropped)
}

// Stats count what a log held. Every event read is one of Events (in a
// session: judged, or in a session with an Err), Ignored (outside the
// signature) or Malformed (reported). Unkinded counts the spans of a trace
// file that carry no action, INTERNAL or without a kind: not events, but
// counted, so that a file of them does not look empty.
type Stats struct{ Sessions, Events, Ignored, Malformed, Unkinded int }

// keyKind is what orders the events of a location: one kind per session.
type keyKind uint8

const (
	keyLine   keyKind = iota // line order: no seq, no time
	keySeq                   // an integer sequence number
	keyTime                  // a time: RFC 3339, or a span's start
	keyNumber                // a time given as a number (of any unit)
)

var keyNames = [...]string{keyLine: "neither seq nor time", keySeq: "a seq", keyTime: "an RFC 3339 time (or a span's start)",
	keyNumber: "a numeric time"}

// orderKey is an event's position in its location's order: hi then lo
// (seconds and nanoseconds of a time, the integer and fractional parts of
// a number, or a seq and 0).
type orderKey struct {
	kind keyKind
	hi   int64
	lo   uint32
}

// builder turns what a reader finds into events: it looks their names up
// in the signature, counts them, reports the malformed ones, and hands the
// events to its sink, in the order read. Every reader feeds one.
type builder struct {
	file   string
	strict bool
	report func(error)
	sink   sink

	lifelines, messages *nameTable // the signature's

	index int // of the next event, in the order read
	stats Stats
	times timeCache // the date of the last time read

	undeclared          tally  // the names outside the signature
	maxReports          int    // malformed lines reported, the others counted
	hidden, firstHidden int    // malformed lines not reported, the line of the first
	lastLine            int    // of the last malformed line
	counted             func() // Input.OnMalformed's, or nil
}

// sink takes the events of a log, in the order read (index counts them
// from 0): a gatherer for Read, the caller's function for Scan.
type sink interface {
	// add takes an event in the signature, act, with its order key.
	add(id []byte, line, index int, act interaction.Action, key orderKey) error
	// ignore takes an event outside the signature.
	ignore(id []byte, line, index int)
	// drop takes an event of session id that is malformed (reported).
	drop(id []byte, line, index int)
	// holdsSpans says whether the sink pairs the spans of several files:
	// then the spans left without a partner in their file come to addSpan.
	holdsSpans() bool
	// addSpan takes a span held for pairing (spanLink), its action's
	// message its own when declared.
	addSpan(id []byte, line, index int, act interaction.Action, key orderKey, sl *spanLink) error
}

func newBuilder(file string, opt *Options, report func(error), out sink) (*builder, error) {
	sig := opt.Sig
	if sig == nil {
		return nil, fmt.Errorf("%s: no signature to read the log against", syntax.FileName(file))
	}
	if report == nil {
		report = func(error) {}
	}
	b := &builder{file: file, strict: opt.Strict, report: report, sink: out, maxReports: opt.MaxReports,
		lifelines: newNameTable(sig.Lifelines), messages: newNameTable(sig.Messages)}
	if b.maxReports <= 0 {
		b.maxReports = DefaultMaxReports
	}
	return b, nil
}

// errorAt returns the error of a malformed line or record of file, at
// line:col (col 0: not known).
func errorAt(file string, line, col int, msg string) *syntax.Error {
	return &syntax.Error{File: file, Pos: syntax.Pos{Line: line, Col: col}, Msg: msg}
}

// malformed reports a malformed line or record.
func (b *builder) malformed(line, col int, format string, args ...any) {
	b.lastLine = line
	if b.hide() {
		return
	}
	b.report(errorAt(b.file, line, col, fmt.Sprintf(format, args...)))
}

// hide counts a malformed line or record, and reports whether it is past
// the first maxReports of the file: it is then counted, not reported, so
// that a file of bad lines costs no memory to its reader's caller.
func (b *builder) hide() bool {
	b.stats.Malformed++
	if b.counted != nil {
		b.counted()
	}
	if b.stats.Malformed <= b.maxReports {
		return false
	}
	if b.hidden == 0 {
		b.firstHidden = b.lastLine
	}
	b.hidden++
	return true
}

// reportHidden reports, at the end of the file, how many malformed lines
// were counted and not reported.
func (b *builder) reportHidden() {
	if b.hidden > 0 {
		b.report(errorAt(b.file, b.firstHidden, 0, fmt.Sprintf(
			"%d more malformed lines or records from here on, not shown (only the first %d of a file are)", b.hidden, b.maxReports)))
	}
}

// dropped reports a malformed event of session id, which is then
// incomplete (Session.Incomplete).
func (b *builder) dropped(id []byte, line, col int, format string, args ...any) {
	b.malformed(line, col, format, args...)
	b.sink.drop(id, line, b.index)
	b.index++
}

// stop ends the reading of a stream on err: a positioned *syntax.Error (a syntax
// error in a JSON document) is reported as malformed, and the events read
// before it are kept; any other error (reading the input) is returned.
func (b *builder) stop(err error) error {
	var e *syntax.Error
	if errors.As(err, &e) {
		b.lastLine = e.Pos.Line
		if !b.hide() {
			b.report(e)
		}
		return nil
	}
	return err
}

// action looks the names of an action up in the signature. When one is
// not declared, the event is ignored and counted in session id, and ok is
// false; with Options.Strict, undeclared says which name is not declared,
// for the caller to report, and nothing is counted.
func (b *builder) action(id []byte, line int, l []byte, k interaction.Kind, m []byte) (act interaction.Action, ok bool, undeclared string) {
	lid, lok := b.lifelines.find(l)
	mid, mok := b.messages.find(m)
	switch {
	case lok && mok:
		return interaction.MakeAction(interaction.LifelineID(lid), k, interaction.MessageID(mid)), true, ""
	case b.strict && !lok:
		return 0, false, fmt.Sprintf("lifeline %q is not declared in the signature", l)
	case b.strict:
		return 0, false, fmt.Sprintf("message %q is not declared in the signature", m)
	}
	if !lok {
		b.undeclared.add(true, l)
	}
	if !mok {
		b.undeclared.add(false, m)
	}
	b.stats.Ignored++
	b.sink.ignore(id, line, b.index)
	b.index++
	return 0, false, ""
}

// add records the event act of session id, read at line, with its order
// key.
func (b *builder) add(id []byte, line int, act interaction.Action, key orderKey) error {
	b.stats.Events++
	b.index++
	return b.sink.add(id, line, b.index-1, act, key)
}
