package logs

import (
	"encoding/json"
	"io"
	"math"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/ivc-project/ivc/interaction"
)

// Jaeger's JSON model, as its UI downloads and its query API returns it
// ({"data": [trace, ...]}): only the fields ivc reads. Jaeger keeps these
// types internal, so no maintained package exports them.
type (
	jaegerSpan struct {
		TraceID       string         `json:"traceID"`
		SpanID        string         `json:"spanID"`
		OperationName string         `json:"operationName"`
		StartTime     json.Number    `json:"startTime"` // µs since the epoch
		Duration      duration       `json:"duration"`  // µs
		Tags          []jaegerTag    `json:"tags"`
		ProcessID     string         `json:"processID"`
		Process       *jaegerProcess `json:"process"` // older exports embed the process
		References    []jaegerRef    `json:"references"`
	}
	jaegerRef struct {
		RefType string `json:"refType"` // CHILD_OF (the parent) or FOLLOWS_FROM (a link)
		TraceID string `json:"traceID"`
		SpanID  string `json:"spanID"`
	}
	jaegerProcess struct {
		ServiceName string      `json:"serviceName"`
		Tags        []jaegerTag `json:"tags"`
	}
	jaegerTag struct {
		Key   string   `json:"key"`
		Type  string   `json:"type"`
		Value tagValue `json:"value"`
	}
)

// tagValue is a tag's value as text: a string's, or a number's or a
// boolean's JSON text (exact, for int64 values).
type tagValue string

func (v *tagValue) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = tagValue(s)
		return nil
	}
	*v = tagValue(b)
	return nil
}

// tag returns the value of the tag key as a string.
func tag(tags []jaegerTag, key string) (string, bool) {
	for _, t := range tags {
		if t.Key == key {
			return string(t.Value), true
		}
	}
	return "", false
}

// pendingSpan is a span read before its trace's processes.
type pendingSpan struct {
	span      jaegerSpan
	line, col int
}

// readJaeger reads Jaeger's JSON one trace at a time: {"data": [trace,
// ...]} (its query API, its UI's download, possibly with more keys), {"data":
// trace, "id", "state"} (its UI's state file), a bare trace {"traceID", "spans", "processes"}, or an array of traces, or
// several of these one after the other. A span's lifeline is its process's
// serviceName, its kind the tag span.kind (client and producer: emission;
// server and consumer: reception; others carry no action), its message by
// the naming rule (naming.go; its name is its operationName), and its start time (µs) orders its location. A syntax error ends the
// reading of the file: it is reported, and the events read before it are
// kept.
func readJaeger(b *builder, in io.Reader, line int, opt *Options) error {
	r := newSpanReader(b, opt)
	s := newJSONStream(b.file, in, line, opt.maxValue())
	for {
		t, err := s.token()
		if err == io.EOF {
			if err := r.flush(); err != nil {
				return err
			}
			return r.checkFound("Jaeger JSON", jaegerExpected)
		}
		if err != nil {
			if ferr := r.flush(); ferr != nil {
				return ferr
			}
			return b.stop(err)
		}
		r.docs++
		switch t {
		case json.Delim('{'):
			line, col := s.lc.pos(s.d.InputOffset() - 1)
			err = r.jaegerObject(s, line, col, true)
		case json.Delim('['):
			err = r.jaegerTraces(s)
		default:
			err = s.errorAt(s.d.InputOffset()-1, "expected Jaeger JSON (%s), found %v", jaegerExpected, t)
		}
		if err != nil {
			if ferr := r.flush(); ferr != nil {
				return ferr
			}
			return b.stop(err)
		}
	}
}

// jaegerTraces reads the traces of an array, up to its ']'.
func (r *spanReader) jaegerTraces(s *jsonStream) error {
	for s.d.More() {
		line, col, err := s.expect('{', "a trace object")
		if err != nil {
			return err
		}
		if err := r.jaegerObject(s, line, col, false); err != nil {
			return err
		}
	}
	_, _, err := s.expect(']', "']'")
	return err
}

