package logs

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/interaction"
)

// Default attributes of the OpenTelemetry semantic conventions that name a
// span's lifeline and message.
const (
	ServiceName             = "service.name"
	MessagingDestination    = "messaging.destination.name"
	RPCMethod               = "rpc.method"
	defaultSpanKindTag      = "span.kind" // Jaeger
	otlpResourceSpans       = "resourceSpans"
	otlpResourceSpansSnaked = "resource_spans"
)

// spanReader turns spans into events: a span of kind PRODUCER or CLIENT is
// the emission l!m, CONSUMER or SERVER the reception l?m, where l is its
// service and m its messaging destination, RPC method or name. INTERNAL
// and unspecified spans carry no action: they are not events, neither
// judged nor counted.
type spanReader struct {
	b                         *builder
	lifelineAttr, messageAttr string
}

func newSpanReader(b *builder, opt *Options) *spanReader {
	return &spanReader{b: b, lifelineAttr: opt.LifelineAttr, messageAttr: opt.MessageAttr}
}

// span adds one span: session id, action (l, k, m), start time (in
// nanoseconds since the Unix epoch), read at line:col. ok is false for a
// span that carries no action. The start is a time like an event log's
// RFC 3339 time, so that a location's spans and events order together.
func (r *spanReader) span(id []byte, line, col int, spanID string, l string, k interaction.Kind, m string, start int64) error {
	act, ok, undeclared := r.b.action(id, line, []byte(l), k, []byte(m))
	if undeclared != "" {
		r.b.malformed(line, col, "span %s: %s", spanID, undeclared)
		return nil
	}
	if !ok {
		return nil
	}
	sec, nsec := start/1e9, start%1e9
	if nsec < 0 {
		sec, nsec = sec-1, nsec+1e9
	}
	return r.b.add(id, line, act, orderKey{kind: keyTime, hi: sec, lo: uint32(nsec)})
}

// readOTLP reads OTLP/JSON traces with the OpenTelemetry Collector's own
// decoder (pdata): one TracesData (or ExportTraceServiceRequest) object a
// line, as the Collector's file exporter writes them, or one object over
// many lines (or many such objects), read one resource at a time. The
// session of a span is its trace id (hex), and the order within a location
// is the spans' start times: a file need not be in time order.
func readOTLP(b *builder, lr *lineReader, opt *Options) error {
	r := newSpanReader(b, opt)
	for {
		first, ok := lr.peekLine()
		if !ok || len(bytes.TrimSpace(first)) > 0 {
			if ok && json.Valid(first) {
				return r.otlpLines(lr)
			}
			return r.otlpStream(newJSONStream(b.file, lr.rest(), lr.line))
		}
		if _, err := lr.next(); err != nil { // a blank line
			return nil
		}
	}
}

// otlpLines reads one OTLP object a line.
func (r *spanReader) otlpLines(lr *lineReader) error {
	var u ptrace.JSONUnmarshaler
	for {
		line, err := lr.nextEvent(r.b)
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		td, err := u.UnmarshalTraces(line)
		if err != nil {
			col, msg := jsonSyntaxError(line)
			if msg == "" {
				msg = err.Error()
			}
			r.b.malformed(lr.line, col, "invalid OTLP/JSON: %s", msg)
			continue
		}
		if err := r.traces(td, lr.line, 0); err != nil {
			return err
		}
	}
}

// otlpStream reads OTLP objects that span lines, one resource (an element
// of "resourceSpans") at a time, so that memory follows the largest
// resource, not the file. A syntax error ends the reading of the file: it
// is reported, and the events read before it are kept.
func (r *spanReader) otlpStream(s *jsonStream) error {
	var u ptrace.JSONUnmarshaler
	var raw, wrapped json.RawMessage
	for {
		t, err := s.token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return r.b.stop(err)
		}
		if t != json.Delim('{') {
			return r.b.stop(s.errorAt(s.d.InputOffset()-1, "expected an OTLP object (TracesData), found %v", t))
		}
		for s.d.More() {
			t, err := s.token()
			if err != nil {
				return r.b.stop(err)
			}
			if t != otlpResourceSpans && t != otlpResourceSpansSnaked {
				if _, _, err := s.value(&raw); err != nil {
					return r.b.stop(err)
				}
				continue
			}
			if _, _, err := s.expect('[', "an array of resource spans"); err != nil {
				return r.b.stop(err)
			}
			for s.d.More() {
				line, col, err := s.value(&raw)
				if err != nil {
					return r.b.stop(err)
				}
				wrapped = append(append(append(wrapped[:0], `{"resourceSpans":[`...), raw...), "]}"...)
				td, err := u.UnmarshalTraces(wrapped)
				if err != nil {
					r.b.malformed(line, col, "invalid OTLP/JSON resource spans: %s", err)
					continue
				}
				if err := r.traces(td, line, col); err != nil {
					return err
				}
			}
			if _, _, err := s.expect(']', "']'"); err != nil {
				return r.b.stop(err)
			}
		}
		if _, _, err := s.expect('}', "'}'"); err != nil {
			return r.b.stop(err)
		}
	}
}

// traces adds the spans of td, read at line:col.
func (r *spanReader) traces(td ptrace.Traces, line, col int) error {
	lifelineKey := ServiceName
	if r.lifelineAttr != "" {
		lifelineKey = r.lifelineAttr
	}
	var idBuf [32]byte
	rss := td.ResourceSpans()
	for i := range rss.Len() {
		rs := rss.At(i)
		resLifeline, resHas := attr(rs.Resource().Attributes(), lifelineKey)
		sss := rs.ScopeSpans()
		for j := range sss.Len() {
			spans := sss.At(j).Spans()
			for k := range spans.Len() {
				sp := spans.At(k)
				var kind interaction.Kind
				switch sp.Kind() {
				case ptrace.SpanKindProducer, ptrace.SpanKindClient:
					kind = interaction.Emission
				case ptrace.SpanKindConsumer, ptrace.SpanKindServer:
					kind = interaction.Reception
				default:
					continue
				}
				l := resLifeline
				if !resHas {
					l, _ = attr(sp.Attributes(), lifelineKey)
				}
				m := r.message(func(k string) (string, bool) { return attr(sp.Attributes(), k) }, sp.Name())
				var id []byte
				if tid := sp.TraceID(); !tid.IsEmpty() {
					id = idBuf[:hex.Encode(idBuf[:], tid[:])]
				}
				if err := r.span(id, line, col, sp.SpanID().String(), l, kind, m, int64(sp.StartTimestamp())); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// message returns the message of a span: MessageAttr's value if set and
// present, else messaging.destination.name's or rpc.method's, else name;
// lookup reads an attribute (OTLP) or a tag (Jaeger) of the span.
func (r *spanReader) message(lookup func(key string) (string, bool), name string) string {
	keys := []string{MessagingDestination, RPCMethod}
	if r.messageAttr != "" {
		keys = []string{r.messageAttr}
	}
	for _, k := range keys {
		if m, ok := lookup(k); ok {
			return m
		}
	}
	return name
}

// attr returns the value of an attribute as a string.
func attr(attrs pcommon.Map, key string) (string, bool) {
	v, ok := attrs.Get(key)
	if !ok {
		return "", false
	}
	if v.Type() == pcommon.ValueTypeStr {
		return v.Str(), true
	}
	return v.AsString(), true
}
