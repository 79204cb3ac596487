package logs

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/syntax"
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
	// Dropped is the number of the session's events that were malformed
	// (reported, not in MT), the first of them at line FirstDropped: a
	// session that lost events cannot be judged truthfully (Incomplete).
	Dropped, FirstDropped int
	// Err says why this session alone cannot be judged (its events mix
	// order keys), naming file:line.
	Err error
}

// Incomplete says why the session cannot be judged truthfully when it lost
// events to malformed lines ("" when it lost none): judged without them, a
// Fail could turn into a WeakPass. ivc gives it Inconc with this reason.
func (s *Session) Incomplete() string {
	switch s.Dropped {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("1 event of the session is malformed (line %d): not judged without it", s.FirstDropped)
	}
	return fmt.Sprintf("%d events of the session are malformed (the first at line %d): not judged without them", s.Dropped, s.FirstDropped)
}

// Stats count what a log held. Every event read is one of Events (in a
// session: judged, or in a session with an Err), Ignored (outside the
// signature) or Malformed (reported). Unkinded counts the spans of a trace
// file that carry no action, INTERNAL or without a kind: not events, but
// counted, so that a file of them does not look empty.
type Stats struct{ Sessions, Events, Ignored, Malformed, Unkinded int }

// Error is a malformed line or record, or a session that cannot be judged:
// it prints as "file:line:col: message", or "file:line: message" when the
// column is not known (Col == 0).
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

// Error returns the message, the file's name quoted when it holds
// characters that are not printable (as spec.FileName does) and any such
// character of the message escaped: what a log holds can neither forge a
// line of ivc's output nor send escapes to a terminal.
func (e *Error) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", syntax.FileName(e.File), e.Line, e.Col, printable(e.Msg))
	}
	return fmt.Sprintf("%s:%d: %s", syntax.FileName(e.File), e.Line, printable(e.Msg))
}

