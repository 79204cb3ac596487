package gen

// The log writer of ivc gen --log-format: multi-traces written as the logs
// that package logs reads (JSON Lines, CSV, OTLP/JSON, Jaeger JSON), with
// the clocks, interleavings and span ids of real systems.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/hashslots"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
)

// IDs returns n session ids for a log in format f, deterministic for seed:
// SessionID(f, i, seed) for i < n.
func IDs(f logs.Format, n int, seed int64) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = SessionID(f, i, seed)
	}
	return ids
}

// SessionID returns the id of session i (from 0) of a generated log in
// format f: s1, s2, ... for an event log, a random-looking trace id (32 hex
// digits, never all zero) for OTLP and Jaeger, deterministic for seed and
// distinct for distinct i without any record of the ids given: its low
// half is a bijection of i.
func SessionID(f logs.Format, i int, seed int64) string {
	if f != logs.OTLP && f != logs.Jaeger {
		return "s" + strconv.Itoa(i+1)
	}
	key := hashslots.Mix(uint64(seed) ^ 0x7ace1d5)
	hi := hashslots.Mix(key ^ (uint64(i)+1)*0x9e3779b97f4a7c15)
	lo := hashslots.Mix(uint64(i) ^ key)
	if hi == 0 && lo == 0 {
		hi = 1
	}
	var tid [16]byte
	binary.BigEndian.PutUint64(tid[:8], hi)
	binary.BigEndian.PutUint64(tid[8:], lo)
	return hex.EncodeToString(tid[:])
}

// logEvent is one event of a log being written: an action of a session at
// a location, at a time of the location's clock.
type logEvent struct {
	session int
	act     interaction.Action
	time    time.Time
}

// Write writes multi-traces as a log in format f (JSONL, CSV, OTLP or
// Jaeger), deterministically for seed. Session i has id ids[i] (nil:
// IDs(f, len(mts), seed); OTLP and Jaeger need hex trace ids).
//
// Each component of a multi-trace is a location with its own clock: a start
// time and a tick of its own, so that clocks visibly disagree across
// locations, while the times within a location follow its trace order.
// Event logs interleave the sessions' and locations' events at random
// (each location's events in its order); OTLP writes them in batches of a
// few spans a line, grouped by service, in no time order; Jaeger writes one
// trace a session, its spans shuffled. An event must be a single action (a
// log holds one action an event).
//
// Reading the log back with session.Read, with the components' lifelines
// as logs.Options.Locations, gives the same multi-traces (but for those
// without any event: a log has no trace of them).
func Write(w io.Writer, f logs.Format, sig *interaction.Signature, ids []string, mts []*multitrace.MultiTrace, seed int64) error {
	_, err := WriteRotated(func() (io.Writer, error) { return w, nil }, f, sig, ids, mts, seed, 0)
	return err
}

// WriteFile writes the non-empty multi-traces of mts (Write's log has no
// session of an empty one) as the log of format f at path, sessions
// IDs(f, n, 1), and returns them.
func WriteFile(path string, f logs.Format, sig *interaction.Signature, mts []multitrace.MultiTrace) ([]*multitrace.MultiTrace, error) {
	var kept []*multitrace.MultiTrace
	for i := range mts {
		if mts[i].Len() > 0 {
			kept = append(kept, &mts[i])
		}
	}
	var b bytes.Buffer
	if err := Write(&b, f, sig, IDs(f, len(kept), 1), kept, 1); err != nil {
		return nil, err
	}
	return kept, os.WriteFile(path, b.Bytes(), 0o644)
}

// WriteRotated writes the log Write writes as a rotated log: files of at
// most perFile events each (0: one file), the oldest first, each a log of
// format f on its own (a CSV header each, the Jaeger traces with spans in
// the file). next returns the writer of the next file. It returns the
// number of files written.
func WriteRotated(next func() (io.Writer, error), f logs.Format, sig *interaction.Signature, ids []string, mts []*multitrace.MultiTrace, seed int64, perFile int) (int, error) {
	if ids == nil {
		ids = IDs(f, len(mts), seed)
	}
	if len(ids) != len(mts) {
		return 0, fmt.Errorf("%d session ids for %d multi-traces", len(ids), len(mts))
	}
	if err := checkIDs(f, ids); err != nil {
		return 0, err
	}
	seq := func(yield func(*multitrace.MultiTrace, error) bool) {
		for _, mt := range mts {
			if !yield(mt, nil) {
				return
			}
		}
	}
	return WriteStream(next, f, sig, func(i int) string { return ids[i] }, seq, seed, perFile)
}

