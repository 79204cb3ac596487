package monitor_test

import (
	"context"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/receiver"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// The shop of monitor/e2e (its specification is read from there): an order
// is 8 spans over 3 services.
const (
	shopSpec      = "e2e/testdata/shop.hsf"
	shopHIF       = "e2e/testdata/shop.hif"
	spansPerOrder = testutil.ShopSpansPerOrder
	loadBatch     = 512 // spans a request: 64 orders
)

// loadMemory is the load test's budget of the session table (as
// --max-session-memory): closed sessions kept for their grace (30 s)
// would otherwise hold every event of the last 30 s.
const loadMemory = 32 << 20

// load is what a load run measured.
type load struct {
	spans, rejected int64
	elapsed         time.Duration // from the first request sent to the last session judged
	cpu             time.Duration // the process's CPU time over elapsed (monitor and generator)
	p50, p99        time.Duration // time to verdict of the sessions closed idle
	peakRSS         int64         // bytes, the process's (monitor and generator)
	counts          monitor.Counts
}

// runLoad sends requests requests of loadBatch spans (distinct correct
// orders) over OTLP/gRPC on loopback from senders goroutines, each on its
// own connection, to a monitor (sessions idle after idle), answering
// saturation with a retry as OTLP exporters do, then closes the monitor.
func runLoad(tb testing.TB, requests, senders int, idle time.Duration) load {
	sp, err := spec.Load(shopSpec, shopHIF)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		tb.Fatal(err)
	}
	var (
		mu        sync.Mutex
		latencies []int64
	)
	m, err := monitor.NewTable(c, logs.Options{Sig: sp.Sig}, monitor.Options{Idle: idle, MaxMemory: loadMemory,
		Report: func(err error) { tb.Error(err) }},
		func(o check.Outcome) {
			r := o.Record()
			if r.ClosedBy == monitor.ClosedIdle {
				mu.Lock()
				latencies = append(latencies, r.LatencyUS)
				mu.Unlock()
			}
		})
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

	var next, rejected atomic.Int64
	var wg sync.WaitGroup
	start, cpu0 := time.Now(), testutil.CPUTime()
	for g := range senders {
		conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			tb.Fatal(err)
		}
		defer conn.Close()
		client := ptraceotlp.NewGRPCClient(conn)
		req := testutil.ShopRequest(loadBatch / spansPerOrder)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; next.Add(1) <= int64(requests); r++ {
				testutil.SetShopTraces(req, g, r)
				for {
					_, err := client.Export(ctx, req)
					if status.Code(err) == codes.ResourceExhausted {
						rejected.Add(1)
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
		}()
	}
	wg.Wait()
	m.Close()
	l := load{spans: int64(requests) * loadBatch, rejected: rejected.Load(), elapsed: time.Since(start), cpu: testutil.CPUTime() - cpu0,
		counts: m.Counts()}
	mu.Lock()
	slices.Sort(latencies)
	if n := len(latencies); n > 0 {
		l.p50 = time.Duration(latencies[n/2]) * time.Microsecond
		l.p99 = time.Duration(latencies[n*99/100]) * time.Microsecond
	}
	mu.Unlock()
	l.peakRSS = testutil.PeakRSS()
	n, spans := l.counts, int(l.spans)
	if n.Received != spans || n.Events != spans || n.Ignored+n.Malformed+n.Late+n.Evicted != 0 ||
		n.Verdicts[verdict.Pass] != spans/spansPerOrder || n.Judged() != spans/spansPerOrder {
		tb.Errorf("sent %d spans (%d orders): counts %+v", l.spans, l.spans/spansPerOrder, n)
	}
	return l
}

// TestLoad: a short load on loopback loses nothing and judges every order
// a Pass.
func TestLoad(t *testing.T) {
	l := runLoad(t, 40, 2, 50*time.Millisecond)
	t.Logf("%d spans in %v, p99 %v, %d rejected, peak RSS %d MB", l.spans, l.elapsed, l.p99, l.rejected, l.peakRSS>>20)
}

// BenchmarkLoad is the monitor's load test: OTLP/gRPC requests of 512
// spans (64 orders of the shop over 3 services) sent on loopback by 4
// senders, b.N requests, to a monitor in the same process (sessions idle
// after 500 ms, a session memory of 32 MiB). It reports the sustained
// spans/s (from the first request to the last session judged, nothing
// lost: received = judged), the time to verdict of the sessions closed
// idle (p50, p99: the idle wait included), the peak RSS of the process,
// generator included, and the spans per second of the process's CPU time
// (spans/CPU-s): on a loaded machine, where the wall clock measures the
// other processes as much as this one, what the rate would be with one
// core to itself (on an idle machine, spans/s is at most cores ×
// spans/CPU-s).
//
//	go test ./monitor -run '^$' -bench Load -benchtime 2000x
func BenchmarkLoad(b *testing.B) {
	l := runLoad(b, b.N, 4, 500*time.Millisecond)
	b.ReportMetric(float64(l.spans)/l.elapsed.Seconds(), "spans/s")
	if l.cpu > 0 {
		b.ReportMetric(float64(l.spans)/l.cpu.Seconds(), "spans/CPU-s")
	}
	b.ReportMetric(float64(l.p50.Microseconds())/1e3, "p50-ms")
	b.ReportMetric(float64(l.p99.Microseconds())/1e3, "p99-ms")
	b.ReportMetric(float64(l.peakRSS>>20), "peak-RSS-MB")
	b.ReportMetric(float64(l.rejected), "rejected")
}

// BenchmarkTraceReader is the receive path's reading of one request of
// loadBatch spans (pdata → events), without the network, the decoding or
// the sessions: its allocations per span are the reader's own.
//
//	go test ./monitor -run '^$' -bench TraceReader -benchmem
func BenchmarkTraceReader(b *testing.B) {
	sp, err := spec.Load(shopSpec, shopHIF)
	if err != nil {
		b.Fatal(err)
	}
	r, err := logs.NewTraceReader("otlp", logs.Options{Sig: sp.Sig}, func(err error) { b.Error(err) })
	if err != nil {
		b.Fatal(err)
	}
	req := testutil.ShopRequest(loadBatch / spansPerOrder)
	events := make([]logs.Event, 0, loadBatch)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		testutil.SetShopTraces(req, 0, i)
		events = events[:0]
		if _, err := r.Read(req.Traces(), i, func(ev logs.Event) { events = append(events, ev) }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*loadBatch)/b.Elapsed().Seconds(), "spans/s")
	b.ReportMetric(float64(testing.AllocsPerRun(1, func() {
		r.Read(req.Traces(), 0, func(logs.Event) {})
	}))/loadBatch, "allocs/span")
}

