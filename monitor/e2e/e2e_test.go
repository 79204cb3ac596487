package e2e

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/spec"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
)

// msg is a message between services, with its trace context.
type msg struct {
	name    string
	carrier propagation.MapCarrier
}

// service is one instrumented service: its tracer provider names it.
type service struct {
	tp *sdktrace.TracerProvider
	in chan msg
}

var prop = propagation.TraceContext{}

// send records the emission of m (a PRODUCER span) and passes it on with
// its context.
func (s *service) send(ctx context.Context, to *service, m string) {
	ctx, span := s.tp.Tracer("shop").Start(ctx, "send "+m, trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(attribute.String("messaging.destination.name", m)))
	c := propagation.MapCarrier{}
	prop.Inject(ctx, c)
	span.End()
	to.in <- msg{name: m, carrier: c}
}

// receive records the reception of the next message (a CONSUMER span,
// child of its emission) and returns its context.
func (s *service) receive() (context.Context, string) {
	m := <-s.in
	ctx := prop.Extract(context.Background(), m.carrier)
	ctx, span := s.tp.Tracer("shop").Start(ctx, "receive "+m.name, trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attribute.String("messaging.destination.name", m.name)))
	span.End()
	return ctx, m.name
}

// fault is a protocol fault injected into the shop.
type fault int

const (
	none        fault = iota
	skipQuery         // the shop answers without asking the database
	doubleRows        // the database answers twice
	wrongAnswer       // the shop sends the client rows instead of a receipt
)

// order runs one order through the services and returns its trace id.
func order(client, shop, db *service, f fault) trace.TraceID {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // the shop
		defer wg.Done()
		ctx, _ := shop.receive()
		if f != skipQuery {
			shop.send(ctx, db, "query")
			ctx, _ = shop.receive()
			if f == doubleRows {
				ctx, _ = shop.receive()
			}
		}
		if f == wrongAnswer {
			shop.send(ctx, client, "rows")
		} else {
			shop.send(ctx, client, "receipt")
		}
	}()
	go func() { // the database
		defer wg.Done()
		if f == skipQuery {
			return
		}
		ctx, _ := db.receive()
		db.send(ctx, shop, "rows")
		if f == doubleRows {
			db.send(ctx, shop, "rows")
		}
	}()
	ctx, root := client.tp.Tracer("shop").Start(context.Background(), "checkout")
	client.send(ctx, shop, "order")
	client.receive()
	root.End()
	wg.Wait()
	return root.SpanContext().TraceID()
}

func newService(t *testing.T, name string, exp sdktrace.SpanExporter) *service {
	res := sdkresource.NewSchemaless(semconv.ServiceName(name))
	return &service{tp: sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithBatcher(exp,
		sdktrace.WithBatchTimeout(50*time.Millisecond))), in: make(chan msg, 4)}
}

// TestShop: the client exports over OTLP/gRPC, the shop and the database
// over OTLP/HTTP (protobuf, gzip); the monitor's verdicts are the expected
// ones, the correct order a Pass, every fault a Fail.
func TestShop(t *testing.T) {
	sp, err := spec.Load("testdata/shop.hsf", "testdata/shop.hif")
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	got := map[string]monitor.Record{}
	early := map[string]string{} // the early records' verdicts
	m, err := monitor.New(c, logs.Options{Sig: sp.Sig}, monitor.Options{Idle: time.Hour}, func(r monitor.Record) {
		mu.Lock()
		got[r.Session] = r
		if r.ClosedBy == monitor.ClosedEarly {
			early[r.Session] = r.Verdict
		}
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	gln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	m.RegisterGRPC(gs)
	go gs.Serve(gln)
	defer gs.Stop()
	hln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/traces", m.HTTPHandler())
	hs := &http.Server{Handler: mux}
	go hs.Serve(hln)
	defer hs.Close()

	ctx := context.Background()
	grpcExp := func() sdktrace.SpanExporter {
		e, err := otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(gln.Addr().String()), otlptracegrpc.WithInsecure(),
			otlptracegrpc.WithCompressor("gzip"))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	httpExp := func() sdktrace.SpanExporter {
		e, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpoint(hln.Addr().String()), otlptracehttp.WithInsecure(),
			otlptracehttp.WithCompression(otlptracehttp.GzipCompression))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	client, shop, db := newService(t, "client", grpcExp()), newService(t, "shop", httpExp()), newService(t, "db", httpExp())
	want, wantEarly := map[string]string{}, map[string]bool{}
	for f, verdict := range map[fault]string{none: "Pass", skipQuery: "Fail", doubleRows: "Fail", wrongAnswer: "Fail"} {
		id := order(client, shop, db, f).String()
		want[id] = verdict
		// Certain as soon as their spans arrive, in whatever order: no
		// trace of db answers twice, the shop never sends rows. The
		// skipped query may yet arrive: judged when the session closes.
		wantEarly[id] = f == doubleRows || f == wrongAnswer
	}
	for _, s := range []*service{client, shop, db} {
		if err := s.tp.Shutdown(ctx); err != nil { // flushes the spans
			t.Fatal(err)
		}
	}
	m.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(want) {
		t.Errorf("%d records, want %d: %v", len(got), len(want), got)
	}
	for id, v := range want {
		if e, ok := early[id]; ok != wantEarly[id] || ok && e != v {
			t.Errorf("trace %s: early record %v %s, want one: %v", id, ok, e, wantEarly[id])
		}
		if r := got[id]; r.Verdict != v {
			t.Errorf("trace %s: %s (%s), want %s", id, r.Verdict, r.Reason, v)
		}
	}
	if n := m.Counts(); n.Received != n.Judged+n.Ignored+n.Malformed+n.Late || n.Received == 0 {
		t.Errorf("counts %+v", n)
	}
}
