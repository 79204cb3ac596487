package logs

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"math"
	"regexp"

	"github.com/valyala/fastjson"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/syntax"
)

// Default attributes of the OpenTelemetry semantic conventions that name a
// span's lifeline and message, and the tag of a Jaeger span's kind.
const (
	ServiceName             = "service.name"
	MessagingDestination    = "messaging.destination.name"
	RPCMethod               = "rpc.method"
	SpanKindTag             = "span.kind"
	otlpResourceSpans       = "resourceSpans"
	otlpResourceSpansSnaked = "resource_spans"
)

// spanReader turns spans into events: a span of kind PRODUCER or CLIENT is
// the emission l!m, CONSUMER or SERVER the reception l?m, where l is its
// service and m the first of its candidate names that the signature
// declares (naming.go). INTERNAL
// and unspecified spans carry no action: they are not events, neither
// judged nor counted.
type spanReader struct {
	b                         *builder
	lifelineAttr, messageAttr string
	// docs counts the documents read (OTLP objects, Jaeger objects), found
	// those where the format's structure was (resource spans, traces): a
	// file with documents and none of its format's is not of that format.
	docs, found int
	held        heldSpans // the spans with an action, until flush
	heldBytes   int64     // what they, and Jaeger's pending spans, take
	maxHeld     int64     // the most they may take (0: no bound)
	maxName     int       // the longest name held as is
	over        bool      // past maxHeld: the reading stopped
	// pairLater leaves every span to be paired at its session's assembly
	// (TraceReader): none is paired here.
	pairLater bool
	// spans indexes held by trace and span id; paired, id, l and m are
	// which of held are paired, a session id's, a lifeline's and a
	// message's bytes: room kept from one span (or file) to the next.
	spans  spanIndex
	paired []bool   // which of held are paired
	link   SpanLink // of the span being added
	// otlpLinks and wire: room kept from one OTLP request (or part) to the
	// next, for a span's links and for the reading of protobuf bytes.
	otlpLinks []otlpLink
	wire      *protoWire
	id, l, m  []byte
	msgNames  *naming  // the naming of messages (naming.go)
	replies   *Options // the options, when they give replies (Options.Replies); else nil
}

// checkFound returns the error for a file whose documents hold none of
// the format's structure (and were not reported as malformed).
func (r *spanReader) checkFound(format, expected string) error {
	if r.docs > 0 && r.found == 0 && r.b.stats.Malformed == 0 {
		return fmt.Errorf("%s: no %s in the file: not %s (expected %s)", syntax.FileName(r.b.file), structureOf[format], format, expected)
	}
	return nil
}

var structureOf = map[string]string{"OTLP/JSON": "resource spans", "OTLP/protobuf": "resource spans", "Jaeger JSON": "traces",
	"Zipkin JSON": "spans", "stdouttrace JSON": "spans"}

// What readOTLP and readJaeger expect, for checkFound.
const (
	otlpExpected   = `{"resourceSpans": [...]} objects, one a line or over many lines; Jaeger's API v3 {"result": {"resourceSpans": [...]}}`
	jaegerExpected = `{"data": [trace, ...]}, a trace {"traceID", "spans", "processes"}, or an array of traces`
)

func newSpanReader(b *builder, opt *Options) *spanReader {
	maxName := maxNameLen
	if opt.Sig != nil {
		for _, names := range [][]string{opt.Sig.Lifelines, opt.Sig.Messages} {
			for _, n := range names {
				maxName = max(maxName, len(n))
			}
		}
	}
	r := &spanReader{b: b, lifelineAttr: opt.LifelineAttr, messageAttr: opt.MessageAttr, maxHeld: opt.MaxHeld(), maxName: maxName,
		msgNames: newNaming(b.messages)}
	if len(opt.Replies) > 0 {
		r.replies = opt
	}
	return r
}

