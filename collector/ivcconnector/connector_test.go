package ivcconnector

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/connector"
	"go.opentelemetry.io/collector/connector/connectortest"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/session"
)

// abpOTLP is ABP's spans, one OTLP request a line: 3 sessions (a WeakPass
// each, and a Fail).
const abpOTLP = "../../testdata/logs/abp.otlp.json"

// analyze returns ivc analyze's records of the files read as cfg says (its
// session source and checker), by session, with the fields that depend on
// time or place zeroed.
func analyze(t testing.TB, cfg *Config, files ...string) map[string]check.Record {
	t.Helper()
	s, err := cfg.load()
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(s.sp, s.opts)
	if err != nil {
		t.Fatal(err)
	}
	src := &session.Source{Options: s.lopt}
	want := map[string]check.Record{}
	c.Run(src.Sessions(files), check.RunOptions{Jobs: 1}, func(o check.Outcome) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		want[o.ID] = timeless(o.Record())
	})
	return want
}

// timeless is the part of a record that does not depend on when or where
// it was judged.
func timeless(r check.Record) check.Record {
	r.ElapsedUS, r.SetupUS, r.File, r.Files, r.Live = 0, 0, "", nil, nil
	return r
}

// requests returns the OTLP requests of a file of OTLP/JSON lines.
func requests(t testing.TB, path string) []ptrace.Traces {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []ptrace.Traces
	var u ptrace.JSONUnmarshaler
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		td, err := u.UnmarshalTraces(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, td)
	}
	return out
}

// both creates the connector's two roles of cfg, as a Collector does for
// a traces pipeline whose outputs go to a logs and a metrics pipeline.
func both(t testing.TB, cfg *Config, logs consumer.Logs, metrics consumer.Metrics) (connector.Traces, connector.Traces) {
	t.Helper()
	f := NewFactory()
	set := connectortest.NewNopSettings(componentType)
	tl, err := f.CreateTracesToLogs(context.Background(), set, cfg, logs)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := f.CreateTracesToMetrics(context.Background(), set, cfg, metrics)
	if err != nil {
		t.Fatal(err)
	}
	return tl, tm
}

// logRecords returns the log records of the sink's batches.
func logRecords(lds []plog.Logs) []plog.LogRecord {
	var out []plog.LogRecord
	for _, ld := range lds {
		for i := range ld.ResourceLogs().Len() {
			sls := ld.ResourceLogs().At(i).ScopeLogs()
			for j := range sls.Len() {
				lrs := sls.At(j).LogRecords()
				for k := range lrs.Len() {
					out = append(out, lrs.At(k))
				}
			}
		}
	}
	return out
}

