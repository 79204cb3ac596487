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

	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
)

// traceEvents returns the events TraceReader reads from td, and those Scan
// reads from td written as OTLP/JSON, and their stats.
func traceEvents(t *testing.T, td ptrace.Traces, opt logs.Options) (direct, viaJSON []logs.Event, dst, jst logs.Stats) {
	t.Helper()
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
	if dst, err = r.Read(td, 7, func(ev logs.Event) { direct = append(direct, ev) }); err != nil {
		t.Fatal(err)
	}
	var mar ptrace.JSONMarshaler
	doc, err := mar.MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	if jst, err = logs.Scan("otlp.json", bytes.NewReader(doc), logs.OTLP, opt, func(ev logs.Event) { viaJSON = append(viaJSON, ev) },
		func(error) { jreports++ }); err != nil {
		t.Fatal(err)
	}
	if dreports != jreports {
		t.Errorf("%d malformed spans reported, %d from the JSON", dreports, jreports)
	}
	return direct, viaJSON, dst, jst
}

// encoded returns events encoded without their line and index (which
// differ: a request's number, a file's line).
func encoded(events []logs.Event) []string {
	var out []string
	for _, ev := range events {
		ev.Line, ev.Index = 0, 0
		out = append(out, fmt.Sprintf("%q", session.AppendEvent(nil, ev)))
	}
	return out
}

// assembled returns the dump of the sessions that the assembly of events
// builds (lines left out: a request's number, a file's line).
func assembled(t *testing.T, events []logs.Event, opt logs.Options) string {
	t.Helper()
	a, err := session.NewAssembler(opt)
	if err != nil {
		t.Fatal(err)
	}
	g := session.Groups{}
	for _, ev := range events {
		ev.Line = 0
		g.Add("otlp", ev)
	}
	var sessions []session.Session
	for s, err := range g.Sessions(a) {
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, s)
	}
	return dump(opt.Sig, sessions)
}

// sameReading checks that TraceReader reads td as Scan reads its OTLP/JSON
// form: strict, the same events, paired within the request as within a
// file; else, the same sessions once assembled, which pairs TraceReader's
// spans, and the same spans read, counted by their own message until then.
func sameReading(t *testing.T, td ptrace.Traces, opt logs.Options) (dst logs.Stats) {
	t.Helper()
	d, j, dst, jst := traceEvents(t, td, opt)
	if opt.Strict {
		if fmt.Sprint(encoded(d)) != fmt.Sprint(encoded(j)) || dst != jst {
			t.Errorf("strict: read %v %+v, scanned %v %+v", encoded(d), dst, encoded(j), jst)
		}
		return dst
	}
	if ds, js := assembled(t, d, opt), assembled(t, j, opt); ds != js ||
		dst.Events+dst.Ignored != jst.Events+jst.Ignored || dst.Malformed != jst.Malformed || dst.Unkinded != jst.Unkinded {
		t.Errorf("read, assembled:\n%s%+v\nscanned, assembled:\n%s%+v", ds, dst, js, jst)
	}
	return dst
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

// TestTraceReader: a request read as decoded gives the sessions and stats
// of the same request written as OTLP/JSON and scanned, strict or not; its
// spans are paired at assembly (strict: within the request), taking the
// receiving side's message.
func TestTraceReader(t *testing.T) {
	for _, strict := range []bool{false, true} {
		dst := sameReading(t, pairedRequest(), logs.Options{Sig: testSig(t), Strict: strict})
		// Not strict, the spans are counted by their own message until
		// they are paired: a's GET is not declared (b's server span is
		// named m by its route, paired or not).
		want := logs.Stats{Events: 3, Ignored: 2, Malformed: 1, Unkinded: 1}
		if strict {
			want = logs.Stats{Events: 4, Malformed: 2, Unkinded: 1}
		}
		if dst != want {
			t.Errorf("strict %v: %+v, want %+v", strict, dst, want)
		}
	}
	// Paired: a!m b?m b!n c?n, in the order read; a reader reads one
	// request after another.
	opt := logs.Options{Sig: testSig(t)}
	r, err := logs.NewTraceReader("otlp", opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		var events []logs.Event
		if _, err := r.Read(pairedRequest(), n, func(ev logs.Event) {
			if ev.Line != n {
				t.Errorf("event at line %d, want %d", ev.Line, n)
			}
			events = append(events, ev)
		}); err != nil {
			t.Fatal(err)
		}
		if s, want := assembled(t, events, opt), "01020300000000000000000000000000@0 4/1: (1 dropped, from line 0) a!m | b?m.b!n | c?n\n"; s != want {
			t.Errorf("request %d: %s, want %s", n, s, want)
		}
	}
}

// FuzzTraceReader: on any request that pdata decodes, TraceReader agrees
// with Scan on its OTLP/JSON form (sameReading). Not strict, the spans of a
// trace are assumed to have distinct ids, as OpenTelemetry asks: pairing
// at assembly, by span ids, does not tell apart two spans of one id, which
// a file's pairing, by position, does. Seeds: FuzzOTLP's.
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
		if !strict && !distinctSpanIDs(td) {
			return
		}
		sameReading(t, td, logs.Options{Sig: testSig(t), Strict: strict})
	})
}

// distinctSpanIDs reports whether the spans of each trace of td have
// distinct ids.
func distinctSpanIDs(td ptrace.Traces) bool {
	seen := map[[2]string]bool{}
	rss := td.ResourceSpans()
	for i := range rss.Len() {
		sss := rss.At(i).ScopeSpans()
		for j := range sss.Len() {
			spans := sss.At(j).Spans()
			for k := range spans.Len() {
				sp := spans.At(k)
				key := [2]string{sp.TraceID().String(), sp.SpanID().String()}
				if seen[key] {
					return false
				}
				seen[key] = true
			}
		}
	}
	return true
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

// TestLendLinksRoom: a reader lending its links (ivc monitor's, pooled)
// keeps their room for the next request, but not an outsized request's.
func TestLendLinksRoom(t *testing.T) {
	sp, err := spec.Load("../monitor/e2e/testdata/shop.hsf", "../monitor/e2e/testdata/shop.hif")
	if err != nil {
		t.Fatal(err)
	}
	r, err := logs.NewTraceReader("otlp", logs.Options{Sig: sp.Sig}, func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	r.LendLinks = true
	read := func(orders int) int {
		req := testutil.ShopRequest(orders)
		testutil.SetShopTraces(req, 0, orders)
		links := 0
		if _, err := r.Read(req.Traces(), 1, func(ev logs.Event) {
			if ev.Link != nil {
				links++
			}
		}); err != nil {
			t.Fatal(err)
		}
		return links
	}
	small := read(64)
	room := logs.LentLinksRoom(r)
	if small == 0 || room < small {
		t.Fatalf("%d links lent, room for %d", small, room)
	}
	read(64)
	if logs.LentLinksRoom(r) != room {
		t.Errorf("room for %d links after a request like the one before, %d before", logs.LentLinksRoom(r), room)
	}
	if n := read(2 * logs.MaxLentLinks / testutil.ShopSpansPerOrder); n <= logs.MaxLentLinks {
		t.Fatalf("%d links: not an outsized request", n)
	}
	read(64)
	if logs.LentLinksRoom(r) > logs.MaxLentLinks {
		t.Errorf("room for %d links kept after an outsized request (at most %d)", logs.LentLinksRoom(r), logs.MaxLentLinks)
	}
}
