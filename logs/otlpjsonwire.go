package logs

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"math"
	"strconv"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// An OTLP/JSON document (a TracesData object, or one element of its
// "resourceSpans") is read straight from its bytes as an OTLP/protobuf
// request is (otlpwire.go): pass 1, decodeJSON, walks the text and fills
// the same room (protoWire) with the spans, their attributes and links, as
// slices of the text; passes 2 and 3, names and addWire, are those of the
// protobuf reading, each span at the position spanKeys gives it in the
// text, as traces gives it (the offsets of the keys it finds are listed in
// pass 1, so that it need not search them).
//
// The reading is strict where pdata (its generated UnmarshalJSON methods
// over json-iterator, pdata/internal/json) is lenient or reads in its own
// way: whenever the text is anything but what both surely read alike,
// decodeJSON returns false before anything is added and the caller decodes
// the document with pdata (decodeOTLP), as before this reading existed:
// its error, or its spans, are then pdata's. It falls back on:
//
//   - any text that is not strict JSON, and anything after the document;
//   - null, anywhere (pdata reads it as an empty value);
//   - a control character in a string;
//   - an escape (a backslash) in a key, an id, a number, an enum's name, a
//     span's name, a bytes value, or the key of a span's or a resource's
//     attribute; elsewhere (strings whose value is not read: trace states,
//     events, scopes, statuses, other attributes' values) each escape is
//     checked to be one of JSON's, all of which json-iterator reads; and a
//     name read from an attribute's string value that holds an escape;
//   - a key that pdata's decoder does not know (both its camelCase and
//     snake_case names are known), which includes the names of OTLP before
//     1.0, Tempo's "batches", Jaeger's "result" and deprecatedScopeSpans;
//   - a key given twice in an object (pdata merges or overwrites), in one
//     case or the other;
//   - a number not in the form read here: an integer field written as a
//     JSON number must be a plain integer literal (no leading zero, '-'
//     only for signed fields) of at most 19 digits (unsigned 64 bits), 18
//     (signed 64 bits) or 9 (32 bits); written as a string, it is read
//     with strconv as pdata reads it; a double is a strict JSON number or
//     a string, read with strconv.ParseFloat as json-iterator and pdata do;
//   - a kind or status code that is neither such an integer nor one of the
//     enum's names;
//   - an id that is neither empty nor exactly 32 (trace) or 16 (span) hex
//     digits (pdata refuses it, and the caller then reads base64 ids);
//   - bytes that are not standard base64 (pdata refuses them);
//   - attribute values nested deeper than maxWireDepth, and a name read
//     from a nested value (an array or a map: pdata writes it as JSON);
//   - a document of no span (decodeOTLP then reads it with the names of
//     OTLP before 1.0, or reports the field it does not know).

// jsonWireOff turns this reading off, for the tests that compare it with
// pdata's.
var jsonWireOff bool

// decodeJSON reads doc, an OTLP/JSON document (when element, one resource
// spans), and names its spans for r (passes 1 and 2): false when pdata is
// to read it instead, with nothing added.
func (w *protoWire) decodeJSON(r *spanReader, doc []byte, element bool) bool {
	if jsonWireOff {
		return false
	}
	w.msg = doc
	s := jsonScan{b: doc, keys: w.keyOffs[:0]}
	var ok bool
	if element {
		ok = w.jsonResourceSpans(&s)
	} else {
		ok = w.jsonTraces(&s)
	}
	w.keyOffs = s.keys
	if s.ws(); !ok || s.i != len(doc) || len(w.spans) == 0 {
		w.reset()
		return false
	}
	w.keysListed = !s.unlisted
	w.names(r)
	if w.unsure {
		w.reset()
		return false
	}
	return true
}

// jsonScan reads strict JSON text: b, from offset i. It lists the offsets
// of the strings "spanId" and "span_id" (keys and values), which are what
// spanKeys finds in the text read whole, unless a string holds an escaped
// quote followed by "span" (unlisted): spanKeys then searches.
type jsonScan struct {
	b        []byte
	i        int
	keys     []int
	unlisted bool
}

