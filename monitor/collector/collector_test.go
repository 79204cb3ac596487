package collector

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ivc-project/ivc/monitor/e2e"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/exporter/otlpexporter"
	"go.opentelemetry.io/collector/exporter/otlphttpexporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/batchprocessor"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry"
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
		if f.Exporters, err = otelcol.MakeFactoryMap[exporter.Factory](otlpexporter.NewFactory(), otlphttpexporter.NewFactory()); err != nil {
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
func freeAddr(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startCollector runs the Collector configured by the file config, its
// receivers moved to free loopback ports and the monitor's host
// (ivc-monitor) to m's addresses; it returns the receivers' gRPC and HTTP
// addresses and the function that shuts it down (flushing its batches and
// queues).
func startCollector(t *testing.T, config string, m *e2e.Monitor) (grpcAddr, httpAddr string, shutdown func()) {
	src, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	// A port free a moment ago may be taken before the Collector binds it
	// (an outgoing connection's port comes from the same range): then the
	// Collector is started again on other ports.
	for attempt := 1; ; attempt++ {
		grpcAddr, httpAddr = freeAddr(t), freeAddr(t)
		cfg := strings.NewReplacer("0.0.0.0:4317", grpcAddr, "0.0.0.0:4318", httpAddr,
			"ivc-monitor:4317", m.GRPCAddr, "ivc-monitor:4318", m.HTTPAddr).Replace(string(src))
		if cfg == string(src) {
			t.Fatalf("%s: no address to replace", config)
		}
		shutdown, err := runCollector(t, cfg)
		if err == nil {
			return grpcAddr, httpAddr, shutdown
		}
		if attempt == 5 || !strings.Contains(err.Error(), "address already in use") {
			t.Fatalf("the Collector stopped: %v", err)
		}
		t.Logf("attempt %d: %v; again on other ports", attempt, err)
	}
}

// runCollector runs the Collector configured by cfg until it runs, and
// returns the function that shuts it down, or the error that stopped it.
func runCollector(t *testing.T, cfg string) (shutdown func(), err error) {
	path := filepath.Join(t.TempDir(), "collector.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	col, err := otelcol.NewCollector(otelcol.CollectorSettings{
		BuildInfo:               component.BuildInfo{Command: "ivc-test-collector", Version: "test"},
		Factories:               factories(t),
		DisableGracefulShutdown: true,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{ResolverSettings: confmap.ResolverSettings{
			URIs: []string{"file:" + path}, ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory()}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- col.Run(context.Background()) }()
	for col.GetState() != otelcol.StateRunning {
		select {
		case err := <-done:
			return nil, err
		case <-time.After(10 * time.Millisecond):
		}
	}
	return func() {
		col.Shutdown()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}, nil
}

// TestCollector: the shop's client exports over OTLP/gRPC, its shop and
// database over OTLP/HTTP, to a Collector (otlpreceiver → batch) that
// forwards every span to the monitor with its otlp_grpc exporter
// (testdata/collector.yaml, the configuration docs/monitor.md shows) or its
// otlp_http exporter (both gzip by default); the monitor's verdicts are the
// expected ones and nothing is lost.
func TestCollector(t *testing.T) {
	for _, config := range []string{"testdata/collector.yaml", "testdata/collector-http.yaml"} {
		t.Run(filepath.Base(config), func(t *testing.T) {
			m, err := e2e.StartMonitor("../e2e")
			if err != nil {
				t.Fatal(err)
			}
			grpcAddr, httpAddr, shutdown := startCollector(t, config, m)
			ctx := context.Background()
			client, shop, db, err := e2e.Services(ctx, grpcAddr, httpAddr)
			if err != nil {
				t.Fatal(err)
			}
			want, err := e2e.Run(ctx, client, shop, db)
			if err != nil {
				t.Fatal(err)
			}
			shutdown()
			for _, err := range m.Stop(want) {
				t.Error(err)
			}
		})
	}
}

// TestDocs: docs/monitor.md shows testdata/collector.yaml as it is run.
func TestDocs(t *testing.T) {
	page, err := os.ReadFile("../../docs/monitor.md")
	if err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile("testdata/collector.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "```yaml\n"+string(config)+"```\n") {
		t.Errorf("docs/monitor.md does not show testdata/collector.yaml as it is")
	}
}
