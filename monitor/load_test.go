package monitor_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
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
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
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
	spansPerOrder = 8
	loadBatch     = 512 // spans a request: 64 orders
)

// shopRequest returns an OTLP request of orders correct orders of the
// shop, its spans grouped by service as an SDK's batches are (one resource
// a service), each span with its kind, its messaging destination, its
// parent and a few attributes of the kind real spans carry. Trace ids are
// set by setTraces.
func shopRequest(orders int) ptraceotlp.ExportRequest {
	td := ptrace.NewTraces()
	scopes := map[string]ptrace.SpanSlice{}
	for _, svc := range []string{"client", "shop", "db"} {
		rs := td.ResourceSpans().AppendEmpty()
		rs.Resource().Attributes().PutStr("service.name", svc)
		rs.Resource().Attributes().PutStr("host.name", "node-1")
		rs.Resource().Attributes().PutStr("telemetry.sdk.language", "go")
		ss := rs.ScopeSpans().AppendEmpty()
		ss.Scope().SetName("shop")
		scopes[svc] = ss.Spans()
	}
	steps := []struct{ from, to, msg string }{
		{"client", "shop", "order"}, {"shop", "db", "query"}, {"db", "shop", "rows"}, {"shop", "client", "receipt"},
	}
	base := pcommon.Timestamp(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC).UnixNano())
	var sid uint64
	for o := range orders {
		t := base + pcommon.Timestamp(o)*1e6
		for i, st := range steps {
			sid++
			send := scopes[st.from].AppendEmpty()
			send.SetName("send " + st.msg)
			send.SetKind(ptrace.SpanKindProducer)
			send.SetSpanID(spanID(sid))
			send.SetStartTimestamp(t + pcommon.Timestamp(2*i)*1000)
			send.SetEndTimestamp(t + pcommon.Timestamp(2*i)*1000 + 500)
			sid++
			recv := scopes[st.to].AppendEmpty()
			recv.SetName("receive " + st.msg)
			recv.SetKind(ptrace.SpanKindConsumer)
			recv.SetSpanID(spanID(sid))
			recv.SetParentSpanID(send.SpanID())
			recv.SetStartTimestamp(t + pcommon.Timestamp(2*i+1)*1000)
			recv.SetEndTimestamp(t + pcommon.Timestamp(2*i+1)*1000 + 500)
			for _, sp := range []ptrace.Span{send, recv} {
				a := sp.Attributes()
				a.PutStr("messaging.destination.name", st.msg)
				a.PutStr("messaging.system", "inproc")
				a.PutStr("messaging.operation", sp.Name()[:strings.IndexByte(sp.Name(), ' ')])
				a.PutInt("messaging.message.body.size", 128)
				a.PutStr("thread.name", "worker-"+strconv.Itoa(o%8))
			}
		}
	}
	return ptraceotlp.NewExportRequestFromTraces(td)
}

func spanID(n uint64) pcommon.SpanID {
	var id pcommon.SpanID
	binary.BigEndian.PutUint64(id[:], n)
	return id
}

// setTraces gives the orders of req the trace ids of round r of sender g:
// distinct over rounds and senders. Spans of one order are 8 in a row per
// order in each service's span slice, taken in the order shopRequest made
// them: each service's k-th span of an order is the order's.
func setTraces(req ptraceotlp.ExportRequest, g, r int) {
	rss := req.Traces().ResourceSpans()
	for i := range rss.Len() {
		spans := rss.At(i).ScopeSpans().At(0).Spans()
		// client: 2 spans an order, shop: 4, db: 2.
		per := []int{2, 4, 2}[i]
		for k := range spans.Len() {
			var id pcommon.TraceID
			binary.BigEndian.PutUint32(id[0:], uint32(g)+1)
			binary.BigEndian.PutUint32(id[4:], uint32(r))
			binary.BigEndian.PutUint64(id[8:], uint64(k/per)+1)
			spans.At(k).SetTraceID(id)
		}
	}
}

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
		req := shopRequest(loadBatch / spansPerOrder)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; next.Add(1) <= int64(requests); r++ {
				setTraces(req, g, r)
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
	l.peakRSS = peakRSS()
	n, spans := l.counts, int(l.spans)
	if n.Received != spans || n.Events != spans || n.Ignored+n.Malformed+n.Late+n.Evicted != 0 ||
		n.Verdicts[verdict.Pass] != spans/spansPerOrder || n.Judged() != spans/spansPerOrder {
		tb.Errorf("sent %d spans (%d orders): counts %+v", l.spans, l.spans/spansPerOrder, n)
	}
	return l
}

// peakRSS returns the process's peak resident set (VmHWM), 0 when unknown.
func peakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
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
	req := shopRequest(loadBatch / spansPerOrder)
	events := make([]logs.Event, 0, loadBatch)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		setTraces(req, 0, i)
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
