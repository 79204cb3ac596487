package logs

import (
	"encoding/base64"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ivc-project/ivc/interaction"
)

// An OTLP/protobuf request (an ExportTraceServiceRequest, or a TracesData:
// the same bytes) is read straight from its bytes, without building the
// objects of pdata, into what traces reads of the same request decoded by
// pdata: the same spans in the same order, named by the same lookups of
// their attributes. It is read in three passes, so that a request is read
// whole or not at all:
//
//  1. decode walks the bytes: every field that pdata decodes is checked as
//     pdata checks it (wire types, lengths, ids of 0, 8 or 16 bytes), and
//     the spans, their attributes and links are kept as slices of the
//     bytes; unknown fields are skipped as pdata skips them;
//  2. names gives each span with an action kind its lifeline and message
//     (spanReader.lifeline, spanReader.message), with lookups over the
//     attributes kept;
//  3. addWire adds the spans as traces does (addOTLP).
//
// Where a request's bytes are anything this reading is not sure pdata reads
// alike (a wire error, a group, attributes nested deep, a name read from
// an attribute whose value is an array or a map, which pdata writes as
// JSON), decode returns false before anything is added, and the caller
// decodes the request with pdata: its error, or its spans, are then
// pdata's, as they were before this reading existed.

// protoWire is the room of the reading of requests, kept from one to the
// next.
type protoWire struct {
	msg      []byte // the request read: what the slices below point into
	rss      []wireResource
	spans    []wireSpan
	attrs    []wireAttr // the spans' attributes
	resAttrs []wireAttr // the resources' attributes
	links    []otlpLink
	hexIDs   []byte // the spans' trace ids in hex (addWire)
	bytes    []byte // the bytes values of OTLP/JSON, decoded (otlpjsonwire.go)
	// keyOffs are the offsets in an OTLP/JSON document of the "spanId" and
	// "span_id" strings that spanKeys finds, when keysListed.
	keyOffs    []int
	keysListed bool
	unsure     bool              // a name read from a value pdata writes as JSON
	interned   map[string]string // names outside the signature, read from attributes
}

// wireResource is a resource spans: its resource's attributes
// (resAttrs[attrs[0]:attrs[1]]) and its spans (spans[spans[0]:spans[1]]).
type wireResource struct {
	attrs, spans [2]int32
}

// wireSpan is a span of a request: what addOTLP takes, once names has
// named it, and what that takes.
type wireSpan struct {
	otlpSpan
	kinded     bool // it has an action kind (kind)
	deprecated bool // of instrumentation_library_spans
	rawKind    ptrace.SpanKind
	name       []byte
	attrRange  [2]int32 // of protoWire.attrs
	linkRange  [2]int32 // of protoWire.links
}

// wireAttr is an attribute: its key and its value, of kind kind: v holds a
// string's or bytes' value, x a bool's, an int's or a double's bits.
type wireAttr struct {
	key, v []byte
	x      uint64
	kind   wireValue
}

// wireValue is the kind of an attribute's value, as pdata's Value.Type
// tells them: a value that sets no field, or only string_value_strindex
// (of profiles), is empty.
type wireValue uint8

const (
	wireEmpty wireValue = iota
	wireStr
	wireBool
	wireInt
	wireDouble
	wireBytes
	wireNested  // an array or a map (kvlist)
	wireEscaped // a string of OTLP/JSON holding escapes, v as written
)

// maxWireDepth bounds the nesting of attribute values read here: deeper,
// pdata reads the request (its own bound is 100).
const maxWireDepth = 16

// maxWireSpans bounds the spans whose room is kept from one request to the
// next (the Collector's batch processor sends 8192).
const maxWireSpans = 4 * 8192

// wireReader returns the room of the reading of requests.
func (r *spanReader) wireReader() *protoWire {
	if r.wire == nil {
		r.wire = &protoWire{interned: map[string]string{}}
	}
	return r.wire
}

// wireOff turns this reading off, for the tests that compare it with
// pdata's.
var wireOff bool