// BenchmarkTraceReaderProto is the receive path's reading of one request
// of loadBatch spans from its protobuf bytes, without the network or the
// sessions: "wire" as the receivers now hand them over (the reader's
// ReadProto, without pdata's decoding), "pdata" as they did before
// (pdata's UnmarshalProto, then Read). cpu-ns/span is the process's CPU
// time a span, garbage collection included.
//
//	go test ./monitor -run '^$' -bench TraceReaderProto -benchmem
func BenchmarkTraceReaderProto(b *testing.B) {
	sp, err := spec.Load(shopSpec, shopHIF)
	if err != nil {
		b.Fatal(err)
	}
	req := testutil.ShopRequest(loadBatch / spansPerOrder)
	testutil.SetShopTraces(req, 0, 0)
	body, err := req.MarshalProto()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		read func(r *logs.TraceReader, emit func(logs.Event)) error
	}{
		{"wire", func(r *logs.TraceReader, emit func(logs.Event)) error {
			_, err := r.ReadProto(body, func() int { return 1 }, emit)
			return err
		}},
		{"pdata", func(r *logs.TraceReader, emit func(logs.Event)) error {
			req := ptraceotlp.NewExportRequest()
			if err := req.UnmarshalProto(body); err != nil {
				return err
			}
			_, err := r.Read(req.Traces(), 1, emit)
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			r, err := logs.NewTraceReader("otlp", logs.Options{Sig: sp.Sig}, func(err error) { b.Error(err) })
			if err != nil {
				b.Fatal(err)
			}
			events := make([]logs.Event, 0, loadBatch)
			emit := func(ev logs.Event) { events = append(events, ev) }
			var cpu testutil.CPUClock
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			cpu.Start()
			for b.Loop() {
				events = events[:0]
				if err := c.read(r, emit); err != nil {
					b.Fatal(err)
				}
			}
			cpu.Stop()
			if len(events) != loadBatch {
				b.Fatalf("%d events, want %d", len(events), loadBatch)
			}
			cpu.Report(b, b.N*loadBatch, "span")
			b.ReportMetric(float64(testing.AllocsPerRun(1, func() {
				events = events[:0]
				c.read(r, emit)
			}))/loadBatch, "allocs/span")
		})
	}
}

