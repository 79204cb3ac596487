// Package monitor is the session table of live verification: events
// arrive one by one from any mix of sources (OTLP requests, JSON Lines
// streams), are held per session in arrival order, and a session is judged
// when it is over — idle for Options.Idle, open for Options.Max, or at
// Close — exactly as ivc analyze judges it: the session is built by the
// session package's Assembler (the same gatherer as session.Read) and
// judged by the check package's Checker (Judge), and its Outcome carries
// its Live part: the revision, the reason it closed and the time to
// verdict. A session is its id across every source (session.ScopeRun).
//
// It is a library type any driver feeds: ivc monitor's receivers (package
// internal/receiver: OTLP over gRPC and HTTP, followed files) hand it what
// they decode, and an OpenTelemetry Collector component can as well, with
// no CLI code: ConsumeTracesProto takes OTLP/protobuf requests as they are
// received, ConsumeTraces pdata traces, ConsumeLog a log stream,
// Tick (or Run) closes what is over, Close judges the rest, and the
// outcomes go to the function given to NewTable, whose Record is the JSON
// line and WriteText the text.
//
//	t, err := monitor.NewTable(checker, lopt, monitor.Options{}, func(o check.Outcome) { ... })
//	go t.Run(ctx)                                  // closes idle and overdue sessions
//	t.ConsumeTracesProto("otlp", body)             // or t.ConsumeTraces("otlp", td), t.ConsumeLog("app.jsonl", r, logs.JSONL)
//	t.Close()                                      // judge what is still open
//
// Early failure: when the automata engine judges the sessions, each event
// also steps the walk of its location's projection DFA (check.Walker, on
// the tables of the engine's local checks), and an event that makes a
// local error certain fails its session at once: it is judged on its
// events so far, closed_by early. A local error is a Fail whatever events
// follow, in prefix and accept modes alike (Algorithm 2 of the automata
// paper): in prefix mode a location's trace may stop early, or be empty
// (its lifelines unobserved: lifeline removal), but must be a prefix of
// the projection of an accepted trace, and one that is not stays not,
// whatever is appended. But events may also arrive before others of their
// location, and be placed before them (logs.Event.After: the order
// session.Assembler sorts a location in). So:
//   - in line order (events with neither seq nor time, from one source),
//     an event's arrival is its place: the walk of the DFA decides;
//   - with a seq or a time, the walk is that of the subword closure: an
//     error is certain when no trace of the location holds its events so
//     far as a subsequence, wherever the events to come are placed (the
//     walk is walked again, in the location's order, when an event
//     arrives out of it).
//
// A span whose action its pairing decides at assembly (logs.Event.Final:
// an emission, or a span whose own message is not declared; the spans of
// OTLP requests are all paired at assembly) is not read: the events read
// are still a subsequence of the location's. A session with a malformed
// event (Inconc), or two events its location cannot be ordered with (an
// error), is not watched. Events of the session after its early record
// re-open it, as late events do, for a revision judged on all its events:
// a Fail again, with the whole session's explanation, unless one of them
// is malformed or cannot be ordered.
//
// Nothing is lost: every event received is judged (in a session), ignored
// (outside the signature), malformed (reported) or late (past the grace
// period of its closed session): Counts says so.
package monitor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// Options bound the sessions held. Zero values take the defaults.
type Options struct {
	// Idle closes a session after that long without a new event (default
	// DefaultIdle); Max after that long since its first event (default
	// DefaultMax).
	Idle, Max time.Duration
	// Grace is how long a closed session is kept: an event of it within
	// Grace re-opens it, for a revised record (default DefaultGrace).
	Grace time.Duration
	// MaxSessions bounds the open sessions, MaxMemory the bytes held for
	// open and closed sessions (estimated: each event with what pairs it);
	// past either, closed sessions are forgotten, then the oldest open
	// session is judged early (closed_by evicted) and forgotten: its later
	// events are late. 0: DefaultMaxSessions, DefaultMaxMemory(); a
	// negative MaxMemory, no memory bound.
	MaxSessions int
	MaxMemory   int64
	// Report receives malformed lines and sessions that cannot be judged.
	Report func(error)
	// Now is the clock (tests); time.Now when nil.
	Now func() time.Time
	// Ticked, when set, is called by Run after each of its checks for
	// sessions to close: an output that buffers records writes them
	// there, a few times per Idle rather than once per record.
	Ticked func()
}

// Defaults. Idle is 2 s: the Collector's group-by-trace processor waits 1 s
// after a trace's last span, and a monitor behind a Collector receives a
// trace's spans in batches that its batch processor may delay by up to
// 200 ms each, so twice the Collector's wait keeps a trace whole without
// delaying verdicts much.
const (
	DefaultIdle        = 2 * time.Second
	DefaultMax         = 5 * time.Minute
	DefaultGrace       = 30 * time.Second
	DefaultMaxSessions = 1_000_000
)

// DefaultMaxMemory is the bound of Options.MaxMemory when it is 0: a
// quarter of the memory available to the process (check.DefaultMaxMemory
// shared by two: the sessions, and the rest of the monitor).
func DefaultMaxMemory() int64 { return check.DefaultMaxMemory(2) }

// Bytes held, as the table counts them (TestHeldBytes measures them): a
// session (its liveSession, its entries in the table's map and lists,
// about 500 B, and its id), each event in its session's slice (a
// liveEvent with what pairs a span at its session's assembly, counted by
// the slice's capacity, as append grows it), the rare fields of a span's
// link (its links and the names of undeclared messages), and per location
// of a session watched for early failure (a walk).
const (
	sessionBytes = 512
	eventBytes   = int64(unsafe.Sizeof(liveEvent{}))
	walkBytes    = 8
	sliceBytes   = 24
)

// Reasons a session closed (check.Live.ClosedBy).
const (
	ClosedIdle     = "idle"
	ClosedMax      = "max"
	ClosedEarly    = "early"
	ClosedEvicted  = "evicted"
	ClosedShutdown = "shutdown"
)

// Counts are what the table received and judged: the summary of the run
// so far (check.Summary, as ivc analyze counts a batch), and what only a
// live run has. Received = Events + Ignored + Duplicates + Malformed +
// Late once every session is closed: Events, Ignored and Duplicates count
// the events of the sessions closed, judged or not (an error, reported:
// Unjudged), each event once, in the signature or not as its session's
// assembly decides (a span takes its partner's message; a span received
// again, in a retried request or another, is a duplicate); after Close, which closes them all, every event
// is counted as it arrives: an event of the signature is Late, its session
// already judged. Judged() counts the records, Verdicts their verdicts.
type Counts struct {
	check.Summary
	Received, Late int
	Open           int // sessions open
	Evicted        int // sessions judged early for lack of room
}

// liveSession is the events of one session id, in arrival order.
type liveSession struct {
	id, file    string
	hash        uint64       // of id (sessionIndex), kept: forgetting s reads no id again
	sameHash    *liveSession // the next session of the same hash (sessionIndex)
	events      []liveEvent
	rares       []*linkRare // the rare fields of its events' links (liveEvent.rare)
	first, last time.Time
	bytes       int64        // held by its events beyond their slice (Table.bytes counts them too)
	revision    int          // of its last record
	prev, next  *liveSession // in Table.open or Table.closed
	closedAt    time.Time
	batch       int // the request that began it (Table.batch)
	// events and ignored counted so far (Counts.Events, Ignored), by its
	// last assembly
	counted, ignored int
	// walks are the early check of the session, one per location, made
	// at its first event, and subs the sets of their subword walks (at
	// Table.subAt); unwatched once the check cannot be certain of a
	// local error, or once the session has a record.
	walks     []walk
	subs      []uint64
	unwatched bool
	// seen are the events the early check walked that a repeat can be told
	// from (eventKey), with their index: a repeat is not walked again.
	// Nil up to seenScan events, whose repeats are found by reading them.
	seen map[eventKey]int32
	// duplicates counted so far (Counts.Duplicates, Conflicts), by its
	// last assembly
	duplicates, conflicts int
}

// walkStore is the storage of a session's early check (liveSession.walks
// and subs), kept for another session once the check has ended.
type walkStore struct {
	walks []walk
	subs  []uint64
}

// walk is the early check of one location of a session: the state its
// projection DFA reached (events in line order), and the session's event
// last in the location's order (-1: none).
type walk struct {
	q    check.WalkState
	last int32
}

// sessionList is a list of sessions linked through their prev and next,
// so that a session moves from the open list to the closed one without
// an allocation.
type sessionList struct {
	head, tail *liveSession
	n          int
}

// pushBack appends s, in no list, to l.
func (l *sessionList) pushBack(s *liveSession) {
	s.prev, s.next = l.tail, nil
	if l.tail != nil {
		l.tail.next = s
	} else {
		l.head = s
	}
	l.tail = s
	l.n++
}

// remove takes s out of l.
func (l *sessionList) remove(s *liveSession) {
	if s.prev != nil {
		s.prev.next = s.next
	} else {
		l.head = s.next
	}
	if s.next != nil {
		s.next.prev = s.prev
	} else {
		l.tail = s.prev
	}
	s.prev, s.next = nil, nil
	l.n--
}

// Table is the session table. Its methods are safe for concurrent use.
type Table struct {
	c      *check.Checker
	asm    *session.Assembler
	lopt   logs.Options
	opt    Options
	emit   func(check.Outcome)
	online *check.Walker // nil: no early check
	// subAt[i] is where the set of location i's subword walk starts in a
	// session's subs, subAt[len-1] their length; walkBytes is what a
	// session's early check holds; tmp and order are the check's scratch.
	subAt     []int
	walkBytes int64
	tmp       []uint64
	order     []int32
	// judged is judge's copy of a session's events (Assemble sorts
	// them), kept for the next unless it holds more than maxJudged: t.mu
	// is held.
	judged      []logs.Event
	judgedLinks []logs.SpanLink // the links of judged
	// sources are the names of the sources events came from, by
	// liveEvent.source (the receivers and the files followed: a driver
	// that names a source anew for each call would grow it); the last
	// one looked up is kept apart.
	sources      []string
	sourceIndex  map[string]uint32
	lastSource   string
	lastSourceAt uint32
	// freeWalks are the early checks' storage of sessions no longer
	// watched, for new ones: at most maxFree, not counted in bytes.
	freeWalks []walkStore
	// freeSessions are sessions forgotten, for new ones: at most maxFree,
	// not counted in bytes.
	freeSessions []*liveSession
	// scratch is the storage judge assembles each session in, reused
	// from one session to the next, the session's own too (Reuse: emit's
	// outcome holds it during the call only): t.mu is held.
	scratch session.Scratch
	// sized is the capacity a new session's events start with: the
	// events a session has in the OTLP requests that begin it, rounded up
	// to a power of two (their average kept in sizeAvg, in eighths of an
	// event), so that a session's slice is allocated once rather than
	// regrown as append doubles it; free holds the slices of that
	// capacity of the sessions forgotten, cleared, for the next sessions.
	// batch numbers the request being added (0: none), with the sessions
	// it began and their events in it. t.mu is held.
	sized, sizeAvg   int
	free             [][]liveEvent
	batch, batches   int
	begun, beginning int

	mu       sync.Mutex
	sessions sessionIndex        // open and closed within their grace
	open     sessionList         // oldest first
	closed   sessionList         // closed first first
	tombs    map[string]struct{} // ids past their grace, for counting late events
	tombList []string
	index    int
	bytes    int64
	counts   Counts
	sealed   bool // Close has judged every session

	readers  sync.Map     // source name → *sync.Pool of *traceReader (consume.go)
	requests atomic.Int64 // OTLP requests read
}

// NewTable returns a table of the sessions read with lopt (its signature
// and locations) judged by c; emit receives the outcome of every session
// judged, one at a time, with its Live part. The outcome's multi-trace
// (MT) and origins are emit's during the call only: the table builds the
// next session in their storage. What lasts is its Record, or a copy.
func NewTable(c *check.Checker, lopt logs.Options, opt Options, emit func(check.Outcome)) (*Table, error) {
	asm, err := session.NewAssembler(lopt)
	if err != nil {
		return nil, err
	}
	if opt.Idle <= 0 {
		opt.Idle = DefaultIdle
	}
	if opt.Max <= 0 {
		opt.Max = DefaultMax
	}
	if opt.Grace <= 0 {
		opt.Grace = DefaultGrace
	}
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = DefaultMaxSessions
	}
	switch {
	case opt.MaxMemory == 0:
		opt.MaxMemory = DefaultMaxMemory()
	case opt.MaxMemory < 0:
		opt.MaxMemory = 0
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Report == nil {
		opt.Report = func(error) {}
	}
	t := &Table{c: c, asm: asm, lopt: lopt, opt: opt, emit: emit, online: c.Walker(asm.Locations()),
		sessions: newSessionIndex(), tombs: map[string]struct{}{}, sourceIndex: map[string]uint32{}}
	t.scratch.Reuse = true
	if t.online != nil {
		n := len(asm.Locations())
		t.subAt = make([]int, n+1)
		for i := range n {
			w := t.online.SubWords(i)
			t.subAt[i+1] = t.subAt[i] + w
			t.tmp = make([]uint64, max(len(t.tmp), w))
		}
		t.walkBytes = int64(n)*walkBytes + 8*int64(t.subAt[n]) + 2*sliceBytes
	}
	return t, nil
}

// Add adds one event read from source (logs.Scan's): its Index is replaced
// by the table's arrival rank, its File by source, so that a session whose
// events come from several sources (one log per service) is joined as
// ivc analyze's session.Joiner joins it across files.
func (t *Table) Add(source string, ev logs.Event) {
	now := t.opt.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.add(source, ev, now)
}

// add adds ev, arrived at now; t.mu is held.
func (t *Table) add(source string, ev logs.Event, now time.Time) {
	if !ev.Dropped { // else counted with Malformed by its reader; its session is incomplete
		t.counts.Received++
	}
	ev.Index, ev.File = t.index, source
	t.index++
	h := t.sessions.hash(ev.Session)
	s := t.sessions.get(ev.Session, h)
	if t.sealed || s == nil && t.tomb(ev.Session) { // its session judged: late
		switch {
		case ev.Dropped:
		case ev.Ignored:
			t.counts.Ignored++
		default:
			t.counts.Late++
		}
		return
	}
	switch {
	case s == nil:
		s = t.newSession()
		*s = liveSession{id: ev.Session, hash: h, file: source, first: now, events: t.newEvents(), batch: t.batch}
		if t.batch != 0 {
			t.begun++
		}
		t.sessions.put(s)
		t.open.pushBack(s)
		t.bytes += sessionBytes + int64(len(s.id)) + int64(cap(s.events))*eventBytes
	case !s.closedAt.IsZero(): // late, within its grace: re-open
		t.closed.remove(s)
		s.closedAt = time.Time{}
		s.first = now
		t.open.pushBack(s)
	}
	if s.batch == t.batch && t.batch != 0 {
		t.beginning++
	}
	c := cap(s.events)
	e, held := t.hold(s, &ev, source)
	s.events = append(s.events, e)
	s.last = now
	t.bytes += int64(cap(s.events)-c) * eventBytes
	s.bytes += held
	t.bytes += held
	if t.online != nil && !s.unwatched {
		t.watch(s, now)
	}
	for t.open.n > t.opt.MaxSessions || (t.opt.MaxMemory > 0 && t.bytes > t.opt.MaxMemory && t.open.n > 0) {
		if t.opt.MaxMemory > 0 && t.bytes > t.opt.MaxMemory && t.closed.n > 0 {
			t.forget(t.closed.head)
			continue
		}
		// Evicted once: its room is what is wanted, so it is forgotten
		// at once, not kept for its grace; its later events are late
		// (re-opening it would judge it again whole at each event).
		s := t.open.head
		t.counts.Evicted++
		t.closeSession(s, ClosedEvicted, now)
		t.forget(s)
	}
}

// Tick closes the sessions idle or open too long at now and forgets those
// past their grace.
func (t *Table) Tick(now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for s, next := t.open.head, (*liveSession)(nil); s != nil; s = next {
		next = s.next
		switch {
		case now.Sub(s.last) >= t.opt.Idle:
			t.closeSession(s, ClosedIdle, now)
		case now.Sub(s.first) >= t.opt.Max:
			t.closeSession(s, ClosedMax, now)
		}
	}
	for s := t.closed.head; s != nil; s = t.closed.head {
		if now.Sub(s.closedAt) < t.opt.Grace {
			break
		}
		t.forget(s)
	}
}

// Run calls Tick every quarter of Options.Idle until ctx is done.
func (t *Table) Run(ctx context.Context) {
	tk := time.NewTicker(t.opt.Idle / 4)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
			t.Tick(t.opt.Now())
			if t.opt.Ticked != nil {
				t.opt.Ticked()
			}
		}
	}
}

// Close judges every open session (closed_by shutdown). Events added
// later are counted (Counts), not judged.
func (t *Table) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.opt.Now()
	for s := t.open.head; s != nil; s = t.open.head {
		t.closeSession(s, ClosedShutdown, now)
	}
	t.sealed = true
}

// Counts returns the counts so far.
func (t *Table) Counts() Counts {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.counts
	c.Summary = check.Summary{}
	c.Summary.Merge(t.counts.Summary) // a copy, maps included
	c.Open = t.open.n
	return c
}

// tomb reports whether session id was forgotten past its grace.
func (t *Table) tomb(id string) bool {
	_, ok := t.tombs[id]
	return ok
}

// forget drops a closed session past its grace, keeping its id to count
// its late events.
func (t *Table) forget(s *liveSession) {
	t.closed.remove(s)
	t.sessions.remove(s)
	t.bytes -= sessionBytes + int64(len(s.id)) + s.bytes + int64(cap(s.events))*eventBytes
	if cap(s.events) == t.sized && len(t.free) < maxFree {
		clear(s.events)
		t.free = append(t.free, s.events[:0])
	}
	s.events = nil
	if len(t.tombList) >= t.opt.MaxSessions {
		delete(t.tombs, t.tombList[0])
		t.tombList = t.tombList[1:]
	}
	t.tombs[s.id] = struct{}{}
	t.tombList = append(t.tombList, s.id)
	if len(t.freeSessions) < maxFree {
		*s = liveSession{}
		t.freeSessions = append(t.freeSessions, s)
	}
}

// newSession returns a session for a new id: one of Table.freeSessions,
// or a new one.
func (t *Table) newSession() *liveSession {
	if n := len(t.freeSessions); n > 0 {
		s := t.freeSessions[n-1]
		t.freeSessions[n-1] = nil
		t.freeSessions = t.freeSessions[:n-1]
		return s
	}
	return new(liveSession)
}

// maxFree bounds Table.free, freeSessions and freeWalks: what forgotten
// sessions leave for new ones, not counted in Table.bytes (at most about
// 74 KB of sessions, 256 slices of Table.sized events and 256 early
// checks: 0.3 MB for orders of 8 spans).
const maxFree = 256

// newEvents returns the slice of a new session's events: one of
// Table.free, or a new one of capacity Table.sized.
func (t *Table) newEvents() []liveEvent {
	if n := len(t.free); n > 0 {
		ev := t.free[n-1]
		t.free[n-1] = nil
		t.free = t.free[:n-1]
		return ev
	}
	return make([]liveEvent, 0, max(t.sized, 1))
}