// spanKey lists v, a string read that ends at s.i, when it is "spanId" or
// "span_id".
func (s *jsonScan) spanKey(v []byte) {
	if (len(v) == 6 || len(v) == 7) && (string(v) == "spanId" || string(v) == "span_id") {
		s.keys = append(s.keys, s.i-len(v)-2)
	}
}

// ws skips whitespace and returns the byte that follows (0 at the end).
func (s *jsonScan) ws() byte {
	if s.i < len(s.b) && s.b[s.i] > ' ' { // minified JSON
		return s.b[s.i]
	}
	return s.wsSlow()
}

func (s *jsonScan) wsSlow() byte {
	for s.i < len(s.b) {
		switch c := s.b[s.i]; c {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return c
		}
	}
	return 0
}

// tok reads c, after whitespace.
func (s *jsonScan) tok(c byte) bool {
	if s.ws() != c || s.i >= len(s.b) {
		return false
	}
	s.i++
	return true
}

// str reads a string of no escape: its bytes.
func (s *jsonScan) str() ([]byte, bool) {
	v, esc, ok := s.escaped()
	return v, ok && !esc
}

// skipStr reads a string whose value is not kept: escapes and all.
func (s *jsonScan) skipStr() bool {
	_, _, ok := s.escaped()
	return ok
}

// escaped reads a string of no control character: its bytes as written
// (escapes undone by no one), and whether it holds an escape, each one
// of JSON's (which json-iterator reads all).
func (s *jsonScan) escaped() (v []byte, esc, ok bool) {
	if s.ws() != '"' {
		return nil, false, false
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		if j = strictStopAt(s.b, j); j >= len(s.b) {
			break
		}
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			v = s.b[start:j:j]
			s.spanKey(v)
			if esc && bytes.Contains(v, []byte(`\"span`)) {
				s.unlisted = true
			}
			return v, esc, true
		case c < 0x20:
			return nil, false, false
		case c == '\\':
			esc = true
			if j+1 >= len(s.b) {
				return nil, false, false
			}
			j++
			switch s.b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(s.b) || !isHex(s.b[j+1:j+5], 2) {
					return nil, false, false
				}
				j += 4
			default:
				return nil, false, false
			}
		}
	}
	return nil, false, false
}

// quoted reads a string up to its next quote, whatever it holds: for a
// key, an id, a number or an enum's name, which are then read only when
// they are made of what they must be (no backslash nor control character).
func (s *jsonScan) quoted() ([]byte, bool) {
	if s.ws() != '"' {
		return nil, false
	}
	start := s.i + 1
	if j := quoteAt(s.b, start); j < len(s.b) {
		s.i = j + 1
		return s.b[start:j:j], true
	}
	return nil, false
}

// object reads an object, field reading the value of each key (after its
// ':') and returning the key's number (below 32), -1 when it is not known
// or its value is not read: false then, and when a key comes twice.
func (s *jsonScan) object(field func(key []byte) int) bool {
	if !s.tok('{') {
		return false
	}
	var seen uint32
	for first := true; ; first = false {
		c := s.ws()
		if c == '}' {
			s.i++
			return true
		}
		if !first {
			if c != ',' {
				return false
			}
			s.i++
		}
		k, ok := s.quoted() // a known key has no escape
		if !ok {
			return false
		}
		s.spanKey(k)
		if !s.tok(':') {
			return false
		}
		n := field(k)
		if n < 0 || seen&(1<<n) != 0 {
			return false
		}
		seen |= 1 << n
	}
}

// array reads an array, elem reading each element.
func (s *jsonScan) array(elem func() bool) bool {
	if !s.tok('[') {
		return false
	}
	for first := true; ; first = false {
		c := s.ws()
		if c == ']' {
			s.i++
			return true
		}
		if !first {
			if c != ',' {
				return false
			}
			s.i++
		}
		if !elem() {
			return false
		}
	}
}

// strings reads an array of strings.
func (s *jsonScan) strings() bool {
	return s.array(s.skipStr)
}

