package logs_test

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// The reading of OTLP/protobuf requests from their bytes (otlpwire.go) is
// held to pdata's: on the same bytes, with it on and off (pdata then reads
// every request), a TraceReader's ReadProto gives the same events (their
// lifeline, kind, message, session, order and links, in their encoded
// form), the same stats, reports and error, and the reader of files the
// same sessions, reports, stats and names outside the signature.

// protoReading is what a TraceReader reads of a request.
type protoReading struct {
	Events, Reports []string
	Stats           logs.Stats
	Numbered        int // the calls of number
	Err             string
}

// readProto reads the request in with ReadProto, from its bytes or not.
func readProto(t *testing.T, in []byte, opt logs.Options, wire bool) protoReading {
	t.Helper()
	defer logs.SetProtoWire(wire)()
	var rd protoReading
	r, err := logs.NewTraceReader("otlp", opt, func(err error) { rd.Reports = append(rd.Reports, err.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.ReadProto(in, func() int { rd.Numbered++; return 7 }, func(ev logs.Event) {
		rd.Events = append(rd.Events, fmt.Sprintf("%q", session.AppendEvent(nil, ev)))
	})
	rd.Stats = st
	if err != nil {
		rd.Err = err.Error()
		if _, ok := err.(*logs.ProtoError); !ok && wire {
			t.Errorf("%T %v", err, err)
		}
	}
	return rd
}

// fileReading is what the reader of files reads of an OTLP/protobuf file.
type fileReading struct {
	Dump, Reports string
	Stats         logs.Stats
	Undeclared    []logs.Undeclared
}

// readProtoFile reads in as an OTLP/protobuf file, from its bytes or not.
func readProtoFile(t *testing.T, in []byte, opt logs.Options, wire bool) fileReading {
	t.Helper()
	defer logs.SetProtoWire(wire)()
	fr, err := readInput(t, "x.pb", in, logs.OTLPProto, opt)
	if err != nil {
		t.Fatal(err)
	}
	return fr
}

// readInput reads in as the file name of format f: its sessions, reports,
// stats and names outside the signature, or the error of opening it.
func readInput(t *testing.T, name string, in []byte, f logs.Format, opt logs.Options) (fileReading, error) {
	t.Helper()
	var fr fileReading
	input, err := logs.NewInput(name, bytes.NewReader(in), f, opt)
	if err != nil {
		return fr, err
	}
	var reports strings.Builder
	sessions, st, err := session.ReadInput(input, func(err error) { fmt.Fprintln(&reports, err) })
	fr.Dump, fr.Reports, fr.Stats, fr.Undeclared = dump(opt.Sig, sessions), reports.String(), st, input.Undeclared()
	// Names of as many events are listed by name, then in no order.
	slices.SortStableFunc(fr.Undeclared, func(a, b logs.Undeclared) int {
		return cmp.Or(cmp.Compare(b.Events, a.Events), strings.Compare(a.Name, b.Name), strings.Compare(a.Also, b.Also))
	})
	if err != nil {
		fr.Dump = "error: " + err.Error()
	}
	return fr, nil
}

// sameProtoReading checks that in is read alike from its bytes and by
// pdata, and returns whether it was read from its bytes.
func sameProtoReading(t *testing.T, name string, in []byte, opt logs.Options) bool {
	t.Helper()
	if w, p := readProto(t, in, opt, true), readProto(t, in, opt, false); !reflect.DeepEqual(w, p) {
		t.Errorf("%s: read from its bytes:\n%+v\nby pdata:\n%+v", name, w, p)
	}
	if w, p := readProtoFile(t, in, opt, true), readProtoFile(t, in, opt, false); !reflect.DeepEqual(w, p) {
		t.Errorf("%s: a file read from its bytes:\n%+v\nby pdata:\n%+v", name, w, p)
	}
	decoded := logs.WireDecodes(in, opt)
	if decoded {
		if err := ptraceotlp.NewExportRequest().UnmarshalProto(in); err != nil {
			t.Errorf("%s: read from its bytes, and pdata refuses it: %v", name, err)
		}
	}
	return decoded
}

// wireOptions are the options the readings are compared with.
func wireOptions(t testing.TB) map[string]logs.Options {
	sig := testSig(t)
	return map[string]logs.Options{
		"default":      {Sig: sig},
		"strict":       {Sig: sig, Strict: true},
		"message attr": {Sig: sig, MessageAttr: "msg"},
		"lifeline":     {Sig: sig, LifelineAttr: "svc"},
	}
}

// The fields of protobuf messages, for requests written by hand.
func lenField(num protowire.Number, v ...[]byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), bytes.Join(v, nil))
}

func strField(num protowire.Number, s string) []byte { return lenField(num, []byte(s)) }

func varintField(num protowire.Number, x uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), x)
}

