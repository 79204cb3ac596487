package logs

import (
	"bufio"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/multitrace"
)

// IDs returns n session ids for a log in format f, deterministic for seed:
// s1, s2, ... for an event log, distinct random trace ids (32 hex digits)
// for OTLP and Jaeger.
func IDs(f Format, n int, seed int64) []string {
	ids := make([]string, n)
	if f != OTLP && f != Jaeger {
		for i := range ids {
			ids[i] = "s" + strconv.Itoa(i+1)
		}
		return ids
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x7ace1d5))
	seen := map[string]bool{}
	for i := range ids {
		var tid [16]byte
		for {
			for j := range tid {
				tid[j] = byte(rng.Uint32())
			}
			if id := hex.EncodeToString(tid[:]); !seen[id] && id != strings.Repeat("0", 32) {
				ids[i], seen[id] = id, true
				break
			}
		}
	}
	return ids
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
// Reading the log back with Read, with the components' lifelines as
// Options.Locations, gives the same multi-traces (but for those without
// any event: a log has no trace of them).
func Write(w io.Writer, f Format, sig *interaction.Signature, ids []string, mts []*multitrace.MultiTrace, seed int64) error {
	_, err := WriteRotated(func() (io.Writer, error) { return w, nil }, f, sig, ids, mts, seed, 0)
	return err
}

// WriteRotated writes the log Write writes as a rotated log: files of at
// most perFile events each (0: one file), the oldest first, each a log of
// format f on its own (a CSV header each, the Jaeger traces with spans in
// the file). next returns the writer of the next file. It returns the
// number of files written.
func WriteRotated(next func() (io.Writer, error), f Format, sig *interaction.Signature, ids []string, mts []*multitrace.MultiTrace, seed int64, perFile int) (int, error) {
	if ids == nil {
		ids = IDs(f, len(mts), seed)
	}
	if len(ids) != len(mts) {
		return 0, fmt.Errorf("%d session ids for %d multi-traces", len(ids), len(mts))
	}
	if err := checkIDs(f, ids); err != nil {
		return 0, err
	}
	if perFile < 0 {
		return 0, fmt.Errorf("%d events a file: want at least 1, or 0 for one file", perFile)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x10c5))
	events, err := interleave(mts, rng)
	if err != nil {
		return 0, err
	}
	files := 0
	for len(events) > 0 || files == 0 {
		chunk := events
		if perFile > 0 {
			chunk = events[:min(perFile, len(events))]
		}
		events = events[len(chunk):]
		w, err := next()
		if err != nil {
			return files, err
		}
		bw := bufio.NewWriter(w)
		switch f {
		case JSONL:
			writeJSONL(bw, sig, ids, chunk)
		case CSV:
			err = writeCSV(bw, sig, ids, chunk)
		case OTLP:
			err = writeOTLP(bw, sig, ids, chunk, rng)
		case Jaeger:
			err = writeJaeger(bw, sig, ids, chunk, rng, perFile > 0)
		default:
			return files, fmt.Errorf("cannot write a log in format %s (expected jsonl, csv, otlp or jaeger)", f)
		}
		if err == nil {
			err = bw.Flush()
		}
		if err != nil {
			return files, err
		}
		files++
	}
	return files, nil
}

