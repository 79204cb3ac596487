package monitor

// What the table consumes: the spans of OTLP requests, as a receiver got
// them (protobuf) or decoded by pdata, and the events of log streams, read
// as they come.

import (
	"io"
	"sync"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/logs"
)

// ConsumeLog reads the events of r, a log of format f named source (JSON
// Lines, CSV, OTLP/JSON, Jaeger), into the table as they are read: for a
// stream, until it ends. Malformed lines go to Options.Report and are
// counted as they are met.
func (t *Table) ConsumeLog(source string, r io.Reader, f logs.Format) (logs.Stats, error) {
	in, err := logs.NewInput(source, r, f, t.lopt)
	if err != nil {
		return logs.Stats{}, err
	}
	in.OnMalformed(func() {
		t.mu.Lock()
		t.counts.Malformed++
		t.counts.Received++
		t.mu.Unlock()
	})
	st, err := in.Scan(func(ev logs.Event) { t.Add(source, ev) }, t.opt.Report)
	t.mu.Lock()
	t.counts.Unkinded += st.Unkinded
	t.mu.Unlock()
	return st, err
}

// traceReader reads the OTLP requests of one source on one goroutine: its
// events are gathered in events, then added to the table at once.
type traceReader struct {
	r      *logs.TraceReader
	events []logs.Event
	emit   func(logs.Event) // appends to events
}

// reset empties tr's events for a request; an outsized request's room is
// not kept between requests (the events are the table's once added).
func (tr *traceReader) reset() {
	tr.events = tr.events[:0]
	if cap(tr.events) > maxKeptEvents {
		tr.events = nil
	}
}

// maxKeptEvents is the most events whose room a pooled trace reader keeps
// from one request to the next (1.5 MB; an exporter's batches are of up to
// 8,192 spans).
const maxKeptEvents = 1 << 14

// reader returns a trace reader of source, from its pool.
func (t *Table) reader(source string) (*sync.Pool, *traceReader, error) {
	p, ok := t.readers.Load(source)
	if !ok {
		p, _ = t.readers.LoadOrStore(source, &sync.Pool{})
	}
	pool := p.(*sync.Pool)
	if tr, ok := pool.Get().(*traceReader); ok {
		return pool, tr, nil
	}
	r, err := logs.NewTraceReader(source, t.lopt, t.opt.Report)
	if err != nil {
		return nil, nil, err
	}
	r.LendLinks = true // hold copies them
	tr := &traceReader{r: r}
	tr.emit = func(ev logs.Event) { tr.events = append(tr.events, ev) }
	return pool, tr, nil
}

// ConsumeTraces reads the spans of td, an OTLP request from source
// (decoded by pdata), as the OTLP reader of logs maps them, and returns the
// number of spans rejected as malformed. Its events are added at once: a
// session does not close between two spans of one request. Its spans are
// paired with their partners, in this request or another, when their
// session is assembled. It is the consumer of a Collector component's
// traces (collector/), and of any driver's decoded traces.
func (t *Table) ConsumeTraces(source string, td ptrace.Traces) (rejected int, err error) {
	if td.SpanCount() == 0 {
		return 0, nil // an exporter's empty request: nothing to read
	}
	pool, tr, err := t.reader(source)
	if err != nil {
		return 0, err
	}
	defer pool.Put(tr)
	tr.reset()
	st, err := tr.r.Read(td, t.number(), tr.emit)
	return t.added(source, tr, st, err)
}

// ConsumeTracesProto is ConsumeTraces for a request as it was received,
// b its OTLP/protobuf bytes (an ExportTraceServiceRequest), read without
// pdata's decoding (logs.TraceReader.ReadProto): it is the consumer of ivc
// monitor's OTLP receivers (internal/receiver). A request that does not
// decode is a *logs.ProtoError, and none of its spans is read. b is not
// kept once it returns.
func (t *Table) ConsumeTracesProto(source string, b []byte) (rejected int, err error) {
	pool, tr, err := t.reader(source)
	if err != nil {
		return 0, err
	}
	defer pool.Put(tr)
	tr.reset()
	st, err := tr.r.ReadProto(b, t.number, tr.emit)
	return t.added(source, tr, st, err)
}

// number returns the number of the next request read.
func (t *Table) number() int { return int(t.requests.Add(1)) }

// added adds the events of a request read, tr.events, with its stats.
func (t *Table) added(source string, tr *traceReader, st logs.Stats, err error) (int, error) {
	now := t.opt.Now()
	t.mu.Lock()
	t.batches++
	t.batch = t.batches
	for _, ev := range tr.events {
		t.add(source, ev, now)
	}
	if t.begun > 0 {
		t.sizeSessions((t.beginning + t.begun - 1) / t.begun)
	}
	t.batch, t.begun, t.beginning = 0, 0, 0
	t.counts.Malformed += st.Malformed
	t.counts.Received += st.Malformed
	t.counts.Unkinded += st.Unkinded
	t.mu.Unlock()
	if len(tr.events) > 4*maxBatch { // an outsized request: do not keep its room
		tr.events = nil
	}
	return st.Malformed, err
}

// maxBatch is the number of spans of a large OTLP request (the Collector's
// batch processor sends 8192).
const maxBatch = 8192