// TestLifecycle: both roles of one connector, started, fed ABP's spans one
// request at a time (both, as the Collector feeds them), and shut down:
// one log record per session, at shutdown, whose verdict and reason are
// ivc analyze's on the same spans, with the session's trace id, and the
// metrics count them.
func TestLifecycle(t *testing.T) {
	cfg := createDefaultConfig()
	cfg.Spec = abp
	cfg.SessionIdle = time.Hour // closed at shutdown
	want := analyze(t, cfg, abpOTLP)
	if len(want) != 3 {
		t.Fatalf("%d sessions in %s, want 3", len(want), abpOTLP)
	}
	logs, metrics := new(consumertest.LogsSink), new(consumertest.MetricsSink)
	tl, tm := both(t, cfg, logs, metrics)
	ctx := context.Background()
	host := componenttest.NewNopHost()
	for _, c := range []connector.Traces{tl, tm} {
		if err := c.Start(ctx, host); err != nil {
			t.Fatal(err)
		}
	}
	for _, td := range requests(t, abpOTLP) {
		for _, c := range []connector.Traces{tl, tm} {
			if err := c.ConsumeTraces(ctx, td); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := logs.LogRecordCount(); n > 1 { // the Fail, if early
		t.Errorf("%d records before shutdown, want none but an early Fail", n)
	}
	for _, c := range []connector.Traces{tm, tl} {
		if err := c.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
	got := logRecords(logs.AllLogs())
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	verdicts := map[[2]string]int64{}
	for _, lr := range got {
		a := lr.Attributes()
		attr := func(k string) string {
			if v, ok := a.Get(k); ok {
				return v.AsString()
			}
			return ""
		}
		id := attr(attrSession)
		w, ok := want[id]
		if !ok {
			t.Errorf("session %q: not ivc analyze's", id)
			continue
		}
		if attr(attrVerdict) != w.Verdict || attr(attrReason) != w.Reason || attr(attrRevision) != "1" || attr(attrPattern) != w.Pattern {
			t.Errorf("session %s: %s (%s) revision %s pattern %q, want %s (%s) pattern %q", id, attr(attrVerdict), attr(attrReason), attr(attrRevision), attr(attrPattern), w.Verdict, w.Reason, w.Pattern)
		}
		if lr.TraceID().String() != id {
			t.Errorf("session %s: trace id %s", id, lr.TraceID())
		}
		if sev := lr.SeverityNumber(); (w.Verdict == "Fail") != (sev == plog.SeverityNumberError) {
			t.Errorf("session %s: %s, severity %v", id, w.Verdict, sev)
		}
		// The body's reason names the origins of the events it names: the
		// record's, up to them.
		reason, _, _ := strings.Cut(w.Reason, " (")
		if !strings.Contains(lr.Body().Str(), w.Verdict) || !strings.Contains(lr.Body().Str(), reason) {
			t.Errorf("session %s: body %q", id, lr.Body().Str())
		}
		verdicts[[2]string{w.Verdict, attr(attrClosedBy)}]++
	}
	mds := metrics.AllMetrics()
	if len(mds) == 0 {
		t.Fatal("no metrics at shutdown")
	}
	last := metricsByName(mds[len(mds)-1])
	sessions := map[[2]string]int64{}
	dps := last[metricSessions].Sum().DataPoints()
	for i := range dps.Len() {
		a := dps.At(i).Attributes()
		v, _ := a.Get(attrVerdict)
		by, _ := a.Get(attrClosedBy)
		sessions[[2]string{v.Str(), by.Str()}] = dps.At(i).IntValue()
	}
	if b1, b2 := jsonOf(sessions), jsonOf(verdicts); b1 != b2 {
		t.Errorf("%s: %s, want %s", metricSessions, b1, b2)
	}
	events := map[string]int64{}
	dps = last[metricEvents].Sum().DataPoints()
	for i := range dps.Len() {
		f, _ := dps.At(i).Attributes().Get(attrFate)
		events[f.Str()] = dps.At(i).IntValue()
	}
	if events["received"] == 0 || events["received"] != events["judged"]+events["ignored"]+events["malformed"]+events["late"] {
		t.Errorf("%s: %v: received is not judged + ignored + malformed + late", metricEvents, events)
	}
	closedBy := map[string]bool{}
	for k := range verdicts {
		closedBy[k[1]] = true
	}
	if n := last[metricLatency].Histogram().DataPoints().Len(); n != len(closedBy) {
		t.Errorf("%s: %d points, want one for each closed_by: %v", metricLatency, n, closedBy)
	}
}

func metricsByName(md pmetric.Metrics) map[string]pmetric.Metric {
	out := map[string]pmetric.Metric{}
	ms := md.ResourceMetrics().At(0).ScopeMetrics().At(0).Metrics()
	for i := range ms.Len() {
		out[ms.At(i).Name()] = ms.At(i)
	}
	return out
}

func jsonOf(m map[[2]string]int64) string {
	s := map[string]int64{}
	for k, v := range m {
		s[k[0]+"/"+k[1]] = v
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// TestIdle: a session closes once idle, its record sent by the
// connector's own clock, without more spans.
func TestIdle(t *testing.T) {
	cfg := createDefaultConfig()
	cfg.Spec = abp
	cfg.SessionIdle = 20 * time.Millisecond
	logs := new(consumertest.LogsSink)
	c, err := NewFactory().CreateTracesToLogs(context.Background(), connectortest.NewNopSettings(componentType), cfg, logs)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx, componenttest.NewNopHost()); err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown(ctx)
	for _, td := range requests(t, abpOTLP) {
		if err := c.ConsumeTraces(ctx, td); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for logs.LogRecordCount() < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	for _, lr := range logRecords(logs.AllLogs()) {
		if by, _ := lr.Attributes().Get(attrClosedBy); by.Str() != "idle" && by.Str() != "early" {
			t.Errorf("closed by %s", by.Str())
		}
	}
	if n := logs.LogRecordCount(); n != 3 {
		t.Errorf("%d records, want 3", n)
	}
}

// stuck is a logs consumer that never returns before its context is done.
type stuck struct{ consumertest.LogsSink }

func (s *stuck) ConsumeLogs(ctx context.Context, _ plog.Logs) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestShutdownBounded: a shutdown whose records cannot be sent ends at its
// context's deadline, with the context's error.
func TestShutdownBounded(t *testing.T) {
	cfg := createDefaultConfig()
	cfg.Spec = abp
	cfg.SessionIdle = time.Hour
	c, err := NewFactory().CreateTracesToLogs(context.Background(), connectortest.NewNopSettings(componentType), cfg, &stuck{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background(), componenttest.NewNopHost()); err != nil {
		t.Fatal(err)
	}
	td := requests(t, abpOTLP)[0]
	if err := c.ConsumeTraces(context.Background(), td); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = c.Shutdown(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("shutdown: %v after %v, want the deadline's error at once", err, time.Since(start))
	}
}

// TestShutdownBatches: the records of a shutdown with more sessions open
// than max_records_per_batch go to the logs pipeline as several plog.Logs
// of that many records at most, each session's record once, in the order
// the table judged them.
func TestShutdownBatches(t *testing.T) {
	const orders, most = 10, 4
	cfg := shopConfig()
	cfg.MaxRecordsPerBatch = most
	req := testutil.ShopRequest(orders)
	testutil.SetShopTraces(req, 0, 0)
	var want []string
	for _, o := range judged(t, cfg, req.Traces()) {
		want = append(want, o.ID)
	}
	if len(want) != orders {
		t.Fatalf("%d sessions judged, want %d", len(want), orders)
	}
	logs := new(consumertest.LogsSink)
	c, err := NewFactory().CreateTracesToLogs(context.Background(), connectortest.NewNopSettings(componentType), cfg, logs)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx, componenttest.NewNopHost()); err != nil {
		t.Fatal(err)
	}
	if err := c.ConsumeTraces(ctx, req.Traces()); err != nil {
		t.Fatal(err)
	}
	if n := logs.LogRecordCount(); n != 0 {
		t.Fatalf("%d records before shutdown, want none", n)
	}
	if err := c.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	lds := logs.AllLogs()
	if n := (orders + most - 1) / most; len(lds) != n {
		t.Errorf("%d plog.Logs, want %d", len(lds), n)
	}
	for i, ld := range lds {
		if n := ld.LogRecordCount(); n == 0 || n > most {
			t.Errorf("plog.Logs %d: %d records, want 1 to %d", i, n, most)
		}
	}
	var got []string
	for _, lr := range logRecords(lds) {
		id, _ := lr.Attributes().Get(attrSession)
		got = append(got, id.Str())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("sessions sent\n%v\nwant, as judged\n%v", got, want)
	}
}

// shopConfig is the configuration of the load tests (monitor/e2e's shop),
// its sessions closed at shutdown.
func shopConfig() *Config {
	cfg := createDefaultConfig()
	cfg.Spec = "../../monitor/e2e/testdata/shop.hsf"
	cfg.HIF = "../../monitor/e2e/testdata/shop.hif"
	cfg.SessionIdle = time.Hour
	return cfg
}

// judged returns the outcomes of the sessions of tds, judged live by a
// session table as cfg says, as the table gives them to the connector.
func judged(tb testing.TB, cfg *Config, tds ...ptrace.Traces) []check.Outcome {
	tb.Helper()
	s, err := cfg.load()
	if err != nil {
		tb.Fatal(err)
	}
	c, err := check.New(s.sp, s.opts)
	if err != nil {
		tb.Fatal(err)
	}
	var out []check.Outcome
	t, err := monitor.NewTable(c, s.lopt, s.mopt, func(o check.Outcome) { out = append(out, o) })
	if err != nil {
		tb.Fatal(err)
	}
	for _, td := range tds {
		if _, err := t.ConsumeTraces(source, td); err != nil {
			tb.Fatal(err)
		}
	}
	t.Close()
	return out
}

// TestBody: a record's body is the outcome's text (Outcome.WriteText)
// without its last newline, for the Passes whose text is written apart
// (the shop's) as for the others (ABP's WeakPasses and Fail).
func TestBody(t *testing.T) {
	req := testutil.ShopRequest(4)
	testutil.SetShopTraces(req, 0, 0)
	shop := judged(t, shopConfig(), req.Traces())
	cfg := createDefaultConfig()
	cfg.Spec = abp
	cfg.SessionIdle = time.Hour
	os := append(shop, judged(t, cfg, requests(t, abpOTLP)...)...)
	if len(os) != 4+3 {
		t.Fatalf("%d outcomes, want 7", len(os))
	}
	var b batch
	b.reset()
	for _, o := range os {
		var want strings.Builder
		o.WriteText(&want)
		if got := b.body(&o); got != strings.TrimSuffix(want.String(), "\n") {
			t.Errorf("session %s: body\n%s\nwant\n%s", o.ID, got, want.String())
		}
	}
}

// TestTraceID: a session's id is its trace id in hex; any other id gives
// no trace id.
func TestTraceID(t *testing.T) {
	for id, want := range map[string]pcommon.TraceID{
		"134f372e6d2789946217265fc7783aa3": {0x13, 0x4f, 0x37, 0x2e, 0x6d, 0x27, 0x89, 0x94, 0x62, 0x17, 0x26, 0x5f, 0xc7, 0x78, 0x3a, 0xa3},
		"trace1":                           {},
		"134f372e6d2789946217265fc7783aaz": {},
	} {
		if got := traceID(id); got != want {
			t.Errorf("%q: %v, want %v", id, got, want)
		}
	}
}

// TestMemoryBound: with max_session_memory, the open sessions stay within
// the bound (the table's estimate: 512 B a session, 48 B an event, here 8
// spans an order), the oldest judged early (evicted), and every session
// has its record.
func TestMemoryBound(t *testing.T) {
	const bound, requests, batch = 256 << 10, 40, 512
	cfg := shopConfig()
	cfg.MaxSessionMemory = bound
	logs := new(consumertest.LogsSink)
	tl, tm := both(t, cfg, logs, consumertest.NewNop())
	ctx := context.Background()
	for _, c := range []connector.Traces{tl, tm} {
		if err := c.Start(ctx, componenttest.NewNopHost()); err != nil {
			t.Fatal(err)
		}
	}
	req := testutil.ShopRequest(batch / testutil.ShopSpansPerOrder)
	most := 0
	for i := range requests {
		testutil.SetShopTraces(req, 0, i)
		for _, c := range []connector.Traces{tl, tm} {
			if err := c.ConsumeTraces(ctx, req.Traces()); err != nil {
				t.Fatal(err)
			}
		}
		most = max(most, tl.(*role).c.table.Counts().Open)
	}
	n := tl.(*role).c.table.Counts()
	if per := 512 + testutil.ShopSpansPerOrder*48; most*per > bound || n.Evicted == 0 {
		t.Errorf("%d sessions open at most (%d B each, bound %d B), %d evicted", most, per, bound, n.Evicted)
	}
	for _, c := range []connector.Traces{tl, tm} {
		if err := c.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := logs.LogRecordCount(), requests*batch/testutil.ShopSpansPerOrder; got != want {
		t.Errorf("%d records, want %d", got, want)
	}
}

// TestMemoryHeld: what the connector holds between requests (its open
// sessions and those kept for their grace; its records are sent after each
// request) stays within its max_session_memory in the heap, not only in the
// table's estimate: 100 requests of 64 orders, 15 MB of sessions
// without the bound, with a bound of 1 MiB.
func TestMemoryHeld(t *testing.T) {
	const bound, requests, batch = 1 << 20, 100, 512
	cfg := shopConfig()
	cfg.MaxSessionMemory = bound
	tl, tm := both(t, cfg, consumertest.NewNop(), consumertest.NewNop())
	ctx := context.Background()
	for _, c := range []connector.Traces{tl, tm} {
		if err := c.Start(ctx, componenttest.NewNopHost()); err != nil {
			t.Fatal(err)
		}
	}
	req := testutil.ShopRequest(batch / testutil.ShopSpansPerOrder)
	before := liveHeap()
	for i := range requests {
		testutil.SetShopTraces(req, 0, i)
		for _, c := range []connector.Traces{tl, tm} {
			if err := c.ConsumeTraces(ctx, req.Traces()); err != nil {
				t.Fatal(err)
			}
		}
	}
	held := liveHeap() - before
	n := tl.(*role).c.table.Counts()
	t.Logf("%d sessions open, %d evicted: %d KiB held, bound %d KiB", n.Open, n.Evicted, held>>10, bound>>10)
	if held > 2*bound {
		t.Errorf("%d bytes held in the heap, bound %d", held, bound)
	}
	for _, c := range []connector.Traces{tl, tm} {
		if err := c.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// liveHeap returns the bytes of the heap in use, after a collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
