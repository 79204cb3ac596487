package e2e

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
)

// Spec and HIF are the shop's specification and interaction, relative to
// this package's directory.
const (
	Spec = "testdata/shop.hsf"
	HIF  = "testdata/shop.hif"
)

// msg is a message between services, with its trace context.
type msg struct {
	name    string
	carrier propagation.MapCarrier
}

// Service is one instrumented service: its tracer provider names it and
// exports its spans.
type Service struct {
	TP *sdktrace.TracerProvider
	in chan msg
}

var prop = propagation.TraceContext{}

// NewService returns the service name, exporting its spans with exp in
// batches (every 50 ms).
func NewService(name string, exp sdktrace.SpanExporter) *Service {
	res := sdkresource.NewSchemaless(semconv.ServiceName(name))
	return &Service{TP: sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithBatcher(exp,
		sdktrace.WithBatchTimeout(50*time.Millisecond))), in: make(chan msg, 4)}
}

// send records the emission of m (a PRODUCER span) and passes it on with
// its context.
func (s *Service) send(ctx context.Context, to *Service, m string) {
	ctx, span := s.TP.Tracer("shop").Start(ctx, "send "+m, trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(attribute.String("messaging.destination.name", m)))
	c := propagation.MapCarrier{}
	prop.Inject(ctx, c)
	span.End()
	to.in <- msg{name: m, carrier: c}
}

// receive records the reception of the next message (a CONSUMER span,
// child of its emission) and returns its context.
func (s *Service) receive() (context.Context, string) {
	m := <-s.in
	ctx := prop.Extract(context.Background(), m.carrier)
	ctx, span := s.TP.Tracer("shop").Start(ctx, "receive "+m.name, trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attribute.String("messaging.destination.name", m.name)))
	span.End()
	return ctx, m.name
}

// Fault is a protocol fault injected into the shop.
type Fault int

const (
	None        Fault = iota
	SkipQuery         // the shop answers without asking the database
	DoubleRows        // the database answers twice
	WrongAnswer       // the shop sends the client rows instead of a receipt
)

// Verdicts are the verdicts expected of an order run with each fault.
var Verdicts = map[Fault]string{None: "Pass", SkipQuery: "Fail", DoubleRows: "Fail", WrongAnswer: "Fail"}

// Early are the faults whose Fail the monitor's early check reports as
// soon as their spans arrive, in whatever order: no trace of db answers
// twice, the shop never sends rows. The skipped query may yet arrive: that
// order is judged when its session closes.
var Early = map[Fault]bool{DoubleRows: true, WrongAnswer: true}

// Order runs one order through the services (client, shop, db), with
// fault f, and returns its trace id.
func Order(client, shop, db *Service, f Fault) trace.TraceID {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // the shop
		defer wg.Done()
		ctx, _ := shop.receive()
		if f != SkipQuery {
			shop.send(ctx, db, "query")
			ctx, _ = shop.receive()
			if f == DoubleRows {
				ctx, _ = shop.receive()
			}
		}
		if f == WrongAnswer {
			shop.send(ctx, client, "rows")
		} else {
			shop.send(ctx, client, "receipt")
		}
	}()
	go func() { // the database
		defer wg.Done()
		if f == SkipQuery {
			return
		}
		ctx, _ := db.receive()
		db.send(ctx, shop, "rows")
		if f == DoubleRows {
			db.send(ctx, shop, "rows")
		}
	}()
	ctx, root := client.TP.Tracer("shop").Start(context.Background(), "checkout")
	client.send(ctx, shop, "order")
	client.receive()
	root.End()
	wg.Wait()
	return root.SpanContext().TraceID()
}

// Run runs one order with each fault (in Verdicts) and returns the fault
// of each trace id, then shuts the services' tracer providers down, which
// flushes their spans.
func Run(ctx context.Context, client, shop, db *Service) (map[string]Fault, error) {
	want := map[string]Fault{}
	for f := range Verdicts {
		want[Order(client, shop, db, f).String()] = f
	}
	for _, s := range []*Service{client, shop, db} {
		if err := s.TP.Shutdown(ctx); err != nil {
			return want, err
		}
	}
	return want, nil
}
