package monitor

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ivc-project/ivc/logs"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/encoding/gzip" // the Collector's OTLP exporters compress by default
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// RetryAfter is the delay a saturated monitor asks OTLP clients to wait.
const RetryAfter = time.Second

// maxBody bounds an OTLP/HTTP request body, decompressed.
const maxBody = 64 << 20

// acquire takes a request slot, or reports the monitor saturated.
func (m *Monitor) acquire() bool {
	select {
	case m.slots <- struct{}{}:
		return true
	default:
		m.mu.Lock()
		m.counts.Rejected++
		m.mu.Unlock()
		return false
	}
}

func (m *Monitor) release() { <-m.slots }

// traceReader reads the OTLP requests of one source on one goroutine: its
// events are gathered in events, then added to the monitor at once.
type traceReader struct {
	r      *logs.TraceReader
	events []logs.Event
}

// reader returns a trace reader of source, from its pool.
func (m *Monitor) reader(source string) (*sync.Pool, *traceReader, error) {
	p, ok := m.readers.Load(source)
	if !ok {
		p, _ = m.readers.LoadOrStore(source, &sync.Pool{})
	}
	pool := p.(*sync.Pool)
	if tr, ok := pool.Get().(*traceReader); ok {
		return pool, tr, nil
	}
	r, err := logs.NewTraceReader(source, m.lopt, m.opt.Report)
	if err != nil {
		return nil, nil, err
	}
	return pool, &traceReader{r: r}, nil
}

// Traces reads the spans of td (an OTLP request, decoded by pdata) as the
// OTLP reader of logs maps them, and returns the number of spans rejected
// as malformed. Its events are added at once: a session does not close
// between two spans of one request.
func (m *Monitor) Traces(source string, td ptrace.Traces) (rejected int, err error) {
	if td.SpanCount() == 0 {
		return 0, nil // an exporter's empty request: nothing to read
	}
	pool, tr, err := m.reader(source)
	if err != nil {
		return 0, err
	}
	defer pool.Put(tr)
	tr.events = tr.events[:0]
	st, err := tr.r.Read(td, int(m.requests.Add(1)), func(ev logs.Event) { tr.events = append(tr.events, ev) })
	now := m.opt.Now()
	m.mu.Lock()
	for _, ev := range tr.events {
		m.add(source, ev, now)
	}
	m.counts.Malformed += int64(st.Malformed)
	m.counts.Received += int64(st.Malformed)
	m.counts.Unkinded += int64(st.Unkinded)
	m.mu.Unlock()
	if len(tr.events) > 4*maxBatch { // an outsized request: do not keep its room
		tr.events = nil
	}
	return st.Malformed, err
}

// maxBatch is the number of spans of a large OTLP request (the Collector's
// batch processor sends 8192).
const maxBatch = 8192

// export reads one OTLP request into the monitor: the answer says how many
// spans were rejected as malformed (partial success).
func (m *Monitor) export(name string, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	rejected, err := m.Traces(name, req.Traces())
	resp := ptraceotlp.NewExportResponse()
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
// when the monitor is saturated.
func (m *Monitor) HTTPHandler() http.Handler {
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
		if !m.acquire() {
			w.Header().Set("Retry-After", strconv.Itoa(int(RetryAfter/time.Second)))
			http.Error(w, "monitor saturated", http.StatusTooManyRequests)
			return
		}
		defer m.release()
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
			m.malformedRequest()
			http.Error(w, "malformed OTLP request: "+err.Error(), http.StatusBadRequest)
			return
		}
		resp, err := m.export("otlp-http", req)
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

// malformedRequest counts a request that could not be decoded: its spans
// are unknown, so it is counted once, as a rejected request.
func (m *Monitor) malformedRequest() {
	m.mu.Lock()
	m.counts.BadRequests++
	m.mu.Unlock()
}

// NewGRPCServer returns a gRPC server of the OTLP trace service.
func (m *Monitor) NewGRPCServer() *grpc.Server {
	s := grpc.NewServer()
	m.RegisterGRPC(s)
	return s
}

// RegisterGRPC registers the OTLP/gRPC trace service on s (the gzip codec
// is registered by this package): RESOURCE_EXHAUSTED with a RetryInfo when
// the monitor is saturated, so that clients retry.
func (m *Monitor) RegisterGRPC(s *grpc.Server) {
	ptraceotlp.RegisterGRPCServer(s, &grpcServer{m: m})
}

type grpcServer struct {
	ptraceotlp.UnimplementedGRPCServer
	m *Monitor
}

func (g *grpcServer) Export(_ context.Context, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	if !g.m.acquire() {
		st, err := status.New(codes.ResourceExhausted, "monitor saturated").
			WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(RetryAfter)})
		if err != nil {
			return ptraceotlp.NewExportResponse(), status.Error(codes.ResourceExhausted, "monitor saturated")
		}
		return ptraceotlp.NewExportResponse(), st.Err()
	}
	defer g.m.release()
	resp, err := g.m.export("otlp-grpc", req)
	if err != nil {
		return resp, status.Error(codes.InvalidArgument, err.Error())
	}
	return resp, nil
}
