package receiver

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/protobuf/encoding/protowire"
)

// msg is a protobuf message of the given fields, each a (number, bytes)
// length-delimited field.
func msg(fields ...[]byte) []byte { return bytes.Join(fields, nil) }

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

// allocated returns the bytes f allocates.
func allocated(f func()) int64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return int64(m1.TotalAlloc - m0.TotalAlloc)
}

// TestDecodedEstimate: for requests of many small messages of every kind,
// protobuf and JSON, the estimate made before decoding is above what pdata
// allocates to decode them; for a request of real spans it is within a
// few times of it.
func TestDecodedEstimate(t *testing.T) {
	const n = 20000
	for name, b := range hostileRequests(n) {
		est, err := protoEstimate(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		req := ptraceotlp.NewExportRequest()
		got := allocated(func() {
			if err := req.UnmarshalProto(b); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
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
		got = allocated(func() {
			if err := ptraceotlp.NewExportRequest().UnmarshalJSON(js); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
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
