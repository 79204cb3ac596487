// Package receiver holds the receivers of ivc monitor: the OTLP trace
// receivers, over gRPC and HTTP, and the followers of log files. As the
// OpenTelemetry Collector's receivers do (its otlpreceiver hands each
// request to a consumer.Traces), a receiver only takes what arrives and
// hands it on to a consumer: OTLP requests as their protobuf bytes, or
// decoded by pdata from OTLP/JSON (Traces), log streams as readers (Logs).
// The consumer is ivc monitor's session table (monitor.Table), whose
// internals a receiver never touches: it maps spans and events to actions,
// holds them by session and judges them. cmd/ivc wires them together.
//
//	tbl, err := monitor.NewTable(checker, lopt, monitor.Options{}, emit)
//	otlp := receiver.NewOTLP(tbl, 0)
//	ln, err := receiver.Listen("127.0.0.1:4317")          // a bound on connections
//	go otlp.NewGRPCServer().Serve(ln)                      // OTLP/gRPC
//	srv := receiver.NewHTTPServer(otlp.HTTPHandler())      // OTLP/HTTP, with timeouts
//	go receiver.FollowLog(ctx, tbl, "app.jsonl", nil, receiver.FollowOptions{Poll: 100 * time.Millisecond})
//
// A receiver faces the network: what one request may take is bounded
// before it is decoded (Limits), and so are the requests decoded at once,
// the connections open, and the time a client may take to send a request.
// It answers as the OTLP specification asks (its "Failures" and
// "Throttling" sections, for gRPC and HTTP): a request it cannot read is
// refused for good (HTTP 400, or 413 past its size; gRPC INVALID_ARGUMENT,
// or RESOURCE_EXHAUSTED without a RetryInfo), a saturated receiver asks for
// a retry (HTTP 429 with Retry-After; gRPC RESOURCE_EXHAUSTED with a
// RetryInfo), and a request with malformed spans is a partial success.
package receiver

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"golang.org/x/net/netutil"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	_ "google.golang.org/grpc/encoding/gzip" // the Collector's OTLP exporters compress by default
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/ivc-project/ivc/logs"
)

// Traces is what the OTLP receivers hand each request to, as the
// Collector's receivers hand theirs to a consumer.Traces: the spans of a
// request received by source (the receiver's name: "otlp-grpc",
// "otlp-http"), as its OTLP/protobuf bytes (ConsumeTracesProto: b is not
// kept once it returns; a request that does not decode is a
// *logs.ProtoError), or decoded by pdata from OTLP/JSON (ConsumeTraces).
// It returns the number of spans it rejected as malformed (an OTLP partial
// success); an error refuses the request. It is called from many
// goroutines at once.
type Traces interface {
	ConsumeTracesProto(source string, b []byte) (rejected int, err error)
	ConsumeTraces(source string, td ptrace.Traces) (rejected int, err error)
}

// The names of the OTLP receivers, the sources of what they receive.
const (
	SourceGRPC = "otlp-grpc"
	SourceHTTP = "otlp-http"
)

// RetryAfter is the delay a saturated receiver asks OTLP clients to wait.
const RetryAfter = time.Second

// Defaults of Limits, and of the servers of NewGRPCServer, NewHTTPServer
// and Listen.
const (
	// DefaultMaxRequests bounds the OTLP requests decoded at once.
	DefaultMaxRequests = 64
	// DefaultRequestBytes bounds what one request may take decoded: a
	// batch of the Collector (8,192 spans) with a few attributes a span
	// takes 10 to 20 MB.
	DefaultRequestBytes = 64 << 20
	// DefaultMemory bounds what the requests being read and decoded take
	// at once.
	DefaultMemory = 512 << 20
	// DefaultMaxConns bounds the connections a receiver holds open; past
	// it, new ones wait to be accepted.
	DefaultMaxConns = 256
	// DefaultMaxRecvMsgSize bounds an OTLP/gRPC message, decompressed: the
	// Collector's OTLP receiver's default.
	DefaultMaxRecvMsgSize = 4 << 20
	// The timeouts of an OTLP/HTTP receiver: to send a request's headers,
	// the whole request, to write the answer, and to keep a connection
	// open between requests; and of an OTLP/gRPC connection left idle.
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 2 * time.Minute
)

