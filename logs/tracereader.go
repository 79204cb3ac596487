package logs

import (
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// TraceReader reads OTLP requests that an OTLP receiver has received
// (ReadProto) or decoded with pdata (Read) into events, as Scan reads an
// OTLP/JSON log: the same span →
// action mapping (Options.LifelineAttr, MessageAttr, Strict), the same
// malformed spans; without turning the request back into JSON. It pairs
// no span: the two spans of a call or a message come in one request or two
// as an exporter batches them, so each span that may have a partner comes
// with its SpanLink (Event.Link), and the assembly of its session pairs
// them all, once (session.Assembler). With Options.Strict, where a span's
// own message must be declared as it is read, the spans of one request are
// paired within it, as the spans of one file. A TraceReader is not safe for
// concurrent use: a receiver keeps one per goroutine (a sync.Pool).
type TraceReader struct {
	// LendLinks lends the events' links (Event.Link) the reader's storage
	// until its next Read or ReadProto, which reuses it: for a caller that
	// copies what it keeps of them (ivc monitor's session table), no
	// allocation for the links once the storage has grown to a request's.
	LendLinks bool
	b         *builder
	r         *spanReader
	e         emitter
}

// NewTraceReader returns a reader of the requests of the source name (for
// errors: "name:N: ...", N the request's number) against opt.Sig;
// malformed spans go to report (the first Options.MaxReports of a
// request, the others counted).
func NewTraceReader(name string, opt Options, report func(error)) (*TraceReader, error) {
	t := &TraceReader{e: emitter{}}
	b, err := newBuilder(name, &opt, report, &t.e)
	if err != nil {
		return nil, err
	}
	t.b, t.r = b, newSpanReader(b, &opt)
	t.r.pairLater = true
	return t, nil
}

// Read reads the spans of td, request number n of its source, and hands
// each event to emit, in the order read (Event.Line is n, Event.Index the
// rank in the request). Stats count the request's events.
func (t *TraceReader) Read(td ptrace.Traces, n int, emit func(Event)) (Stats, error) {
	return t.read(emit, func() error { return t.r.traces(td, nil, n, 0) })
}

// ReadProto reads the spans of b, an OTLP/protobuf request (an
// ExportTraceServiceRequest, as an OTLP receiver gets it), as Read reads
// them once pdata has decoded b, without decoding it with pdata (most
// requests: see otlpwire.go). number is called once, when the request
// holds a span, for its number (Event.Line); a request of no span reads
// nothing. A request that pdata cannot decode is a *ProtoError, of pdata's
// message, and none of its spans is read. b is not kept once ReadProto
// returns.
func (t *TraceReader) ReadProto(b []byte, number func() int, emit func(Event)) (Stats, error) {
	w := t.r.wireReader()
	if !w.decode(t.r, b) {
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(b); err != nil {
			return Stats{}, &ProtoError{Err: err}
		}
		td := req.Traces()
		if td.SpanCount() == 0 {
			return Stats{}, nil
		}
		return t.Read(td, number(), emit)
	}
	defer w.reset()
	if len(w.spans) == 0 {
		return Stats{}, nil
	}
	n := number()
	return t.read(emit, func() error { return t.r.addWire(w, nil, n, 0) })
}

// A ProtoError is an OTLP/protobuf request that does not decode: Err is
// pdata's error.
type ProtoError struct{ Err error }

func (e *ProtoError) Error() string { return e.Err.Error() }
func (e *ProtoError) Unwrap() error { return e.Err }

// maxLentLinks is the most links whose room a reader lending them keeps
// from one request to the next (1.4 MB; an exporter's batches are of up to
// 8,192 spans), so that a pooled reader holds no outsized room between
// requests, outside any memory bound.
const maxLentLinks = 1 << 14

// read reads one request's spans with add, and hands their events to emit.
func (t *TraceReader) read(emit func(Event), add func() error) (Stats, error) {
	t.e.emit = emit
	if t.e.lend = t.LendLinks; t.LendLinks {
		t.e.links = t.e.links[:0]
		if cap(t.e.links) > maxLentLinks {
			t.e.links = nil // an outsized request's room is not kept
		}
	}
	t.b.stats, t.b.index, t.b.hidden, t.r.over = Stats{}, 0, 0, false
	defer t.b.reportHidden()
	err := add()
	if err != nil {
		// Past the spans a file may hold (Options.MaxMemory): reported,
		// counted malformed, and the spans held dropped, as for a file.
		err = t.b.stop(err)
	}
	if ferr := t.r.flush(); err == nil {
		err = ferr
	}
	t.e.emit = nil
	return t.b.stats, err
}
