package loadbalance

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/monitor/e2e"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
	"github.com/open-telemetry/opentelemetry-collector-contrib/exporter/loadbalancingexporter"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/exporter/otlpexporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/batchprocessor"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
)

// factories are the Collector's components the configurations use, and a
// telemetry that logs to the test (warnings and errors) and serves no
// metrics (the default one listens on :8888, which parallel tests share).
func factories(t *testing.T) func() (otelcol.Factories, error) {
	return func() (otelcol.Factories, error) {
		var f otelcol.Factories
		var err error
		if f.Receivers, err = otelcol.MakeFactoryMap[receiver.Factory](otlpreceiver.NewFactory()); err != nil {
			return f, err
		}
		if f.Processors, err = otelcol.MakeFactoryMap[processor.Factory](batchprocessor.NewFactory()); err != nil {
			return f, err
		}
		if f.Exporters, err = otelcol.MakeFactoryMap[exporter.Factory](loadbalancingexporter.NewFactory(), otlpexporter.NewFactory()); err != nil {
			return f, err
		}
		f.Telemetry = telemetry.NewFactory(func() component.Config { return &struct{}{} },
			telemetry.WithCreateLogger(func(context.Context, telemetry.LoggerSettings, component.Config) (*zap.Logger, component.ShutdownFunc, error) {
				return zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)), nil, nil
			}))
		return f, nil
	}
}