// Limits bound what the OTLP receivers read. Zero values take the
// defaults.
type Limits struct {
	// Requests bounds the requests decoded at once (DefaultMaxRequests);
	// a request's slot is taken once its body is read, so that a client
	// slow to send one holds none. Past it, a request is refused
	// saturated, to be retried.
	Requests int
	// RequestBytes bounds what one request may take decoded, as estimated
	// before it is decoded (a cost for each message and field of its
	// protobuf or JSON), and an OTLP/HTTP body, as sent and decompressed
	// (DefaultRequestBytes). Past it, a request is refused for good: it
	// would be as large when retried.
	RequestBytes int64
	// Memory bounds what the requests being read and decoded take at
	// once: bodies as they are read, and the estimates of the requests
	// decoded (DefaultMemory). Past it, a request is refused saturated.
	Memory int64
}

// OTLP is the OTLP trace receiver, over gRPC (RegisterGRPC, NewGRPCServer)
// and HTTP (HTTPHandler). Past its bounds (Limits) it answers as OTLP
// clients expect: saturated, with a delay to retry after; too large or
// malformed, not to be retried.
type OTLP struct {
	next  Traces
	lim   Limits
	slots chan struct{} // one per request being decoded
	held  atomic.Int64  // bytes of requests being read and decoded, within lim.Memory
	// streams are the OTLP/gRPC streams open, each receiving a message of
	// up to DefaultMaxRecvMsgSize before a slot is taken: maxStreams at
	// most, what lim.Memory holds of such messages.
	streams    atomic.Int64
	maxStreams int64

	rejected, tooLarge, malformed atomic.Int64
}

// Counts are the OTLP requests a receiver refused: Rejected, saturated
// (clients retry them); TooLarge, past Limits.RequestBytes; Malformed,
// that could not be decoded (their spans are unknown, so each counts
// once).
type Counts struct {
	Rejected, TooLarge, Malformed int64
}

// NewOTLP returns the OTLP receiver that hands the requests it decodes to
// next, maxRequests at most at once (0: DefaultMaxRequests), within the
// default Limits otherwise.
func NewOTLP(next Traces, maxRequests int) *OTLP {
	return NewOTLPLimits(next, Limits{Requests: maxRequests})
}

// NewOTLPLimits returns the OTLP receiver that hands the requests it
// decodes to next, within lim.
func NewOTLPLimits(next Traces, lim Limits) *OTLP {
	if lim.Requests <= 0 {
		lim.Requests = DefaultMaxRequests
	}
	if lim.RequestBytes <= 0 {
		lim.RequestBytes = DefaultRequestBytes
	}
	if lim.Memory <= 0 {
		lim.Memory = DefaultMemory
	}
	lim.RequestBytes = min(lim.RequestBytes, lim.Memory)
	return &OTLP{next: next, lim: lim, slots: make(chan struct{}, lim.Requests),
		maxStreams: max(int64(lim.Requests), lim.Memory/DefaultMaxRecvMsgSize)}
}

