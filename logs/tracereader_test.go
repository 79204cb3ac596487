package logs_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/syntax"
)

// traceEvents returns the events TraceReader reads from td, and those Scan
// reads from td written as OTLP/JSON, each encoded without its line and
// index (which differ: a request's number, a file's line), and their stats.
func traceEvents(t *testing.T, td ptrace.Traces, opt logs.Options) (direct, viaJSON []string, dst, jst logs.Stats) {
	t.Helper()
	enc := func(out *[]string) func(logs.Event) {
		return func(ev logs.Event) {
			ev.Line, ev.Index = 0, 0
			*out = append(*out, fmt.Sprintf("%q", session.AppendEvent(nil, ev)))
		}
	}
	var dreports, jreports int
	r, err := logs.NewTraceReader("otlp", opt, func(err error) {
		dreports++
		if e, ok := err.(*syntax.Error); !ok || e.Pos.Line != 7 {
			t.Errorf("reported %v: not at request 7", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if dst, err = r.Read(td, 7, enc(&direct)); err != nil {
		t.Fatal(err)
	}
	var mar ptrace.JSONMarshaler
	doc, err := mar.MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	if jst, err = logs.Scan("otlp.json", bytes.NewReader(doc), logs.OTLP, opt, enc(&viaJSON), func(error) { jreports++ }); err != nil {
		t.Fatal(err)
	}
	if dreports != jreports {
		t.Errorf("%d malformed spans reported, %d from the JSON", dreports, jreports)
	}
	return direct, viaJSON, dst, jst
}

// pairedRequest returns a request of the test signature's services: a
// CLIENT span of a and its SERVER span in b (named differently, paired by
// parent), a PRODUCER of b and its CONSUMER in c (linked), an INTERNAL
// span, a span without a start time (malformed) and one of an undeclared
// service.
func pairedRequest() ptrace.Traces {
	td := ptrace.NewTraces()
	tid := pcommon.TraceID{1, 2, 3}
	add := func(svc, name string, kind ptrace.SpanKind, id, parent byte, start uint64) ptrace.Span {
		rs := td.ResourceSpans().AppendEmpty()
		rs.Resource().Attributes().PutStr(logs.ServiceName, svc)
		sp := rs.ScopeSpans().AppendEmpty().Spans().AppendEmpty()
		sp.SetName(name)
		sp.SetKind(kind)
		sp.SetTraceID(tid)
		sp.SetSpanID(pcommon.SpanID{id})
		if parent != 0 {
			sp.SetParentSpanID(pcommon.SpanID{parent})
		}
		sp.SetStartTimestamp(pcommon.Timestamp(start))
		return sp
	}
	add("a", "GET", ptrace.SpanKindClient, 1, 0, 100)
	add("b", "GET /m", ptrace.SpanKindServer, 2, 1, 90).Attributes().PutStr(logs.HTTPRoute, "m")
	add("b", "send", ptrace.SpanKindProducer, 3, 2, 120).Attributes().PutStr(logs.MessagingDestination, "n")
	c := add("c", "recv", ptrace.SpanKindConsumer, 4, 0, 130)
	c.Attributes().PutStr(logs.MessagingDestination, "n")
	c.Links().AppendEmpty().SetSpanID(pcommon.SpanID{3})
	c.Links().At(0).SetTraceID(tid)
	add("a", "work", ptrace.SpanKindInternal, 5, 1, 140)
	add("a", "m", ptrace.SpanKindProducer, 6, 1, 0)
	add("z", "m", ptrace.SpanKindProducer, 7, 1, 150)
	return td
}

// TestTraceReader: a request read as decoded gives the events and stats of
// the same request written as OTLP/JSON and scanned, strict or not; the
// paired spans take the receiving side's message.
func TestTraceReader(t *testing.T) {
	for _, strict := range []bool{false, true} {
		d, j, dst, jst := traceEvents(t, pairedRequest(), logs.Options{Sig: testSig(t), Strict: strict})
		if fmt.Sprint(d) != fmt.Sprint(j) || dst != jst {
			t.Errorf("strict %v: read %v %+v, scanned %v %+v", strict, d, dst, j, jst)
		}
		want := logs.Stats{Events: 4, Ignored: 1, Malformed: 1, Unkinded: 1}
		if strict {
			want = logs.Stats{Events: 4, Malformed: 2, Unkinded: 1}
		}
		if dst != want {
			t.Errorf("strict %v: %+v, want %+v", strict, dst, want)
		}
	}
	// Paired: a!m b?m b!n c?n, in the order read.
	r, err := logs.NewTraceReader("otlp", logs.Options{Sig: testSig(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig := testSig(t)
	var got []string
	for n := 1; n <= 2; n++ {
		got = got[:0]
		if _, err := r.Read(pairedRequest(), n, func(ev logs.Event) {
			if ev.Line != n {
				t.Errorf("event at line %d, want %d", ev.Line, n)
			}
			if !ev.Ignored && !ev.Dropped {
				got = append(got, ev.Action.Format(sig))
			}
		}); err != nil {
			t.Fatal(err)
		}
		if s := fmt.Sprint(got); s != "[a!m b?m b!n c?n]" {
			t.Errorf("request %d: %s", n, s)
		}
	}
}

// FuzzTraceReader: on any request that pdata decodes, TraceReader agrees
// with Scan on its OTLP/JSON form. Seeds: FuzzOTLP's.
func FuzzTraceReader(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/fuzz/FuzzOTLP/*")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			if in, ok := fuzzBytes(b); ok {
				f.Add(in, false)
			}
		}
	}
	var mar ptrace.JSONMarshaler
	if doc, err := mar.MarshalTraces(pairedRequest()); err == nil {
		f.Add(doc, false)
		f.Add(doc, true)
	}
	f.Fuzz(func(t *testing.T, in []byte, strict bool) {
		var u ptrace.JSONUnmarshaler
		td, err := u.UnmarshalTraces(in)
		if err != nil || td.ResourceSpans().Len() == 0 {
			return // no resource spans: Scan refuses the file as not OTLP
		}
		d, j, dst, jst := traceEvents(t, td, logs.Options{Sig: testSig(t), Strict: strict})
		if fmt.Sprint(d) != fmt.Sprint(j) || dst != jst {
			t.Errorf("read %v %+v, scanned %v %+v", d, dst, j, jst)
		}
	})
}

// fuzzBytes returns the []byte value of a file of Go's fuzz corpus.
func fuzzBytes(file []byte) ([]byte, bool) {
	for _, line := range strings.Split(string(file), "\n") {
		if v, ok := strings.CutPrefix(line, "[]byte("); ok {
			s, err := strconv.Unquote(strings.TrimSuffix(v, ")"))
			return []byte(s), err == nil
		}
	}
	return nil, false
}