// digits reads an integer literal of at most max digits, no leading zero,
// and a '-' when neg allows it: its magnitude, and whether it is negative.
func (s *jsonScan) digits(max int, neg bool) (x uint64, minus, ok bool) {
	if neg && s.i < len(s.b) && s.b[s.i] == '-' {
		minus = true
		s.i++
	}
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		x = x*10 + uint64(s.b[s.i]-'0')
		s.i++
	}
	n := s.i - start
	if n == 0 || n > max || n > 1 && s.b[start] == '0' {
		return 0, false, false
	}
	return x, minus, true
}

// decimal reads v, a string of at most max decimal digits, as strconv
// does (leading zeros and all): false when it is not that.
func decimal(v []byte, max int) (x uint64, ok bool) {
	if len(v) == 0 || len(v) > max {
		return 0, false
	}
	for ; len(v) >= 8; v = v[8:] { // a time in nanoseconds has 19 digits
		d, ok := digits8(v)
		if !ok {
			return 0, false
		}
		x = x*1e8 + uint64(d)
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + uint64(c-'0')
	}
	return x, true
}

// u64 reads an unsigned integer of bits bits (64 or 32), a number or a
// string, as pdata's ReadUint64 and ReadUint32 do.
func (s *jsonScan) u64(bits int) (uint64, bool) {
	max := 19 // below 10^19 < 2^64
	if bits == 32 {
		max = 9
	}
	if s.ws() == '"' {
		v, ok := s.quoted()
		if !ok {
			return 0, false
		}
		if x, ok := decimal(v, max); ok {
			return x, true
		}
		x, err := strconv.ParseUint(bytesString(v), 10, bits)
		return x, err == nil
	}
	x, _, ok := s.digits(max, false)
	return x, ok
}

// i64 reads a signed integer of bits bits (64 or 32), a number or a string,
// as pdata's ReadInt64 and ReadInt32 do.
func (s *jsonScan) i64(bits int) (int64, bool) {
	max := 18
	if bits == 32 {
		max = 9
	}
	if s.ws() == '"' {
		v, ok := s.quoted()
		if !ok {
			return 0, false
		}
		x, err := strconv.ParseInt(bytesString(v), 10, bits)
		return x, err == nil
	}
	return s.int(max)
}

// int reads an integer number of at most max digits.
func (s *jsonScan) int(max int) (int64, bool) {
	x, minus, ok := s.digits(max, true)
	if minus {
		return -int64(x), ok
	}
	return int64(x), ok
}

// f64 reads a double, a number or a string, as pdata's ReadFloat64 does.
func (s *jsonScan) f64() (float64, bool) {
	if s.ws() == '"' {
		v, ok := s.quoted()
		if !ok {
			return 0, false
		}
		f, err := strconv.ParseFloat(bytesString(v), 64)
		return f, err == nil
	}
	// A strict JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	d := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == d || s.i-d > 1 && s.b[d] == '0' {
		return 0, false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		d := s.i
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
		}
		if s.i == d {
			return 0, false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		d := s.i
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
		}
		if s.i == d {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(bytesString(s.b[start:s.i]), 64)
	return f, err == nil
}

// boolean reads true or false.
func (s *jsonScan) boolean() (bool, bool) {
	switch s.ws() {
	case 't':
		if s.i+4 <= len(s.b) && string(s.b[s.i:s.i+4]) == "true" {
			s.i += 4
			return true, true
		}
	case 'f':
		if s.i+5 <= len(s.b) && string(s.b[s.i:s.i+5]) == "false" {
			s.i += 5
			return false, true
		}
	}
	return false, false
}

// id reads an id into id: empty (the zero id) or its hex digits, as
// pdata's hex.Decode reads them.
func (s *jsonScan) id(id []byte) bool {
	v, ok := s.quoted()
	if !ok {
		return false
	}
	if len(v) == 0 {
		clear(id)
		return true
	}
	if len(v) != 2*len(id) {
		return false
	}
	_, err := hex.Decode(id, v)
	return err == nil
}