// decode reads msg, a request, and names its spans for r (passes 1 and
// 2): false when pdata is to read it instead, with nothing added.
func (w *protoWire) decode(r *spanReader, msg []byte) bool {
	if wireOff {
		return false
	}
	w.msg = msg
	if !w.request(msg) {
		w.reset()
		return false
	}
	w.names(r)
	if w.unsure {
		w.reset()
		return false
	}
	return true
}

// reset lets go of the request read, keeping the room.
func (w *protoWire) reset() {
	clear(w.rss)
	clear(w.spans)
	clear(w.attrs)
	clear(w.resAttrs)
	w.msg, w.unsure, w.keysListed, w.keyOffs = nil, false, false, w.keyOffs[:0]
	w.rss, w.attrs, w.resAttrs, w.links, w.bytes = w.rss[:0], w.attrs[:0], w.resAttrs[:0], w.links[:0], w.bytes[:0]
	if cap(w.spans) > maxWireSpans {
		w.spans, w.attrs, w.links = nil, nil, nil
	}
	w.spans = w.spans[:0]
}

// pbField is a field of a message: its number, wire type and value (v, of a
// field of wire type LEN; x, of the others).
type pbField struct {
	num protowire.Number
	typ protowire.Type
	v   []byte
	x   uint64
}

// pbNext reads the field at the start of b into f, a zero pbField, and
// returns what follows it; ok is false at a wire error and at a group,
// which pdata reads its way.
func pbNext(b []byte, f *pbField) (rest []byte, ok bool) {
	// Most fields are of a tag and a length of a byte each: read as
	// protowire reads them, without its calls. (f is written field by
	// field, not returned nor assigned whole: measured, both are slower.)
	if len(b) >= 2 {
		if t, n := b[0], 2+int(b[1]); t&0x87 == 2 && t > 7 && n < 2+0x80 && n <= len(b) {
			f.num, f.typ, f.v = protowire.Number(t>>3), protowire.BytesType, b[2:n:n]
			return b[n:], true
		}
	}
	return pbNextSlow(b, f)
}

// pbNextSlow is pbNext for the other fields: varints (most of a byte,
// read here), fixed 32 and 64 bits, tags and lengths of more than a byte.
func pbNextSlow(b []byte, f *pbField) (rest []byte, ok bool) {
	*f = pbField{}
	if len(b) >= 2 && b[0] >= 1<<3 && b[0]&0x87 == 0 && b[1] < 0x80 {
		f.num, f.typ, f.x = protowire.Number(b[0]>>3), protowire.VarintType, uint64(b[1])
		return b[2:], true
	}
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return nil, false
	}
	b = b[n:]
	f.num, f.typ = num, typ
	switch typ {
	case protowire.VarintType:
		f.x, n = protowire.ConsumeVarint(b)
	case protowire.Fixed64Type:
		f.x, n = protowire.ConsumeFixed64(b)
	case protowire.Fixed32Type:
		var x uint32
		x, n = protowire.ConsumeFixed32(b)
		f.x = uint64(x)
	case protowire.BytesType:
		f.v, n = protowire.ConsumeBytes(b)
	default:
		return nil, false
	}
	if n < 0 {
		return nil, false
	}
	return b[n:], true
}

// request reads an ExportTraceServiceRequest: its resource spans (field
// 1); pdata skips its other fields.
func (w *protoWire) request(b []byte) bool {
	for len(b) > 0 {
		var f pbField
		rest, ok := pbNext(b, &f)
		if !ok {
			return false
		}
		b = rest
		if f.num == 1 && (f.typ != protowire.BytesType || !w.resourceSpans(f.v)) {
			return false
		}
	}
	return true
}

