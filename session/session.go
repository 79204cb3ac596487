package session

import (
	"fmt"

	"github.com/ivc-project/ivc/multitrace"
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
	// when no event), in the order of logs.Options.Locations.
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
