package monitor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/spec"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestSaturated: with every request slot taken, OTLP/HTTP answers 429 with
// Retry-After and OTLP/gRPC RESOURCE_EXHAUSTED with a RetryInfo; a
// malformed body is a 400, counted.
func TestSaturated(t *testing.T) {
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(c, logs.Options{Sig: sp.Sig}, Options{MaxRequests: 1}, func(check.Record) {})
	if err != nil {
		t.Fatal(err)
	}
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
	_, err = (&grpcServer{m: m}).Export(context.Background(), ptraceotlp.NewExportRequest())
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
	if n := m.Counts(); n.Rejected != 2 || n.BadRequests != 1 {
		t.Errorf("counts %+v", n)
	}
}