// resourceSpans reads a ResourceSpans: its resource (1, read as one when
// repeated: pdata merges them), scope spans (2), schema URL (3) and the
// scope spans of OTLP before 1.0 (instrumentation_library_spans, 1000),
// which pdata reads only when there are no others.
func (w *protoWire) resourceSpans(b []byte) bool {
	rs := wireResource{attrs: [2]int32{int32(len(w.resAttrs))}, spans: [2]int32{int32(len(w.spans))}}
	scoped := false
	for len(b) > 0 {
		var f pbField
		rest, ok := pbNext(b, &f)
		if !ok {
			return false
		}
		b = rest
		switch f.num {
		case 1:
			ok = f.typ == protowire.BytesType && w.resource(f.v)
		case 2, 1000:
			scoped = scoped || f.num == 2
			ok = f.typ == protowire.BytesType && w.scopeSpans(f.v, f.num == 1000)
		case 3:
			ok = f.typ == protowire.BytesType
		}
		if !ok {
			return false
		}
	}
	if scoped { // the deprecated scope spans are dropped
		spans := w.spans[rs.spans[0]:]
		k := 0
		for _, s := range spans {
			if !s.deprecated {
				spans[k] = s
				k++
			}
		}
		clear(spans[k:])
		w.spans = w.spans[:int(rs.spans[0])+k]
	}
	rs.attrs[1], rs.spans[1] = int32(len(w.resAttrs)), int32(len(w.spans))
	w.rss = append(w.rss, rs)
	return true
}

// resource reads a Resource: its attributes (1), dropped attributes count
// (2) and entity refs (3).
func (w *protoWire) resource(b []byte) bool {
	for len(b) > 0 {
		var f pbField
		rest, ok := pbNext(b, &f)
		if !ok {
			return false
		}
		b = rest
		switch f.num {
		case 1:
			var a wireAttr
			if f.typ != protowire.BytesType || !pbKeyValue(f.v, 0, &a) {
				return false
			}
			w.resAttrs = append(w.resAttrs, a)
		case 2:
			ok = f.typ == protowire.VarintType
		case 3:
			ok = f.typ == protowire.BytesType && pbEntityRef(f.v)
		}
		if !ok {
			return false
		}
	}
	return true
}

// pbEntityRef reads an EntityRef: four strings.
func pbEntityRef(b []byte) bool {
	return pbFields(b, func(f pbField) bool { return f.num > 4 || f.typ == protowire.BytesType })
}

// pbFields reports whether b is a message whose every field ok accepts.
func pbFields(b []byte, ok func(pbField) bool) bool {
	for len(b) > 0 {
		var f pbField
		rest, fine := pbNext(b, &f)
		if !fine || !ok(f) {
			return false
		}
		b = rest
	}
	return true
}

// scopeSpans reads a ScopeSpans: its scope (1), spans (2) and schema URL
// (3).
func (w *protoWire) scopeSpans(b []byte, deprecated bool) bool {
	for len(b) > 0 {
		var f pbField
		rest, ok := pbNext(b, &f)
		if !ok {
			return false
		}
		b = rest
		switch f.num {
		case 1:
			ok = f.typ == protowire.BytesType && pbScope(f.v)
		case 2:
			ok = f.typ == protowire.BytesType && w.span(f.v, deprecated)
		case 3:
			ok = f.typ == protowire.BytesType
		}
		if !ok {
			return false
		}
	}
	return true
}

// pbScope reads an InstrumentationScope: name (1), version (2), attributes
// (3), dropped attributes count (4).
func pbScope(b []byte) bool {
	return pbFields(b, func(f pbField) bool {
		switch f.num {
		case 1, 2:
			return f.typ == protowire.BytesType
		case 3:
			var a wireAttr
			return f.typ == protowire.BytesType && pbKeyValue(f.v, 0, &a)
		case 4:
			return f.typ == protowire.VarintType
		}
		return true
	})
}

