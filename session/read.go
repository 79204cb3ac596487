package session

import (
	"io"

	"github.com/ivc-project/ivc/logs"
)

// Read reads the log at path ("-": standard input, named "<stdin>" in
// errors; a gzip file, by its ".gz" suffix or its content, is
// decompressed) in format f (logs.Auto: logs.Detect decides) and returns
// its sessions in order of first appearance.
//
// Each malformed line or record is passed to report as a *syntax.Error
// printing "file:line: message" (file:line:col when the column is known)
// and reading goes on; err is for the file as a whole (unreadable, too
// big, a format that cannot be decided, or HTF, which multitrace.Read
// reads), and the sessions are then nil. Every event read is accounted
// for: judged (in a session's MT), ignored (counted) or reported
// (Malformed).
//
// Memory follows the number of events (about 50 bytes each, half of it
// the multi-traces), never the size of the text: lines are read one at a
// time, and so are the traces and spans of a Jaeger or multi-line OTLP file.
func Read(path string, f logs.Format, opt logs.Options, report func(error)) ([]Session, logs.Stats, error) {
	in, err := logs.Open(path, f, opt)
	if err != nil {
		return nil, logs.Stats{}, err
	}
	defer in.Close()
	return ReadInput(in, report)
}

// ReadFrom is Read on an io.Reader already opened: name is used in errors
// and, with logs.Auto, by logs.Detect.
func ReadFrom(name string, r io.Reader, f logs.Format, opt logs.Options, report func(error)) ([]Session, logs.Stats, error) {
	in, err := logs.NewInput(name, r, f, opt)
	if err != nil {
		return nil, logs.Stats{}, err
	}
	return ReadInput(in, report)
}

// ReadInput reads the log in, opened (logs.Open, logs.NewInput), and
// returns its sessions in order of first appearance, as Read does.
func ReadInput(in *logs.Input, report func(error)) ([]Session, logs.Stats, error) {
	opt := in.Options()
	g, err := newGatherer(in.Source(), &opt)
	if err != nil {
		return nil, logs.Stats{}, err
	}
	stats, err := in.Feed(g, report)
	if err != nil {
		return nil, stats, err
	}
	sessions := g.finish()
	stats.Sessions = len(sessions)
	return sessions, stats, nil
}