// span adds one span: session id, action (l, k, m), start time (in
// nanoseconds since the Unix epoch), read at line:col. ok is false for a
// span that carries no action. The start is a time like an event log's
// RFC 3339 time, so that a location's spans and events order together.
func (r *spanReader) span(id []byte, line, col int, spanID spanRef, l string, k interaction.Kind, m string, start int64) error {
	r.l, r.m = append(r.l[:0], l...), append(r.m[:0], m...)
	act, ok, undeclared := r.b.action(id, line, r.l, k, r.m)
	if undeclared != "" {
		r.b.malformed(line, col, "span %q: %s", spanID.String(), undeclared)
		return nil
	}
	if !ok {
		return nil
	}
	return r.b.add(id, line, act, spanKey(start), spanID.Num())
}

// readOTLP reads OTLP/JSON traces as the OpenTelemetry Collector's own
// decoder (pdata) reads them, straight from their bytes where that reading
// is sure to read them alike (otlpjsonwire.go), with pdata elsewhere: one
// TracesData (or ExportTraceServiceRequest) object a line, as the
// Collector's file exporter writes them, or one object over many lines (or
// many such objects), read one resource at a time. The
// session of a span is its trace id (hex), and the order within a location
// is the spans' start times: a file need not be in time order.
func readOTLP(b *builder, lr *lineReader, opt *Options) error {
	r := newSpanReader(b, opt)
	for {
		first, ok := lr.peekLine()
		if !ok || len(bytes.TrimSpace(first)) > 0 {
			var err error
			if ok && json.Valid(first) {
				err = r.otlpLines(lr)
			} else {
				err = r.otlpStream(newJSONStream(b.file, lr.rest(), lr.line, lr.max))
			}
			if ferr := r.flush(); err == nil {
				err = ferr
			}
			if err != nil {
				return err
			}
			return r.checkFound("OTLP/JSON", otlpExpected)
		}
		if _, err := lr.next(); err != nil { // a blank line
			return nil
		}
	}
}

// otlpLines reads one OTLP object a line.
func (r *spanReader) otlpLines(lr *lineReader) error {
	var (
		u      ptrace.JSONUnmarshaler
		p      fastjson.Parser
		result []byte
	)
	for {
		line, err := lr.nextEvent(r.b)
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		r.docs++
		if w := r.wireReader(); w.decodeJSON(r, line, false) {
			r.found++
			err := r.addWire(w, line, lr.line, 1)
			w.reset()
			if err != nil {
				return r.b.stop(err)
			}
			continue
		}
		doc := line
		if bytes.Contains(line, []byte(`"result"`)) { // Jaeger's API v3 answers {"result": TracesData}
			if v, err := p.ParseBytes(line); err == nil && v.Get(otlpResourceSpans) == nil && v.Get(otlpResourceSpansSnaked) == nil {
				if res := v.Get("result"); res != nil && res.Type() == fastjson.TypeObject {
					result = res.MarshalTo(result[:0])
					doc = result
				}
			}
		}
		td, bad := decodeOTLP(&u, doc, nil, lr.line, 1)
		if bad != nil {
			if col, msg := jsonSyntaxError(line); msg != "" {
				bad = errorAt("", lr.line, col, "invalid OTLP/JSON: "+msg)
			}
			r.b.malformed(bad.Pos.Line, bad.Pos.Col, "%s", bad.Msg)
			continue
		}
		if td.ResourceSpans().Len() > 0 || bytes.Contains(line, []byte(otlpResourceSpans)) || bytes.Contains(line, []byte(otlpResourceSpansSnaked)) {
			r.found++
		}
		var at []byte // the spans' positions, in the line read
		col := 0
		if len(doc) > 0 && &doc[0] == &line[0] {
			at, col = line, 1
		}
		if err := r.traces(td, at, lr.line, col); err != nil {
			return r.b.stop(err)
		}
	}
}

// otlpStream reads OTLP objects that span lines, one resource (an element
// of "resourceSpans") at a time, so that memory follows the largest
// resource, not the file. A syntax error ends the reading of the file: it
// is reported, and the events read before it are kept.
func (r *spanReader) otlpStream(s *jsonStream) error {
	var u ptrace.JSONUnmarshaler
	var raw json.RawMessage
	var wrapped []byte
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
		r.docs++
		if err := r.otlpKeys(s, &u, &raw, &wrapped, true); err != nil {
			return r.b.stop(err)
		}
	}
}