// BenchmarkConsume is the receive path without the network or judging:
// the OTLP/protobuf bytes of consumeRequests requests of loadBatch spans
// (distinct orders), consumed by a new table (ConsumeTracesProto: the wire
// reader, then the table's add, its early check included), whose sessions
// stay open; closing them is not timed. cpu-ns/span is the process's CPU
// time a span, garbage collection included.
//
//	go test ./monitor -run '^$' -bench Consume -benchmem
func BenchmarkConsume(b *testing.B) { benchmarkConsume(b, false) }

// BenchmarkConsumeClose is BenchmarkConsume with the table's Close timed
// too: every session assembled, judged and its outcome emitted.
func BenchmarkConsumeClose(b *testing.B) { benchmarkConsume(b, true) }

func benchmarkConsume(b *testing.B, closing bool) {
	const consumeRequests = 64
	sp, err := spec.Load(shopSpec, shopHIF)
	if err != nil {
		b.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	req := testutil.ShopRequest(loadBatch / spansPerOrder)
	bodies := make([][]byte, consumeRequests)
	for r := range bodies {
		testutil.SetShopTraces(req, 0, r)
		if bodies[r], err = req.MarshalProto(); err != nil {
			b.Fatal(err)
		}
	}
	var cpu testutil.CPUClock
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m, err := monitor.NewTable(c, logs.Options{Sig: sp.Sig}, monitor.Options{Idle: time.Hour, MaxMemory: -1,
			Report: func(err error) { b.Error(err) }}, func(check.Outcome) {})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		cpu.Start()
		for _, body := range bodies {
			if _, err := m.ConsumeTracesProto("otlp", body); err != nil {
				b.Fatal(err)
			}
		}
		if closing {
			m.Close()
		}
		cpu.Stop()
		b.StopTimer()
		m.Close()
		if n := m.Counts(); n.Events != consumeRequests*loadBatch {
			b.Fatalf("counts %+v", n)
		}
		b.StartTimer()
	}
	cpu.Report(b, b.N*consumeRequests*loadBatch, "span")
}

// TestConsumeAllocs: the table's add allocates a few times a session,
// not once per regrowth of its events: an order of 8 spans, begun and
// given all its spans by one request, costs at most maxAllocs
// allocations on the receive path (the wire reader's included).
func TestConsumeAllocs(t *testing.T) {
	const maxAllocs = 8 // 11 when a session's slice grew from empty and its early check kept a map
	sp, err := spec.Load(shopSpec, shopHIF)
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	m, err := monitor.NewTable(c, logs.Options{Sig: sp.Sig}, monitor.Options{Idle: time.Hour, MaxMemory: -1,
		Report: func(err error) { t.Error(err) }}, func(check.Outcome) {})
	if err != nil {
		t.Fatal(err)
	}
	req := testutil.ShopRequest(loadBatch / spansPerOrder)
	bodies := make([][]byte, 8)
	for r := range bodies {
		testutil.SetShopTraces(req, 0, r)
		if bodies[r], err = req.MarshalProto(); err != nil {
			t.Fatal(err)
		}
	}
	for _, body := range bodies[:2] { // the sessions' size learnt
		m.ConsumeTracesProto("otlp", body)
	}
	next := 2
	allocs := testing.AllocsPerRun(5, func() {
		m.ConsumeTracesProto("otlp", bodies[next])
		next++
	})
	perOrder := allocs / (loadBatch / spansPerOrder)
	t.Logf("%.1f allocations an order", perOrder)
	if perOrder > maxAllocs {
		t.Errorf("%.1f allocations an order, want at most %d", perOrder, maxAllocs)
	}
	m.Close()
	if n := m.Counts(); n.Events != len(bodies)*loadBatch || n.Duplicates != 0 {
		t.Errorf("counts %+v", n)
	}
}
