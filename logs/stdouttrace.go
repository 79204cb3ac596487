package logs

import (
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/ivc-project/ivc/interaction"
)

// The spans of the OpenTelemetry Go SDK's stdouttrace exporter (what the
// Go getting-started guide prints), one JSON object a span, pretty-printed
// or not, one after the other: the Go SDK's tracetest.SpanStub, of which
// only the fields ivc reads.
type (
	stdoutSpan struct {
		Name        string
		SpanContext stdoutSpanContext
		Parent      stdoutSpanContext
		SpanKind    int    // the Go SDK's trace.SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer
		StartTime   string // RFC 3339, in nanoseconds
		EndTime     string
		Attributes  []stdoutKeyValue
		Links       []struct{ SpanContext stdoutSpanContext }
		Resource    []stdoutKeyValue
	}
	stdoutSpanContext struct{ TraceID, SpanID string }
	stdoutKeyValue    struct {
		Key   string
		Value struct{ Value tagValue }
	}
)

// What readStdouttrace expects, for checkFound.
const stdoutExpected = `spans {"Name", "SpanContext", "Parent", "SpanKind", "StartTime", "Resource", ...} one after the other, as the Go SDK's stdouttrace writes them`

// readStdouttrace reads the Go SDK's stdouttrace spans one at a time. A
// span's lifeline is its resource's service.name, its kind SpanKind (3
// client and 4 producer: emission; 2 server and 5 consumer: reception;
// others carry no action), its message by the naming rule (naming.go),
// and its
// StartTime orders its location; spans pair as OTLP's do (Parent, Links).
// A syntax error ends the reading of the file: it is reported, and the
// events read before it are kept.
func readStdouttrace(b *builder, in io.Reader, line int, opt *Options) error {
	r := newSpanReader(b, opt)
	s := newJSONStream(b.file, in, line, opt.maxValue())
	err := s.objects("stdouttrace JSON ("+stdoutExpected+")", r.stdoutSpan)
	if ferr := r.flush(); ferr != nil {
		return ferr
	}
	if err != nil {
		return b.stop(err)
	}
	return r.checkFound("stdouttrace JSON", stdoutExpected)
}

// stdoutSpan adds the span raw, read at line:col.
func (r *spanReader) stdoutSpan(raw json.RawMessage, line, col int) error {
	r.docs++
	var sp stdoutSpan
	if err := json.Unmarshal(raw, &sp); err != nil {
		r.b.malformed(line, col, "invalid stdouttrace span: %s", err)
		return nil
	}
	if sp.SpanContext.TraceID == "" {
		r.b.malformed(line, col, "stdouttrace span %q: no SpanContext.TraceID", sp.Name)
		return nil
	}
	r.found++
	var kind SpanKind
	switch sp.SpanKind {
	case 3:
		kind = SpanClient
	case 4:
		kind = SpanProducer
	case 2:
		kind = SpanServer
	case 5:
		kind = SpanConsumer
	default:
		r.b.stats.Unkinded++
		return nil
	}
	id := traceIDHex(sp.SpanContext.TraceID)
	if !isHex([]byte(id), 16) {
		r.b.malformed(line, col, "span %q: SpanContext.TraceID %q is not 32 hexadecimal digits", sp.SpanContext.SpanID, sp.SpanContext.TraceID)
		return nil
	}
	lifelineKey := ServiceName
	if r.lifelineAttr != "" {
		lifelineKey = r.lifelineAttr
	}
	l, ok := r.lifeline(func(k string) (string, bool) { return keyValue(sp.Resource, k) })
	if !ok {
		l, _ = keyValue(sp.Attributes, lifelineKey)
	}
	lookup := func(k string) (string, bool) { return keyValue(sp.Attributes, k) }
	m := r.message(kind, lookup, sp.Name)
	start, err := time.Parse(time.RFC3339Nano, sp.StartTime)
	if err != nil || start.UnixNano() <= 0 {
		r.b.dropped([]byte(id), line, col, "span %q: StartTime %q is not a time (RFC 3339, after 1970)", sp.SpanContext.SpanID, sp.StartTime)
		return nil
	}
	h := heldSpan{trace: id, spanID: spanRef{hex: stdoutSpanID(sp.SpanContext.SpanID)}, parent: spanRef{hex: stdoutSpanID(sp.Parent.SpanID)},
		line: line, col: col, l: l, m: m, kind: kind, start: start.UnixNano()}
	if end, err := time.Parse(time.RFC3339Nano, sp.EndTime); err == nil && end.UnixNano() >= h.start {
		h.end = end.UnixNano()
	}
	if kind.Action() == interaction.Reception {
		for _, ln := range sp.Links {
			if strings.EqualFold(traceIDHex(ln.SpanContext.TraceID), id) {
				if lid := stdoutSpanID(ln.SpanContext.SpanID); lid != "" {
					h.links = append(h.links, spanRef{hex: lid})
				}
			}
		}
	}
	return r.hold(h)
}

// stdoutSpanID returns a span id in lower-case hex, "" for none (the Go
// SDK writes an absent parent as zeros).
func stdoutSpanID(id string) string {
	if strings.Trim(id, "0") == "" {
		return ""
	}
	return strings.ToLower(id)
}

// keyValue returns the value of key in kvs, as text.
func keyValue(kvs []stdoutKeyValue, key string) (string, bool) {
	for _, kv := range kvs {
		if kv.Key == key {
			return string(kv.Value.Value), true
		}
	}
	return "", false
}
