// Package monitor judges sessions of live traffic as they end (issue 26):
// events arrive one by one from any mix of sources (OTLP requests, JSON
// Lines streams), are held per session in arrival order, and a session is
// judged when it is over — idle for Options.Idle, open for Options.Max, or
// at Close — exactly as ivc analyze judges it: the session is built by the
// logs package's Assembler (the same gatherer as logs.Read) and judged by
// the check package's Checker, and its record is check.Record plus the
// revision, the reason it closed and the time to verdict.
//
//	m := monitor.New(checker, lopt, monitor.Options{}, func(r monitor.Record) { ... })
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
	"sync"
	"sync/atomic"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
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
// measures them for the same events (48 B/event, 482 B/session).
const (
	eventBytes   = 48
	sessionBytes = 512
)

// Reasons a session closed (Record.ClosedBy).
const (
	ClosedIdle     = "idle"
	ClosedMax      = "max"
	ClosedEarly    = "early"
	ClosedEvicted  = "evicted"
	ClosedShutdown = "shutdown"
)

// Record is the verdict of one session: the record of ivc analyze --format
// json, plus Revision (1, then 2, 3, ... for a session re-opened by late
// events), ClosedBy and LatencyUS, the time from the arrival of the
// session's last event to its verdict.
type Record struct {
	check.Record
	Revision  int    `json:"revision"`
	ClosedBy  string `json:"closed_by"`
	LatencyUS int64  `json:"latency_us"`
}

// Counts are what the monitor received. Received = Judged + Ignored +
// Malformed + Late once every session is closed (Judged counts the events of
// sessions judged, and of sessions that could not be, reported).
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

// session is the events of one session id, in arrival order.
type session struct {
	id, file    string
	events      []logs.Event
	first, last time.Time
	revision    int           // of its last record
	elem        *list.Element // in Monitor.open or Monitor.closed
	closedAt    time.Time
	judged      int // events already counted as judged
}

// Monitor is the session table. Its methods are safe for concurrent use.
type Monitor struct {
	c    *check.Checker
	asm  *logs.Assembler
	lopt logs.Options
	opt  Options
	emit func(Record)

	mu       sync.Mutex
	sessions map[string]*session // open and closed within their grace
	open     *list.List          // of *session, oldest first
	closed   *list.List          // of *session, closed first first
	tombs    map[string]struct{} // ids past their grace, for counting late events
	tombList []string
	index    int
	bytes    int64
	counts   Counts
	slots    chan struct{} // one per OTLP request being read

	readers  sync.Map     // source name → *sync.Pool of *traceReader (otlp.go)
	requests atomic.Int64 // OTLP requests read
}

// New returns a monitor of the sessions read with lopt (its signature and
// locations) judged by c; emit receives every record, one at a time.
func New(c *check.Checker, lopt logs.Options, opt Options, emit func(Record)) (*Monitor, error) {
	asm, err := logs.NewAssembler(lopt)
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
	return &Monitor{c: c, asm: asm, lopt: lopt, opt: opt, emit: emit,
		sessions: map[string]*session{}, open: list.New(), closed: list.New(), tombs: map[string]struct{}{},
		counts: Counts{Verdicts: map[string]int64{}}, slots: make(chan struct{}, opt.MaxRequests)}, nil
}

// Scan reads the events of r, a log of format f named name (JSON Lines,
// CSV, OTLP/JSON, Jaeger), into the monitor as they are read: for a stream,
// until it ends. Malformed lines go to Options.Report and are counted.
func (m *Monitor) Scan(name string, r io.Reader, f logs.Format) (logs.Stats, error) {
	st, err := logs.Scan(name, r, f, m.lopt, func(ev logs.Event) { m.Add(name, ev) }, func(err error) {
		m.opt.Report(err)
	})
	m.mu.Lock()
	m.counts.Malformed += int64(st.Malformed)
	m.counts.Received += int64(st.Malformed)
	m.counts.Unkinded += int64(st.Unkinded)
	m.mu.Unlock()
	return st, err
}

// Add adds one event read from source (logs.Scan's): its Index is replaced
// by the monitor's arrival rank, its File by source, so that a session whose
// events come from several sources (one log per service) is joined as
// ivc analyze's logs.Joiner joins it across files.
func (m *Monitor) Add(source string, ev logs.Event) {
	now := m.opt.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.add(source, ev, now)
}

// add adds ev, arrived at now; m.mu is held.
func (m *Monitor) add(source string, ev logs.Event, now time.Time) {
	m.counts.Received++
	if ev.Dropped {
		// Counted with Malformed by Scan; its session is incomplete.
		m.counts.Received--
	}
	ev.Index, ev.File = m.index, source
	m.index++
	s := m.sessions[ev.Session]
	switch {
	case s == nil:
		if _, late := m.tombs[ev.Session]; late {
			m.counts.Late++
			return
		}
		s = &session{id: ev.Session, file: source, first: now}
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
	for m.open.Len() > m.opt.MaxSessions || (m.opt.MaxMemory > 0 && m.bytes > m.opt.MaxMemory && m.open.Len() > 0) {
		if m.opt.MaxMemory > 0 && m.bytes > m.opt.MaxMemory && m.closed.Len() > 0 {
			m.forget(m.closed.Front().Value.(*session))
			continue
		}
		m.counts.Evicted++
		m.closeSession(m.open.Front().Value.(*session), ClosedEvicted, now)
	}
}

// Tick closes the sessions idle or open too long at now and forgets those
// past their grace.
func (m *Monitor) Tick(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for e := m.open.Front(); e != nil; {
		s := e.Value.(*session)
		e = e.Next()
		switch {
		case now.Sub(s.last) >= m.opt.Idle:
			m.closeSession(s, ClosedIdle, now)
		case now.Sub(s.first) >= m.opt.Max:
			m.closeSession(s, ClosedMax, now)
		}
	}
	for e := m.closed.Front(); e != nil; e = m.closed.Front() {
		s := e.Value.(*session)
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

// Close judges every open session (closed_by shutdown).
func (m *Monitor) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.opt.Now()
	for e := m.open.Front(); e != nil; e = m.open.Front() {
		m.closeSession(e.Value.(*session), ClosedShutdown, now)
	}
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

// forget drops a closed session past its grace, keeping its id to count
// its late events.
func (m *Monitor) forget(s *session) {
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

// closeSession judges s, emits its record and keeps it for its grace.
func (m *Monitor) closeSession(s *session, by string, now time.Time) {
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
	events := append([]logs.Event(nil), s.events...) // Assemble sorts them
	ls, err := m.asm.Assemble(s.file, s.id, events)
	if err == nil {
		err = ls.Err
	}
	if err != nil {
		m.opt.Report(err)
		return
	}
	in := check.Input{Name: ls.File, Session: s.id, Ignored: ls.Ignored, Incomplete: ls.Incomplete(),
		Read: func() (*multitrace.MultiTrace, error) { return ls.MT, nil }}
	o := m.c.Judge(in)
	if o.Err != nil {
		var pe *check.PanicError
		if errors.As(o.Err, &pe) {
			m.opt.Report(fmt.Errorf("%s (session %s): %w", s.file, s.id, o.Err))
		} else {
			m.opt.Report(o.Err)
		}
		return
	}
	r := Record{Record: check.NewRecord(o), Revision: s.revision, ClosedBy: by,
		LatencyUS: m.opt.Now().Sub(s.last).Microseconds()}
	m.counts.Sessions++
	m.counts.Verdicts[r.Verdict]++
	m.emit(r)
}
