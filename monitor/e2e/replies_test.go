package e2e

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/ivc-project/ivc/spec"
)

// TestReplies: a Mermaid diagram that draws each call and its reply
// (solid call, dashed reply) checks the spans the OpenTelemetry Go SDK
// exports, unedited: a SERVER span's end is the reply's emission, its
// CLIENT span's end the reply's reception. The client, the API and the
// store export over OTLP (gRPC, HTTP, HTTP) to the monitor, so that each
// call's two spans meet only when the session is assembled. The API that
// answers in order passes; one that answers its client before it asks the
// store fails.
func TestReplies(t *testing.T) {
	sp, err := spec.Load("testdata/orders.mmd", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.Replies) != 2 {
		t.Fatalf("replies %v, want two", sp.Replies)
	}
	m, err := StartMonitorOf(sp)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ge, err := GRPCExporter(ctx, m.GRPCAddr)
	if err != nil {
		t.Fatal(err)
	}
	he1, err := HTTPExporter(ctx, m.HTTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	he2, err := HTTPExporter(ctx, m.HTTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	client, api, store := NewService("client", ge), NewService("api", he1), NewService("store", he2)
	good := orders(ctx, client, api, store, false)
	broken := orders(ctx, client, api, store, true)
	for _, s := range []*Service{client, api, store} {
		if err := s.TP.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
	records := m.Records()
	for id, want := range map[string]string{good: "Pass", broken: "Fail"} {
		if r := records[id]; r.Verdict != want {
			t.Errorf("trace %s: %s (%s), want %s", id, r.Verdict, r.Reason, want)
		}
	}
}

// orders runs one call of client to api, which calls store: an HTTP
// server span named by its route, a gRPC call named by its service and
// method. With early, the API ends its span (answers) before it calls the
// store. It returns the trace id.
func orders(ctx context.Context, client, api, store *Service, early bool) string {
	tick := func() { time.Sleep(2 * time.Millisecond) } // distinct times within a service
	ctx, get := client.TP.Tracer("client").Start(ctx, "HTTP GET", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("http.request.method", "GET")))
	tick()
	sctx, serve := api.TP.Tracer("api").Start(ctx, "GET /orders", trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attribute.String("http.request.method", "GET"), attribute.String("http.route", "/orders")))
	tick()
	if early {
		serve.End()
		tick()
	}
	cctx, list := api.TP.Tracer("api").Start(sctx, "store.Store/List", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("rpc.service", "store.Store"), attribute.String("rpc.method", "List")))
	tick()
	_, listed := store.TP.Tracer("store").Start(cctx, "store.Store/List", trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attribute.String("rpc.service", "store.Store"), attribute.String("rpc.method", "List")))
	tick()
	listed.End()
	tick()
	list.End()
	tick()
	if !early {
		serve.End()
		tick()
	}
	get.End()
	return get.SpanContext().TraceID().String()
}
