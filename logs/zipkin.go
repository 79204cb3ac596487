package logs

import (
	"encoding/json"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/ivc-project/ivc/interaction"
)

// Zipkin's v2 JSON model, as its API returns it (/api/v2/trace/{id}: an
// array of spans) and its UI uploads it: only the fields ivc reads.
type (
	zipkinSpan struct {
		TraceID       string              `json:"traceId"`
		ID            string              `json:"id"`
		ParentID      string              `json:"parentId"`
		Kind          string              `json:"kind"` // CLIENT, SERVER, PRODUCER, CONSUMER; absent: local work
		Name          string              `json:"name"`
		Timestamp     json.Number         `json:"timestamp"` // µs since the epoch
		Duration      duration            `json:"duration"`  // µs
		LocalEndpoint *zipkinEndpoint     `json:"localEndpoint"`
		Tags          map[string]tagValue `json:"tags"`
		// Shared marks the SERVER half of an RPC whose CLIENT half has the
		// same id (Zipkin's B3 propagation by default): one call, two
		// halves, no duplicate.
		Shared bool `json:"shared"`
	}
	zipkinEndpoint struct {
		ServiceName string `json:"serviceName"`
	}
)

// What readZipkin expects, for checkFound.
const zipkinExpected = `an array of spans {"traceId", "id", "kind", "localEndpoint": {"serviceName"}, "timestamp", ...}, or spans one after the other`

// readZipkin reads Zipkin's v2 JSON one span at a time: an array of spans,
// several arrays, or spans one after the other. A span's lifeline is its
// localEndpoint's serviceName (absent, the lifeline "", which no signature
// declares: the span is ignored and counted, as an OTLP span without
// service.name), its kind CLIENT or PRODUCER an emission, SERVER or
// CONSUMER a reception (absent: local work, not an event), its message by
// the naming rule (naming.go, on its tags), and its
// timestamp (µs) orders its location. A SERVER span pairs with the CLIENT
// span it shares its id with (shared), or else with its parent, as OTLP's
// do. A syntax error ends the reading of the file: it is reported, and the
// events read before it are kept.
func readZipkin(b *builder, in io.Reader, line int, opt *Options) error {
	r := newSpanReader(b, opt)
	s := newJSONStream(b.file, in, line, opt.maxValue())
	err := s.objects("Zipkin JSON ("+zipkinExpected+")", r.zipkinSpan)
	if ferr := r.flush(); ferr != nil {
		return ferr
	}
	if err != nil {
		return b.stop(err)
	}
	return r.checkFound("Zipkin JSON", zipkinExpected)
}

// zipkinSpan adds the span raw, read at line:col.
func (r *spanReader) zipkinSpan(raw json.RawMessage, line, col int) error {
	r.docs++
	var sp zipkinSpan
	if err := json.Unmarshal(raw, &sp); err != nil {
		r.b.malformed(line, col, "invalid Zipkin span: %s", err)
		return nil
	}
	if sp.TraceID == "" {
		r.b.malformed(line, col, "Zipkin span %q: no traceId", sp.ID)
		return nil
	}
	r.found++
	var kind SpanKind
	switch strings.ToUpper(sp.Kind) {
	case "CLIENT":
		kind = SpanClient
	case "PRODUCER":
		kind = SpanProducer
	case "SERVER":
		kind = SpanServer
	case "CONSUMER":
		kind = SpanConsumer
	default:
		r.b.stats.Unkinded++
		return nil
	}
	id := traceIDHex(sp.TraceID)
	if strings.ContainsRune(id, utf8.RuneError) {
		r.b.malformed(line, col, "span %q: trace id %q is not valid UTF-8", sp.ID, id)
		return nil
	}
	lookup := func(k string) (string, bool) {
		v, ok := sp.Tags[k]
		return string(v), ok
	}
	var l string
	if r.lifelineAttr != "" {
		l, _ = lookup(r.lifelineAttr)
	} else if sp.LocalEndpoint != nil {
		l = sp.LocalEndpoint.ServiceName
	}
	m := r.message(kind, lookup, sp.Name)
	start, err := sp.Timestamp.Int64()
	if err != nil || start <= 0 || start > math.MaxInt64/1000 {
		r.b.dropped([]byte(id), line, col, "span %q: timestamp %q is not a time (a positive integer of µs)", sp.ID, sp.Timestamp)
		return nil
	}
	h := heldSpan{trace: id, spanID: spanRef{hex: strings.ToLower(sp.ID)}, parent: spanRef{hex: strings.ToLower(sp.ParentID)},
		line: line, col: col, l: l, m: m, kind: kind, start: start * 1000, end: spanEnd(start, sp.Duration, 1000)}
	if kind.Action() == interaction.Reception {
		if sp.Shared && kind == SpanServer {
			h.parent = h.spanID // its partner is the CLIENT half of the same id
		}
	}
	return r.hold(h)
}
