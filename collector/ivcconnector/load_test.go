package ivcconnector_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/collector/ivcconnector"
	"github.com/ivc-project/ivc/internal/receiver"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/monitor/e2e"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// loadBatch is the spans of a request: 64 orders of the shop, as monitor's
// load test sends them.
const loadBatch = 512

// load is what a load run measured.
type load struct {
	spans   int64
	elapsed time.Duration // from the first request sent to the Collector's shutdown
	cpu     time.Duration // the process's CPU time over elapsed (Collector and generator)
	peakRSS int64
	events  map[string]int64 // the connector's last ivc.monitor.events, by fate
	passes  int64            // its ivc.monitor.sessions of verdict Pass
}

// runLoad is monitor's load test (BenchmarkLoad) with a Collector in place
// of ivc monitor: requests requests of loadBatch spans (distinct correct
// orders) sent over OTLP/gRPC on loopback by senders goroutines to the
// Collector's OTLP receiver, the ivc connector judging (testdata/load.yaml:
// sessions idle after 500 ms, 32 MiB of sessions), its verdicts to the
// debug exporter, its metrics to a file, read at the end: nothing lost.
func runLoad(tb testing.TB, requests, senders int) load {
	abs, err := filepath.Abs(e2eDir)
	if err != nil {
		tb.Fatal(err)
	}
	dir, addr := tb.TempDir(), freeAddr(tb)
	shutdown := runCollector(tb, "testdata/load.yaml", "0.0.0.0:4317", addr,
		"/etc/ivc/shop.hsf", filepath.Join(abs, e2e.Spec), "/etc/ivc/shop.hif", filepath.Join(abs, e2e.HIF),
		"/var/log/ivc/", dir+"/")
	start, cpu0 := time.Now(), testutil.CPUTime()
	sendLoad(tb, addr, requests, senders)
	shutdown()
	l := load{spans: int64(requests) * loadBatch, elapsed: time.Since(start), cpu: testutil.CPUTime() - cpu0,
		peakRSS: testutil.PeakRSS(), events: map[string]int64{}}
	src, err := os.ReadFile(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(src), []byte("\n"))
	var u pmetric.JSONUnmarshaler
	md, err := u.UnmarshalMetrics(lines[len(lines)-1])
	if err != nil {
		tb.Fatal(err)
	}
	ms := md.ResourceMetrics().At(0).ScopeMetrics().At(0).Metrics()
	for i := range ms.Len() {
		m := ms.At(i)
		switch m.Name() {
		case "ivc.monitor.events":
			dps := m.Sum().DataPoints()
			for j := range dps.Len() {
				f, _ := dps.At(j).Attributes().Get("ivc.fate")
				l.events[f.Str()] = dps.At(j).IntValue()
			}
		case "ivc.monitor.sessions":
			dps := m.Sum().DataPoints()
			for j := range dps.Len() {
				if v, _ := dps.At(j).Attributes().Get("ivc.verdict"); v.Str() == "Pass" {
					l.passes += dps.At(j).IntValue()
				}
			}
		}
	}
	if e := l.events; e["received"] != l.spans || e["judged"] != l.spans || l.passes != l.spans/testutil.ShopSpansPerOrder {
		tb.Errorf("sent %d spans (%d orders): events %v, %d Pass", l.spans, l.spans/testutil.ShopSpansPerOrder, e, l.passes)
	}
	return l
}

// sendLoad sends requests requests of loadBatch spans (distinct correct
// orders) over OTLP/gRPC to addr from senders goroutines, each on its own
// connection, answering saturation with a retry as OTLP exporters do.
func sendLoad(tb testing.TB, addr string, requests, senders int) {
	ctx := context.Background()
	var next atomic.Int64
	var wg sync.WaitGroup
	for g := range senders {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			tb.Fatal(err)
		}
		defer conn.Close()
		client := ptraceotlp.NewGRPCClient(conn)
		req := testutil.ShopRequest(loadBatch / testutil.ShopSpansPerOrder)
		wg.Go(func() {
			for r := 0; next.Add(1) <= int64(requests); r++ {
				testutil.SetShopTraces(req, g, r)
				for {
					_, err := client.Export(ctx, req)
					if status.Code(err) == codes.ResourceExhausted {
						time.Sleep(time.Millisecond) // RetryInfo says 1 s; a loopback test retries sooner
						continue
					}
					if err != nil {
						tb.Error(err)
						return
					}
					break
				}
			}
		})
	}
	wg.Wait()
}