func checkIDs(f Format, ids []string) error {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return fmt.Errorf("session id %q is given twice", id)
		}
		seen[id] = true
		if f != OTLP && f != Jaeger {
			continue
		}
		b, err := hex.DecodeString(id)
		if err != nil || len(b) == 0 || len(b) > 16 || f == OTLP && len(b) != 16 {
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

// interleave returns the events of the multi-traces, timed by the clocks
// of their locations, in a random interleaving of Concurrent sessions at a
// time that keeps each location's order.
func interleave(mts []*multitrace.MultiTrace, rng *rand.Rand) ([]logEvent, error) {
	type queue struct {
		session, loc, next int
	}
	type clock struct {
		start time.Time
		tick  time.Duration
	}
	var clocks []clock
	total := 0
	for i, mt := range mts {
		for k, c := range mt.Components {
			for len(clocks) <= k {
				clocks = append(clocks, clock{
					start: epoch.Add(time.Duration(rng.Int64N(int64(20 * time.Minute)))),
					tick:  time.Duration(1+rng.Int64N(9))*time.Millisecond + time.Duration(rng.Int64N(1000))})
			}
			for j, e := range c.Trace {
				if len(e) != 1 {
					return nil, fmt.Errorf("multi-trace %d, location %d, event %d: a multi-action of %d actions (a log has one action an event)", i+1, k+1, j+1, len(e))
				}
			}
			total += len(c.Trace)
		}
	}
	events := make([]logEvent, 0, total)
	var (
		queues  []queue         // of the sessions under way
		left    = map[int]int{} // queues left of each session under way
		started = make([]time.Duration, len(mts))
		next    = 0 // the next session to start
		now     time.Duration
	)
	start := func() {
		for ; next < len(mts) && len(left) < Concurrent; next++ {
			now += time.Duration(rng.Int64N(int64(time.Second)))
			started[next] = now
			for k, c := range mts[next].Components {
				if len(c.Trace) > 0 {
					queues = append(queues, queue{session: next, loc: k})
					left[next]++
				}
			}
		}
	}
	start()
	for len(queues) > 0 {
		q := rng.IntN(len(queues))
		qu := &queues[q]
		c := mts[qu.session].Components[qu.loc]
		ck := clocks[qu.loc]
		t := ck.start.Add(started[qu.session] + time.Duration(qu.next+1)*ck.tick +
			time.Duration(rng.Int64N(int64(ck.tick/2))))
		events = append(events, logEvent{session: qu.session, act: c.Trace[qu.next][0], time: t})
		qu.next++
		if qu.next == len(c.Trace) {
			s := qu.session
			queues[q] = queues[len(queues)-1]
			queues = queues[:len(queues)-1]
			if left[s]--; left[s] == 0 {
				delete(left, s)
				start()
			}
		}
		if len(queues) == 0 {
			start() // sessions without events
		}
	}
	return events, nil
}

func kindWord(a interaction.Action) string {
	if a.Kind() == interaction.Emission {
		return "send"
	}
	return "receive"
}

func writeJSONL(w *bufio.Writer, sig *interaction.Signature, ids []string, events []logEvent) {
	var b []byte
	for _, e := range events {
		b = append(b[:0], `{"session":`...)
		b = appendJSONString(b, ids[e.session])
		b = append(b, `,"time":"`...)
		b = e.time.AppendFormat(b, time.RFC3339Nano)
		b = append(b, `","lifeline":`...)
		b = appendJSONString(b, sig.Lifelines[e.act.Lifeline()])
		b = append(b, `,"kind":"`...)
		b = append(b, kindWord(e.act)...)
		b = append(b, `","message":`...)
		b = appendJSONString(b, sig.Messages[e.act.Message()])
		b = append(b, "}\n"...)
		w.Write(b)
	}
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

// writeCSV writes the events with encoding/csv, which quotes a field when
// it must be.
func writeCSV(w *bufio.Writer, sig *interaction.Signature, ids []string, events []logEvent) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"session", "time", "lifeline", "kind", "message"}); err != nil {
		return err
	}
	var rec [5]string
	var t []byte
	for _, e := range events {
		t = e.time.AppendFormat(t[:0], time.RFC3339Nano)
		rec = [5]string{ids[e.session], string(t), sig.Lifelines[e.act.Lifeline()], kindWord(e.act), sig.Messages[e.act.Message()]}
		if err := cw.Write(rec[:]); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
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

func writeOTLP(w *bufio.Writer, sig *interaction.Signature, ids []string, events []logEvent, rng *rand.Rand) error {
	var m ptrace.JSONMarshaler
	for len(events) > 0 {
		n := min(1+rng.IntN(8), len(events))
		batch := slices.Clone(events[:n])
		events = events[n:]
		rng.Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
		td := ptrace.NewTraces()
		byService := map[interaction.LifelineID]ptrace.SpanSlice{}
		for _, e := range batch {
			l := e.act.Lifeline()
			spans, ok := byService[l]
			if !ok {
				rs := td.ResourceSpans().AppendEmpty()
				rs.Resource().Attributes().PutStr(ServiceName, sig.Lifelines[l])
				ss := rs.ScopeSpans().AppendEmpty()
				ss.Scope().SetName("ivc")
				spans = ss.Spans()
				byService[l] = spans
			}
			sp := spans.AppendEmpty()
			var tid pcommon.TraceID
			hex.Decode(tid[:], []byte(ids[e.session]))
			sp.SetTraceID(tid)
			var sid pcommon.SpanID
			randomID(sid[:], rng)
			sp.SetSpanID(sid)
			msg := sig.Messages[e.act.Message()]
			sp.SetName(kindWord(e.act) + " " + msg)
			if e.act.Kind() == interaction.Emission {
				sp.SetKind(ptrace.SpanKindProducer)
			} else {
				sp.SetKind(ptrace.SpanKindConsumer)
			}
			sp.SetStartTimestamp(pcommon.NewTimestampFromTime(e.time))
			sp.SetEndTimestamp(pcommon.NewTimestampFromTime(e.time.Add(100 * time.Microsecond)))
			sp.Attributes().PutStr(MessagingDestination, msg)
		}
		b, err := m.MarshalTraces(td)
		if err != nil {
			return err
		}
		w.Write(b)
		w.WriteByte('\n')
	}
	return nil
}

// jaegerOut is a trace as Jaeger writes it.
type jaegerOut struct {
	TraceID   string                   `json:"traceID"`
	Spans     []jaegerSpanOut          `json:"spans"`
	Processes map[string]jaegerProcess `json:"processes"`
	Warnings  []string                 `json:"warnings"`
}

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

// writeJaeger writes a trace for each session, or, rotated, for each
// session with an event among events.
func writeJaeger(w *bufio.Writer, sig *interaction.Signature, ids []string, events []logEvent, rng *rand.Rand, rotated bool) error {
	traces := make([]jaegerOut, len(ids))
	pids := make([]map[interaction.LifelineID]string, len(ids))
	for i := range traces {
		traces[i] = jaegerOut{TraceID: ids[i], Spans: []jaegerSpanOut{}, Processes: map[string]jaegerProcess{}}
		pids[i] = map[interaction.LifelineID]string{}
	}
	for _, e := range events {
		tr := &traces[e.session]
		l := e.act.Lifeline()
		pid, ok := pids[e.session][l]
		if !ok {
			pid = "p" + strconv.Itoa(len(tr.Processes)+1)
			pids[e.session][l] = pid
			tr.Processes[pid] = jaegerProcess{ServiceName: sig.Lifelines[l], Tags: []jaegerTag{}}
		}
		var sid [8]byte
		randomID(sid[:], rng)
		msg := sig.Messages[e.act.Message()]
		kind := "consumer"
		if e.act.Kind() == interaction.Emission {
			kind = "producer"
		}
		tr.Spans = append(tr.Spans, jaegerSpanOut{TraceID: ids[e.session], SpanID: hex.EncodeToString(sid[:]),
			OperationName: kindWord(e.act) + " " + msg, References: []any{}, StartTime: e.time.UnixMicro(), Duration: 100,
			Tags: []jaegerTag{{Key: defaultSpanKindTag, Type: "string", Value: tagValue(kind)},
				{Key: MessagingDestination, Type: "string", Value: tagValue(msg)}},
			Logs: []any{}, ProcessID: pid})
	}
	w.WriteString("{\"data\": [")
	written := 0
	for i := range traces {
		tr := &traces[i]
		if rotated && len(tr.Spans) == 0 {
			continue
		}
		rng.Shuffle(len(tr.Spans), func(a, b int) { tr.Spans[a], tr.Spans[b] = tr.Spans[b], tr.Spans[a] })
		b, err := json.MarshalIndent(tr, "  ", "  ")
		if err != nil {
			return err
		}
		if written > 0 {
			w.WriteByte(',')
		}
		written++
		w.WriteString("\n  ")
		w.Write(b)
	}
	w.WriteString("\n], \"total\": 0, \"limit\": 0, \"offset\": 0, \"errors\": null}\n")
	return nil
}
