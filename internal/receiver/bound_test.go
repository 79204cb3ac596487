package receiver

import (
	"bytes"
	"math/bits"
	"runtime"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/protobuf/encoding/protowire"
)

// field returns field num holding v, length-delimited.
func field(num protowire.Number, v []byte) []byte {
	b := protowire.AppendTag(nil, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// repeated returns n copies of field num holding v.
func repeated(n int, num protowire.Number, v []byte) []byte {
	return bytes.Repeat(field(num, v), n)
}

// spansOf returns a request whose one scope holds the spans of b (field 2
// of ScopeSpans, already encoded).
func spansOf(spans []byte) []byte {
	return field(1, field(2, spans)) // request.resource_spans{scope_spans{spans}}
}

// hostileRequests are requests of many small messages, each shape an
// expansion of its own: empty spans, attributes, events, links, values of
// an array, resources and scopes.
func hostileRequests(n int) map[string][]byte {
	intValue := field(2, []byte{3 << 3, 0}) // KeyValue.value = AnyValue{int_value: 0}
	return map[string][]byte{
		"spans":       spansOf(repeated(n, 2, nil)),
		"attributes":  spansOf(field(2, repeated(n, 9, nil))),
		"int values":  spansOf(field(2, repeated(n, 9, intValue))),
		"events":      spansOf(field(2, repeated(n, 11, nil))),
		"links":       spansOf(field(2, repeated(n, 13, nil))),
		"array":       spansOf(field(2, field(9, field(2, field(5, repeated(n, 1, nil)))))),
		"resources":   repeated(n, 1, nil),
		"scopes":      field(1, repeated(n, 2, nil)),
		"scope attrs": field(1, field(2, field(1, repeated(n, 3, nil)))),
	}
}

// decoded returns the bytes of the heap that decode keeps in use: what the
// request it decodes holds.
func decoded(decode func() ptraceotlp.ExportRequest) int64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.GC() // and the pools' victims
	runtime.ReadMemStats(&m0)
	req := decode()
	runtime.GC()
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(req)
	return int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
}

// TestDecodedEstimate: for requests of many small messages of every kind,
// protobuf and JSON, the estimate made before decoding is above what the
// request decoded by pdata holds.
func TestDecodedEstimate(t *testing.T) {
	const n = 20000
	for name, b := range hostileRequests(n) {
		est, err := protoEstimate(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		req := ptraceotlp.NewExportRequest()
		got := decoded(func() ptraceotlp.ExportRequest {
			if err := req.UnmarshalProto(b); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return req
		})
		t.Logf("%-11s protobuf %7d B, decoded %9d B, estimate %9d B", name, len(b), got, est)
		if est < got {
			t.Errorf("%s: protobuf estimate %d below the %d bytes decoded", name, est, got)
		}
		js, err := req.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		jest, end, err := jsonEstimate(js)
		if err != nil || end != len(js) {
			t.Fatalf("%s: JSON estimate: %v (end %d of %d)", name, err, end, len(js))
		}
		got = decoded(func() ptraceotlp.ExportRequest {
			req := ptraceotlp.NewExportRequest()
			if err := req.UnmarshalJSON(js); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return req
		})
		t.Logf("%-11s JSON     %7d B, decoded %9d B, estimate %9d B", name, len(js), got, jest)
		if jest < got {
			t.Errorf("%s: JSON estimate %d below the %d bytes decoded", name, jest, got)
		}
	}
}

// TestJSONTrailing: a JSON body is one object, then only white space.
func TestJSONTrailing(t *testing.T) {
	for _, c := range []struct {
		body string
		ok   bool
	}{
		{`{"resourceSpans":[]}`, true},
		{" {\"a\":\"}\\\"{\"} \n", true},
		{`{"resourceSpans":[]}{"resourceSpans":[]}`, false},
		{"{\"resourceSpans\":[]}\n{\"resourceSpans\":[]}\n", false},
		{`{"resourceSpans":[]} x`, false},
		{`[{"resourceSpans":[]}]`, false},
		{`{"resourceSpans":[`, false},
		{``, false},
	} {
		_, _, err := jsonEstimate([]byte(c.body))
		if (err == nil) != c.ok {
			t.Errorf("%q: %v", c.body, err)
		}
	}
	if _, err := protoEstimate([]byte{0x0a, 0x05, 1}); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("a cut protobuf: %v", err)
	}
}

// realRequest returns a request of n spans as services send them: ids,
// names, times, a kind and five attributes each.
func realRequest(n int) ptraceotlp.ExportRequest {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "shop")
	ss := rs.ScopeSpans().AppendEmpty()
	for i := range n {
		sp := ss.Spans().AppendEmpty()
		sp.SetTraceID(pcommon.TraceID{0: byte(i), 1: byte(i >> 8), 15: 1})
		sp.SetSpanID(pcommon.SpanID{0: byte(i), 7: 1})
		sp.SetParentSpanID(pcommon.SpanID{0: byte(i), 7: 2})
		sp.SetName("POST /orders")
		sp.SetKind(ptrace.SpanKindServer)
		sp.SetStartTimestamp(pcommon.Timestamp(1e18 + uint64(i)))
		sp.SetEndTimestamp(pcommon.Timestamp(1e18 + uint64(i) + 1000))
		a := sp.Attributes()
		a.PutStr("rpc.method", "PlaceOrder")
		a.PutStr("http.route", "/orders")
		a.PutInt("http.status_code", 200)
		a.PutStr("messaging.destination.name", "orders")
		a.PutBool("retry", false)
	}
	return ptraceotlp.NewExportRequestFromTraces(td)
}