// otlpKeys reads the keys of an OTLP object, after its '{', up to its '}'
// included: the resource spans of "resourceSpans", and, when top, the
// object of "result" (Jaeger's API v3 answers {"result": TracesData});
// other keys are skipped.
func (r *spanReader) otlpKeys(s *jsonStream, u *ptrace.JSONUnmarshaler, raw *json.RawMessage, wrapped *[]byte, top bool) error {
	for s.d.More() {
		t, err := s.token()
		if err != nil {
			return err
		}
		if t == "result" && top {
			if _, _, err := s.expect('{', "an OTLP object (TracesData)"); err != nil {
				return err
			}
			if err := r.otlpKeys(s, u, raw, wrapped, false); err != nil {
				return err
			}
			continue
		}
		if t != otlpResourceSpans && t != otlpResourceSpansSnaked && !(t == "batches" && top) {
			if _, _, err := s.value(raw); err != nil {
				return err
			}
			continue
		}
		r.found++
		if _, _, err := s.expect('[', "an array of resource spans"); err != nil {
			return err
		}
		for s.d.More() {
			line, col, err := s.value(raw)
			if err != nil {
				return err
			}
			if w := r.wireReader(); w.decodeJSON(r, *raw, true) {
				err := r.addWire(w, *raw, line, col)
				w.reset()
				if err != nil {
					return err
				}
				continue
			}
			td, bad := decodeOTLP(u, *raw, wrapped, line, col)
			if bad != nil {
				r.b.malformed(bad.Pos.Line, bad.Pos.Col, "%s", bad.Msg)
				continue
			}
			if err := r.traces(td, *raw, line, col); err != nil {
				return err
			}
		}
		if _, _, err := s.expect(']', "']'"); err != nil {
			return err
		}
	}
	if _, _, err := s.expect('}', "'}'"); err != nil {
		return err
	}
	return nil
}

// decodeOTLP decodes doc, read at line:col, with pdata: a TracesData
// object, or with wrapped one of its resource spans (wrapped is then the
// buffer of the object made of it). OTLP/JSON writes ids in hex, proto3's
// canonical JSON (Python's MessageToJson, Tempo) in base64: when pdata
// refuses doc, its base64 ids are turned into hex and it is decoded again;
// an id that is neither gets an error at its position. A document of no
// span is read again with the names of OTLP before 1.0 and Tempo's
// (otlpLegacy); still of no span, resource spans that hold a field OTLP
// does not know are an error, so that no file is read as nothing
// silently.
func decodeOTLP(u *ptrace.JSONUnmarshaler, doc []byte, wrapped *[]byte, line, col int) (ptrace.Traces, *syntax.Error) {
	what := "invalid OTLP/JSON: "
	if wrapped != nil {
		what = "invalid OTLP/JSON resource spans: "
	}
	decode := func(u *ptrace.JSONUnmarshaler, doc []byte) (ptrace.Traces, error) {
		if wrapped == nil {
			return u.UnmarshalTraces(doc)
		}
		*wrapped = append(append(append((*wrapped)[:0], `{"resourceSpans":[`...), doc...), "]}"...)
		return u.UnmarshalTraces(*wrapped)
	}
	// decodeIDs decodes doc, its base64 ids in hex if need be.
	decodeIDs := func(doc []byte) (ptrace.Traces, *syntax.Error) {
		td, err := decode(u, doc)
		if err == nil {
			return td, nil
		}
		hexed, at, msg := hexIDs(doc)
		if msg != "" {
			l, c := posIn(doc, at, line, col)
			return ptrace.Traces{}, errorAt("", l, c, what+msg)
		}
		if hexed != nil {
			if td, err := decode(u, hexed); err == nil {
				return td, nil
			}
		}
		return ptrace.Traces{}, errorAt("", line, col, what+err.Error())
	}
	td, bad := decodeIDs(doc)
	if bad != nil || td.SpanCount() > 0 {
		return td, bad
	}
	if legacy := otlpLegacy(doc); legacy != nil {
		if td, bad = decodeIDs(legacy); bad != nil || td.SpanCount() > 0 {
			return td, bad
		}
		doc = legacy
	}
	if td.ResourceSpans().Len() == 0 {
		return td, nil // no OTLP at all: the file says so (checkFound)
	}
	strict := ptrace.JSONUnmarshaler{DisallowUnknownFields: true}
	if _, err := decode(&strict, doc); err != nil {
		if m := unknownField.FindSubmatch([]byte(err.Error())); m != nil {
			at := keyOffset(doc, string(m[1]))
			l, c := posIn(doc, max(at, 0), line, col)
			return ptrace.Traces{}, errorAt("", l, c, fmt.Sprintf("no span read: field %q is not OTLP/JSON's", m[1]))
		}
	}
	return td, nil
}

