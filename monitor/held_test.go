package monitor

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/spec"
)

// abpTable returns a table of the ABP spec's sessions under opt, and the
// records it emits.
func abpTable(t *testing.T, opt Options) (*Table, *[]check.Record) {
	t.Helper()
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var got []check.Record
	tbl, err := NewTable(c, logs.Options{Sig: sp.Sig}, opt, func(o check.Outcome) { got = append(got, o.Record()) })
	if err != nil {
		t.Fatal(err)
	}
	return tbl, &got
}

// linkedSpans returns a request of n CONSUMER spans of lifeline R (of
// message d), each in its own trace (a session) and linking to links
// spans of its trace.
func linkedSpans(n, links, from int) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "R")
	ss := rs.ScopeSpans().AppendEmpty()
	for i := range n {
		sp := ss.Spans().AppendEmpty()
		tid := pcommon.TraceID{0: 1, 8: byte(i >> 16), 9: byte(i >> 8), 10: byte(i), 11: byte(from >> 8), 12: byte(from)}
		sp.SetTraceID(tid)
		sp.SetSpanID(pcommon.SpanID{0: 1, 7: byte(i)})
		sp.SetKind(ptrace.SpanKindConsumer)
		sp.SetName("d")
		sp.SetStartTimestamp(pcommon.Timestamp(1 + i))
		for k := range links {
			l := sp.Links().AppendEmpty()
			l.SetTraceID(tid)
			l.SetSpanID(pcommon.SpanID{0: 2, 6: byte(k >> 8), 7: byte(k)})
		}
	}
	return td
}

// liveHeap returns the bytes of the heap in use, after a collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestHeldBytes: what the table counts of the sessions it holds is what
// they take in the heap, within a factor: one-span sessions with no link
// and with 100 links each (what the table held uncounted), and one session
// of many JSON Lines events.
func TestHeldBytes(t *testing.T) {
	for _, c := range []struct {
		name string
		feed func(tbl *Table)
	}{
		{"one-span sessions", func(tbl *Table) {
			for r := range 20 {
				tbl.ConsumeTraces("otlp", linkedSpans(1000, 0, r))
			}
		}},
		{"spans of 100 links", func(tbl *Table) {
			for r := range 20 {
				tbl.ConsumeTraces("otlp", linkedSpans(200, 100, r))
			}
		}},
		{"one session", func(tbl *Table) {
			tbl.ConsumeLog("in", strings.NewReader(strings.Repeat(`{"session":"s","action":"S?d"}`+"\n", 50000)), logs.JSONL)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tbl, got := abpTable(t, Options{MaxMemory: -1})
			before := liveHeap()
			c.feed(tbl)
			*got = nil // the records of sessions failed early
			held := liveHeap() - before
			tbl.mu.Lock()
			counted := tbl.bytes
			tbl.mu.Unlock()
			t.Logf("%d sessions open: %d bytes in the heap, %d counted", tbl.Counts().Open, held, counted)
			if counted < held*6/10 || counted > held*2 {
				t.Errorf("%d bytes counted for %d held", counted, held)
			}
			runtime.KeepAlive(tbl)
		})
	}
}

// TestEvictedOnce: a session larger than the memory bound is evicted once,
// with the events it holds; its later events are late, not a record each
// (nor a judgment of the whole session each).
func TestEvictedOnce(t *testing.T) {
	tbl, got := abpTable(t, Options{MaxMemory: 64 << 10})
	const n = 6000
	var lines strings.Builder
	for i := range n {
		fmt.Fprintf(&lines, `{"session":"big","action":"S?d","seq":%d}`+"\n", i)
	}
	if _, err := tbl.ConsumeLog("in", strings.NewReader(lines.String()), logs.JSONL); err != nil {
		t.Fatal(err)
	}
	tbl.Close()
	if len(*got) != 1 || (*got)[0].ClosedBy != ClosedEvicted {
		t.Fatalf("%d records, want one evicted", len(*got))
	}
	k := tbl.Counts()
	if k.Evicted != 1 || k.Received != n || k.Events+k.Late != n || k.Late == 0 {
		t.Errorf("counts %+v", k)
	}
}