func fixed64Field(num protowire.Number, x uint64) []byte {
	return protowire.AppendFixed64(protowire.AppendTag(nil, num, protowire.Fixed64Type), x)
}

func fixed32Field(num protowire.Number, x uint32) []byte {
	return protowire.AppendFixed32(protowire.AppendTag(nil, num, protowire.Fixed32Type), x)
}

// kvField is an attribute field num of key k and value fields v.
func kvField(num protowire.Number, k string, v ...[]byte) []byte {
	return lenField(num, strField(1, k), lenField(2, v...))
}

// spanPB is the field spans of a scope spans: a span of trace 1, id id,
// kind kind, named name, starting at start, with more fields.
func spanPB(id byte, kind uint64, name string, start uint64, more ...[]byte) []byte {
	return lenField(2, spanBody(id, kind, name, start, more...))
}

func spanBody(id byte, kind uint64, name string, start uint64, more ...[]byte) []byte {
	return bytes.Join(append([][]byte{lenField(1, bytes.Repeat([]byte{1}, 16)), lenField(2, []byte{id, 0, 0, 0, 0, 0, 0, 1}),
		strField(5, name), varintField(6, kind), fixed64Field(7, start)}, more...), nil)
}

// resourcePB is a resource spans of service svc with the fields more.
func resourcePB(svc string, more ...[]byte) []byte {
	return lenField(1, append([][]byte{lenField(1, kvField(1, logs.ServiceName, strField(1, svc)))}, more...)...)
}