// freeAddr returns a loopback address free a moment ago.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// runCollector runs the Collector configured by the files configs, merged
// in order (a later file's lists replace an earlier's), their text
// replaced by the pairs old, new of replace, until the function it returns
// shuts it down (flushing its batches and queues).
func runCollector(t *testing.T, configs []string, replace ...string) (shutdown func()) {
	var uris []string
	for _, config := range configs {
		src, err := os.ReadFile(config)
		if err != nil {
			t.Fatal(err)
		}
		cfg := strings.NewReplacer(replace...).Replace(string(src))
		if cfg == string(src) {
			t.Fatalf("%s: no address to replace", config)
		}
		path := filepath.Join(t.TempDir(), filepath.Base(config))
		if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		uris = append(uris, "file:"+path)
	}
	col, err := otelcol.NewCollector(otelcol.CollectorSettings{
		BuildInfo:               component.BuildInfo{Command: "ivc-test-collector", Version: "test"},
		Factories:               factories(t),
		DisableGracefulShutdown: true,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{ResolverSettings: confmap.ResolverSettings{
			URIs: uris, ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory()}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- col.Run(context.Background()) }()
	for col.GetState() != otelcol.StateRunning {
		select {
		case err := <-done:
			t.Fatalf("the Collector stopped: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	return func() {
		col.Shutdown()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// rounds is how many orders of each fault the shop runs: 32 traces, so
// that each monitor gets some (all to one: a chance of 2⁻³¹).
const rounds = 8

// TestLoadBalance: the shop's client exports over OTLP/gRPC, its shop and
// database over OTLP/HTTP, to a Collector whose load_balancing exporter
// routes each trace by its id to one of two monitors
// (testdata/loadbalance.yaml, the configuration docs/monitor.md shows),
// and sends every span to a third monitor as well (testdata/reference.yaml).
// Each session is judged by exactly one of the two, each of its verdicts
// is the expected one (early records included) and nothing is lost on
// either; together they judged the sessions the third judged, with its
// verdicts and reasons, and the events it judged.
func TestLoadBalance(t *testing.T) {
	ms := make([]*e2e.Monitor, 3) // the two behind load_balancing, then the reference
	for i := range ms {
		m, err := e2e.StartMonitor("../e2e")
		if err != nil {
			t.Fatal(err)
		}
		ms[i] = m
	}
	grpcAddr, httpAddr := freeAddr(t), freeAddr(t)
	shutdown := runCollector(t, []string{"testdata/loadbalance.yaml", "testdata/reference.yaml"},
		"0.0.0.0:4317", grpcAddr, "0.0.0.0:4318", httpAddr, "ivc-monitor-1:4317", ms[0].GRPCAddr,
		"ivc-monitor-2:4317", ms[1].GRPCAddr, "ivc-monitor:4317", ms[2].GRPCAddr)
	ctx := context.Background()
	client, shop, db, err := e2e.Services(ctx, grpcAddr, httpAddr)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]e2e.Fault{}
	for range rounds {
		for f := range e2e.Verdicts {
			want[e2e.Order(client, shop, db, f).String()] = f
		}
	}
	for _, s := range []*e2e.Service{client, shop, db} {
		if err := s.TP.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
	shutdown()

	ref := ms[2].Records()
	for _, err := range ms[2].Check(want) {
		t.Errorf("the reference monitor: %v", err)
	}
	union := map[string]check.Record{}
	var received, judged int
	for i, m := range ms[:2] {
		part := map[string]e2e.Fault{}
		for id, r := range m.Records() {
			f, ok := want[id]
			if !ok {
				t.Errorf("monitor %d: session %s is no order's", i+1, id)
			}
			if _, ok := union[id]; ok {
				t.Errorf("session %s: judged by both monitors", id)
			}
			union[id], part[id] = r, f
		}
		if len(part) == 0 {
			t.Errorf("monitor %d judged no session", i+1)
		}
		t.Logf("monitor %d: %d sessions", i+1, len(part))
		for _, err := range m.Check(part) {
			t.Errorf("monitor %d: %v", i+1, err)
		}
		n := m.T.Counts()
		received, judged = received+n.Received, judged+n.Events
	}
	if len(union) != len(ref) {
		t.Errorf("the two monitors judged %d sessions, the reference %d", len(union), len(ref))
	}
	for id, r := range ref {
		u, ok := union[id]
		if !ok {
			t.Errorf("session %s: judged by neither monitor", id)
		} else if u.Verdict != r.Verdict || u.Reason != r.Reason || u.Pattern != r.Pattern {
			t.Errorf("session %s: %s (%s), the reference: %s (%s)", id, u.Verdict, u.Reason, r.Verdict, r.Reason)
		}
	}
	if n := ms[2].T.Counts(); received != n.Received || judged != n.Events {
		t.Errorf("the two monitors received %d events and judged %d, the reference %d and %d", received, judged, n.Received, n.Events)
	}
}

// TestSplit: what a membership change in the middle of a trace does. The
// load_balancing exporter routes each span as it passes, so after a change
// of the monitors' list the spans of a trace under way that end after it
// may go to another monitor than those before: here, by hand, the first
// half of a correct order's spans (by end time) to one monitor and the
// rest to another. Each judges its slice as a session of its own: the
// first, which holds a prefix of each lifeline, a WeakPass; the second,
// whose lifelines start late, a Fail in prefix mode (the default), a
// WeakPass in slice mode (--mode slice); one monitor of the whole trace, a
// Pass.
func TestSplit(t *testing.T) {
	ctx := context.Background()
	mem := tracetest.NewInMemoryExporter()
	services := []*e2e.Service{e2e.NewService("client", mem), e2e.NewService("shop", mem), e2e.NewService("db", mem)}
	id := e2e.Order(services[0], services[1], services[2], e2e.None).String()
	for _, s := range services {
		if err := s.TP.ForceFlush(ctx); err != nil { // Shutdown would empty mem
			t.Fatal(err)
		}
	}
	spans := mem.GetSpans()
	slices.SortFunc(spans, func(a, b tracetest.SpanStub) int { return a.EndTime.Compare(b.EndTime) })
	first, rest := spans[:len(spans)/2], spans[len(spans)/2:]

	sp, err := spec.Load(filepath.Join("../e2e", e2e.Spec), filepath.Join("../e2e", e2e.HIF))
	if err != nil {
		t.Fatal(err)
	}
	slice := check.DefaultOptions()
	slice.Mode = verdict.Slice
	for _, c := range []struct {
		name  string
		spans tracetest.SpanStubs
		opt   check.Options
		want  string
	}{
		{"the whole trace", spans, check.DefaultOptions(), "Pass"},
		{"its first half", first, check.DefaultOptions(), "WeakPass"},
		{"the rest", rest, check.DefaultOptions(), "Fail"},
		{"the rest, in slice mode", rest, slice, "WeakPass"},
	} {
		m, err := e2e.StartMonitorWith(sp, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := e2e.GRPCExporter(ctx, m.GRPCAddr)
		if err != nil {
			t.Fatal(err)
		}
		if err := exp.ExportSpans(ctx, c.spans.Snapshots()); err != nil {
			t.Fatal(err)
		}
		if err := exp.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		records := m.Records()
		r, ok := records[id]
		if len(records) != 1 || !ok {
			t.Fatalf("%s: records %v, want one of session %s", c.name, records, id)
		}
		t.Logf("%s (%d spans): %s %s", c.name, len(c.spans), r.Verdict, r.Reason)
		if r.Verdict != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, r.Verdict, r.Reason, c.want)
		}
	}
}

// TestDocs: docs/monitor.md shows testdata/loadbalance.yaml as it is run.
func TestDocs(t *testing.T) {
	page, err := os.ReadFile("../../docs/monitor.md")
	if err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile("testdata/loadbalance.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "```yaml\n"+string(config)+"```\n") {
		t.Errorf("docs/monitor.md does not show testdata/loadbalance.yaml as it is")
	}
}