// unknownField finds the field that pdata's strict decoding names.
var unknownField = regexp.MustCompile(`unknown field "((?:[^"\\]|\\.)*)"`)

// otlpLegacy returns doc with the names of OTLP before 1.0 (0.15 to 0.18:
// instrumentationLibrarySpans, instrumentationLibrary) and Tempo's API
// (batches: its resource spans) written as today's, or nil when it has
// none.
func otlpLegacy(doc []byte) []byte {
	if !bytes.Contains(doc, []byte("nstrumentation")) && !bytes.Contains(doc, []byte(`"batches"`)) {
		return nil
	}
	return renameKeys(doc, otlpLegacyNames)
}

var otlpLegacyNames = map[string]string{
	"batches":                       otlpResourceSpans,
	"instrumentationLibrarySpans":   "scopeSpans",
	"instrumentation_library_spans": "scope_spans",
	"instrumentationLibrary":        "scope",
	"instrumentation_library":       "scope",
}

// renameKeys returns doc, a JSON text, with the keys of its objects that
// names renames written as names says, or nil when it has none.
func renameKeys(doc []byte, names map[string]string) []byte {
	var out []byte
	last := 0
	for i, j := range jsonKeys(doc) {
		if name, ok := names[string(doc[i+1:j])]; ok {
			out = append(append(out, doc[last:i+1]...), name...)
			last = j
		}
	}
	if out == nil {
		return nil
	}
	return append(out, doc[last:]...)
}

// keyOffset returns the offset in doc of the first key named key, -1 when
// there is none.
func keyOffset(doc []byte, key string) int {
	for i, j := range jsonKeys(doc) {
		if string(doc[i+1:j]) == key {
			return i
		}
	}
	return -1
}

// jsonKeys yields the keys of the objects of doc, a JSON text, whatever
// their depth, as the offsets of their opening and closing quotes: a
// string followed by ':' is a key.
func jsonKeys(doc []byte) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(doc); i++ {
			if doc[i] != '"' {
				continue
			}
			j := i + 1
			for j < len(doc) && doc[j] != '"' {
				if doc[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(doc) {
				return
			}
			k := j + 1
			for k < len(doc) && (doc[k] == ' ' || doc[k] == '\t' || doc[k] == '\r' || doc[k] == '\n') {
				k++
			}
			if k < len(doc) && doc[k] == ':' && !yield(i, j) {
				return
			}
			i = j
		}
	}
}

// otlpID matches an id of OTLP/JSON: its key, and its string value.
var otlpID = regexp.MustCompile(`"(traceId|spanId|parentSpanId|trace_id|span_id|parent_span_id)"\s*:\s*"([^"\\]*)"`)