// TestRealEstimate: for spans as services send them, the estimate is
// within a few times what the request decoded holds, so that a bound on it
// does not refuse real batches: a batch of the Collector (8,192 spans) is
// well under DefaultRequestBytes, as JSON too.
func TestRealEstimate(t *testing.T) {
	req := realRequest(8192)
	b, err := req.MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	js, err := req.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	jest, _, err := jsonEstimate(js)
	if err != nil {
		t.Fatal(err)
	}
	est, err := protoEstimate(b)
	if err != nil {
		t.Fatal(err)
	}
	got := decoded(func() ptraceotlp.ExportRequest {
		req := ptraceotlp.NewExportRequest()
		req.UnmarshalProto(b)
		return req
	})
	runtime.KeepAlive(req) // in the heap before decoding, and after
	t.Logf("8192 spans: protobuf %d B, decoded %d B, estimate %d B; JSON %d B, estimate %d B", len(b), got, est, len(js), jest)
	// The costs are a 64-bit process's; a 32-bit one decodes into less.
	over := int64(4)
	if bits.UintSize == 32 {
		over = 8
	}
	if est < got || est > over*got || est > DefaultRequestBytes/4 || jest > DefaultRequestBytes/2 {
		t.Errorf("estimate %d (JSON %d) for %d bytes decoded", est, jest, got)
	}
}

// BenchmarkEstimate is the scan of a request of 512 spans before it is
// decoded, beside its decoding: what the bound costs the receivers.
//
//	go test ./internal/receiver -run '^$' -bench Estimate -benchmem
func BenchmarkEstimate(b *testing.B) {
	data, err := realRequest(512).MarshalProto()
	if err != nil {
		b.Fatal(err)
	}
	js, err := realRequest(512).MarshalJSON()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("scan-proto", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			protoEstimate(data)
		}
	})
	b.Run("decode-proto", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ptraceotlp.NewExportRequest().UnmarshalProto(data)
		}
	})
	b.Run("scan-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			jsonEstimate(js)
		}
	})
	b.Run("decode-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ptraceotlp.NewExportRequest().UnmarshalJSON(js)
		}
	})
}