// WriteStream writes the log WriteRotated writes, the multi-traces taken
// from mts as they are needed (at most Concurrent of them held at a time)
// and the events written as they are drawn: the memory it needs does not
// grow with the number of multi-traces. Session i (from 0) has id id(i);
// the ids must be distinct (and, for OTLP and Jaeger, trace ids: see
// SessionID). It stops at the first error mts yields.
func WriteStream(next func() (io.Writer, error), f logs.Format, sig *interaction.Signature, id func(int) string, mts iter.Seq2[*multitrace.MultiTrace, error], seed int64, perFile int) (int, error) {
	if f != logs.JSONL && f != logs.CSV && f != logs.OTLP && f != logs.Jaeger {
		return 0, fmt.Errorf("cannot write a log in format %s (expected jsonl, csv, otlp or jaeger)", f)
	}
	if perFile < 0 {
		return 0, fmt.Errorf("%d events a file: want at least 1, or 0 for one file", perFile)
	}
	lw := &logWriter{f: f, sig: sig, id: id, next: next, perFile: perFile,
		rng: rand.New(rand.NewPCG(uint64(seed), 0x5e55)), open: map[int]*jaegerOut{}}
	if err := lw.openFile(); err != nil {
		return 0, err
	}
	err := interleave(mts, rand.New(rand.NewPCG(uint64(seed), 0x10c5)), lw.event, lw.end)
	if err == nil {
		err = lw.closeFile()
	}
	return lw.files, err
}

// logWriter writes the events of a log as they come, file by file. Its
// random choices (OTLP batches and span ids, Jaeger span ids and order)
// are its own, apart from the interleaving's.
type logWriter struct {
	f       logs.Format
	sig     *interaction.Signature
	id      func(int) string
	next    func() (io.Writer, error)
	perFile int
	rng     *rand.Rand

	files  int // files opened
	events int // events in the current file
	w      *bufio.Writer
	cw     *csv.Writer
	buf    []byte
	rec    [5]string

	batch  []logEvent // OTLP: the spans of the next line
	batchN int        // OTLP: its size

	open    map[int]*jaegerOut // Jaeger: the traces of the sessions under way, by session
	written int                // Jaeger: the traces written in the current file
}

func (lw *logWriter) openFile() error {
	w, err := lw.next()
	if err != nil {
		return err
	}
	lw.files++
	lw.events = 0
	lw.w = bufio.NewWriter(w)
	switch lw.f {
	case logs.CSV:
		lw.cw = csv.NewWriter(lw.w)
		return lw.cw.Write([]string{"session", "time", "lifeline", "kind", "message"})
	case logs.Jaeger:
		lw.written = 0
		lw.w.WriteString("{\"data\": [")
	}
	return nil
}

// closeFile ends the current file: the OTLP spans of a batch under way,
// the Jaeger traces of the sessions under way.
func (lw *logWriter) closeFile() error {
	switch lw.f {
	case logs.CSV:
		lw.cw.Flush()
		if err := lw.cw.Error(); err != nil {
			return err
		}
	case logs.OTLP:
		if err := lw.flushBatch(); err != nil {
			return err
		}
	case logs.Jaeger:
		for _, s := range slices.Sorted(maps.Keys(lw.open)) {
			if err := lw.writeTrace(s); err != nil {
				return err
			}
		}
		lw.w.WriteString("\n], \"total\": 0, \"limit\": 0, \"offset\": 0, \"errors\": null}\n")
	}
	return lw.w.Flush()
}

