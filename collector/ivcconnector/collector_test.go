package ivcconnector_test

import (
	"bufio"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/envprovider"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/confmap/provider/yamlprovider"
	"go.opentelemetry.io/collector/connector"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/exporter/debugexporter"
	"go.opentelemetry.io/collector/exporter/otlpexporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/processor"
	"go.opentelemetry.io/collector/processor/batchprocessor"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/collector/ivcconnector"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor/e2e"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
)

// e2eDir is the module of the shop, the SDK demo.
const e2eDir = "../../monitor/e2e"

// factories are the components of the distribution (builder-config.yaml),
// and a telemetry that logs warnings to the test and serves no metrics
// (the default one listens on :8888, which parallel tests share).
func factories(tb testing.TB) func() (otelcol.Factories, error) {
	return func() (otelcol.Factories, error) {
		var f otelcol.Factories
		var err error
		if f.Receivers, err = otelcol.MakeFactoryMap[receiver.Factory](otlpreceiver.NewFactory()); err != nil {
			return f, err
		}
		if f.Processors, err = otelcol.MakeFactoryMap[processor.Factory](batchprocessor.NewFactory()); err != nil {
			return f, err
		}
		if f.Connectors, err = otelcol.MakeFactoryMap[connector.Factory](ivcconnector.NewFactory()); err != nil {
			return f, err
		}
		if f.Exporters, err = otelcol.MakeFactoryMap[exporter.Factory](fileexporter.NewFactory(), debugexporter.NewFactory(), otlpexporter.NewFactory()); err != nil {
			return f, err
		}
		f.Telemetry = telemetry.NewFactory(func() component.Config { return &struct{}{} },
			telemetry.WithCreateLogger(func(context.Context, telemetry.LoggerSettings, component.Config) (*zap.Logger, component.ShutdownFunc, error) {
				return zaptest.NewLogger(tb, zaptest.Level(zap.WarnLevel)), nil, nil
			}))
		return f, nil
	}
}

// providers are the distribution's configuration providers.
var providers = []confmap.ProviderFactory{envprovider.NewFactory(), fileprovider.NewFactory(), yamlprovider.NewFactory()}

