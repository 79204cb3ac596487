package session

import (
	"fmt"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
)

// Session is one multi-trace to judge, the one input type of the front
// door (check.Checker.Judge, Run): the events of one session id of the
// logs of a run, or a .htf multi-trace (Meta.HTF). What is known of it
// besides its events is its Meta, which goes unchanged to its judgment
// (check.Outcome) and its record (check.Record).
type Session struct {
	Meta
	// MT is nil when Err != nil; otherwise one component per location (empty
	// when no event), in the order of logs.Options.Locations.
	MT *multitrace.MultiTrace
	// Err says why this session alone cannot be judged (the events of one
	// of its locations mix order keys, or come from several files with
	// line order only), naming file:line; for a .htf multi-trace, why it
	// cannot be read. A Source also hands out, in their place, the inputs
	// it could not read, whole or in part: their Err is an *InputError.
	Err error
	// Shared marks an MT that the sessions of the same events share (a
	// Joiner's sessions repeat: it keeps the multi-trace of a shape it
	// built twice, see shapes): it is never changed nor reused for
	// another, so that a judge may remember its verdict by its pointer;
	// its readers must not change it either.
	Shared bool
	// read, when set, reads MT (or Err) when the session is judged: a .htf
	// file is read by the worker that judges it (HTF, Later), or, by a run
	// with one worker, in a batch just before it (check.Run).
	read func() (*multitrace.MultiTrace, error)
}

// Meta is what is known of a session besides its multi-trace: where its
// events come from, and how many of each kind it had. It is written once,
// where the session is built, and carried from the session to its
// judgment and its record.
type Meta struct {
	// File is the input of its first event; Files, every input that holds
	// one of its events in the signature (its first event's too), in the
	// order read: more than one when the session is joined across the logs
	// of a run (Joiner). A .htf multi-trace is its File alone, with no
	// Files.
	File  string
	Files []string
	// Input is the rank of File among the inputs read (for a Joiner: in
	// the order of its Read calls).
	Input int
	// ID is the session id as written (OTLP and Jaeger: the hex trace id);
	// "" for the events that have none (when the log has no session field,
	// every event), and for a .htf multi-trace.
	ID string
	// Line is the line of its first event, Rank that event's rank among the
	// events of File, from 0 (logs.Event.Index: the spans of one line share
	// the line).
	Line, Rank int
	// HTF marks a .htf multi-trace: no session of logs, and none of the
	// counts below (its events are those of its multi-trace).
	HTF bool
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
	// Duplicates is the number of events read again, not in MT nor in
	// Events and Ignored: a span whose id its session had already (on the
	// same side of its call), an event of an event log whose seq and
	// action its location had already. Conflicts counts those of them
	// whose content differed from the first read (the session is judged
	// on the first), Conflict says where the first of them was (a
	// *syntax.Error naming both places), for the driver to report.
	Duplicates, Conflicts int
	Conflict              error
	// Unpaired counts its CLIENT and PRODUCER spans left without their
	// SERVER or CONSUMER partner in every file of the session: each is
	// named by its own span (its name, or its attributes), not by its
	// partner's (the other side may not be instrumented, or not in the
	// files read).
	Unpaired int
	// Origins are where its events come from, in the order of MT (nil for
	// a .htf multi-trace).
	Origins *Origins
	// lease is the storage of MT and Origins when the Source that built
	// the session reuses it (Source.Reuse), leased as leased; see Release.
	lease  *lease
	leased uint32
}

// Incomplete says why the session cannot be judged truthfully when it lost
// events that could not be read ("" when it lost none; the error reported
// at their line says why: malformed, or past a limit): judged without them,
// a Fail could turn into a WeakPass. ivc gives it Inconc with this reason.
func (m *Meta) Incomplete() string {
	switch m.Dropped {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("1 event of the session could not be read (line %d): not judged without it", m.FirstDropped)
	}
	return fmt.Sprintf("%d events of the session could not be read (the first at line %d): not judged without them", m.Dropped, m.FirstDropped)
}

// Joined reports whether the session's events come from several inputs.
func (m *Meta) Joined() bool { return len(m.Files) > 1 }

// Read returns the session's multi-trace, reading it first for a .htf file
// that HTF left to be read when judged; its error is Err's.
func (s *Session) Read() (*multitrace.MultiTrace, error) {
	if s.read != nil {
		s.MT, s.Err = s.read()
		s.read = nil
	}
	return s.MT, s.Err
}

// Pending reports whether the session is still to be read (HTF, Later):
// Read reads it.
func (s *Session) Pending() bool { return s.read != nil }

// HTF returns the session of the .htf multi-trace at path, read (within
// opt.MaxBytes, against opt.Sig) when it is judged: so that the files a
// Source hands out are read in parallel, each by the worker that judges it
// (one worker reads a few ahead: check.Run), and hold no descriptor while
// they wait for their place.
func HTF(path string, opt logs.Options) Session {
	return Later(Meta{File: path, HTF: true}, func() (*multitrace.MultiTrace, error) {
		in, err := logs.Open(path, logs.HTF, opt)
		if err != nil {
			return nil, err
		}
		defer in.Close()
		return in.MultiTrace()
	})
}

// Later returns the session of m whose multi-trace (or error) read returns
// when it is judged (Read), by the worker that judges it.
func Later(m Meta, read func() (*multitrace.MultiTrace, error)) Session {
	return Session{Meta: m, read: read}
}

// ReadHTF returns the session of in, a .htf input opened, read now.
func ReadHTF(in *logs.Input) Session {
	mt, err := in.MultiTrace()
	return Session{Meta: Meta{File: in.Name, HTF: true}, MT: mt, Err: err}
}

// An InputError is an input of a run that could not be read, whole (a
// file that cannot be opened or read, standard input given twice, a
// temporary file of a Joiner) or, Malformed, in part: a line or record of
// a log, the rest of which is read. A Source hands it out as the Err of a
// Session in its place among the sessions, so that it is reported in
// input order; such a session is no multi-trace.
type InputError struct {
	Err       error
	Malformed bool
}

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }
