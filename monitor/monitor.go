// Package monitor judges sessions of live traffic as they end (issue 26):
// events arrive one by one from any mix of sources (OTLP requests, JSON
// Lines streams), are held per session in arrival order, and a session is
// judged when it is over — idle for Options.Idle, open for Options.Max, or
// at Close — exactly as ivc analyze judges it: the session is built by the
// session package's Assembler (the same gatherer as session.Read) and judged by
// the check package's Checker, and its record is check.Record with its
// Live part: the revision, the reason it closed and the time to verdict.
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
// its partner in another request or source) is not read: the events read
// are still a subsequence of the location's. A session with a malformed
// event (Inconc), or two events its location cannot be ordered with (an
// error), is not watched. Events of the session
// after its early record re-open it, as late events do, for a revision
// judged on all its events: a Fail again, with the whole session's
// explanation, unless one of them is malformed or cannot be ordered.
//
//	m := monitor.New(checker, lopt, monitor.Options{}, func(r check.Record) { ... })
//	go m.Run(ctx)                                  // closes idle and overdue sessions
//	m.Scan("app.jsonl", r, logs.JSONL)             // or m.Traces("otlp", td) for OTLP
//	m.Close()                                      // judge what is still open
//
// Nothing is lost: every event received is judged (in a session), ignored
// (outside the signature), malformed (reported) or late (past the grace
// period of its closed session): Counts says so.
package monitor

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/verdict"
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
	// open and closed sessions (estimated); past either, the oldest open
	// session is judged early (closed_by evicted). 0: DefaultMaxSessions,
	// no memory bound.
	MaxSessions int
	MaxMemory   int64
	// MaxRequests bounds the OTLP requests read at once; past it the
	// monitor answers saturated (0: DefaultMaxRequests).
	MaxRequests int
	// Report receives malformed lines and sessions that cannot be judged.
	Report func(error)
	// Now is the clock (tests); time.Now when nil.
	Now func() time.Time
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
	DefaultMaxRequests = 64
)

// Bytes held per event and per session, as BenchmarkJoinHeld of logs
// measures them for the same events (48 B/event, 482 B/session), and per
// location of a session watched for early failure (a walk).
const (
	eventBytes   = 48
	sessionBytes = 512
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

// Counts are what the monitor received. Received = Judged + Ignored +
// Malformed + Late once every session is closed (Judged counts the events of
// sessions judged, and of sessions that could not be, reported); after
// Close, which closes them all, every event is counted as it arrives: an
// event of the signature is Late, its session already judged.
type Counts struct {
	Received, Judged, Ignored, Malformed, Late int64
	// Unkinded counts the spans without a protocol kind (INTERNAL or
	// none): not events, as for ivc analyze.
	Unkinded    int64
	Open        int   // sessions open
	Sessions    int64 // records emitted
	Evicted     int64 // sessions judged early for lack of room
	Rejected    int64 // OTLP requests refused, saturated (retried by clients)
	BadRequests int64 // OTLP requests that could not be decoded (400)
	Verdicts    map[string]int64
}

// liveSession is the events of one session id, in arrival order.
type liveSession struct {
	id, file    string
	events      []logs.Event
	first, last time.Time
	revision    int           // of its last record
	elem        *list.Element // in Monitor.open or Monitor.closed
	closedAt    time.Time
	judged      int // events already counted as judged
	// walks are the early check of the session, one per location, made
	// at its first event, and subs the sets of their subword walks (at
	// Monitor.subAt); unwatched once the check cannot be certain of a
	// local error, or once the session has a record.
	walks     []walk
	subs      []uint64
	unwatched bool
}

// walk is the early check of one location of a session: the state its
// projection DFA reached (events in line order), and the session's event
// last in the location's order (-1: none).
type walk struct {
	q    check.WalkState
	last int32
}

// Monitor is the session table. Its methods are safe for concurrent use.
type Monitor struct {
	c      *check.Checker
	asm    *session.Assembler
	lopt   logs.Options
	opt    Options
	emit   func(check.Record)
	online *check.Walker // nil: no early check
	// subAt[i] is where the set of location i's subword walk starts in a
	// session's subs, subAt[len-1] their length; walkBytes is what a
	// session's early check holds; tmp and order are the check's scratch.
	subAt     []int
	walkBytes int64
	tmp       []uint64
	order     []int32

	mu       sync.Mutex
	sessions map[string]*liveSession // open and closed within their grace
	open     *list.List              // of *liveSession, oldest first
	closed   *list.List              // of *liveSession, closed first first
	tombs    map[string]struct{}     // ids past their grace, for counting late events
	tombList []string
	index    int
	bytes    int64
	counts   Counts
	sealed   bool          // Close has judged every session
	slots    chan struct{} // one per OTLP request being read

	readers  sync.Map     // source name → *sync.Pool of *traceReader (otlp.go)
	requests atomic.Int64 // OTLP requests read
}

// New returns a monitor of the sessions read with lopt (its signature and
// locations) judged by c; emit receives every record, one at a time, with
// its Live part.
func New(c *check.Checker, lopt logs.Options, opt Options, emit func(check.Record)) (*Monitor, error) {
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
	if opt.MaxRequests <= 0 {
		opt.MaxRequests = DefaultMaxRequests
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Report == nil {
		opt.Report = func(error) {}
	}
	m := &Monitor{c: c, asm: asm, lopt: lopt, opt: opt, emit: emit, online: c.Walker(asm.Locations()),
		sessions: map[string]*liveSession{}, open: list.New(), closed: list.New(), tombs: map[string]struct{}{},
		counts: Counts{Verdicts: map[string]int64{}}, slots: make(chan struct{}, opt.MaxRequests)}
	if m.online != nil {
		n := len(asm.Locations())
		m.subAt = make([]int, n+1)
		for i := range n {
			w := m.online.SubWords(i)
			m.subAt[i+1] = m.subAt[i] + w
			m.tmp = make([]uint64, max(len(m.tmp), w))
		}
		m.walkBytes = int64(n)*walkBytes + 8*int64(m.subAt[n]) + 2*sliceBytes
	}
	return m, nil
}

// Scan reads the events of r, a log of format f named name (JSON Lines,
// CSV, OTLP/JSON, Jaeger), into the monitor as they are read: for a stream,
// until it ends. Malformed lines go to Options.Report and are counted as
// they are met.
func (m *Monitor) Scan(name string, r io.Reader, f logs.Format) (logs.Stats, error) {
	in, err := logs.NewInput(name, r, f, m.lopt)
	if err != nil {
		return logs.Stats{}, err
	}
	in.OnMalformed(func() {
		m.mu.Lock()
		m.counts.Malformed++
		m.counts.Received++
		m.mu.Unlock()
	})
	st, err := in.Scan(func(ev logs.Event) { m.Add(name, ev) }, m.opt.Report)
	m.mu.Lock()
	m.counts.Unkinded += int64(st.Unkinded)
	m.mu.Unlock()
	return st, err
}

// Add adds one event read from source (logs.Scan's): its Index is replaced
// by the monitor's arrival rank, its File by source, so that a session whose
// events come from several sources (one log per service) is joined as
// ivc analyze's session.Joiner joins it across files.
func (m *Monitor) Add(source string, ev logs.Event) {
	now := m.opt.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.add(source, ev, now)
}

// add adds ev, arrived at now; m.mu is held.
func (m *Monitor) add(source string, ev logs.Event, now time.Time) {
	if !ev.Dropped { // else counted with Malformed by Scan; its session is incomplete
		m.counts.Received++
	}
	ev.Index, ev.File = m.index, source
	m.index++
	s := m.sessions[ev.Session]
	if m.sealed || s == nil && m.tomb(ev.Session) { // its session judged: late
		switch {
		case ev.Dropped:
		case ev.Ignored:
			m.counts.Ignored++
		default:
			m.counts.Late++
		}
		return
	}
	switch {
	case s == nil:
		s = &liveSession{id: ev.Session, file: source, first: now}
		m.sessions[s.id] = s
		s.elem = m.open.PushBack(s)
		m.bytes += sessionBytes
	case !s.closedAt.IsZero(): // late, within its grace: re-open
		m.closed.Remove(s.elem)
		s.closedAt = time.Time{}
		s.first = now
		s.elem = m.open.PushBack(s)
	}
	if ev.Ignored {
		m.counts.Ignored++
	}
	s.events = append(s.events, ev)
	s.last = now
	m.bytes += eventBytes
	if m.online != nil && !s.unwatched {
		m.watch(s, now)
	}
	for m.open.Len() > m.opt.MaxSessions || (m.opt.MaxMemory > 0 && m.bytes > m.opt.MaxMemory && m.open.Len() > 0) {
		if m.opt.MaxMemory > 0 && m.bytes > m.opt.MaxMemory && m.closed.Len() > 0 {
			m.forget(m.closed.Front().Value.(*liveSession))
			continue
		}
		m.counts.Evicted++
		m.closeSession(m.open.Front().Value.(*liveSession), ClosedEvicted, now)
	}
}

// Tick closes the sessions idle or open too long at now and forgets those
// past their grace.
func (m *Monitor) Tick(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for e := m.open.Front(); e != nil; {
		s := e.Value.(*liveSession)
		e = e.Next()
		switch {
		case now.Sub(s.last) >= m.opt.Idle:
			m.closeSession(s, ClosedIdle, now)
		case now.Sub(s.first) >= m.opt.Max:
			m.closeSession(s, ClosedMax, now)
		}
	}
	for e := m.closed.Front(); e != nil; e = m.closed.Front() {
		s := e.Value.(*liveSession)
		if now.Sub(s.closedAt) < m.opt.Grace {
			break
		}
		m.forget(s)
	}
}

// Run calls Tick every quarter of Options.Idle until ctx is done.
func (m *Monitor) Run(ctx context.Context) {
	t := time.NewTicker(m.opt.Idle / 4)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.Tick(m.opt.Now())
		}
	}
}

// Close judges every open session (closed_by shutdown). Events added
// later are counted (Counts), not judged.
func (m *Monitor) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.opt.Now()
	for e := m.open.Front(); e != nil; e = m.open.Front() {
		m.closeSession(e.Value.(*liveSession), ClosedShutdown, now)
	}
	m.sealed = true
}

// Counts returns the counts so far.
func (m *Monitor) Counts() Counts {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.counts
	c.Open = m.open.Len()
	c.Verdicts = make(map[string]int64, len(m.counts.Verdicts))
	for k, v := range m.counts.Verdicts {
		c.Verdicts[k] = v
	}
	return c
}

// tomb reports whether session id was forgotten past its grace.
func (m *Monitor) tomb(id string) bool {
	_, ok := m.tombs[id]
	return ok
}

// forget drops a closed session past its grace, keeping its id to count
// its late events.
func (m *Monitor) forget(s *liveSession) {
	m.closed.Remove(s.elem)
	delete(m.sessions, s.id)
	m.bytes -= sessionBytes + int64(len(s.events))*eventBytes
	if len(m.tombList) >= m.opt.MaxSessions {
		delete(m.tombs, m.tombList[0])
		m.tombList = m.tombList[1:]
	}
	m.tombs[s.id] = struct{}{}
	m.tombList = append(m.tombList, s.id)
}

// watch steps the early check of s with its last event, and judges s
// early when that event makes a local error certain (see the package
// comment).
func (m *Monitor) watch(s *liveSession, now time.Time) {
	k := len(s.events) - 1
	ev := &s.events[k]
	switch {
	case ev.Dropped: // Inconc, whatever else
		m.unwatch(s)
		return
	case !ev.Final(): // decided at assembly (span pairing): not read
		if ev.InLineOrder() {
			m.unwatch(s)
		}
		return
	case ev.Ignored:
		return
	}
	if s.walks == nil {
		s.walks = make([]walk, len(m.subAt)-1)
		for i := range s.walks {
			s.walks[i] = walk{q: m.online.Start(i), last: -1}
		}
		s.subs = make([]uint64, m.subAt[len(m.subAt)-1])
		for i := range s.walks {
			m.online.StartSub(i, s.subs[m.subAt[i]:m.subAt[i+1]])
		}
		m.bytes += m.walkBytes
	}
	i := m.asm.Location(ev.Action)
	w := &s.walks[i]
	if w.last >= 0 && !ev.Orderable(s.events[w.last]) {
		m.unwatch(s) // an error when it closes
		return
	}
	inOrder := w.last < 0 || ev.After(s.events[w.last])
	if inOrder {
		w.last = int32(k)
	}
	set := s.subs[m.subAt[i]:m.subAt[i+1]]
	var ok bool
	switch {
	case ev.InLineOrder(): // its arrival is its place
		w.q = m.online.Step(i, w.q, ev.Action)
		ok = w.q >= 0
	case len(set) == 0: // no subword walk of this location
		return
	case inOrder:
		ok = m.online.StepSub(i, set, m.tmp[:len(set)], ev.Action)
	default:
		var walked bool
		if ok, walked = m.rewalk(s, i, set); !walked {
			m.unwatch(s)
			return
		}
	}
	if ok {
		return
	}
	r, err := m.judge(s)
	m.unwatch(s)
	switch {
	case err != nil:
		// Reported when it closes.
	case r.Verdict != verdict.Fail.String():
		m.opt.Report(fmt.Errorf("%s (session %s): the early check found a local error at event %d, the checker %s: judged when it closes",
			s.file, s.id, k+1, r.Verdict))
	default:
		m.close(s, ClosedEarly, now, &r)
	}
}

// maxRewalk bounds the events of a location that the early check walks
// again when one arrives out of order: past it, the session is judged
// when it closes.
const maxRewalk = 4096

// rewalk walks the subword walk of location i of s again, into set, on
// the location's events in their order, and reports whether it is not
// stuck; walked is false past maxRewalk events.
func (m *Monitor) rewalk(s *liveSession, i int, set []uint64) (ok, walked bool) {
	order := m.order[:0]
	for j := range s.events {
		if e := &s.events[j]; !e.Ignored && !e.Dropped && m.asm.Location(e.Action) == i {
			order = append(order, int32(j))
		}
	}
	m.order = order
	if len(order) > maxRewalk {
		return false, false
	}
	slices.SortFunc(order, func(a, b int32) int {
		switch {
		case a == b:
			return 0
		case s.events[a].After(s.events[b]):
			return 1
		}
		return -1
	})
	m.online.StartSub(i, set)
	for _, j := range order {
		if !m.online.StepSub(i, set, m.tmp[:len(set)], s.events[j].Action) {
			return false, true
		}
	}
	return true, true
}

// unwatch ends the early check of s.
func (m *Monitor) unwatch(s *liveSession) {
	if s.walks != nil {
		m.bytes -= m.walkBytes
	}
	s.walks, s.subs, s.unwatched = nil, nil, true
}

// closeSession judges s, emits its record and keeps it for its grace.
func (m *Monitor) closeSession(s *liveSession, by string, now time.Time) {
	m.unwatch(s)
	r, err := m.judge(s)
	if err != nil {
		m.opt.Report(err)
		m.close(s, by, now, nil)
		return
	}
	m.close(s, by, now, &r)
}

// close closes s, judged r (nil: it could not be, reported): it emits r
// and keeps s for its grace.
func (m *Monitor) close(s *liveSession, by string, now time.Time, r *check.Record) {
	m.open.Remove(s.elem)
	s.closedAt = now
	s.elem = m.closed.PushBack(s)
	s.revision++
	n := 0
	for _, ev := range s.events {
		if !ev.Ignored && !ev.Dropped {
			n++
		}
	}
	m.counts.Judged += int64(n - s.judged)
	s.judged = n
	if r == nil {
		return
	}
	r.Live = &check.Live{Revision: s.revision, ClosedBy: by, LatencyUS: m.opt.Now().Sub(s.last).Microseconds()}
	m.counts.Sessions++
	m.counts.Verdicts[r.Verdict]++
	m.emit(*r)
}

// judge judges the events of s as ivc analyze judges a session, or says
// why it cannot.
func (m *Monitor) judge(s *liveSession) (check.Record, error) {
	events := append([]logs.Event(nil), s.events...) // Assemble sorts them
	ls, err := m.asm.Assemble(s.file, s.id, events)
	if err == nil {
		err = ls.Err
	}
	if err != nil {
		return check.Record{}, err
	}
	ls.Files = nil // its sources: its record names the first alone
	o := m.c.Judge(ls)
	if o.Err != nil {
		var pe *check.PanicError
		if errors.As(o.Err, &pe) {
			return check.Record{}, fmt.Errorf("%s (session %s): %w", s.file, s.id, o.Err)
		}
		return check.Record{}, o.Err
	}
	return o.Record(), nil
}