// sizeSessions counts the sessions begun by a request, n events each on
// average, in the capacity of the next sessions' slices (Table.sized):
// when it changes, the slices kept for them are dropped.
func (t *Table) sizeSessions(n int) {
	if t.sizeAvg == 0 {
		t.sizeAvg = 8 * n
	}
	t.sizeAvg += (8*n - t.sizeAvg) / 8 // eighths of an event, over about the last eight requests
	c := 1
	for 8*c < t.sizeAvg && c < maxSized {
		c *= 2
	}
	if c != t.sized {
		t.sized = c
		clear(t.free)
		t.free = t.free[:0]
	}
}

// maxSized bounds Table.sized: a larger session's slice grows as append
// grows it.
const maxSized = 64

// closeSession judges s, emits its outcome and keeps it for its grace.
func (t *Table) closeSession(s *liveSession, by string, now time.Time) {
	t.unwatch(s)
	o := t.judge(s)
	t.close(s, by, now, &o)
}

// close closes s, judged o: it counts o, emits it (or reports why s could
// not be judged) and keeps s for its grace.
func (t *Table) close(s *liveSession, by string, now time.Time, o *check.Outcome) {
	t.open.remove(s)
	s.closedAt = now
	t.closed.pushBack(s)
	s.revision++
	// Each event counted once, by the session's last assembly: a span's
	// partner, arrived since, may have named it, and a span read again (a
	// retried request) is a duplicate.
	t.counts.Events += o.Events - s.counted
	t.counts.Ignored += o.Ignored - s.ignored
	t.counts.Duplicates += o.Duplicates - s.duplicates
	t.counts.Conflicts += o.Conflicts - s.conflicts
	if o.Conflict != nil && o.Conflicts > s.conflicts {
		t.opt.Report(o.Conflict)
	}
	s.counted, s.ignored, s.duplicates, s.conflicts = o.Events, o.Ignored, o.Duplicates, o.Conflicts
	t.counts.Add(o)
	if o.Err != nil {
		t.opt.Report(o.Err)
		return
	}
	o.Live = &check.Live{Revision: s.revision, ClosedBy: by, LatencyUS: t.opt.Now().Sub(s.last).Microseconds()}
	t.emit(*o)
}

// maxJudged is the most events of judge's copy kept for the next session,
// as a session.Scratch keeps the storage of sessions up to this size.
const maxJudged = 1 << 14

// judge judges the events of s as ivc analyze judges a session: its
// outcome, or why it cannot be judged (Outcome.Err).
func (t *Table) judge(s *liveSession) check.Outcome {
	events, links := t.judged[:0], slices.Grow(t.judgedLinks[:0], len(s.events))[:len(s.events)]
	for i := range s.events {
		events = append(events, t.event(s, &s.events[i], &links[i])) // Assemble sorts them
	}
	defer func() {
		clear(events)
		clear(links)
		if cap(events) > maxJudged { // a rare large session's copy is given back
			events, links = nil, nil
		}
		t.judged, t.judgedLinks = events[:0], links[:0]
	}()
	ls, err := t.asm.AssembleWith(&t.scratch, s.file, s.id, events)
	if err != nil {
		// Events the readers cannot have given: counted as they arrived.
		ls = session.Session{Meta: session.Meta{File: s.file, ID: s.id}, Err: err}
		for i := range s.events {
			switch ev := &s.events[i]; {
			case ev.dropped():
			case ev.ignored():
				ls.Ignored++
			default:
				ls.Events++
			}
		}
	}
	// Its inputs are its sources (otlp-grpc, otlp-http, the files
	// followed): its record names the first alone.
	ls.Files = nil
	o := t.c.Judge(ls)
	if o.Err != nil {
		// pe escapes: declared where there is an error only.
		var pe *check.PanicError
		if errors.As(o.Err, &pe) {
			o.Err = fmt.Errorf("%s (session %s): %w", s.file, s.id, o.Err)
		}
	}
	return o
}