// everyField returns a request, built with pdata, with a field of every
// kind: values of every type, on the attributes that name spans and
// others, events, links, statuses, spans of every kind, empty ids, times
// that are not.
func everyField() ptrace.Traces {
	td := ptrace.NewTraces()
	tid := pcommon.TraceID{9, 8, 7}
	rs := td.ResourceSpans().AppendEmpty()
	rs.SetSchemaUrl("https://opentelemetry.io/schemas/1.24.0")
	res := rs.Resource()
	res.Attributes().PutStr(logs.ServiceName, "a")
	res.Attributes().PutInt("pid", 42)
	res.Attributes().PutEmptySlice("args").AppendEmpty().SetStr("-v")
	res.Attributes().PutEmptyMap("m").PutDouble("x", 1.5)
	res.SetDroppedAttributesCount(3)
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName("lib")
	ss.Scope().SetVersion("1.0")
	ss.Scope().Attributes().PutBool("b", true)
	ss.SetSchemaUrl("s")
	for k := range 8 {
		sp := ss.Spans().AppendEmpty()
		sp.SetTraceID(tid)
		sp.SetSpanID(pcommon.SpanID{byte(k + 1)})
		sp.SetParentSpanID(pcommon.SpanID{byte(k)})
		sp.SetName("m")
		sp.SetKind(ptrace.SpanKind(k % 6))
		sp.SetStartTimestamp(pcommon.Timestamp(100 + k))
		sp.SetEndTimestamp(pcommon.Timestamp(200 + k))
		sp.TraceState().FromRaw("k=v")
		sp.SetFlags(1)
		sp.SetDroppedAttributesCount(1)
		sp.SetDroppedEventsCount(2)
		sp.SetDroppedLinksCount(3)
		sp.Status().SetCode(ptrace.StatusCodeError)
		sp.Status().SetMessage("failed")
		ev := sp.Events().AppendEmpty()
		ev.SetName("exception")
		ev.SetTimestamp(150)
		ev.Attributes().PutStr("exception.type", "E")
		ev.Attributes().PutEmptyBytes("raw").FromRaw([]byte{1, 2})
		ln := sp.Links().AppendEmpty()
		ln.SetTraceID(tid)
		ln.SetSpanID(pcommon.SpanID{byte(k + 2)})
		ln.TraceState().FromRaw("a=b")
		ln.Attributes().PutInt("n", -1)
		ln.SetFlags(1)
		other := sp.Links().AppendEmpty()
		other.SetTraceID(pcommon.TraceID{1})
		other.SetSpanID(pcommon.SpanID{1})
		sp.Attributes().PutDouble("ratio", 0.25)
		sp.Attributes().PutEmptySlice("list").AppendEmpty().SetInt(1)
	}
	spans := ss.Spans()
	spans.At(0).SetTraceID(pcommon.TraceID{}) // no session
	spans.At(1).SetSpanID(pcommon.SpanID{})   // no span id
	spans.At(2).SetStartTimestamp(0)          // not a time
	spans.At(3).SetStartTimestamp(math.MaxUint64)
	spans.At(4).SetEndTimestamp(1) // before its start
	spans.At(5).SetParentSpanID(pcommon.SpanID{})
	spans.At(6).SetKind(ptrace.SpanKind(7)) // no kind OTLP knows
	// Names from values that are not strings, as pdata writes them.
	rs2 := td.ResourceSpans().AppendEmpty()
	rs2.Resource().Attributes().PutInt(logs.ServiceName, 7)
	for k, set := range []func(pcommon.Map){
		func(m pcommon.Map) { m.PutInt(logs.HTTPRoute, -12) },
		func(m pcommon.Map) { m.PutInt(logs.HTTPRoute, 100) },
		func(m pcommon.Map) { m.PutBool(logs.HTTPRoute, false) },
		func(m pcommon.Map) { m.PutDouble(logs.HTTPRoute, 1e21) },
		func(m pcommon.Map) { m.PutDouble(logs.HTTPRoute, 1e-7) },
		func(m pcommon.Map) { m.PutDouble(logs.HTTPRoute, math.NaN()) },
		func(m pcommon.Map) { m.PutDouble(logs.HTTPRoute, math.Inf(-1)) },
		func(m pcommon.Map) { m.PutEmptyBytes(logs.HTTPRoute).FromRaw([]byte("m")) },
		func(m pcommon.Map) { m.PutEmpty(logs.HTTPRoute) },
		func(m pcommon.Map) { m.PutStr(logs.HTTPRoute, "r"); m.PutInt(logs.HTTPMethod, 3) },
		func(m pcommon.Map) { m.PutStr(logs.RPCService, "s"); m.PutDouble(logs.RPCMethod, 2) },
		func(m pcommon.Map) { m.PutStr("msg", "n"); m.PutStr("svc", "b") },
		func(m pcommon.Map) { m.PutInt("msg", 5); m.PutBool("svc", true) },
		func(m pcommon.Map) { m.PutStr(logs.MessagingDestination, "\xff\xfe") },
	} {
		sp := rs2.ScopeSpans().AppendEmpty().Spans().AppendEmpty()
		sp.SetTraceID(tid)
		sp.SetSpanID(pcommon.SpanID{byte(20 + k)})
		sp.SetKind(ptrace.SpanKind(2 + k%4))
		sp.SetName("n\x00")
		sp.SetStartTimestamp(pcommon.Timestamp(300 + k))
		set(sp.Attributes())
	}
	return td
}

