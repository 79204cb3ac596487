package monitor_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
)

// BenchmarkTimeToVerdict measures the time to verdict (Record.LatencyUS,
// what ivc_monitor_verdict_latency_seconds observes) of sessions of ABP:
// for early failures, from the arrival of the event that fails (a session
// of two events in line order, the second one S cannot read), and for
// sessions closed idle, from the arrival of their last event, with
// --session-idle 100ms and the ticks of Run (every Idle/4). It reports the
// 50th and 99th percentiles.
//
//	go test ./monitor/ -run '^$' -bench TimeToVerdict -benchtime 20000x
func BenchmarkTimeToVerdict(b *testing.B) {
	c, lopt := checker(b)
	b.Run("early", func(b *testing.B) {
		var lat []int64
		m, err := monitor.NewTable(c, lopt, monitor.Options{Idle: time.Hour}, func(o check.Outcome) {
			r := o.Record()
			if r.ClosedBy != monitor.ClosedEarly {
				b.Fatalf("session %s closed by %s", r.Session, r.ClosedBy)
			}
			lat = append(lat, r.LatencyUS)
		})
		if err != nil {
			b.Fatal(err)
		}
		var doc strings.Builder
		for i := range b.N {
			fmt.Fprintf(&doc, `{"session":"s%d","action":"S?d"}`+"\n"+`{"session":"s%d","action":"S?d"}`+"\n", i, i)
		}
		b.ResetTimer()
		if _, err := m.ConsumeLog("early.jsonl", strings.NewReader(doc.String()), logs.JSONL); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		report(b, lat, 1, "µs")
	})
	b.Run("idle", func(b *testing.B) {
		const idle = 100 * time.Millisecond
		var mu sync.Mutex
		var lat []int64
		m, err := monitor.NewTable(c, lopt, monitor.Options{Idle: idle}, func(o check.Outcome) {
			r := o.Record()
			mu.Lock()
			lat = append(lat, r.LatencyUS)
			mu.Unlock()
		})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go m.Run(ctx)
		// Sessions arrive over a few ticks, so that their ends fall
		// anywhere between two.
		for i := range b.N {
			line := fmt.Sprintf(`{"session":"s%d","action":"S?d"}`+"\n", i)
			if _, err := m.ConsumeLog("idle.jsonl", strings.NewReader(line), logs.JSONL); err != nil {
				b.Fatal(err)
			}
			if i%(b.N/100+1) == 0 {
				time.Sleep(time.Millisecond)
			}
		}
		for {
			mu.Lock()
			n := len(lat)
			mu.Unlock()
			if n == b.N {
				break
			}
			time.Sleep(idle / 10)
		}
		report(b, lat, 1000, "ms")
	})
}

// report reports the percentiles of lat (µs) in unit (div µs).
func report(b *testing.B, lat []int64, div float64, unit string) {
	if len(lat) != b.N {
		b.Fatalf("%d records for %d sessions", len(lat), b.N)
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2])/div, "p50-"+unit)
	b.ReportMetric(float64(lat[len(lat)*99/100])/div, "p99-"+unit)
}

// BenchmarkAdd measures the reading of the shipped JSON Lines log (1001
// events of 3 sessions, with times) into the monitor, without judging
// them: with the early check (the automata engine) and without (the
// runtime engine).
//
//	go test ./monitor/ -run '^$' -bench Add -benchmem
func BenchmarkAdd(b *testing.B) {
	src, err := os.ReadFile("../testdata/logs/abp.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range []check.Engine{check.EngineAutomata, check.EngineRuntime} {
		b.Run(e.String(), func(b *testing.B) {
			c, lopt := checkerOf(b, "../testdata/abp/abp.hsf", "", e)
			for b.Loop() {
				b.StopTimer()
				m, err := monitor.NewTable(c, lopt, monitor.Options{Idle: time.Hour}, func(check.Outcome) {})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := m.ConsumeLog("abp.jsonl", bytes.NewReader(src), logs.JSONL); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1001), "ns/event")
		})
	}
}