// freeAddr returns a loopback address free a moment ago.
func freeAddr(tb testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startCollector runs the Collector configured by testdata/pipeline.yaml
// (the README's), its receivers moved to free loopback ports, the spec to
// the shop's and the files to dir; it returns the receivers' addresses and
// the function that shuts it down.
func startCollector(tb testing.TB, dir string) (grpcAddr, httpAddr string, shutdown func()) {
	abs, err := filepath.Abs(e2eDir)
	if err != nil {
		tb.Fatal(err)
	}
	grpcAddr, httpAddr = freeAddr(tb), freeAddr(tb)
	shutdown = runCollector(tb, "testdata/pipeline.yaml", "0.0.0.0:4317", grpcAddr, "0.0.0.0:4318", httpAddr,
		"/etc/ivc/shop.hsf", filepath.Join(abs, e2e.Spec), "/etc/ivc/shop.hif", filepath.Join(abs, e2e.HIF),
		"/var/log/ivc/", dir+"/")
	return grpcAddr, httpAddr, shutdown
}

// runCollector runs the Collector configured by the file config, its text
// replaced by the pairs old, new of replace, until the function it
// returns shuts it down.
func runCollector(tb testing.TB, config string, replace ...string) (shutdown func()) {
	src, err := os.ReadFile(config)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "collector.yaml")
	if err := os.WriteFile(path, []byte(strings.NewReplacer(replace...).Replace(string(src))), 0o644); err != nil {
		tb.Fatal(err)
	}
	col, err := otelcol.NewCollector(otelcol.CollectorSettings{
		BuildInfo:               component.BuildInfo{Command: "ivc-test-collector", Version: "test"},
		Factories:               factories(tb),
		DisableGracefulShutdown: true,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{ResolverSettings: confmap.ResolverSettings{
			URIs: []string{"file:" + path}, ProviderFactories: providers}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- col.Run(context.Background()) }()
	for col.GetState() != otelcol.StateRunning {
		select {
		case err := <-done:
			tb.Fatalf("the Collector stopped: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	return func() {
		col.Shutdown()
		if err := <-done; err != nil {
			tb.Error(err)
		}
	}
}

// verdictRecord is what a log record of the connector says of a session.
type verdictRecord struct {
	session, verdict, reason, closedBy string
	revision                           int64
	traceID                            string
}

// readVerdicts reads the log records the file exporter wrote (OTLP/JSON, a
// request a line).
func readVerdicts(t *testing.T, path string) []verdictRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []verdictRecord
	var u plog.JSONUnmarshaler
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		ld, err := u.UnmarshalLogs(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for i := range ld.ResourceLogs().Len() {
			sls := ld.ResourceLogs().At(i).ScopeLogs()
			for j := range sls.Len() {
				lrs := sls.At(j).LogRecords()
				for k := range lrs.Len() {
					lr := lrs.At(k)
					a := lr.Attributes()
					str := func(k string) string {
						if v, ok := a.Get(k); ok {
							return v.AsString()
						}
						return ""
					}
					rev, _ := a.Get("ivc.revision")
					out = append(out, verdictRecord{session: str("ivc.session"), verdict: str("ivc.verdict"),
						reason: str("ivc.reason"), closedBy: str("ivc.closed_by"), revision: rev.Int(), traceID: lr.TraceID().String()})
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// analyze returns ivc analyze's verdicts and reasons of the spans of path,
// by session: the sessions of session.Source judged by check.Checker.Run.
func analyze(t *testing.T, path string) map[string][2]string {
	t.Helper()
	sp, err := spec.Load(filepath.Join(e2eDir, e2e.Spec), filepath.Join(e2eDir, e2e.HIF))
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	src := &session.Source{Options: logs.Options{Sig: sp.Sig}}
	out := map[string][2]string{}
	c.Run(src.Sessions([]string{path}), check.RunOptions{Jobs: 1}, func(o check.Outcome) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		r := o.Record()
		out[r.Session] = [2]string{r.Verdict, r.Reason}
	})
	return out
}

// TestCollector: the shop's services, instrumented with the OpenTelemetry
// Go SDK, send their spans to a Collector built from the Collector's own
// modules (testdata/pipeline.yaml: otlp receiver → batch → the ivc
// connector → a logs pipeline → the file exporter); the records it writes
// are one per session and revision, their last verdict the fault's and
// ivc analyze's on the same spans (which the Collector also wrote to a
// file), their trace id the session's.
func TestCollector(t *testing.T) {
	dir := t.TempDir()
	grpcAddr, httpAddr, shutdown := startCollector(t, dir)
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

	got := readVerdicts(t, filepath.Join(dir, "verdicts.jsonl"))
	batch := analyze(t, filepath.Join(dir, "spans.jsonl"))
	if len(batch) != len(want) {
		t.Errorf("ivc analyze judged %d sessions of the spans, want %d", len(batch), len(want))
	}
	last := map[string]verdictRecord{}
	for _, r := range got {
		if r.traceID != r.session {
			t.Errorf("session %s: trace id %s", r.session, r.traceID)
		}
		if p, ok := last[r.session]; ok && r.revision != p.revision+1 || !ok && r.revision != 1 {
			t.Errorf("session %s: revision %d after %d", r.session, r.revision, p.revision)
		}
		last[r.session] = r
	}
	if len(last) != len(want) {
		t.Errorf("records of %d sessions, want %d", len(last), len(want))
	}
	for id, f := range want {
		r := last[id]
		if r.verdict != e2e.Verdicts[f] {
			t.Errorf("session %s: %s (%s), want %s", id, r.verdict, r.reason, e2e.Verdicts[f])
		}
		if b := batch[id]; r.verdict != b[0] || r.reason != b[1] {
			t.Errorf("session %s: %s (%s); ivc analyze: %s (%s)", id, r.verdict, r.reason, b[0], b[1])
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "metrics.jsonl")); err != nil || fi.Size() == 0 {
		t.Errorf("no metrics written: %v", err)
	}
}

// TestDocs: the README shows testdata/pipeline.yaml as TestCollector runs it.
func TestDocs(t *testing.T) {
	page, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile("testdata/pipeline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "```yaml\n"+string(config)+"```\n") {
		t.Errorf("README.md does not show testdata/pipeline.yaml as it is")
	}
}
