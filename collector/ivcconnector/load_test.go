package ivcconnector_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/monitor/e2e"
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
	ctx := context.Background()
	var next atomic.Int64
	var wg sync.WaitGroup
	start, cpu0 := time.Now(), testutil.CPUTime()
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
				if _, err := client.Export(ctx, req); err != nil {
					tb.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
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
	l := runLoad(b, b.N, 4)
	b.ReportMetric(float64(l.spans)/l.elapsed.Seconds(), "spans/s")
	if l.cpu > 0 {
		b.ReportMetric(float64(l.spans)/l.cpu.Seconds(), "spans/CPU-s")
	}
	b.ReportMetric(float64(l.peakRSS>>20), "peak-RSS-MB")
}
