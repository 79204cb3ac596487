// Package receiver holds the receivers of ivc monitor: the OTLP trace
// receivers, over gRPC and HTTP, and the followers of log files. As the
// OpenTelemetry Collector's receivers do (its otlpreceiver hands each
// request to a consumer.Traces), a receiver only decodes what arrives and
// hands it on to a consumer: OTLP requests as pdata traces (Traces), log
// streams as readers (Logs). The consumer is ivc monitor's session table
// (monitor.Table), whose internals a receiver never touches: it maps spans
// and events to actions, holds them by session and judges them. cmd/ivc
// wires them together.
//
//	tbl, err := monitor.NewTable(checker, lopt, monitor.Options{}, emit)
//	otlp := receiver.NewOTLP(tbl, 0)
//	go otlp.NewGRPCServer().Serve(ln)                      // OTLP/gRPC
//	http.Handle("/v1/traces", otlp.HTTPHandler())          // OTLP/HTTP
//	go receiver.FollowLog(ctx, tbl, "app.jsonl", nil, receiver.FollowOptions{Poll: 100 * time.Millisecond})
package receiver

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/encoding/gzip" // the Collector's OTLP exporters compress by default
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// Traces is what the OTLP receivers hand each request they decode to, as
// the Collector's receivers hand theirs to a consumer.Traces: the spans of
// td, received by source (the receiver's name: "otlp-grpc", "otlp-http").
// It returns the number of spans it rejected as malformed (an OTLP partial
// success); an error refuses the request. It is called from many
// goroutines at once.
type Traces interface {
	ConsumeTraces(source string, td ptrace.Traces) (rejected int, err error)
}

// The names of the OTLP receivers, the sources of what they receive.
const (
	SourceGRPC = "otlp-grpc"
	SourceHTTP = "otlp-http"
)

// RetryAfter is the delay a saturated receiver asks OTLP clients to wait.
const RetryAfter = time.Second

// DefaultMaxRequests bounds the OTLP requests read at once when NewOTLP is
// given 0.
const DefaultMaxRequests = 64

// maxBody bounds an OTLP/HTTP request body, decompressed.
const maxBody = 64 << 20

// OTLP is the OTLP trace receiver, over gRPC (RegisterGRPC, NewGRPCServer)
// and HTTP (HTTPHandler). Past its bound of requests read at once, it
// answers saturated, with a delay to retry after, as OTLP clients expect.
type OTLP struct {
	next  Traces
	slots chan struct{} // one per request being read

	rejected, malformed atomic.Int64
}

// Counts are the OTLP requests a receiver refused: Rejected, saturated
// (clients retry them); Malformed, that could not be decoded (their spans
// are unknown, so each counts once).
type Counts struct {
	Rejected, Malformed int64
}

// NewOTLP returns the OTLP receiver that hands the requests it decodes to
// next, maxRequests at most at once (0: DefaultMaxRequests).
func NewOTLP(next Traces, maxRequests int) *OTLP {
	if maxRequests <= 0 {
		maxRequests = DefaultMaxRequests
	}
	return &OTLP{next: next, slots: make(chan struct{}, maxRequests)}
}

// Counts returns the requests refused so far.
func (o *OTLP) Counts() Counts {
	return Counts{Rejected: o.rejected.Load(), Malformed: o.malformed.Load()}
}

// acquire takes a request slot, or reports the receiver saturated.
func (o *OTLP) acquire() bool {
	select {
	case o.slots <- struct{}{}:
		return true
	default:
		o.rejected.Add(1)
		return false
	}
}

func (o *OTLP) release() { <-o.slots }

// export hands one OTLP request to the consumer: the answer says how many
// spans were rejected as malformed (partial success).
func (o *OTLP) export(source string, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	resp := ptraceotlp.NewExportResponse()
	td := req.Traces()
	if td.SpanCount() == 0 {
		return resp, nil // an exporter's empty request: nothing to read
	}
	rejected, err := o.next.ConsumeTraces(source, td)
	if err != nil {
		return resp, err
	}
	if rejected > 0 {
		ps := resp.PartialSuccess()
		ps.SetRejectedSpans(int64(rejected))
		ps.SetErrorMessage(fmt.Sprintf("%d spans malformed", rejected))
	}
	return resp, nil
}

// HTTPHandler returns the OTLP/HTTP trace receiver, to serve at
// /v1/traces: protobuf or JSON bodies, gzip or not; 429 with Retry-After
// when saturated.
func (o *OTLP) HTTPHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";")
		json := false
		switch strings.TrimSpace(ct) {
		case "application/x-protobuf":
		case "application/json":
			json = true
		default:
			http.Error(w, "unsupported content type "+strconv.Quote(ct), http.StatusUnsupportedMediaType)
			return
		}
		if !o.acquire() {
			w.Header().Set("Retry-After", strconv.Itoa(int(RetryAfter/time.Second)))
			http.Error(w, "monitor saturated", http.StatusTooManyRequests)
			return
		}
		defer o.release()
		var body io.Reader = r.Body
		switch r.Header.Get("Content-Encoding") {
		case "", "identity":
		case "gzip":
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, "bad gzip body: "+err.Error(), http.StatusBadRequest)
				return
			}
			body = zr
		default:
			http.Error(w, "unsupported content encoding", http.StatusUnsupportedMediaType)
			return
		}
		data, err := io.ReadAll(io.LimitReader(body, maxBody+1))
		if err != nil {
			http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
			return
		}
		if len(data) > maxBody {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		req := ptraceotlp.NewExportRequest()
		if json {
			err = req.UnmarshalJSON(data)
		} else {
			err = req.UnmarshalProto(data)
		}
		if err != nil {
			o.malformed.Add(1)
			http.Error(w, "malformed OTLP request: "+err.Error(), http.StatusBadRequest)
			return
		}
		resp, err := o.export(SourceHTTP, req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var out []byte
		if json {
			out, err = resp.MarshalJSON()
			w.Header().Set("Content-Type", "application/json")
		} else {
			out, err = resp.MarshalProto()
			w.Header().Set("Content-Type", "application/x-protobuf")
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Write(out)
	})
}

// NewGRPCServer returns a gRPC server of the OTLP trace service.
func (o *OTLP) NewGRPCServer() *grpc.Server {
	s := grpc.NewServer()
	o.RegisterGRPC(s)
	return s
}

// RegisterGRPC registers the OTLP/gRPC trace service on s (the gzip codec
// is registered by this package): RESOURCE_EXHAUSTED with a RetryInfo when
// saturated, so that clients retry.
func (o *OTLP) RegisterGRPC(s *grpc.Server) {
	ptraceotlp.RegisterGRPCServer(s, &grpcServer{o: o})
}

type grpcServer struct {
	ptraceotlp.UnimplementedGRPCServer
	o *OTLP
}

func (g *grpcServer) Export(_ context.Context, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	if !g.o.acquire() {
		st, err := status.New(codes.ResourceExhausted, "monitor saturated").
			WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(RetryAfter)})
		if err != nil {
			return ptraceotlp.NewExportResponse(), status.Error(codes.ResourceExhausted, "monitor saturated")
		}
		return ptraceotlp.NewExportResponse(), st.Err()
	}
	defer g.o.release()
	resp, err := g.o.export(SourceGRPC, req)
	if err != nil {
		return resp, status.Error(codes.InvalidArgument, err.Error())
	}
	return resp, nil
}
