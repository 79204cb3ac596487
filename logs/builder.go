package logs

import (
	"errors"
	"fmt"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

// builder turns what a reader finds into events: it looks their names up
// in the signature, counts them, reports the malformed ones, and hands the
// events to its Consumer, in the order read. Every reader feeds one.
type builder struct {
	file   string
	strict bool
	report func(error)
	sink   Consumer

	lifelines, messages *nameTable // the signature's

	index int // of the next event, in the order read
	stats Stats
	times timeCache // the date of the last time read

	undeclared          Tally  // the names outside the signature
	maxReports          int    // malformed lines reported, the others counted
	hidden, firstHidden int    // malformed lines not reported, the line of the first
	lastLine            int    // of the last malformed line
	counted             func() // Input.OnMalformed's, or nil
}

func newBuilder(file string, opt *Options, report func(error), out Consumer) (*builder, error) {
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
// incomplete (session.Session.Incomplete).
func (b *builder) dropped(id []byte, line, col int, format string, args ...any) {
	b.malformed(line, col, format, args...)
	b.sink.Drop(id, line, b.index)
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
		b.undeclared.Add(true, l)
	}
	if !mok {
		b.undeclared.Add(false, m)
	}
	b.stats.Ignored++
	b.sink.Ignore(id, line, b.index)
	b.index++
	return 0, false, ""
}

// add records the event act of session id, read at line, with its order
// key; span is a span's own id (0: not a span).
func (b *builder) add(id []byte, line int, act interaction.Action, key Key, span uint64) error {
	b.stats.Events++
	b.index++
	return b.sink.Add(id, line, b.index-1, act, key, span)
}