// hexIDs returns doc with its ids in base64 written in hex, or nil when
// none is; msg, when an id is neither (at offset at of doc).
func hexIDs(doc []byte) (hexed []byte, at int, msg string) {
	var out []byte
	last := 0
	for _, m := range otlpID.FindAllSubmatchIndex(doc, -1) {
		key, v := doc[m[2]:m[3]], doc[m[4]:m[5]]
		n := 8
		if bytes.HasPrefix(key, []byte("trace")) {
			n = 16
		}
		if len(v) == 0 || isHex(v, n) {
			continue
		}
		id, ok := base64ID(v, n)
		if !ok {
			return nil, m[4] - 1, fmt.Sprintf("%s %q is neither %d hexadecimal digits nor the base64 of %d bytes", key, v, 2*n, n)
		}
		out = append(out, doc[last:m[4]]...)
		out = hex.AppendEncode(out, id)
		last = m[5]
	}
	if out == nil {
		return nil, 0, ""
	}
	return append(out, doc[last:]...), 0, ""
}

func isHex(v []byte, n int) bool {
	if len(v) != 2*n {
		return false
	}
	for _, c := range v {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// base64ID decodes v, the base64 of n bytes (standard or URL alphabet,
// padded or not).
func base64ID(v []byte, n int) ([]byte, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if id, err := enc.AppendDecode(nil, v); err == nil && len(id) == n {
			return id, true
		}
	}
	return nil, false
}

// posIn returns the line and column of offset off of doc, which starts at
// line:col.
func posIn(doc []byte, off, line, col int) (int, int) {
	before := doc[:off]
	if k := bytes.Count(before, []byte{'\n'}); k > 0 {
		return line + k, off - bytes.LastIndexByte(before, '\n')
	}
	return line, col + off
}

// spanKeys finds the spans of an OTLP/JSON document in the order pdata
// decodes them, so that what names a span (an error, the origin of its
// event) gives its own position, not its resource's: a span's position is
// that of its "spanId" key, which the keys of its links follow.
type spanKeys struct {
	doc            []byte
	off, line, col int // where the search is: an offset of doc and its line:col
	// listed: the offsets of the keys are offs, in order, found as the
	// document was read (jsonScan): no search.
	listed bool
	offs   []int
}

// next returns the position of the next span, which has links links
// (whose keys it skips), and false when doc holds no more span ids.
func (k *spanKeys) next(links int) (line, col int, ok bool) {
	for i := 0; i <= links; i++ {
		// One pass: "span, then Id" or _id" (two searches would each scan
		// the rest of the document for a key it does not have).
		rest, at := k.doc[k.off:], 0
		if k.listed {
			if len(k.offs) == 0 {
				return 0, 0, false
			}
			at, k.offs = k.offs[0]-k.off, k.offs[1:]
		} else {
			for {
				j := bytes.Index(rest[at:], []byte(`"span`))
				if j < 0 {
					return 0, 0, false
				}
				at += j
				if key := rest[at+5:]; bytes.HasPrefix(key, []byte(`Id"`)) || bytes.HasPrefix(key, []byte(`_id"`)) {
					break
				}
				at++
			}
		}
		k.line, k.col = posIn(rest[:at], at, k.line, k.col)
		k.off += at + 1
		if i == 0 {
			line, col = k.line, k.col
		}
		k.col++ // past the quote
	}
	return line, col, true
}

// traces adds the spans of td, read at line:col from doc (nil when the
// spans cannot be found in it: each is then at line:col).
func (r *spanReader) traces(td ptrace.Traces, doc []byte, line, col int) error {
	keys := spanKeys{doc: doc, line: line, col: col}
	lifelineKey := r.lifelineKey()
	var th traceHex
	rss := td.ResourceSpans()
	for i := range rss.Len() {
		rs := rss.At(i)
		res := rs.Resource().Attributes()
		resLifeline, resHas := r.lifeline(func(k string) (string, bool) { return attr(res, k) })
		sss := rs.ScopeSpans()
		for j := range sss.Len() {
			spans := sss.At(j).Spans()
			for k := range spans.Len() {
				sp := spans.At(k)
				line, col := line, col
				if doc != nil {
					if l, c, ok := keys.next(sp.Links().Len()); ok {
						line, col = l, c
					} else {
						doc = nil
					}
				}
				kind, ok := otlpKind(sp.Kind())
				if !ok {
					r.b.stats.Unkinded++
					continue
				}
				l := resLifeline
				if !resHas {
					l, _ = attr(sp.Attributes(), lifelineKey)
				}
				lookup := func(k string) (string, bool) { return attr(sp.Attributes(), k) }
				s := otlpSpan{trace: sp.TraceID(), id: sp.SpanID(), parent: sp.ParentSpanID(),
					start: uint64(sp.StartTimestamp()), end: uint64(sp.EndTimestamp()),
					kind: kind, l: l, m: r.message(kind, lookup, sp.Name())}
				if kind.Action() == interaction.Reception {
					links := sp.Links()
					r.otlpLinks = r.otlpLinks[:0]
					for n := range links.Len() {
						ln := links.At(n)
						r.otlpLinks = append(r.otlpLinks, otlpLink{trace: ln.TraceID(), span: ln.SpanID()})
					}
					s.links = r.otlpLinks
				}
				if err := r.addOTLP(&s, &th, line, col); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// lifelineKey is the attribute of a span that names its lifeline when its
// resource does not.
func (r *spanReader) lifelineKey() string {
	if r.lifelineAttr != "" {
		return r.lifelineAttr
	}
	return ServiceName
}

// otlpSpan is what traces maps of a span with an action kind, whether
// pdata decoded it or it was read from its protobuf bytes (otlpwire.go):
// its ids, times, kind, lifeline and message, and its links (those of a
// span that receives, for its partner).
type otlpSpan struct {
	trace      pcommon.TraceID
	id, parent pcommon.SpanID
	start, end uint64 // as OTLP writes them: unsigned nanoseconds
	kind       SpanKind
	l, m       string
	links      []otlpLink
}

// otlpLink is a span's link: the trace and span it points to.
type otlpLink struct {
	trace pcommon.TraceID
	span  pcommon.SpanID
}

// otlpKind returns the kind of a span of OTLP kind k, false for INTERNAL
// and unspecified spans, which carry no action.
func otlpKind(k ptrace.SpanKind) (SpanKind, bool) {
	switch k {
	case ptrace.SpanKindClient:
		return SpanClient, true
	case ptrace.SpanKindProducer:
		return SpanProducer, true
	case ptrace.SpanKindServer:
		return SpanServer, true
	case ptrace.SpanKindConsumer:
		return SpanConsumer, true
	}
	return 0, false
}

// traceHex is the session id of the spans read last, the hex of their
// trace id: a trace's spans come together, one string for them.
type traceHex struct {
	last pcommon.TraceID
	str  string
}

// addOTLP holds s, read at line:col, or drops it when its start is not a
// time.
func (r *spanReader) addOTLP(s *otlpSpan, th *traceHex, line, col int) error {
	trace := ""
	if !s.trace.IsEmpty() {
		if s.trace != th.last || th.str == "" {
			th.last, th.str = s.trace, hex.EncodeToString(s.trace[:])
		}
		trace = th.str
	}
	if s.start == 0 || s.start > math.MaxInt64 {
		// Read as is, it would put the span first (or last) and
		// change the verdict silently.
		var id []byte
		if trace != "" {
			id = []byte(trace)
		}
		r.b.dropped(id, line, col, "span %q: startTimeUnixNano %d is not a time (missing, or past 2^63-1 ns)", s.id.String(), s.start)
		return nil
	}
	h := heldSpan{trace: trace, spanID: otlpRef(s.id), parent: otlpRef(s.parent),
		line: line, col: col, l: s.l, m: s.m, kind: s.kind, start: int64(s.start)}
	if s.end >= s.start && s.end <= math.MaxInt64 {
		h.end = int64(s.end)
	}
	if s.kind.Action() == interaction.Reception {
		for _, ln := range s.links {
			if ln.trace == s.trace {
				h.links = append(h.links, otlpRef(ln.span))
			}
		}
	}
	return r.hold(h)
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