// Counts returns the requests refused so far.
func (o *OTLP) Counts() Counts {
	return Counts{Rejected: o.rejected.Load(), TooLarge: o.tooLarge.Load(), Malformed: o.malformed.Load()}
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

// Why a request is refused before it is decoded.
var (
	errSaturated = errors.New("monitor saturated")
	errTooLarge  = errors.New("request too large")
)

// reserve takes n bytes of Limits.Memory for a request, adding them to
// *held (which the request gives back with free), or reports the
// receiver saturated.
func (o *OTLP) reserve(n int64, held *int64) error {
	for {
		cur := o.held.Load()
		if cur+n > o.lim.Memory {
			o.rejected.Add(1)
			return errSaturated
		}
		if o.held.CompareAndSwap(cur, cur+n) {
			*held += n
			return nil
		}
	}
}

func (o *OTLP) free(held int64) { o.held.Add(-held) }

// bound checks a request's decoded estimate against Limits and reserves
// it: errTooLarge, errSaturated, or nil.
func (o *OTLP) bound(estimate int64, held *int64) error {
	if estimate > o.lim.RequestBytes {
		o.tooLarge.Add(1)
		return errTooLarge
	}
	return o.reserve(estimate, held)
}

// export hands one OTLP request decoded by pdata to the consumer: the
// answer says how many spans were rejected as malformed (partial success).
func (o *OTLP) export(source string, req ptraceotlp.ExportRequest) (ptraceotlp.ExportResponse, error) {
	td := req.Traces()
	if td.SpanCount() == 0 {
		return ptraceotlp.NewExportResponse(), nil // an exporter's empty request: nothing to read
	}
	rejected, err := o.next.ConsumeTraces(source, td)
	return response(rejected), err
}

// exportProto hands one OTLP request, its protobuf bytes, to the consumer:
// the answer says how many spans were rejected as malformed (partial
// success); malformed is the error of a request that does not decode.
func (o *OTLP) exportProto(source string, b []byte) (resp ptraceotlp.ExportResponse, malformed, err error) {
	rejected, err := o.next.ConsumeTracesProto(source, b)
	if bad, ok := errors.AsType[*logs.ProtoError](err); ok {
		o.malformed.Add(1)
		return resp, bad.Err, nil
	}
	return response(rejected), nil, err
}

// response is the answer to a request of which rejected spans were
// malformed.
func response(rejected int) ptraceotlp.ExportResponse {
	resp := ptraceotlp.NewExportResponse()
	if rejected > 0 {
		ps := resp.PartialSuccess()
		ps.SetRejectedSpans(int64(rejected))
		ps.SetErrorMessage(fmt.Sprintf("%d spans malformed", rejected))
	}
	return resp
}

// readBody reads r whole, at most limit bytes (errTooLarge past them),
// reserving what it holds as it grows (errSaturated when Limits.Memory
// cannot give it).
func (o *OTLP) readBody(r io.Reader, limit int64, held *int64) ([]byte, error) {
	var buf []byte
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				o.tooLarge.Add(1)
				return nil, errTooLarge
			}
			grow := min(max(int64(cap(buf)), 32<<10), limit+1-int64(cap(buf)))
			if err := o.reserve(grow, held); err != nil {
				return nil, err
			}
			nb := make([]byte, len(buf), int64(cap(buf))+grow)
			copy(nb, buf)
			buf = nb
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			if int64(len(buf)) > limit {
				o.tooLarge.Add(1)
				return nil, errTooLarge
			}
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// HTTPHandler returns the OTLP/HTTP trace receiver, to serve at
// /v1/traces: protobuf or JSON bodies, gzip or not (serve it with
// NewHTTPServer). Its answers are the OTLP specification's: 400 for a
// body that is not one OTLP request (JSON: data after its first value
// too), 413 past Limits.RequestBytes, 429 with Retry-After when
// saturated.
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
		gz := false
		switch r.Header.Get("Content-Encoding") {
		case "", "identity":
		case "gzip":
			gz = true
		default:
			http.Error(w, "unsupported content encoding", http.StatusUnsupportedMediaType)
			return
		}
		refuse := func(err error) {
			switch {
			case errors.Is(err, errSaturated):
				w.Header().Set("Retry-After", strconv.Itoa(int(RetryAfter/time.Second)))
				http.Error(w, err.Error(), http.StatusTooManyRequests)
			case errors.Is(err, errTooLarge):
				http.Error(w, fmt.Sprintf("%v: more than %d bytes decoded", err, o.lim.RequestBytes), http.StatusRequestEntityTooLarge)
			default:
				o.malformed.Add(1)
				http.Error(w, "malformed OTLP request: "+err.Error(), http.StatusBadRequest)
			}
		}
		if r.ContentLength > o.lim.RequestBytes {
			o.tooLarge.Add(1)
			refuse(errTooLarge)
			return
		}
		// The body is read before a request slot is taken, within the
		// server's ReadTimeout: a client slow to send it holds no slot.
		var held int64
		defer func() { o.free(held) }()
		data, err := o.readBody(r.Body, o.lim.RequestBytes, &held)
		if err != nil {
			refuse(err)
			return
		}
		if !o.acquire() {
			refuse(errSaturated)
			return
		}
		defer o.release()
		if gz {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				refuse(fmt.Errorf("bad gzip body: %w", err))
				return
			}
			data, err = o.readBody(zr, o.lim.RequestBytes, &held)
			if err != nil {
				refuse(err)
				return
			}
		}
		var estimate int64
		if json {
			estimate, _, err = jsonEstimate(data)
		} else {
			estimate, err = protoEstimate(data)
		}
		if err == nil {
			err = o.bound(estimate, &held)
		}
		if err != nil {
			refuse(err)
			return
		}
		var resp ptraceotlp.ExportResponse
		if json {
			req := ptraceotlp.NewExportRequest()
			if err := req.UnmarshalJSON(data); err != nil {
				refuse(err)
				return
			}
			resp, err = o.export(SourceHTTP, req)
		} else {
			var malformed error
			resp, malformed, err = o.exportProto(SourceHTTP, data)
			if malformed != nil {
				http.Error(w, "malformed OTLP request: "+malformed.Error(), http.StatusBadRequest)
				return
			}
		}
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

