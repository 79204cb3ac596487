package logs_test

import (
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
)

// TestNaming: a span's message is the first of its candidate names, in
// its kind's order, that the signature declares; none declared, the span
// is ignored under all its candidates; MessageAttr forces one attribute.
// A lifeline is service.name, else process.executable.name when that is
// the one declared.
func TestNaming(t *testing.T) {
	route := map[string]string{logs.HTTPRoute: "/users/{id}", logs.HTTPRequestMethod: "GET"}
	rpc := map[string]string{logs.RPCService: "shop.Cart", logs.RPCMethod: "Add", logs.MessagingDestination: "q"}
	for _, c := range []struct {
		name     string
		kind     ptrace.SpanKind
		span     string
		attrs    map[string]string
		declared []string
		messages string // the message, or "ignored: " and the candidates
		attr     string // MessageAttr
	}{
		{"route first", ptrace.SpanKindServer, "GET /users/{id}", route, []string{"GET /users/{id}", "/users/{id}"}, "/users/{id}", ""},
		{"method and route", ptrace.SpanKindServer, "HTTP GET", route, []string{"HTTP GET", "GET /users/{id}"}, "GET /users/{id}", ""},
		{"http.method before 1.21", ptrace.SpanKindServer, "x", map[string]string{logs.HTTPRoute: "/u", logs.HTTPMethod: "POST"}, []string{"POST /u"}, "POST /u", ""},
		{"the span's name", ptrace.SpanKindClient, "HTTP GET", route, []string{"HTTP GET"}, "HTTP GET", ""},
		{"rpc service and method", ptrace.SpanKindClient, "call", rpc, []string{"Add", "shop.Cart/Add", "q"}, "shop.Cart/Add", ""},
		{"name before rpc", ptrace.SpanKindServer, "Add", rpc, []string{"Add", "shop.Cart/Add"}, "Add", ""},
		{"rpc.method", ptrace.SpanKindServer, "call", rpc, []string{"Add", "q"}, "Add", ""},
		{"messaging destination", ptrace.SpanKindProducer, "Add", rpc, []string{"Add", "q"}, "q", ""},
		{"messaging: the span's name", ptrace.SpanKindConsumer, "Add", rpc, []string{"Add", "shop.Cart/Add"}, "Add", ""},
		{"none declared", ptrace.SpanKindServer, "GET /users/{id}", route, []string{"other"}, "ignored: /users/{id}, GET /users/{id}", ""},
		{"none declared, rpc", ptrace.SpanKindClient, "call", rpc, []string{"other"}, "ignored: call, shop.Cart/Add, Add, q", ""},
		{"forced", ptrace.SpanKindServer, "Add", rpc, []string{"Add", "shop.Cart"}, "shop.Cart", logs.RPCService},
		{"forced, absent: the name", ptrace.SpanKindServer, "Add", rpc, []string{"Add", "x"}, "Add", "x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sig, err := interaction.NewSignature([]string{"svc"}, c.declared, nil)
			if err != nil {
				t.Fatal(err)
			}
			td := ptrace.NewTraces()
			rs := td.ResourceSpans().AppendEmpty()
			rs.Resource().Attributes().PutStr(logs.ServiceName, "svc")
			sp := rs.ScopeSpans().AppendEmpty().Spans().AppendEmpty()
			sp.SetName(c.span)
			sp.SetKind(c.kind)
			sp.SetTraceID(pcommon.TraceID{1})
			sp.SetSpanID(pcommon.SpanID{2})
			sp.SetParentSpanID(pcommon.SpanID{3})
			sp.SetStartTimestamp(10)
			for k, v := range c.attrs {
				sp.Attributes().PutStr(k, v)
			}
			got := strings.TrimPrefix(readOne(t, td, logs.Options{Sig: sig, MessageAttr: c.attr}), "svc ")
			if got != c.messages {
				t.Errorf("%s, want %s", got, c.messages)
			}
		})
	}
}

// readOne reads the one span of td and says its message, or its
// candidates when it is ignored.
func readOne(t *testing.T, td ptrace.Traces, opt logs.Options) string {
	t.Helper()
	r, err := logs.NewTraceReader("test", opt, func(err error) { t.Error(err) })
	if err != nil {
		t.Fatal(err)
	}
	var events []logs.Event
	if _, err := r.Read(td, 1, func(e logs.Event) { events = append(events, e) }); err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 {
		t.Fatalf("%d events, want 1", len(events))
	}
	e := events[0]
	if e.Ignored {
		if e.Link == nil {
			return "ignored"
		}
		return "ignored: " + strings.Join(logs.Candidates(e.Link.OwnName), ", ")
	}
	return opt.Sig.Lifelines[e.Action.Lifeline()] + " " + opt.Sig.Messages[e.Action.Message()]
}

// TestNamingLifeline: service.name, else process.executable.name when the
// signature declares it (an SDK whose service is not named reports
// unknown_service:NAME).
func TestNamingLifeline(t *testing.T) {
	sig, err := interaction.NewSignature([]string{"dice"}, []string{"roll"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr(logs.ServiceName, "unknown_service:dice")
	rs.Resource().Attributes().PutStr(logs.ProcessExecutableName, "dice")
	sp := rs.ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	sp.SetName("roll")
	sp.SetKind(ptrace.SpanKindServer)
	sp.SetTraceID(pcommon.TraceID{1})
	sp.SetSpanID(pcommon.SpanID{2})
	sp.SetStartTimestamp(10)
	if got := readOne(t, td, logs.Options{Sig: sig}); got != "dice roll" {
		t.Errorf("%s, want dice roll", got)
	}
}

// TestNestedServer: a SERVER span under a SERVER span of its service,
// within its time, is a second layer of the same request: not an event,
// counted as local work; one that starts after its parent ended is a
// request of its own.
func TestNestedServer(t *testing.T) {
	sig := testSig(t)
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty()
	spans.Resource().Attributes().PutStr(logs.ServiceName, "a")
	ss := spans.ScopeSpans().AppendEmpty().Spans()
	add := func(id, parent byte, start, end uint64) {
		sp := ss.AppendEmpty()
		sp.SetName("m")
		sp.SetKind(ptrace.SpanKindServer)
		sp.SetTraceID(pcommon.TraceID{1})
		sp.SetSpanID(pcommon.SpanID{id})
		if parent != 0 {
			sp.SetParentSpanID(pcommon.SpanID{parent})
		}
		sp.SetStartTimestamp(pcommon.Timestamp(start))
		sp.SetEndTimestamp(pcommon.Timestamp(end))
	}
	add(1, 0, 10, 20)
	add(2, 1, 10, 19) // nested
	add(3, 1, 30, 40) // after its parent: a request of its own
	var n int
	for _, strict := range []bool{false, true} {
		r, err := logs.NewTraceReader("test", logs.Options{Sig: sig, Strict: strict}, func(err error) { t.Error(err) })
		if err != nil {
			t.Fatal(err)
		}
		st, err := r.Read(td, 1, func(e logs.Event) { n++ })
		if err != nil {
			t.Fatal(err)
		}
		if want := (logs.Stats{Events: 2, Unkinded: 1}); st != want {
			t.Errorf("strict %v: %+v, want %+v", strict, st, want)
		}
	}
	if n != 4 {
		t.Errorf("%d events, want 4", n)
	}
}
