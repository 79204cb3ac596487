package receiver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/ivc-project/ivc/logs"
)

// consumer counts the spans it is handed, rejecting none.
type consumer struct{ spans int }

func (c *consumer) ConsumeTraces(source string, td ptrace.Traces) (int, error) {
	c.spans += td.SpanCount()
	return 0, nil
}

func (c *consumer) ConsumeTracesProto(source string, b []byte) (int, error) {
	return decodedProto(source, b, c.ConsumeTraces)
}

// decodedProto hands b, an OTLP/protobuf request, decoded by pdata to consume
// when it holds a span: the consumers of these tests count what pdata
// decodes.
func decodedProto(source string, b []byte, consume func(string, ptrace.Traces) (int, error)) (int, error) {
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalProto(b); err != nil {
		return 0, &logs.ProtoError{Err: err}
	}
	if req.Traces().SpanCount() == 0 {
		return 0, nil
	}
	return consume(source, req.Traces())
}

// TestSaturated: with every request slot taken, OTLP/HTTP answers 429 with
// Retry-After and OTLP/gRPC RESOURCE_EXHAUSTED with a RetryInfo; a
// malformed body is a 400, counted.
func TestSaturated(t *testing.T) {
	m := NewOTLP(&consumer{}, 1)
	srv := httptest.NewServer(m.HTTPHandler())
	defer srv.Close()
	post := func() *http.Response {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"resourceSpans":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := post(); resp.StatusCode != 200 {
		t.Fatalf("not saturated: %s", resp.Status)
	}
	m.slots <- struct{}{} // the one slot, taken
	if resp := post(); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("saturated: %s, Retry-After %q", resp.Status, resp.Header.Get("Retry-After"))
	}
	var in *grpcRequest
	_, err := m.grpcExport(nil, context.Background(), func(v any) error {
		in = v.(*grpcRequest)
		return in.UnmarshalProto(spansOf(repeated(3, 2, nil)))
	}, nil)
	if in.body != nil {
		t.Error("a saturated receiver takes the message")
	}
	st := status.Convert(err)
	retry := false
	for _, d := range st.Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok && ri.RetryDelay.AsDuration() == RetryAfter {
			retry = true
		}
	}
	if st.Code() != codes.ResourceExhausted || !retry {
		t.Errorf("saturated gRPC: %v, RetryInfo %v", st, retry)
	}
	<-m.slots
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"resourceSpans":`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed: %s", resp.Status)
	}
	if n := m.Counts(); n.Rejected != 2 || n.Malformed != 1 {
		t.Errorf("counts %+v", n)
	}
}