// NewHTTPServer returns a server of h (the OTLP/HTTP receiver, the
// metrics) with the timeouts of a server facing the network: a client
// has ReadHeaderTimeout to send a request's headers, ReadTimeout the
// whole request; an idle connection is closed after IdleTimeout.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: ReadHeaderTimeout, ReadTimeout: ReadTimeout,
		WriteTimeout: WriteTimeout, IdleTimeout: IdleTimeout}
}

// Listen listens on the TCP address addr, holding DefaultMaxConns
// connections open at most: past them, a new connection waits to be
// accepted until one closes.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return netutil.LimitListener(ln, DefaultMaxConns), nil
}

// NewGRPCServer returns a gRPC server of the OTLP trace service: messages
// of DefaultMaxRecvMsgSize at most, Limits.Requests streams at once on a
// connection, as many as Limits.Memory holds of such messages on all
// (past them, a stream is refused saturated before its message is
// received), and idle connections closed after IdleTimeout.
func (o *OTLP) NewGRPCServer() *grpc.Server {
	s := grpc.NewServer(
		grpc.MaxRecvMsgSize(DefaultMaxRecvMsgSize),
		grpc.MaxConcurrentStreams(uint32(o.lim.Requests)),
		grpc.InTapHandle(o.tap),
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: IdleTimeout}))
	o.RegisterGRPC(s)
	return s
}

// tap admits a new gRPC stream, before its message is received, while
// fewer than maxStreams are open; the stream's context ends with it.
func (o *OTLP) tap(ctx context.Context, _ *tap.Info) (context.Context, error) {
	if o.streams.Add(1) > o.maxStreams {
		o.streams.Add(-1)
		o.rejected.Add(1)
		return ctx, saturated()
	}
	context.AfterFunc(ctx, func() { o.streams.Add(-1) })
	return ctx, nil
}

// RegisterGRPC registers the OTLP/gRPC trace service on s (the gzip codec
// is registered by this package). Unlike ptraceotlp.RegisterGRPCServer's,
// its handler takes a request slot once the message is received, before
// it is read, and bounds the message's decoded estimate before the
// consumer reads it:
// RESOURCE_EXHAUSTED with a RetryInfo when saturated, so that clients
// retry; without one past Limits.RequestBytes (the OTLP specification's
// way of saying not to); INVALID_ARGUMENT when it is not an OTLP request.
func (o *OTLP) RegisterGRPC(s *grpc.Server) {
	s.RegisterService(&grpc.ServiceDesc{
		ServiceName: "opentelemetry.proto.collector.trace.v1.TraceService",
		HandlerType: (*any)(nil),
		Methods:     []grpc.MethodDesc{{MethodName: "Export", Handler: o.grpcExport}},
		Metadata:    "opentelemetry/proto/collector/trace/v1/trace_service.proto",
	}, o)
}