// span reads a Span, the fields of the proto in their order; a field
// repeated that pdata decodes as one (an id, a time) is the last read, as
// pdata's.
func (w *protoWire) span(b []byte, deprecated bool) bool {
	s := wireSpan{deprecated: deprecated, attrRange: [2]int32{int32(len(w.attrs))}, linkRange: [2]int32{int32(len(w.links))}}
	for len(b) > 0 {
		var f pbField
		rest, ok := pbNext(b, &f)
		if !ok {
			return false
		}
		b = rest
		switch f.num {
		case 1: // trace_id
			ok = f.typ == protowire.BytesType && pbTraceID(f.v, &s.trace)
		case 2: // span_id
			ok = f.typ == protowire.BytesType && pbSpanID(f.v, &s.id)
		case 3: // trace_state
			ok = f.typ == protowire.BytesType
		case 4: // parent_span_id
			ok = f.typ == protowire.BytesType && pbSpanID(f.v, &s.parent)
		case 5: // name
			ok = f.typ == protowire.BytesType
			s.name = f.v
		case 6: // kind
			ok = f.typ == protowire.VarintType
			s.rawKind = ptrace.SpanKind(int32(f.x))
		case 7: // start_time_unix_nano
			ok = f.typ == protowire.Fixed64Type
			s.start = f.x
		case 8: // end_time_unix_nano
			ok = f.typ == protowire.Fixed64Type
			s.end = f.x
		case 9: // attributes
			var a wireAttr
			ok = f.typ == protowire.BytesType && pbKeyValue(f.v, 0, &a)
			w.attrs = append(w.attrs, a)
		case 10, 12, 14: // dropped attributes, events and links counts
			ok = f.typ == protowire.VarintType
		case 11: // events
			ok = f.typ == protowire.BytesType && pbEvent(f.v)
		case 13: // links
			var ln otlpLink
			ok = f.typ == protowire.BytesType && pbLink(f.v, &ln)
			w.links = append(w.links, ln)
		case 15: // status
			ok = f.typ == protowire.BytesType && pbStatus(f.v)
		case 16: // flags
			ok = f.typ == protowire.Fixed32Type
		}
		if !ok {
			return false
		}
	}
	s.attrRange[1], s.linkRange[1] = int32(len(w.attrs)), int32(len(w.links))
	w.spans = append(w.spans, s)
	return true
}

// pbTraceID reads a trace id as pdata does: 16 bytes, or none (the empty id).
func pbTraceID(v []byte, id *pcommon.TraceID) bool {
	if len(v) != 0 && len(v) != len(id) {
		return false
	}
	*id = pcommon.TraceID{}
	copy(id[:], v)
	return true
}

// pbSpanID reads a span id as pdata does: 8 bytes, or none.
func pbSpanID(v []byte, id *pcommon.SpanID) bool {
	if len(v) != 0 && len(v) != len(id) {
		return false
	}
	*id = pcommon.SpanID{}
	copy(id[:], v)
	return true
}

// pbEvent reads a span's Event: time (1), name (2), attributes (3), dropped
// attributes count (4).
func pbEvent(b []byte) bool {
	return pbFields(b, func(f pbField) bool {
		switch f.num {
		case 1:
			return f.typ == protowire.Fixed64Type
		case 2:
			return f.typ == protowire.BytesType
		case 3:
			var a wireAttr
			return f.typ == protowire.BytesType && pbKeyValue(f.v, 0, &a)
		case 4:
			return f.typ == protowire.VarintType
		}
		return true
	})
}

// pbLink reads a span's Link: trace id (1), span id (2), trace state (3),
// attributes (4), dropped attributes count (5), flags (6).
func pbLink(b []byte, ln *otlpLink) bool {
	return pbFields(b, func(f pbField) bool {
		switch f.num {
		case 1:
			return f.typ == protowire.BytesType && pbTraceID(f.v, &ln.trace)
		case 2:
			return f.typ == protowire.BytesType && pbSpanID(f.v, &ln.span)
		case 3:
			return f.typ == protowire.BytesType
		case 4:
			var a wireAttr
			return f.typ == protowire.BytesType && pbKeyValue(f.v, 0, &a)
		case 5:
			return f.typ == protowire.VarintType
		case 6:
			return f.typ == protowire.Fixed32Type
		}
		return true
	})
}

