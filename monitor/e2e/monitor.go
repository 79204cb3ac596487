package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/receiver"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/spec"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"google.golang.org/grpc"
)

// Monitor is an ivc monitor of the shop, in process, listening for OTLP
// on loopback: gRPC at GRPCAddr, HTTP (/v1/traces) at HTTPAddr. Its
// sessions close only at Stop.
type Monitor struct {
	T                  *monitor.Table
	OTLP               *receiver.OTLP
	GRPCAddr, HTTPAddr string
	gs                 *grpc.Server
	hs                 *http.Server

	mu      sync.Mutex
	records map[string]check.Record // the last of each session
	early   map[string]string       // the verdicts of the early records
}

// StartMonitor starts a monitor of the shop's specification, found in dir
// (this package's directory).
func StartMonitor(dir string) (*Monitor, error) {
	sp, err := spec.Load(filepath.Join(dir, Spec), filepath.Join(dir, HIF))
	if err != nil {
		return nil, err
	}
	return StartMonitorOf(sp)
}

// StartMonitorOf starts a monitor of the specification sp (the replies
// of a diagram included).
func StartMonitorOf(sp *spec.Spec) (*Monitor, error) {
	return StartMonitorWith(sp, check.DefaultOptions())
}

// StartMonitorWith starts a monitor of the specification sp that judges
// with the options o (another mode, as ivc monitor --mode).
func StartMonitorWith(sp *spec.Spec, o check.Options) (*Monitor, error) {
	c, err := check.New(sp, o)
	if err != nil {
		return nil, err
	}
	x := &Monitor{records: map[string]check.Record{}, early: map[string]string{}}
	x.T, err = monitor.NewTable(c, logs.Options{Sig: sp.Sig, Replies: sp.Replies}, monitor.Options{Idle: time.Hour}, func(o check.Outcome) {
		r := o.Record()
		x.mu.Lock()
		x.records[r.Session] = r
		if r.ClosedBy == monitor.ClosedEarly {
			x.early[r.Session] = r.Verdict
		}
		x.mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	x.OTLP = receiver.NewOTLP(x.T, 0)
	gln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	hln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		gln.Close()
		return nil, err
	}
	x.GRPCAddr, x.HTTPAddr = gln.Addr().String(), hln.Addr().String()
	x.gs = x.OTLP.NewGRPCServer()
	go x.gs.Serve(gln)
	mux := http.NewServeMux()
	mux.Handle("/v1/traces", x.OTLP.HTTPHandler())
	x.hs = &http.Server{Handler: mux}
	go x.hs.Serve(hln)
	return x, nil
}

// Records stops the receivers, judges the open sessions and returns the
// last record of each session.
func (x *Monitor) Records() map[string]check.Record {
	x.gs.Stop()
	x.hs.Close()
	x.T.Close()
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.records
}

// Stop stops the receivers, judges the open sessions and checks the
// records against want (Check).
func (x *Monitor) Stop(want map[string]Fault) []error {
	x.Records()
	return x.Check(want)
}

// Check checks the records of a stopped monitor against want (the fault
// of each trace id): the verdicts expected (Verdicts), an early record for
// the faults in Early and only for them, and the counts: nothing lost,
// received = judged + ignored + malformed + late.
func (x *Monitor) Check(want map[string]Fault) []error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var errs []error
	if len(x.records) != len(want) {
		errs = append(errs, fmt.Errorf("%d records, want %d: %v", len(x.records), len(want), x.records))
	}
	for id, f := range want {
		v := Verdicts[f]
		if r := x.records[id]; r.Verdict != v {
			errs = append(errs, fmt.Errorf("trace %s: %s (%s), want %s", id, r.Verdict, r.Reason, v))
		}
		if e, ok := x.early[id]; ok != Early[f] || ok && e != v {
			errs = append(errs, fmt.Errorf("trace %s: early record %v %s, want one: %v", id, ok, e, Early[f]))
		}
	}
	if n := x.T.Counts(); n.Received != n.Events+n.Ignored+n.Malformed+n.Late || n.Received == 0 || n.Malformed != 0 {
		errs = append(errs, fmt.Errorf("counts %+v", n))
	}
	return errs
}

// GRPCExporter returns an otlptracegrpc exporter to addr (gzip).
func GRPCExporter(ctx context.Context, addr string) (sdktrace.SpanExporter, error) {
	return otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(addr), otlptracegrpc.WithInsecure(),
		otlptracegrpc.WithCompressor("gzip"))
}

// HTTPExporter returns an otlptracehttp exporter to addr (protobuf, gzip).
func HTTPExporter(ctx context.Context, addr string) (sdktrace.SpanExporter, error) {
	return otlptracehttp.New(ctx, otlptracehttp.WithEndpoint(addr), otlptracehttp.WithInsecure(),
		otlptracehttp.WithCompression(otlptracehttp.GzipCompression))
}

// Services returns the shop's services: the client exporting over
// OTLP/gRPC to grpcAddr, the shop and the database over OTLP/HTTP to
// httpAddr.
func Services(ctx context.Context, grpcAddr, httpAddr string) (client, shop, db *Service, err error) {
	ge, err := GRPCExporter(ctx, grpcAddr)
	if err != nil {
		return nil, nil, nil, err
	}
	he1, err := HTTPExporter(ctx, httpAddr)
	if err != nil {
		return nil, nil, nil, err
	}
	he2, err := HTTPExporter(ctx, httpAddr)
	if err != nil {
		return nil, nil, nil, err
	}
	return NewService("client", ge), NewService("shop", he1), NewService("db", he2), nil
}
