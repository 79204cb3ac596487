package receiver

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// counting counts the spans and requests it is handed, from many
// goroutines.
type counting struct{ spans, requests atomic.Int64 }

func (c *counting) ConsumeTraces(_ string, td ptrace.Traces) (int, error) {
	c.spans.Add(int64(td.SpanCount()))
	c.requests.Add(1)
	return 0, nil
}

func (c *counting) ConsumeTracesProto(source string, b []byte) (int, error) {
	return decodedProto(source, b, c.ConsumeTraces)
}

// serveHTTP serves o's OTLP/HTTP receiver on loopback as ivc monitor does
// (Listen, NewHTTPServer) and returns its URL.
func serveHTTP(t *testing.T, o *OTLP) string {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(o.HTTPHandler())
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// post posts body to url and returns the answer's status and body.
func post(t *testing.T, url, contentType string, gz bool, body []byte) (int, string) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	if gz {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(text)
}

// emptySpans is an OTLP/JSON request of n empty spans.
func emptySpans(n int) []byte {
	return []byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{}` + strings.Repeat(`,{}`, n-1) + `]}]}]}`)
}

// TestHTTPDecodeBound: a small gzip body of a million empty spans (2 MB of
// protobuf, 3 MB of JSON, about 250 MB decoded) is refused 413 before it
// is decoded, as is a body past the limit decompressed (of a receiver
// whose limit is 1 MiB); the receiver still answers the next request.
func TestHTTPDecodeBound(t *testing.T) {
	c := &counting{}
	o := NewOTLP(c, 0)
	url := serveHTTP(t, o)
	const n = 1 << 20
	small := NewOTLPLimits(c, Limits{RequestBytes: 1 << 20})
	pb := spansOf(repeated(n, 2, nil))
	for _, body := range []struct {
		name, ct, url string
		data          []byte
	}{
		{"protobuf", "application/x-protobuf", url, pb},
		{"JSON", "application/json", url, emptySpans(n)},
		{"past the body limit", "application/x-protobuf", serveHTTP(t, small), make([]byte, 1<<20+1)},
	} {
		z := gzipped(body.data)
		code, text := post(t, body.url, body.ct, true, z)
		t.Logf("%s: %d bytes of gzip, %d decompressed: %d %s", body.name, len(z), len(body.data), code, text)
		if code != http.StatusRequestEntityTooLarge {
			t.Errorf("%s: %d %s, want 413", body.name, code, text)
		}
	}
	if c.requests.Load() != 0 {
		t.Errorf("%d spans decoded and handed on", c.spans.Load())
	}
	if code, text := post(t, url, "application/json", false, emptySpans(10)); code != 200 {
		t.Errorf("after them: %d %s", code, text)
	}
	if n := o.Counts(); n.TooLarge != 2 || n.Malformed != 0 || n.Rejected != 0 {
		t.Errorf("counts %+v", n)
	}
}

// TestHTTPTrailingJSON: a JSON body of more than one value (the Collector's
// file export, one request a line, posted as one body) is refused 400,
// none of its spans taken; one value with white space after is read.
func TestHTTPTrailingJSON(t *testing.T) {
	c := &counting{}
	o := NewOTLP(c, 0)
	url := serveHTTP(t, o)
	one := emptySpans(5)
	if code, text := post(t, url, "application/json", false, append(bytes.Clone(one), "\n\n"...)); code != 200 {
		t.Fatalf("one value: %d %s", code, text)
	}
	lines := bytes.Join([][]byte{one, one, one}, []byte("\n"))
	code, text := post(t, url, "application/json", true, gzipped(lines))
	if code != http.StatusBadRequest || !strings.Contains(text, "after the first JSON value") {
		t.Errorf("three values: %d %s, want 400", code, text)
	}
	if c.spans.Load() != 5 {
		t.Errorf("%d spans taken, want the first body's 5", c.spans.Load())
	}
}

// TestHTTPSlowClients: clients that send a request's headers and never its
// body hold no request slot: with more of them than slots, a request sent
// whole is read and answered.
func TestHTTPSlowClients(t *testing.T) {
	c := &counting{}
	o := NewOTLP(c, 4)
	url := serveHTTP(t, o)
	addr := strings.TrimPrefix(url, "http://")
	for range 8 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	}
	time.Sleep(100 * time.Millisecond) // their headers read, their bodies awaited
	if code, text := post(t, url, "application/json", false, emptySpans(3)); code != 200 {
		t.Errorf("beside 8 slow clients: %d %s", code, text)
	}
	if n := o.Counts(); n.Rejected != 0 {
		t.Errorf("counts %+v", n)
	}
}

// TestHTTPTimeouts: the servers of the receivers and the metrics bound the
// time a client takes to send a request and keeps an idle connection.
func TestHTTPTimeouts(t *testing.T) {
	s := NewHTTPServer(http.NotFoundHandler())
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 {
		t.Errorf("timeouts: header %v, read %v, write %v, idle %v", s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout, s.IdleTimeout)
	}
}

// serveGRPC serves o's OTLP/gRPC receiver on loopback as ivc monitor does
// and returns a client of it, and its connection.
func serveGRPC(t *testing.T, o *OTLP) (ptraceotlp.GRPCClient, *grpc.ClientConn) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := o.NewGRPCServer()
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return ptraceotlp.NewGRPCClient(conn), conn
}

// TestGRPCDecodeBound: an OTLP/gRPC request of 350,000 empty spans (3.5
// MB, under gRPC's bound of 4 MiB; about 90 MB decoded) is refused RESOURCE_EXHAUSTED without a
// RetryInfo (not to be retried) before it is decoded; a request of real
// spans is read.
func TestGRPCDecodeBound(t *testing.T) {
	c := &counting{}
	o := NewOTLP(c, 0)
	client, _ := serveGRPC(t, o)
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalProto(spansOf(repeated(350_000, 2, nil))); err != nil {
		t.Fatal(err)
	}
	_, err := client.Export(context.Background(), req)
	st := status.Convert(err)
	for _, d := range st.Details() {
		if _, ok := d.(*errdetails.RetryInfo); ok {
			t.Errorf("a request too large to be read says to retry it")
		}
	}
	if st.Code() != codes.ResourceExhausted || c.requests.Load() != 0 {
		t.Errorf("350,000 empty spans: %v; %d spans handed on", err, c.spans.Load())
	}
	req = ptraceotlp.NewExportRequest()
	if err := req.UnmarshalJSON(emptySpans(10)); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Export(context.Background(), req); err != nil || c.spans.Load() != 10 {
		t.Errorf("ten spans: %v; %d spans handed on", err, c.spans.Load())
	}
	if n := o.Counts(); n.TooLarge != 1 {
		t.Errorf("counts %+v", n)
	}
}

// TestGRPCStreams: past the streams the receiver's memory holds (each may
// receive a message of 4 MiB before it is decoded), a new stream is
// refused saturated, with a RetryInfo, before its message is received; a
// stream that ends gives its room back.
func TestGRPCStreams(t *testing.T) {
	c := &counting{}
	o := NewOTLPLimits(c, Limits{Requests: 1, Memory: DefaultMaxRecvMsgSize})
	client, _ := serveGRPC(t, o)
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := o.NewGRPCServer()
	go s.Serve(ln)
	defer s.Stop()
	cc, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A stream that never sends its message, on a connection of its own.
	if _, err := cc.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true}, "/opentelemetry.proto.collector.trace.v1.TraceService/Export"); err != nil {
		t.Fatal(err)
	}
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalJSON(emptySpans(3)); err != nil {
		t.Fatal(err)
	}
	var st *status.Status
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		_, err := client.Export(context.Background(), req)
		if st = status.Convert(err); st.Code() == codes.ResourceExhausted {
			break // the held stream has arrived
		}
	}
	retry := false
	for _, d := range st.Details() {
		_, retry = d.(*errdetails.RetryInfo)
	}
	if st.Code() != codes.ResourceExhausted || !retry {
		t.Fatalf("beside a stream held: %v (RetryInfo %v)", st, retry)
	}
	cancel()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, err := client.Export(context.Background(), req)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("once the stream ended: %v", err)
		}
	}
}

// TestGRPCSlowStream: streams whose message is never sent whole hold no
// request slot (grpc-go calls the handler before the message is
// received): with one slot, a request sent whole beside them is read.
func TestGRPCSlowStream(t *testing.T) {
	c := &counting{}
	o := NewOTLP(c, 1)
	client, cc := serveGRPC(t, o)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for range 4 { // each on a connection of its own: one stream at once on each (NewGRPCServer)
		slow, err := grpc.NewClient(cc.Target(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer slow.Close()
		if _, err := slow.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true}, "/opentelemetry.proto.collector.trace.v1.TraceService/Export"); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond) // the streams open, their handlers waiting for a message
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalJSON(emptySpans(3)); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Export(context.Background(), req); err != nil || c.spans.Load() != 3 {
		t.Errorf("beside 4 slow streams: %v", err)
	}
}