// pbStatus reads a span's Status: message (2), code (3).
func pbStatus(b []byte) bool {
	return pbFields(b, func(f pbField) bool {
		switch f.num {
		case 2:
			return f.typ == protowire.BytesType
		case 3:
			return f.typ == protowire.VarintType
		}
		return true
	})
}

// pbKeyValue reads a KeyValue, at depth depth of nesting, into a: its key
// (1), value (2) and key_strindex (3, of profiles). A key or value
// repeated is read as pdata reads it: the last key; the values merged, the
// last field that sets one winning.
func pbKeyValue(b []byte, depth int, a *wireAttr) bool {
	if depth >= maxWireDepth {
		return false
	}
	*a = wireAttr{}
	for len(b) > 0 {
		var f pbField
		rest, ok := pbNext(b, &f)
		if !ok {
			return false
		}
		b = rest
		switch f.num {
		case 1:
			a.key = f.v
			ok = f.typ == protowire.BytesType
		case 2:
			ok = f.typ == protowire.BytesType && pbAnyValue(f.v, depth+1, a)
		case 3:
			ok = f.typ == protowire.VarintType
		}
		if !ok {
			return false
		}
	}
	return true
}

// pbAnyValue reads an AnyValue into a's value: string (1), bool (2), int
// (3), double (4), array (5), map (6), bytes (7), string_value_strindex
// (8, of profiles; an empty value to pdata's Value.Type).
func pbAnyValue(b []byte, depth int, a *wireAttr) bool {
	for len(b) > 0 {
		var f pbField
		rest, ok := pbNext(b, &f)
		if !ok {
			return false
		}
		b = rest
		want := protowire.BytesType
		switch f.num {
		case 1:
			a.kind, a.v = wireStr, f.v
		case 2:
			want, a.kind, a.x = protowire.VarintType, wireBool, f.x
		case 3:
			want, a.kind, a.x = protowire.VarintType, wireInt, f.x
		case 4:
			want, a.kind, a.x = protowire.Fixed64Type, wireDouble, f.x
		case 5, 6:
			a.kind = wireNested
			if f.typ == want && !pbNested(f.v, depth+1, f.num == 6) {
				return false
			}
		case 7:
			a.kind, a.v = wireBytes, f.v
		case 8:
			want, a.kind = protowire.VarintType, wireEmpty
		default:
			continue
		}
		if f.typ != want {
			return false
		}
	}
	return true
}

// pbNested reads an ArrayValue (its values, 1) or, when kv, a KeyValueList
// (its key values, 1).
func pbNested(b []byte, depth int, kv bool) bool {
	if depth >= maxWireDepth {
		return false
	}
	return pbFields(b, func(f pbField) bool {
		if f.num != 1 {
			return true
		}
		var a wireAttr
		if f.typ != protowire.BytesType {
			return false
		}
		if kv {
			return pbKeyValue(f.v, depth+1, &a)
		}
		return pbAnyValue(f.v, depth+1, &a)
	})
}

// names gives the spans with an action kind their lifeline and message
// (pass 2), as traces does.
func (w *protoWire) names(r *spanReader) {
	lifelineKey := r.lifelineKey()
	for i := range w.rss {
		rs := &w.rss[i]
		res := w.resAttrs[rs.attrs[0]:rs.attrs[1]]
		resLifeline, resHas := r.lifeline(func(k string) (string, bool) { return w.attr(res, k) })
		resLifeline = w.keep(r, resLifeline)
		for j := rs.spans[0]; j < rs.spans[1]; j++ {
			s := &w.spans[j]
			kind, ok := otlpKind(s.rawKind)
			if !ok {
				continue
			}
			s.kind, s.kinded = kind, true
			attrs := w.attrs[s.attrRange[0]:s.attrRange[1]]
			lookup := func(k string) (string, bool) { return w.attr(attrs, k) }
			s.l = resLifeline
			if !resHas {
				l, _ := lookup(lifelineKey)
				s.l = w.keep(r, l)
			}
			s.m = w.keep(r, r.message(kind, lookup, bytesString(s.name)))
		}
	}
}