// event writes e, in a new file when the current one is full.
func (lw *logWriter) event(e logEvent) error {
	if lw.perFile > 0 && lw.events == lw.perFile {
		if err := lw.closeFile(); err != nil {
			return err
		}
		if err := lw.openFile(); err != nil {
			return err
		}
	}
	lw.events++
	switch lw.f {
	case logs.JSONL:
		lw.writeJSONL(e)
	case logs.CSV:
		return lw.writeCSV(e)
	case logs.OTLP:
		if len(lw.batch) == 0 {
			lw.batchN = 1 + lw.rng.IntN(8)
		}
		lw.batch = append(lw.batch, e)
		if len(lw.batch) == lw.batchN {
			return lw.flushBatch()
		}
	case logs.Jaeger:
		lw.jaegerSpan(e)
	}
	return nil
}

// end is told that session s has no more events: Jaeger writes its trace
// (one for every session, with or without spans, in a log not rotated).
func (lw *logWriter) end(s int) error {
	if lw.f != logs.Jaeger {
		return nil
	}
	if _, ok := lw.open[s]; !ok {
		if lw.perFile > 0 {
			return nil // a rotated log has the traces with spans in the file
		}
		lw.open[s] = &jaegerOut{TraceID: lw.id(s), Spans: []jaegerSpanOut{}, Processes: map[string]jaegerProcess{}}
	}
	return lw.writeTrace(s)
}

func kindWord(a interaction.Action) string {
	if a.Kind() == interaction.Emission {
		return "send"
	}
	return "receive"
}