// handWritten returns requests written by hand, of what pdata builds
// none of: fields it reads in its own way, fields it does not know,
// malformed ones.
func handWritten() map[string][]byte {
	a := spanPB(1, 3, "m", 100)
	b := spanPB(2, 2, "m", 90, lenField(4, []byte{1, 0, 0, 0, 0, 0, 0, 1}))
	return map[string][]byte{
		"deprecated scope spans": resourcePB("a", lenField(1000, a)),
		"both scope spans":       resourcePB("a", lenField(1000, a), lenField(2, b), lenField(1000, a)),
		"unknown fields": append(resourcePB("a", varintField(9, 1), fixed32Field(10, 2), fixed64Field(11, 3), strField(12, "x"),
			lenField(2, varintField(7, 1), lenField(2, spanBody(1, 3, "m", 100, varintField(99, 1), strField(100, "y"))))),
			varintField(5, 1)...),
		"a group":                 resourcePB("a", lenField(2, a, protowire.AppendTag(nil, 9, protowire.StartGroupType), protowire.AppendTag(nil, 9, protowire.EndGroupType))),
		"resource twice":          lenField(1, lenField(1, kvField(1, "x", strField(1, "y"))), lenField(2, a), lenField(1, kvField(1, logs.ServiceName, strField(1, "b")))),
		"a service twice":         resourcePB("c", lenField(1, kvField(1, logs.ServiceName, strField(1, "b"))), lenField(2, a)),
		"key and value twice":     resourcePB("a", lenField(2, spanPB(1, 3, "x", 100, lenField(9, strField(1, "z"), strField(1, logs.HTTPRoute), lenField(2, varintField(3, 1)), lenField(2, strField(1, "n")), lenField(2))))),
		"strindex":                resourcePB("a", lenField(2, spanPB(1, 3, "m", 100, kvField(9, logs.HTTPRoute, varintField(8, 3))))),
		"strindex after a string": resourcePB("a", lenField(2, spanPB(1, 3, "x", 100, kvField(9, logs.HTTPRoute, strField(1, "zz"), varintField(8, 3))))),
		"an entity ref": resourcePB("a", lenField(1, lenField(3, strField(1, "s"), strField(2, "service"), strField(3, "id"), strField(4, "d"), varintField(5, 1))),
			lenField(2, a)),
		"a bad entity ref":     resourcePB("a", lenField(1, lenField(3, varintField(2, 1))), lenField(2, a)),
		"kind past 2^32":       resourcePB("a", lenField(2, spanPB(1, 1<<32|3, "m", 100))),
		"kind 2^63":            resourcePB("a", lenField(2, spanPB(1, 1<<63|3, "m", 100))),
		"an array route":       resourcePB("a", lenField(2, spanPB(1, 3, "m", 100, kvField(9, logs.HTTPRoute, lenField(5, lenField(1, strField(1, "m"))))))),
		"a map service":        lenField(1, lenField(1, kvField(1, logs.ServiceName, lenField(6, kvField(1, "k", strField(1, "v"))))), lenField(2, a)),
		"a nested list":        resourcePB("a", lenField(2, spanPB(1, 3, "m", 100, kvField(9, "deep", nestedList(40))))),
		"a short trace id":     resourcePB("a", lenField(2, a, lenField(2, lenField(1, []byte{1, 2, 3})))),
		"a long span id":       resourcePB("a", lenField(2, spanPB(1, 3, "m", 100, lenField(2, make([]byte, 9))))),
		"a short link span id": resourcePB("a", lenField(2, spanPB(1, 2, "m", 100, lenField(13, lenField(2, []byte{1}))))),
		"a wrong wire type":    resourcePB("a", lenField(2, spanPB(1, 3, "m", 100, varintField(5, 1)))),
		"a cut span":           resourcePB("a", lenField(2, a[:len(a)-2])),
		"a cut request":        resourcePB("a", lenField(2, a))[:20],
		"field 0":              append(resourcePB("a", lenField(2, a)), 0),
		"a varint of 11 bytes": append(resourcePB("a", lenField(2, a)), 0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
		"a tag past 2^31":      append(resourcePB("a", lenField(2, a)), protowire.AppendVarint(nil, 1<<63|0xa)...),
		"no span":              resourcePB("a"),
		"empty":                {},
	}
}

// nestedList is an AnyValue of lists in lists, depth deep.
func nestedList(depth int) []byte {
	v := strField(1, "x")
	for range depth {
		v = lenField(5, lenField(1, v))
	}
	return v
}

// TestOTLPProtoWire: requests of every field, built with pdata or written
// by hand, are read from their bytes as pdata reads them, with every
// option; those that pdata reads in a way of its own (an array or a map
// where a name is read, attributes nested deep, a group) and those that do
// not decode are left to pdata.
func TestOTLPProtoWire(t *testing.T) {
	requests := map[string][]byte{"paired": protoOf(t, pairedRequest()), "every field": protoOf(t, everyField())}
	for name, b := range handWritten() {
		requests[name] = b
	}
	byPdata := map[string]bool{"a group": true, "an array route": true, "a map service": true, "a nested list": true,
		"a short trace id": true, "a long span id": true, "a short link span id": true, "a wrong wire type": true,
		"a cut span": true, "a bad entity ref": true, "a cut request": true, "field 0": true, "a varint of 11 bytes": true, "a tag past 2^31": true}
	for name, b := range requests {
		for oname, opt := range wireOptions(t) {
			want := !byPdata[name]
			if opt.LifelineAttr != "" && name == "a map service" || opt.MessageAttr != "" && name == "an array route" {
				want = true // the attribute is not read
			}
			if got := sameProtoReading(t, name+", "+oname, b, opt); got != want {
				t.Errorf("%s, %s: read from its bytes %v", name, oname, got)
			}
		}
	}
	// The hand-written requests say what they should.
	sig := testSig(t)
	for name, want := range map[string]string{
		"deprecated scope spans": "01010101010101010101010101010101@7 1/0: a!m |  | \n",
		"both scope spans":       "01010101010101010101010101010101@7 1/0: a?m |  | \n",
		"resource twice":         "01010101010101010101010101010101@7 1/0:  | b!m | \n",
		"a service twice":        "01010101010101010101010101010101@7 1/0:  |  | c!m\n",
		"key and value twice":    "01010101010101010101010101010101@7 1/0: a!n |  | \n",
		"strindex":               "01010101010101010101010101010101@7 1/0: a!m |  | \n",
		"kind past 2^32":         "01010101010101010101010101010101@7 1/0: a!m |  | \n",
	} {
		r, err := logs.NewTraceReader("otlp", logs.Options{Sig: sig}, func(err error) { t.Error(err) })
		if err != nil {
			t.Fatal(err)
		}
		var events []logs.Event
		if _, err := r.ReadProto(requests[name], func() int { return 7 }, func(ev logs.Event) { events = append(events, ev) }); err != nil {
			t.Fatal(err)
		}
		if got := assembledAt(t, events, logs.Options{Sig: sig}); got != want {
			t.Errorf("%s: %swant %s", name, got, want)
		}
	}
}

// assembledAt is assembled, the lines kept.
func assembledAt(t *testing.T, events []logs.Event, opt logs.Options) string {
	t.Helper()
	a, err := session.NewAssembler(opt)
	if err != nil {
		t.Fatal(err)
	}
	g := session.Groups{}
	for _, ev := range events {
		g.Add("otlp", ev)
	}
	var out []session.Session
	for s, err := range g.Sessions(a) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return dump(opt.Sig, out)
}

// TestOTLPProtoWireReal: the real traces' requests (one request; the file
// exporter's messages) are read from their bytes, as pdata reads them,
// against the signature of their names and the test's.
func TestOTLPProtoWireReal(t *testing.T) {
	for _, file := range []string{"hotrod-full-concurrent.otlp.pb", "oteldemo-cart-error-timeout.otlp.pb",
		"hotrod-full-concurrent.fileexporter-proto.bin", "oteldemo-cart-error-timeout.fileexporter-proto.bin"} {
		path := filepath.Join(realTraces, "otlp", file)
		for i, msg := range protoMessages(t, path) {
			for _, opt := range []logs.Options{{Sig: namesOf(t, path)}, {Sig: testSig(t)}} {
				if !sameProtoReading(t, fmt.Sprintf("%s#%d", file, i), msg, opt) {
					t.Errorf("%s#%d: read by pdata", file, i)
				}
			}
		}
	}
}

// protoMessages returns the requests of an OTLP/protobuf file: itself, or
// the file exporter's messages.
func protoMessages(t testing.TB, path string) [][]byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b[0] == 0x0a {
		return [][]byte{b}
	}
	var msgs [][]byte
	for len(b) >= 4 {
		n := int(binary.BigEndian.Uint32(b))
		msgs = append(msgs, b[4:4+n])
		b = b[4+n:]
	}
	return msgs
}

// FuzzOTLPProtoWire: on any bytes, a request is read from its bytes as
// pdata reads it (sameProtoReading), and never when pdata refuses it.
// Seeds: the requests of TestOTLPProtoWire and of the real traces, and
// testdata/fuzz/FuzzOTLPProtoWire.
func FuzzOTLPProtoWire(f *testing.F) {
	f.Add(protoOf(f, pairedRequest()), 0)
	f.Add(protoOf(f, everyField()), 1)
	for _, b := range handWritten() {
		f.Add(b, 2)
	}
	for _, file := range []string{"hotrod-full-concurrent.otlp.pb", "oteldemo-cart-error-timeout.fileexporter-proto.bin"} {
		for _, msg := range protoMessages(f, filepath.Join(realTraces, "otlp", file)) {
			f.Add(msg, 3)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, o int) {
		opts := wireOptions(t)
		names := []string{"default", "strict", "message attr", "lifeline"}
		name := names[(o%len(names)+len(names))%len(names)]
		sameProtoReading(t, name, in, opts[name])
	})
}