// jaegerObject reads an object whose '{' was read at line:col, up to its
// '}': a trace, or, when envelope, {"data": [trace, ...]} as well. A
// trace's spans are kept until its processes are read when they come
// after them.
func (r *spanReader) jaegerObject(s *jsonStream, line, col int, envelope bool) error {
	var (
		raw       json.RawMessage
		traceID   string
		pending   []pendingSpan
		processes map[string]jaegerProcess
		trace     bool // a key of a trace was met
	)
	for s.d.More() {
		t, err := s.token()
		if err != nil {
			return err
		}
		switch t {
		case "data":
			if !envelope {
				break
			}
			// The query API and the UI's downloads hold an array of
			// traces, the UI's state file ({"data": trace, "id",
			// "state"}) one trace.
			off := s.d.InputOffset()
			t, err := s.token()
			switch {
			case err == io.EOF:
				return s.errorAt(off, "unexpected end of input, expected an array of traces or a trace")
			case err != nil:
				return err
			case t == json.Delim('['):
				err = r.jaegerTraces(s)
			case t == json.Delim('{'):
				tl, tc := s.lc.pos(s.d.InputOffset() - 1)
				err = r.jaegerObject(s, tl, tc, false)
			default:
				return s.errorAt(s.d.InputOffset()-1, "expected an array of traces or a trace, found %v", t)
			}
			if err != nil {
				return err
			}
			r.found++
			continue
		case "spans":
			trace = true
			if _, _, err := s.expect('[', "an array of spans"); err != nil {
				return err
			}
			for s.d.More() {
				sl, sc, err := s.value(&raw)
				if err != nil {
					return err
				}
				var sp jaegerSpan
				if err := json.Unmarshal(raw, &sp); err != nil {
					r.b.malformed(sl, sc, "invalid Jaeger span: %s", err)
					continue
				}
				p := pendingSpan{sp, sl, sc}
				if processes != nil || sp.Process != nil {
					if err := r.jaegerSpan(&p, traceID, processes, line, col); err != nil {
						return err
					}
					continue
				}
				if err := r.take(p.bytes(), sl, sc); err != nil {
					return err
				}
				pending = append(pending, p)
			}
			if _, _, err := s.expect(']', "']'"); err != nil {
				return err
			}
			continue
		case "processes":
			trace = true
			pl, pc, err := s.value(&raw)
			if err != nil {
				return err
			}
			if err := json.Unmarshal(raw, &processes); err != nil {
				r.b.malformed(pl, pc, "invalid Jaeger processes: %s", err)
			}
			if processes == nil {
				processes = map[string]jaegerProcess{}
			}
			continue
		case "traceID":
			trace = true
			tl, tc, err := s.value(&raw)
			if err != nil {
				return err
			}
			if err := json.Unmarshal(raw, &traceID); err != nil {
				r.b.malformed(tl, tc, "invalid Jaeger trace id: %s", err)
			}
			continue
		}
		if _, _, err := s.value(&raw); err != nil {
			return err
		}
	}
	if _, _, err := s.expect('}', "'}'"); err != nil {
		return err
	}
	if trace {
		r.found++
	}
	for _, p := range pending {
		r.heldBytes -= p.bytes()
		if err := r.jaegerSpan(&p, traceID, processes, line, col); err != nil {
			return err
		}
	}
	return nil
}

// bytes is about what a pending span holds.
func (p *pendingSpan) bytes() int64 {
	sp := &p.span
	n := int64(unsafe.Sizeof(*p)) + int64(len(sp.TraceID)+len(sp.SpanID)+len(sp.OperationName)+len(sp.StartTime)+len(sp.ProcessID))
	n += tagBytes(sp.Tags)
	for _, r := range sp.References {
		n += int64(unsafe.Sizeof(r)) + int64(len(r.RefType)+len(r.TraceID)+len(r.SpanID))
	}
	if sp.Process != nil {
		n += int64(unsafe.Sizeof(*sp.Process)) + int64(len(sp.Process.ServiceName)) + tagBytes(sp.Process.Tags)
	}
	return n
}