// runMonitorLoad is the load of runLoad sent to ivc monitor's parts in
// the same process, as monitor's BenchmarkLoad runs them (its OTLP/gRPC
// receiver, its session table: sessions idle after 500 ms, 32 MiB of
// sessions), each verdict's record written as ivc monitor --output FILE
// writes it: its JSON line, flushed to a file. That is what the connector
// does in the monitor's place (a log record for each verdict), which
// monitor's BenchmarkLoad leaves out.
func runMonitorLoad(tb testing.TB, requests, senders int) load {
	sp, err := spec.Load(filepath.Join(e2eDir, e2e.Spec), filepath.Join(e2eDir, e2e.HIF))
	if err != nil {
		tb.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		tb.Fatal(err)
	}
	m, err := monitor.NewTable(c, logs.Options{Sig: sp.Sig}, monitor.Options{Idle: 500 * time.Millisecond, MaxMemory: 32 << 20,
		Report: func(err error) { tb.Error(err) }}, ivcconnector.MonitorOutput(tb))
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go m.Run(ctx)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	gs := receiver.NewOTLP(m, 0).NewGRPCServer()
	go gs.Serve(ln)
	defer gs.Stop()
	start, cpu0 := time.Now(), testutil.CPUTime()
	sendLoad(tb, ln.Addr().String(), requests, senders)
	m.Close()
	l := load{spans: int64(requests) * loadBatch, elapsed: time.Since(start), cpu: testutil.CPUTime() - cpu0,
		peakRSS: testutil.PeakRSS()}
	n, spans := m.Counts(), int(l.spans)
	if n.Received != spans || n.Events != spans || n.Verdicts[verdict.Pass] != spans/testutil.ShopSpansPerOrder {
		tb.Errorf("sent %d spans (%d orders): counts %+v", l.spans, l.spans/testutil.ShopSpansPerOrder, n)
	}
	return l
}

// TestLoad: a short load through the Collector loses nothing and judges
// every order a Pass.
func TestLoad(t *testing.T) {
	l := runLoad(t, 40, 2)
	t.Logf("%d spans in %v, peak RSS %d MB", l.spans, l.elapsed, l.peakRSS>>20)
}

// BenchmarkLoad is monitor's BenchmarkLoad with a Collector and the
// connector in place of ivc monitor: b.N requests of 512 spans on loopback
// from 4 senders. It reports the spans/s (from the first request to the
// Collector's shutdown, every session judged), the spans per second of the
// process's CPU time (spans/CPU-s, the figure to compare with ivc
// monitor's on a loaded machine) and the peak RSS, generator included.
//
//	go test ./ivcconnector -run '^$' -bench Load -benchtime 2000x
func BenchmarkLoad(b *testing.B) {
	reportLoad(b, runLoad(b, b.N, 4))
}

// BenchmarkLoadMonitor is BenchmarkLoad's peer: the same load to ivc
// monitor's receiver and session table, its records written as ivc monitor
// --output writes them (runMonitorLoad). Beside BenchmarkLoad, it compares
// the connector with ivc monitor as each runs in production.
//
//	go test ./ivcconnector -run '^$' -bench LoadMonitor -benchtime 2000x
func BenchmarkLoadMonitor(b *testing.B) {
	reportLoad(b, runMonitorLoad(b, b.N, 4))
}

func reportLoad(b *testing.B, l load) {
	b.ReportMetric(float64(l.spans)/l.elapsed.Seconds(), "spans/s")
	if l.cpu > 0 {
		b.ReportMetric(float64(l.spans)/l.cpu.Seconds(), "spans/CPU-s")
	}
	b.ReportMetric(float64(l.peakRSS>>20), "peak-RSS-MB")
}