// printable returns s with its characters that are not printable (control
// characters, bytes that are not UTF-8) escaped as %q would.
func printable(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError || !strconv.IsPrint(r) && r != ' ' })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for s = s[i:]; s != ""; {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError || !strconv.IsPrint(r) && r != ' ' {
			q := strconv.QuoteToASCII(s[:n])
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
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

// records holds the records of a log in chunks: growing never copies them,
// and never holds twice their size.
type records struct {
	chunks [][]record
	n      int32
}

const recordChunk = 1 << 14

func (rs *records) add(r record) int32 {
	if int(rs.n)%recordChunk == 0 && int(rs.n)/recordChunk == len(rs.chunks) {
		rs.chunks = append(rs.chunks, make([]record, 0, recordChunk))
	}
	c := &rs.chunks[len(rs.chunks)-1]
	*c = append(*c, r)
	rs.n++
	return rs.n - 1
}

// reserve makes room for n records before the first is added: a session
// assembled alone takes what it needs, not a whole chunk.
func (rs *records) reserve(n int) {
	if len(rs.chunks) == 0 {
		rs.chunks = append(rs.chunks, make([]record, 0, min(n, recordChunk)))
	}
}

func (rs *records) at(i int32) *record { return &rs.chunks[i/recordChunk][i%recordChunk] }

// sessionState is a session being read.
type sessionState struct {
	id              string
	line            int
	kind            keyKind
	kindLine        int // the line of the first event in the signature, 0 before it
	err             error
	head, tail      int32
	events, ignored int
	dropped         int // events malformed
	firstDropped    int // the line of the first
}

// builder turns what a reader finds into events: it looks their names up
// in the signature, counts them, reports the malformed ones, and hands the
// events to its sink, in the order read. Every reader feeds one.
type builder struct {
	file   string
	strict bool
	report func(error)
	sink   sink

	lifelines map[string]interaction.LifelineID
	messages  map[string]interaction.MessageID

	index int // of the next event, in the order read
	stats Stats

	undeclared          tally // the names outside the signature
	maxReports          int   // malformed lines reported, the others counted
	hidden, firstHidden int   // malformed lines not reported, the line of the first
	lastLine            int   // of the last malformed line
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
		lifelines: make(map[string]interaction.LifelineID, len(sig.Lifelines)),
		messages:  make(map[string]interaction.MessageID, len(sig.Messages))}
	if b.maxReports <= 0 {
		b.maxReports = DefaultMaxReports
	}
	for i, l := range sig.Lifelines {
		b.lifelines[l] = interaction.LifelineID(i)
	}
	for i, m := range sig.Messages {
		b.messages[m] = interaction.MessageID(i)
	}
	return b, nil
}

// malformed reports a malformed line or record.
func (b *builder) malformed(line, col int, format string, args ...any) {
	b.lastLine = line
	if b.hide() {
		return
	}
	b.report(&Error{File: b.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// hide counts a malformed line or record, and reports whether it is past
// the first maxReports of the file: it is then counted, not reported, so
// that a file of bad lines costs no memory to its reader's caller.
func (b *builder) hide() bool {
	b.stats.Malformed++
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
		b.report(&Error{File: b.file, Line: b.firstHidden, Msg: fmt.Sprintf(
			"%d more malformed lines or records from here on, not shown (only the first %d of a file are)", b.hidden, b.maxReports)})
	}
}

// dropped reports a malformed event of session id, which is then
// incomplete (Session.Incomplete).
func (b *builder) dropped(id []byte, line, col int, format string, args ...any) {
	b.malformed(line, col, format, args...)
	b.sink.drop(id, line, b.index)
	b.index++
}

// stop ends the reading of a stream on err: a positioned *Error (a syntax
// error in a JSON document) is reported as malformed, and the events read
// before it are kept; any other error (reading the input) is returned.
func (b *builder) stop(err error) error {
	var e *Error
	if errors.As(err, &e) {
		b.lastLine = e.Line
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

// gatherer gathers the events of a log into sessions and builds their
// multi-traces: the sink of Read, and of Assembler for one session.
type gatherer struct {
	file   string
	locs   interaction.Locations
	locOf  []int32 // location of each lifeline
	ids    map[string]int32
	sess   []sessionState
	recs   records
	events int // events in the signature, in a session with an error or not
}

// newGatherer checks the locations of opt against its signature.
func newGatherer(file string, opt *Options) (*gatherer, error) {
	sig := opt.Sig
	if sig == nil {
		return nil, fmt.Errorf("%s: no signature to read the log against", syntax.FileName(file))
	}
	g := &gatherer{file: file, ids: map[string]int32{}}
	g.locOf = make([]int32, len(sig.Lifelines))
	for i := range g.locOf {
		g.locOf[i] = -1
	}
	for _, grp := range opt.Locations {
		for l := range grp.All() {
			if int(l) >= len(sig.Lifelines) {
				return nil, fmt.Errorf("locations: lifeline %d is not in the signature", l)
			}
			if g.locOf[l] >= 0 {
				return nil, fmt.Errorf("locations: lifeline %s is in two locations", sig.Lifelines[l])
			}
			g.locOf[l] = int32(len(g.locs))
		}
		if !grp.IsEmpty() {
			g.locs = append(g.locs, grp)
		}
	}
	for l := range g.locOf {
		if g.locOf[l] < 0 {
			g.locOf[l] = int32(len(g.locs))
			g.locs = append(g.locs, interaction.LifelinesOf(interaction.LifelineID(l)))
		}
	}
	return g, nil
}

// session returns the index of the session id, made at line if new. A
// session's line is its first: spans are added once their file is read
// (their messages may come from their linked partners), after the
// malformed spans reported while reading.
func (g *gatherer) session(id []byte, line int) int32 {
	if s, ok := g.ids[string(id)]; ok {
		if st := &g.sess[s]; line < st.line {
			st.line = line
		}
		return s
	}
	s, text := int32(len(g.sess)), string(id)
	g.ids[text] = s
	g.sess = append(g.sess, sessionState{id: text, line: line, head: -1, tail: -1})
	return s
}

func (g *gatherer) ignore(id []byte, line, _ int) {
	g.sess[g.session(id, line)].ignored++
}

func (g *gatherer) drop(id []byte, line, _ int) {
	s := &g.sess[g.session(id, line)]
	if s.dropped == 0 {
		s.firstDropped = line
	}
	s.dropped++
}

// add records the event act of session id, read at line, with its order
// key. A session whose events do not all have the same kind of key gets an
// error, and keeps its count of events.
func (g *gatherer) add(id []byte, line, _ int, act interaction.Action, key orderKey) error {
	if g.recs.n == math.MaxInt32 {
		return fmt.Errorf("%s:%d: too many events (at most %d per log)", syntax.FileName(g.file), line, math.MaxInt32)
	}
	g.events++
	si := g.session(id, line)
	s := &g.sess[si]
	s.events++
	if s.kindLine == 0 {
		s.kind, s.kindLine = key.kind, line
	} else if key.kind != s.kind && s.err == nil {
		s.err = &Error{File: g.file, Line: line, Msg: fmt.Sprintf(
			"session %q mixes order keys: this event has %s, the one at line %d has %s (a session's events are ordered by seq, by time, or by line)",
			s.id, keyNames[key.kind], s.kindLine, keyNames[s.kind])}
	}
	if s.err != nil {
		return nil
	}
	r := g.recs.add(record{hi: key.hi, act: act, lo: key.lo, next: -1})
	if s.tail >= 0 {
		g.recs.at(s.tail).next = r
	} else {
		s.head = r
	}
	s.tail = r
	return nil
}

// finish returns the sessions, in order of first appearance, with their
// multi-traces. The multi-traces share a few large arrays (their actions,
// events and components), so that building them costs a few allocations,
// not several a session.
func (g *gatherer) finish() []Session {
	out := make([]Session, len(g.sess))
	a := &arena{
		acts:  make([]interaction.Action, g.events),
		trace: make([]interaction.MultiAction, g.events),
		count: make([]int, len(g.locs)+1),
	}
	judged := 0
	for i := range g.sess {
		if g.sess[i].err == nil {
			judged++
		}
	}
	mts := make([]multitrace.MultiTrace, judged)
	comps := make([]multitrace.Component, judged*len(g.locs))
	for i := range g.sess {
		s := &g.sess[i]
		out[i] = Session{File: g.file, ID: s.id, Line: s.line, Events: s.events, Ignored: s.ignored, Err: s.err,
			Dropped: s.dropped, FirstDropped: s.firstDropped}
		if s.err == nil {
			mt := &mts[0]
			mts = mts[1:]
			mt.Components = comps[:len(g.locs):len(g.locs)]
			comps = comps[len(g.locs):]
			g.multiTrace(s, mt, a)
			out[i].MT = mt
		}
	}
	return out
}

// arena is the storage finish shares between multi-traces, and the
// buffers it reuses.
type arena struct {
	acts  []interaction.Action
	trace []interaction.MultiAction
	count []int   // events of each location, then their start
	tmp   []keyed // the events of a session, by location
}

// keyed is an event with its order key, while its location is sorted.
type keyed struct {
	hi  int64
	lo  uint32
	act interaction.Action
}

func (x keyed) compare(y keyed) int {
	if c := cmp.Compare(x.hi, y.hi); c != 0 {
		return c
	}
	return cmp.Compare(x.lo, y.lo)
}

// multiTrace builds the multi-trace of s into mt: its events split by
// location, each location sorted by its order key (stably: ties keep line
// order).
func (g *gatherer) multiTrace(s *sessionState, mt *multitrace.MultiTrace, a *arena) {
	count := a.count
	clear(count)
	for r := s.head; r >= 0; {
		rec := g.recs.at(r)
		count[g.locOf[rec.act.Lifeline()]+1]++
		r = rec.next
	}
	for k := 1; k < len(count); k++ { // count[k]: where location k starts
		count[k] += count[k-1]
	}
	n := count[len(count)-1]
	tmp := slices.Grow(a.tmp[:0], n)[:n]
	a.tmp = tmp
	for r := s.head; r >= 0; r = g.recs.at(r).next {
		rec := g.recs.at(r)
		k := g.locOf[rec.act.Lifeline()]
		tmp[count[k]] = keyed{hi: rec.hi, lo: rec.lo, act: rec.act}
		count[k]++
	}
	// count[k] is now where location k ends.
	acts, trace := a.acts[:n:n], a.trace[:n:n]
	a.acts, a.trace = a.acts[n:], a.trace[n:]
	start := 0
	for k, g := range g.locs {
		end := count[k]
		loc := tmp[start:end]
		if s.kind != keyLine && !slices.IsSortedFunc(loc, keyed.compare) {
			slices.SortStableFunc(loc, keyed.compare)
		}
		for i, e := range loc {
			j := start + i
			acts[j] = e.act
			trace[j] = acts[j : j+1 : j+1]
		}
		mt.Components[k] = multitrace.Component{Lifelines: g, Trace: trace[start:end:end]}
		start = end
	}
}