func tagBytes(tags []jaegerTag) int64 {
	n := int64(cap(tags)) * int64(unsafe.Sizeof(jaegerTag{}))
	for _, t := range tags {
		n += int64(len(t.Key) + len(t.Type) + len(t.Value))
	}
	return n
}

// jaegerSpan adds one span of a trace read at line:col.
func (r *spanReader) jaegerSpan(p *pendingSpan, traceID string, processes map[string]jaegerProcess, line, col int) error {
	sp := &p.span
	kindTag, _ := tag(sp.Tags, SpanKindTag)
	var kind SpanKind
	switch strings.ToLower(kindTag) {
	case "client":
		kind = SpanClient
	case "producer":
		kind = SpanProducer
	case "server":
		kind = SpanServer
	case "consumer":
		kind = SpanConsumer
	default:
		r.b.stats.Unkinded++
		return nil
	}
	id := sp.TraceID
	if id == "" {
		id = traceID
	}
	id = traceIDHex(id)
	if strings.ContainsRune(id, utf8.RuneError) {
		// encoding/json turned bytes that are not UTF-8 into U+FFFD: two
		// such ids could not be told apart.
		r.b.malformed(p.line, p.col, "span %q: trace id %q is not valid UTF-8", sp.SpanID, id)
		return nil
	}
	proc := sp.Process
	if proc == nil {
		pr, ok := processes[sp.ProcessID]
		if !ok {
			r.b.dropped([]byte(id), p.line, p.col, "span %q: process %q is not in the trace's processes (at %d:%d)", sp.SpanID, sp.ProcessID, line, col)
			return nil
		}
		proc = &pr
	}
	l, ok := r.lifeline(func(k string) (string, bool) {
		if k == ServiceName {
			return proc.ServiceName, true
		}
		return tag(proc.Tags, k)
	})
	if !ok {
		l, _ = tag(sp.Tags, r.lifelineAttr)
	}
	lookup := func(k string) (string, bool) { return tag(sp.Tags, k) }
	m := r.message(kind, lookup, sp.OperationName)
	start, err := sp.StartTime.Int64()
	if err != nil || start <= 0 || start > math.MaxInt64/1000 {
		r.b.dropped([]byte(id), p.line, p.col, "span %q: startTime %q is not a time (a positive integer of µs)", sp.SpanID, sp.StartTime)
		return nil
	}
	h := heldSpan{trace: id, spanID: spanRef{hex: strings.ToLower(sp.SpanID)}, line: p.line, col: p.col, l: l, m: m, kind: kind, start: start * 1000, end: spanEnd(start, sp.Duration, 1000)}
	if kind.Action() == interaction.Reception {
		for _, ref := range sp.References {
			if ref.SpanID == "" || ref.TraceID != "" && !strings.EqualFold(traceIDHex(ref.TraceID), id) {
				continue
			}
			if ref.RefType == "CHILD_OF" && h.parent.none() {
				h.parent = spanRef{hex: strings.ToLower(ref.SpanID)}
			} else {
				h.links = append(h.links, spanRef{hex: strings.ToLower(ref.SpanID)})
			}
		}
	}
	return r.hold(h)
}

// traceIDHex returns a Jaeger trace id as OTLP's are read: 32 lower-case
// hex digits. Jaeger writes a 64-bit id as 16 digits (the high half zero)
// and may write upper case: the same trace seen in an OTLP file and in a
// Jaeger file is one session. Any other id is kept as it is.
func traceIDHex(id string) string {
	if len(id) != 16 && len(id) != 32 {
		return id
	}
	lower := true
	for i := range len(id) {
		switch c := id[i]; {
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
		case 'A' <= c && c <= 'F':
			lower = false
		default:
			return id
		}
	}
	if len(id) == 32 && lower {
		return id
	}
	return strings.Repeat("0", 32-len(id)) + strings.ToLower(id)
}
