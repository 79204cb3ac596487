package ivcconnector

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"testing"

	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/consumer/consumertest"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/monitor"
)

// BenchmarkConsume is the connector's own cost: the requests of the load
// test (512 spans of the shop) handed in process to the connector (both
// roles, verdicts as log records to a sink that drops them) and, beside it,
// to the session table alone as ivc monitor's receivers hand them (its
// outcomes dropped: table; or their records written as ivc monitor --output
// writes them: table-records), every session judged at the end (Close: no
// idle wait). spans/CPU-s of the three compare the connector with the table
// it wraps, and with ivc monitor as it runs.
//
//	go test ./ivcconnector -run '^$' -bench Consume -count 6
func BenchmarkConsume(b *testing.B) {
	const batch = 512
	cfg := shopConfig()
	req := testutil.ShopRequest(batch / testutil.ShopSpansPerOrder)
	run := func(b *testing.B, consume func(i int), close func()) {
		// Each starts from a heap returned to the system, as it would in a
		// process of its own: the first would otherwise pay alone for the
		// pages the others reuse (their faults are system CPU time).
		debug.FreeOSMemory()
		cpu0 := testutil.CPUTime()
		for i := 0; b.Loop(); i++ {
			testutil.SetShopTraces(req, 0, i)
			consume(i)
		}
		close()
		if cpu := testutil.CPUTime() - cpu0; cpu > 0 {
			b.ReportMetric(float64(b.N*batch)/cpu.Seconds(), "spans/CPU-s")
		}
	}
	b.Run("connector", func(b *testing.B) {
		cfg := *cfg
		tl, tm := both(b, &cfg, consumertest.NewNop(), consumertest.NewNop())
		ctx := context.Background()
		tl.Start(ctx, componenttest.NewNopHost())
		tm.Start(ctx, componenttest.NewNopHost())
		run(b, func(int) {
			tl.ConsumeTraces(ctx, req.Traces())
			tm.ConsumeTraces(ctx, req.Traces())
		}, func() {
			tl.Shutdown(ctx)
			tm.Shutdown(ctx)
		})
	})
	table := func(b *testing.B, emit func(check.Outcome)) {
		s, err := cfg.load()
		if err != nil {
			b.Fatal(err)
		}
		c, err := check.New(s.sp, s.opts)
		if err != nil {
			b.Fatal(err)
		}
		t, err := monitor.NewTable(c, s.lopt, s.mopt, emit)
		if err != nil {
			b.Fatal(err)
		}
		run(b, func(int) { t.ConsumeTraces("otlp", req.Traces()) }, t.Close)
	}
	b.Run("table", func(b *testing.B) { table(b, func(check.Outcome) {}) })
	b.Run("table-records", func(b *testing.B) { table(b, MonitorOutput(b)) })
}

// MonitorOutput returns an emitter of a session table that writes each
// outcome's record as ivc monitor --output FILE writes it (its JSON line,
// flushed), to a file of tb's temporary directory: the peer of the
// connector's log records in the benchmarks.
func MonitorOutput(tb testing.TB) func(check.Outcome) {
	f, err := os.Create(filepath.Join(tb.TempDir(), "verdicts.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	var mu sync.Mutex
	w := bufio.NewWriter(f)
	return func(o check.Outcome) {
		line, _ := json.Marshal(o.Record())
		mu.Lock()
		defer mu.Unlock()
		w.Write(line)
		w.WriteByte('\n')
		if err := w.Flush(); err != nil {
			tb.Error(err)
		}
	}
}

// BenchmarkRecord is the cost of a verdict's log record (a Pass of the
// shop, judged live): its body, attributes and trace id, appended to a
// batch, 64 a batch as the load's requests close.
//
//	go test ./ivcconnector -run '^$' -bench Record -benchmem
func BenchmarkRecord(b *testing.B) {
	req := testutil.ShopRequest(64)
	testutil.SetShopTraces(req, 0, 0)
	os := judged(b, shopConfig(), req.Traces())
	var rs batch
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%len(os) == 0 {
			rs.reset()
		}
		rs.add(&os[i%len(os)])
	}
}