func (lw *logWriter) writeJSONL(e logEvent) {
	b := append(lw.buf[:0], `{"session":`...)
	b = appendJSONString(b, lw.id(e.session))
	b = append(b, `,"time":"`...)
	b = e.time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","lifeline":`...)
	b = appendJSONString(b, lw.sig.Lifelines[e.act.Lifeline()])
	b = append(b, `,"kind":"`...)
	b = append(b, kindWord(e.act)...)
	b = append(b, `","message":`...)
	b = appendJSONString(b, lw.sig.Messages[e.act.Message()])
	b = append(b, "}\n"...)
	lw.w.Write(b)
	lw.buf = b
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// writeCSV writes the event with encoding/csv, which quotes a field when
// it must be.
func (lw *logWriter) writeCSV(e logEvent) error {
	lw.buf = e.time.AppendFormat(lw.buf[:0], time.RFC3339Nano)
	lw.rec = [5]string{lw.id(e.session), string(lw.buf), lw.sig.Lifelines[e.act.Lifeline()], kindWord(e.act), lw.sig.Messages[e.act.Message()]}
	return lw.cw.Write(lw.rec[:])
}

// randomID fills id with random bytes, never all zero.
func randomID(id []byte, rng *rand.Rand) {
	for {
		nonzero := false
		for i := range id {
			id[i] = byte(rng.Uint32())
			nonzero = nonzero || id[i] != 0
		}
		if nonzero {
			return
		}
	}
}

// flushBatch writes the OTLP batch under way as one line: its spans
// shuffled, grouped by service.
func (lw *logWriter) flushBatch() error {
	batch := lw.batch
	if len(batch) == 0 {
		return nil
	}
	lw.batch = batch[:0]
	rng := lw.rng
	rng.Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
	td := ptrace.NewTraces()
	byService := map[interaction.LifelineID]ptrace.SpanSlice{}
	for _, e := range batch {
		l := e.act.Lifeline()
		spans, ok := byService[l]
		if !ok {
			rs := td.ResourceSpans().AppendEmpty()
			rs.Resource().Attributes().PutStr(logs.ServiceName, lw.sig.Lifelines[l])
			ss := rs.ScopeSpans().AppendEmpty()
			ss.Scope().SetName("ivc")
			spans = ss.Spans()
			byService[l] = spans
		}
		sp := spans.AppendEmpty()
		var tid pcommon.TraceID
		hex.Decode(tid[:], []byte(lw.id(e.session)))
		sp.SetTraceID(tid)
		var sid pcommon.SpanID
		randomID(sid[:], rng)
		sp.SetSpanID(sid)
		msg := lw.sig.Messages[e.act.Message()]
		sp.SetName(kindWord(e.act) + " " + msg)
		if e.act.Kind() == interaction.Emission {
			sp.SetKind(ptrace.SpanKindProducer)
		} else {
			sp.SetKind(ptrace.SpanKindConsumer)
		}
		sp.SetStartTimestamp(pcommon.NewTimestampFromTime(e.time))
		sp.SetEndTimestamp(pcommon.NewTimestampFromTime(e.time.Add(100 * time.Microsecond)))
		sp.Attributes().PutStr(logs.MessagingDestination, msg)
	}
	var m ptrace.JSONMarshaler
	b, err := m.MarshalTraces(td)
	if err != nil {
		return err
	}
	lw.w.Write(b)
	return lw.w.WriteByte('\n')
}

// jaegerOut is a trace as Jaeger writes it.
type jaegerOut struct {
	TraceID   string                   `json:"traceID"`
	Spans     []jaegerSpanOut          `json:"spans"`
	Processes map[string]jaegerProcess `json:"processes"`
	Warnings  []string                 `json:"warnings"`

	pids map[interaction.LifelineID]string
}

// jaegerProcess and jaegerTag are a process and a tag as Jaeger writes
// them.
type (
	jaegerProcess struct {
		ServiceName string      `json:"serviceName"`
		Tags        []jaegerTag `json:"tags"`
	}
	jaegerTag struct {
		Key   string `json:"key"`
		Type  string `json:"type"`
		Value string `json:"value"`
	}
)

type jaegerSpanOut struct {
	TraceID       string      `json:"traceID"`
	SpanID        string      `json:"spanID"`
	OperationName string      `json:"operationName"`
	References    []any       `json:"references"`
	StartTime     int64       `json:"startTime"`
	Duration      int64       `json:"duration"`
	Tags          []jaegerTag `json:"tags"`
	Logs          []any       `json:"logs"`
	ProcessID     string      `json:"processID"`
	Warnings      []string    `json:"warnings"`
}

// jaegerSpan adds the span of e to the trace of its session.
func (lw *logWriter) jaegerSpan(e logEvent) {
	tr := lw.open[e.session]
	if tr == nil {
		tr = &jaegerOut{TraceID: lw.id(e.session), Spans: []jaegerSpanOut{}, Processes: map[string]jaegerProcess{}}
		lw.open[e.session] = tr
	}
	if tr.pids == nil {
		tr.pids = map[interaction.LifelineID]string{}
	}
	l := e.act.Lifeline()
	pid, ok := tr.pids[l]
	if !ok {
		pid = "p" + strconv.Itoa(len(tr.Processes)+1)
		tr.pids[l] = pid
		tr.Processes[pid] = jaegerProcess{ServiceName: lw.sig.Lifelines[l], Tags: []jaegerTag{}}
	}
	var sid [8]byte
	randomID(sid[:], lw.rng)
	msg := lw.sig.Messages[e.act.Message()]
	kind := "consumer"
	if e.act.Kind() == interaction.Emission {
		kind = "producer"
	}
	tr.Spans = append(tr.Spans, jaegerSpanOut{TraceID: tr.TraceID, SpanID: hex.EncodeToString(sid[:]),
		OperationName: kindWord(e.act) + " " + msg, References: []any{}, StartTime: e.time.UnixMicro(), Duration: 100,
		Tags: []jaegerTag{{Key: logs.SpanKindTag, Type: "string", Value: kind},
			{Key: logs.MessagingDestination, Type: "string", Value: msg}},
		Logs: []any{}, ProcessID: pid})
}

// writeTrace writes the trace of session s, its spans shuffled, and
// forgets it.
func (lw *logWriter) writeTrace(s int) error {
	tr := lw.open[s]
	delete(lw.open, s)
	lw.rng.Shuffle(len(tr.Spans), func(a, b int) { tr.Spans[a], tr.Spans[b] = tr.Spans[b], tr.Spans[a] })
	b, err := json.MarshalIndent(tr, "  ", "  ")
	if err != nil {
		return err
	}
	if lw.written > 0 {
		lw.w.WriteByte(',')
	}
	lw.written++
	lw.w.WriteString("\n  ")
	_, err = lw.w.Write(b)
	return err
}

func checkIDs(f logs.Format, ids []string) error {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return fmt.Errorf("session id %q is given twice", id)
		}
		seen[id] = true
		if f != logs.OTLP && f != logs.Jaeger {
			continue
		}
		b, err := hex.DecodeString(id)
		if err != nil || len(b) == 0 || len(b) > 16 || f == logs.OTLP && len(b) != 16 {
			return fmt.Errorf("session id %q is not a trace id (32 hex digits)", id)
		}
	}
	return nil
}

// epoch is the time the generated clocks start from.
var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Concurrent is how many sessions Write interleaves at a time: a session
// starts when one of the sessions under way ends, as on a server that
// serves a few clients at once.
const Concurrent = 32

// interleave gives emit the events of the multi-traces mts, timed by the
// clocks of their locations, in a random interleaving of Concurrent
// sessions at a time that keeps each location's order, and tells ended
// when a session has no more events. It pulls a multi-trace from mts when
// a session starts: it holds the Concurrent sessions under way only.
func interleave(mts iter.Seq2[*multitrace.MultiTrace, error], rng *rand.Rand, emit func(logEvent) error, ended func(int) error) error {
	type queue struct {
		session, loc, next int
	}
	type session struct {
		mt      *multitrace.MultiTrace
		started time.Duration
		left    int // queues left
	}
	type clock struct {
		start time.Time
		tick  time.Duration
	}
	pull, stop := iter.Pull2(mts)
	defer stop()
	var (
		clocks   []clock
		queues   []queue              // of the sessions under way
		sessions = map[int]*session{} // under way
		next     = 0                  // the next session to start
		done     bool                 // mts has no more
		now      time.Duration
	)
	start := func() error {
		for !done && len(sessions) < Concurrent {
			mt, err, ok := pull()
			if !ok {
				done = true
				return nil
			}
			if err != nil {
				return err
			}
			i := next
			next++
			for k, c := range mt.Components {
				for len(clocks) <= k {
					clocks = append(clocks, clock{
						start: epoch.Add(time.Duration(rng.Int64N(int64(20 * time.Minute)))),
						tick:  time.Duration(1+rng.Int64N(9))*time.Millisecond + time.Duration(rng.Int64N(1000))})
				}
				for j, e := range c.Trace {
					if len(e) != 1 {
						return fmt.Errorf("multi-trace %d, location %d, event %d: a multi-action of %d actions (a log has one action an event)", i+1, k+1, j+1, len(e))
					}
				}
			}
			now += time.Duration(rng.Int64N(int64(time.Second)))
			s := &session{mt: mt, started: now}
			for k, c := range mt.Components {
				if len(c.Trace) > 0 {
					queues = append(queues, queue{session: i, loc: k})
					s.left++
				}
			}
			if s.left == 0 {
				if err := ended(i); err != nil {
					return err
				}
				continue
			}
			sessions[i] = s
		}
		return nil
	}
	if err := start(); err != nil {
		return err
	}
	for len(queues) > 0 {
		q := rng.IntN(len(queues))
		qu := &queues[q]
		s := sessions[qu.session]
		c := s.mt.Components[qu.loc]
		ck := clocks[qu.loc]
		t := ck.start.Add(s.started + time.Duration(qu.next+1)*ck.tick +
			time.Duration(rng.Int64N(int64(ck.tick/2))))
		if err := emit(logEvent{session: qu.session, act: c.Trace[qu.next][0], time: t}); err != nil {
			return err
		}
		qu.next++
		if qu.next == len(c.Trace) {
			i := qu.session
			queues[q] = queues[len(queues)-1]
			queues = queues[:len(queues)-1]
			if s.left--; s.left == 0 {
				delete(sessions, i)
				if err := ended(i); err != nil {
					return err
				}
				if err := start(); err != nil {
					return err
				}
			}
		}
		if len(queues) == 0 {
			if err := start(); err != nil { // sessions without events
				return err
			}
		}
	}
	return nil
}
