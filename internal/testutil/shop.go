package testutil

// The shop of monitor/e2e as OTLP requests, for the load tests and
// benchmarks of the session table and of the Collector connector, which
// send the same load.

import (
	"bufio"
	"encoding/binary"
	"os"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// ShopSpansPerOrder is the number of spans of an order of the shop: 4
// messages over 3 services, each a send and a receive.
const ShopSpansPerOrder = 8

// ShopRequest returns an OTLP request of orders correct orders of the
// shop, its spans grouped by service as an SDK's batches are (one resource
// a service), each span with its kind, its messaging destination, its
// parent and a few attributes of the kind real spans carry. Trace ids are
// set by SetShopTraces.
func ShopRequest(orders int) ptraceotlp.ExportRequest {
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

// SetShopTraces gives the orders of req the trace ids of round r of sender g:
// distinct over rounds and senders. Spans of one order are 8 in a row per
// order in each service's span slice, taken in the order ShopRequest made
// them: each service's k-th span of an order is the order's.
func SetShopTraces(req ptraceotlp.ExportRequest, g, r int) {
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

// PeakRSS returns the process's peak resident set (VmHWM), 0 when unknown.
func PeakRSS() int64 {
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