// addWire adds the spans read (pass 3), as traces does: read from doc,
// an OTLP/JSON document at line:col, each at the position spanKeys gives
// it; else (doc nil) each at line:col.
func (r *spanReader) addWire(w *protoWire, doc []byte, line, col int) error {
	// The trace ids of the spans in hex, one string for them all: a
	// trace's spans come in runs, one a service (resource).
	hexIDs := w.hexIDs[:0]
	var last pcommon.TraceID
	for i := range w.spans {
		if s := &w.spans[i]; s.kinded && !s.trace.IsEmpty() && (len(hexIDs) == 0 || s.trace != last) {
			hexIDs, last = hex.AppendEncode(hexIDs, s.trace[:]), s.trace
		}
	}
	w.hexIDs = hexIDs
	ids := string(hexIDs)
	var th traceHex
	keys := spanKeys{doc: doc, line: line, col: col, listed: w.keysListed, offs: w.keyOffs}
	for i := range w.spans {
		s := &w.spans[i]
		line, col := line, col
		if doc != nil {
			if l, c, ok := keys.next(int(s.linkRange[1] - s.linkRange[0])); ok {
				line, col = l, c
			} else {
				doc = nil
			}
		}
		if !s.kinded {
			r.b.stats.Unkinded++
			continue
		}
		if !s.trace.IsEmpty() && (th.str == "" || s.trace != th.last) {
			n := 2 * len(s.trace)
			th.last, th.str, ids = s.trace, ids[:n], ids[n:]
		}
		if s.kind.Action() == interaction.Reception {
			s.links = w.links[s.linkRange[0]:s.linkRange[1]]
		}
		if err := r.addOTLP(&s.otlpSpan, &th, line, col); err != nil {
			return err
		}
	}
	return nil
}

// attr returns the value of the attribute key of attrs as a string, as
// pdata's Value.AsString writes it: a string's value points into the
// request (keep makes it a string of its own).
func (w *protoWire) attr(attrs []wireAttr, key string) (string, bool) {
	for i := range attrs {
		a := &attrs[i]
		if string(a.key) != key {
			continue
		}
		switch a.kind {
		case wireStr:
			return bytesString(a.v), true
		case wireBool:
			return strconv.FormatBool(a.x != 0), true
		case wireInt:
			return strconv.FormatInt(int64(a.x), 10), true
		case wireDouble:
			return float64AsString(math.Float64frombits(a.x)), true
		case wireBytes:
			return base64.StdEncoding.EncodeToString(a.v), true
		case wireNested, wireEscaped:
			w.unsure = true // pdata writes it as JSON, or undoes its escapes
		}
		return "", true
	}
	return "", false
}

// bytesString returns b as a string without copying it: b must not change
// while the string is used.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// keep returns s, a name, as a string of its own when it points into the
// request read: the signature's name, or a copy made once for the names
// met recently.
func (w *protoWire) keep(r *spanReader, s string) string {
	if len(s) == 0 || len(w.msg) == 0 {
		return s
	}
	p, base := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.SliceData(w.msg)))
	if p < base || p >= base+uintptr(len(w.msg)) {
		return s
	}
	if i, ok := r.b.lifelines.findString(s); ok {
		return r.b.lifelines.names[i]
	}
	if i, ok := r.b.messages.findString(s); ok {
		return r.b.messages.names[i]
	}
	if k, ok := w.interned[s]; ok {
		return k
	}
	if len(w.interned) == maxInterned {
		clear(w.interned)
	}
	k := strings.Clone(s)
	w.interned[k] = k
	return k
}

// float64AsString writes f as pdata's Value.AsString does: as JavaScript
// (ES6) writes numbers, as encoding/json does.
func float64AsString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	var scratch [64]byte
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(scratch[:0], f, format, -1, 64)
	if format == 'e' { // e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return string(b)
}