// enum reads an enum's value: an integer of 32 bits, or one of names (the
// names of values 0, 1, ...).
func (s *jsonScan) enum(names []string) (int32, bool) {
	if s.ws() == '"' {
		v, ok := s.quoted()
		if !ok {
			return 0, false
		}
		for i, n := range names {
			if string(v) == n {
				return int32(i), true
			}
		}
		return 0, false
	}
	x, ok := s.int(9)
	return int32(x), ok
}

// The names of the enums of OTLP/JSON, as pdata knows them.
var (
	jsonSpanKinds   = []string{"SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"}
	jsonStatusCodes = []string{"STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"}
)

// jsonTraces reads a TracesData: its resource spans.
func (w *protoWire) jsonTraces(s *jsonScan) bool {
	return s.object(func(k []byte) int {
		switch string(k) {
		case "resourceSpans", "resource_spans":
			if s.array(func() bool { return w.jsonResourceSpans(s) }) {
				return 0
			}
		}
		return -1
	})
}

// jsonResourceSpans reads a ResourceSpans: its resource, scope spans and
// schema URL (the deprecated scope spans are left to pdata).
func (w *protoWire) jsonResourceSpans(s *jsonScan) bool {
	rs := wireResource{attrs: [2]int32{int32(len(w.resAttrs))}, spans: [2]int32{int32(len(w.spans))}}
	ok := s.object(func(k []byte) int {
		switch string(k) {
		case "resource":
			if w.jsonResource(s) {
				return 0
			}
		case "scopeSpans", "scope_spans":
			if s.array(func() bool { return w.jsonScopeSpans(s) }) {
				return 1
			}
		case "schemaUrl", "schema_url":
			if s.skipStr() {
				return 2
			}
		}
		return -1
	})
	if !ok {
		return false
	}
	rs.attrs[1], rs.spans[1] = int32(len(w.resAttrs)), int32(len(w.spans))
	w.rss = append(w.rss, rs)
	return true
}

// jsonResource reads a Resource: its attributes, dropped attributes count
// and entity refs.
func (w *protoWire) jsonResource(s *jsonScan) bool {
	return s.object(func(k []byte) int {
		switch string(k) {
		case "attributes":
			if s.array(func() bool {
				var a wireAttr
				if !w.jsonKeyValue(s, 0, true, &a) {
					return false
				}
				w.resAttrs = append(w.resAttrs, a)
				return true
			}) {
				return 0
			}
		case "droppedAttributesCount", "dropped_attributes_count":
			if _, ok := s.u64(32); ok {
				return 1
			}
		case "entityRefs", "entity_refs":
			if s.array(func() bool { return jsonEntityRef(s) }) {
				return 2
			}
		}
		return -1
	})
}

// jsonEntityRef reads an EntityRef.
func jsonEntityRef(s *jsonScan) bool {
	return s.object(func(k []byte) int {
		switch string(k) {
		case "schemaUrl", "schema_url":
			if s.skipStr() {
				return 0
			}
		case "type":
			if s.skipStr() {
				return 1
			}
		case "idKeys", "id_keys":
			if s.strings() {
				return 2
			}
		case "descriptionKeys", "description_keys":
			if s.strings() {
				return 3
			}
		}
		return -1
	})
}

// jsonScopeSpans reads a ScopeSpans: its scope, spans and schema URL.
func (w *protoWire) jsonScopeSpans(s *jsonScan) bool {
	return s.object(func(k []byte) int {
		switch string(k) {
		case "scope":
			if w.jsonScope(s) {
				return 0
			}
		case "spans":
			if s.array(func() bool { return w.jsonSpan(s) }) {
				return 1
			}
		case "schemaUrl", "schema_url":
			if s.skipStr() {
				return 2
			}
		}
		return -1
	})
}

// jsonScope reads an InstrumentationScope.
func (w *protoWire) jsonScope(s *jsonScan) bool {
	return s.object(func(k []byte) int {
		switch string(k) {
		case "name":
			if s.skipStr() {
				return 0
			}
		case "version":
			if s.skipStr() {
				return 1
			}
		case "attributes":
			if w.jsonAttrs(s) {
				return 2
			}
		case "droppedAttributesCount", "dropped_attributes_count":
			if _, ok := s.u64(32); ok {
				return 3
			}
		}
		return -1
	})
}