// grpcExport is the handler of the Export method. grpc-go calls a handler
// as soon as a stream opens, its message neither received nor decoded: dec
// receives it (as slowly as the client sends it), then decodes it with the
// codec registered as "proto" (pdata's, which decodes a message with an
// UnmarshalProto method by calling it on the bytes: grpcRequest's, which
// takes the request's slot, bounds it, then copies the bytes, which the
// codec reuses once it returns). The handler hands the bytes to the
// consumer, which reads them without pdata.
func (o *OTLP) grpcExport(_ any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
	in := &grpcRequest{o: o}
	defer in.done()
	if err := dec(in); err != nil {
		return nil, err
	}
	switch {
	case errors.Is(in.err, errSaturated):
		return nil, saturated()
	case errors.Is(in.err, errTooLarge):
		return nil, status.Errorf(codes.ResourceExhausted, "%v: more than %d bytes decoded", in.err, o.lim.RequestBytes)
	case in.err != nil:
		o.malformed.Add(1)
		return nil, status.Error(codes.InvalidArgument, "malformed OTLP request: "+in.err.Error())
	}
	handler := func(_ context.Context, req any) (any, error) {
		resp, malformed, err := o.exportProto(SourceGRPC, req.(*grpcRequest).body)
		if malformed != nil {
			return nil, status.Error(codes.InvalidArgument, "malformed OTLP request: "+malformed.Error())
		}
		if err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
		out, err := resp.MarshalProto()
		if err != nil {
			return nil, status.Error(codes.Internal, err.Error())
		}
		return grpcResponse(out), nil
	}
	if interceptor == nil {
		return handler(ctx, in)
	}
	info := &grpc.UnaryServerInfo{Server: o, FullMethod: "/opentelemetry.proto.collector.trace.v1.TraceService/Export"}
	return interceptor(ctx, in, info, handler)
}

// saturated is the answer of a saturated OTLP/gRPC receiver.
func saturated() error {
	st, err := status.New(codes.ResourceExhausted, errSaturated.Error()).
		WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(RetryAfter)})
	if err != nil {
		return status.Error(codes.ResourceExhausted, errSaturated.Error())
	}
	return st.Err()
}

// grpcRequest is an OTLP/gRPC request as its codec hands it over: its
// UnmarshalProto, given the message received, takes a request slot,
// bounds the message's decoded estimate, then copies it (into a buffer of
// bodies), for the handler to hand to the consumer. Why it is refused is
// kept in err, for the handler to answer with its own status (a codec's
// error is answered INTERNAL).
type grpcRequest struct {
	o    *OTLP
	body []byte  // the message, copied
	buf  *[]byte // the buffer of body, from bodies
	slot bool    // a request slot taken
	held int64   // bytes of Limits.Memory reserved
	err  error
}

// bodies are the buffers of the OTLP/gRPC messages being read, kept from
// one request to the next.
var bodies sync.Pool

// done gives back what the request took.
func (r *grpcRequest) done() {
	r.o.free(r.held)
	if r.slot {
		r.o.release()
	}
	if r.buf != nil && cap(*r.buf) <= maxPooledBody {
		*r.buf = (*r.buf)[:0]
		bodies.Put(r.buf)
	}
	r.buf, r.body = nil, nil
}

// maxPooledBody is the largest buffer kept in bodies: the buffer of an
// outsized message is let go, not held between requests outside the
// memory bound (an exporter's batches of 8,192 spans are about 2 MiB).
const maxPooledBody = 4 << 20

func (r *grpcRequest) UnmarshalProto(b []byte) error {
	if !r.o.acquire() {
		r.err = errSaturated
		return nil
	}
	r.slot = true
	estimate, err := protoEstimate(b)
	if err == nil {
		err = r.o.bound(estimate, &r.held)
	}
	if err != nil {
		r.err = err
		return nil
	}
	r.buf, _ = bodies.Get().(*[]byte)
	if r.buf == nil {
		r.buf = new([]byte)
	}
	*r.buf = append((*r.buf)[:0], b...)
	r.body = *r.buf
	return nil
}

func (r *grpcRequest) SizeProto() int          { return 0 }
func (r *grpcRequest) MarshalProto([]byte) int { return 0 }

// grpcResponse is an OTLP/gRPC answer, encoded, as its codec takes it.
type grpcResponse []byte

func (r grpcResponse) SizeProto() int              { return len(r) }
func (r grpcResponse) MarshalProto(b []byte) int   { return copy(b, r) }
func (r grpcResponse) UnmarshalProto([]byte) error { return errors.New("an answer is not read") }