// jsonAttrs reads attributes that name nothing.
func (w *protoWire) jsonAttrs(s *jsonScan) bool {
	return s.array(func() bool {
		var a wireAttr
		return w.jsonKeyValue(s, 0, false, &a)
	})
}

// jsonSpan reads a Span.
func (w *protoWire) jsonSpan(s *jsonScan) bool {
	w.spans = append(w.spans, wireSpan{attrRange: [2]int32{int32(len(w.attrs))}, linkRange: [2]int32{int32(len(w.links))}})
	sp := &w.spans[len(w.spans)-1]
	ok := s.object(func(k []byte) int {
		switch string(k) {
		case "traceId", "trace_id":
			if s.id(sp.trace[:]) {
				return 0
			}
		case "spanId", "span_id":
			if s.id(sp.id[:]) {
				return 1
			}
		case "traceState", "trace_state":
			if s.skipStr() {
				return 2
			}
		case "parentSpanId", "parent_span_id":
			if s.id(sp.parent[:]) {
				return 3
			}
		case "flags":
			if _, ok := s.u64(32); ok {
				return 4
			}
		case "name":
			if v, ok := s.str(); ok {
				sp.name = v
				return 5
			}
		case "kind":
			if x, ok := s.enum(jsonSpanKinds); ok {
				sp.rawKind = ptrace.SpanKind(x)
				return 6
			}
		case "startTimeUnixNano", "start_time_unix_nano":
			if x, ok := s.u64(64); ok {
				sp.start = x
				return 7
			}
		case "endTimeUnixNano", "end_time_unix_nano":
			if x, ok := s.u64(64); ok {
				sp.end = x
				return 8
			}
		case "attributes":
			if s.array(func() bool {
				var a wireAttr
				if !w.jsonKeyValue(s, 0, true, &a) {
					return false
				}
				w.attrs = append(w.attrs, a)
				return true
			}) {
				return 9
			}
		case "droppedAttributesCount", "dropped_attributes_count":
			if _, ok := s.u64(32); ok {
				return 10
			}
		case "events":
			if s.array(func() bool { return w.jsonEvent(s) }) {
				return 11
			}
		case "droppedEventsCount", "dropped_events_count":
			if _, ok := s.u64(32); ok {
				return 12
			}
		case "links":
			if s.array(func() bool {
				var ln otlpLink
				if !w.jsonLink(s, &ln) {
					return false
				}
				w.links = append(w.links, ln)
				return true
			}) {
				return 13
			}
		case "droppedLinksCount", "dropped_links_count":
			if _, ok := s.u64(32); ok {
				return 14
			}
		case "status":
			if jsonStatus(s) {
				return 15
			}
		}
		return -1
	})
	if !ok {
		return false
	}
	sp.attrRange[1], sp.linkRange[1] = int32(len(w.attrs)), int32(len(w.links))
	return true
}

// jsonEvent reads a span's Event.
func (w *protoWire) jsonEvent(s *jsonScan) bool {
	return s.object(func(k []byte) int {
		switch string(k) {
		case "timeUnixNano", "time_unix_nano":
			if _, ok := s.u64(64); ok {
				return 0
			}
		case "name":
			if s.skipStr() {
				return 1
			}
		case "attributes":
			if w.jsonAttrs(s) {
				return 2
			}
		case "droppedAttributesCount", "dropped_attributes_count":
			if _, ok := s.u64(32); ok {
				return 3
			}
		}
		return -1
	})
}

// jsonLink reads a span's Link into ln.
func (w *protoWire) jsonLink(s *jsonScan, ln *otlpLink) bool {
	return s.object(func(k []byte) int {
		switch string(k) {
		case "traceId", "trace_id":
			if s.id(ln.trace[:]) {
				return 0
			}
		case "spanId", "span_id":
			if s.id(ln.span[:]) {
				return 1
			}
		case "traceState", "trace_state":
			if s.skipStr() {
				return 2
			}
		case "attributes":
			if w.jsonAttrs(s) {
				return 3
			}
		case "droppedAttributesCount", "dropped_attributes_count":
			if _, ok := s.u64(32); ok {
				return 4
			}
		case "flags":
			if _, ok := s.u64(32); ok {
				return 5
			}
		}
		return -1
	})
}

// jsonStatus reads a span's Status.
func jsonStatus(s *jsonScan) bool {
	return s.object(func(k []byte) int {
		switch string(k) {
		case "message":
			if s.skipStr() {
				return 0
			}
		case "code":
			if _, ok := s.enum(jsonStatusCodes); ok {
				return 1
			}
		}
		return -1
	})
}

// jsonKeyValue reads a KeyValue, at depth depth of nesting, into a; when
// kept, of attributes that may name a span (its key of no escape, its
// string value kept, escapes and all: a name read from it is left to
// pdata).
func (w *protoWire) jsonKeyValue(s *jsonScan, depth int, kept bool, a *wireAttr) bool {
	if depth >= maxWireDepth {
		return false
	}
	*a = wireAttr{}
	return s.object(func(k []byte) int {
		switch string(k) {
		case "key":
			v, esc, ok := s.escaped()
			if ok && !(esc && kept) {
				a.key = v
				return 0
			}
		case "value":
			if w.jsonAnyValue(s, depth+1, a) {
				return 1
			}
		case "keyStrindex", "key_strindex":
			if _, ok := s.i64(32); ok {
				return 2
			}
		}
		return -1
	})
}

// jsonAnyValue reads an AnyValue into a's value: the last of its fields
// that sets one wins, as in pdata.
func (w *protoWire) jsonAnyValue(s *jsonScan, depth int, a *wireAttr) bool {
	return s.object(func(k []byte) int {
		switch string(k) {
		case "stringValue", "string_value":
			if v, esc, ok := s.escaped(); ok {
				a.kind, a.v = wireStr, v
				if esc {
					a.kind = wireEscaped
				}
				return 0
			}
		case "boolValue", "bool_value":
			if b, ok := s.boolean(); ok {
				a.kind, a.x = wireBool, 0
				if b {
					a.x = 1
				}
				return 1
			}
		case "intValue", "int_value":
			if x, ok := s.i64(64); ok {
				a.kind, a.x = wireInt, uint64(x)
				return 2
			}
		case "doubleValue", "double_value":
			if f, ok := s.f64(); ok {
				a.kind, a.x = wireDouble, math.Float64bits(f)
				return 3
			}
		case "arrayValue", "array_value":
			if w.jsonNested(s, depth+1, false) {
				a.kind = wireNested
				return 4
			}
		case "kvlistValue", "kvlist_value":
			if w.jsonNested(s, depth+1, true) {
				a.kind = wireNested
				return 5
			}
		case "bytesValue", "bytes_value":
			if v, ok := w.jsonBytes(s); ok {
				a.kind, a.v = wireBytes, v
				return 6
			}
		case "stringValueStrindex", "string_value_strindex":
			if _, ok := s.i64(32); ok {
				a.kind = wireEmpty
				return 7
			}
		}
		return -1
	})
}

// jsonBytes reads bytes as pdata does: the standard base64 of a string.
func (w *protoWire) jsonBytes(s *jsonScan) ([]byte, bool) {
	v, ok := s.str()
	if !ok {
		return nil, false
	}
	if len(v) == 0 {
		return nil, true
	}
	n := len(w.bytes)
	b, err := base64.StdEncoding.AppendDecode(w.bytes, v)
	if err != nil {
		return nil, false
	}
	w.bytes = b
	return b[n:len(b):len(b)], true
}

// jsonNested reads an ArrayValue (its values) or, when kv, a KeyValueList
// (its key values).
func (w *protoWire) jsonNested(s *jsonScan, depth int, kv bool) bool {
	if depth >= maxWireDepth {
		return false
	}
	return s.object(func(k []byte) int {
		if string(k) != "values" {
			return -1
		}
		if s.array(func() bool {
			var a wireAttr
			if kv {
				return w.jsonKeyValue(s, depth+1, false, &a)
			}
			return w.jsonAnyValue(s, depth+1, &a)
		}) {
			return 0
		}
		return -1
	})
}
