package ivcconnector

import (
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/pmetric"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/monitor"
)

// latencyBounds are the bounds of the latency histogram, in seconds: 10 µs
// to 84 s, as ivc monitor's (early failures take microseconds, sessions
// closed idle session_idle and more).
var latencyBounds = func() []float64 {
	b := make([]float64, 24)
	for i, v := 0, 10e-6; i < len(b); i, v = i+1, v*2 {
		b[i] = v
	}
	return b
}()

// metrics are the counts only the records give: the sessions judged by
// verdict and closed_by, and the time to verdict by closed_by. The rest
// comes from the table's Counts when the metrics are sent.
type metrics struct {
	start    pcommon.Timestamp
	sessions map[[2]string]int64 // by verdict, closed_by
	latency  map[string]*histogram
}

type histogram struct {
	counts []uint64 // one per bound, and past the last
	sum    float64
	count  uint64
}

func (m *metrics) init(start time.Time) {
	m.start = pcommon.NewTimestampFromTime(start)
	m.sessions = map[[2]string]int64{}
	m.latency = map[string]*histogram{}
}

// observe counts o, a session judged (with its Live part).
func (m *metrics) observe(o *check.Outcome) {
	by := o.Live.ClosedBy
	m.sessions[[2]string{o.Result.Verdict.String(), by}]++
	h := m.latency[by]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(latencyBounds)+1)}
		m.latency[by] = h
	}
	s := float64(o.Live.LatencyUS) / 1e6
	i := 0
	for i < len(latencyBounds) && s > latencyBounds[i] {
		i++
	}
	h.counts[i]++
	h.sum += s
	h.count++
}

// The metrics, named as ivc monitor's Prometheus metrics are
// (ivc_monitor_sessions_total: ivc.monitor.sessions).
const (
	metricSessions  = "ivc.monitor.sessions"
	metricLatency   = "ivc.monitor.verdict_latency"
	metricEvents    = "ivc.monitor.events"
	metricOpen      = "ivc.monitor.open_sessions"
	metricEvictions = "ivc.monitor.evictions"
	attrFate        = "ivc.fate"
)

// metrics returns the metrics at now, cumulative since the start: those of
// the records observed and of the table's counts n.
func (m *metrics) metrics(n *monitor.Counts, now time.Time) pmetric.Metrics {
	md := pmetric.NewMetrics()
	sm := md.ResourceMetrics().AppendEmpty().ScopeMetrics().AppendEmpty()
	sm.Scope().SetName(scopeName)
	ts := pcommon.NewTimestampFromTime(now)
	ms := sm.Metrics()

	sum := func(name, unit, desc string) pmetric.NumberDataPointSlice {
		x := ms.AppendEmpty()
		x.SetName(name)
		x.SetUnit(unit)
		x.SetDescription(desc)
		s := x.SetEmptySum()
		s.SetIsMonotonic(true)
		s.SetAggregationTemporality(pmetric.AggregationTemporalityCumulative)
		return s.DataPoints()
	}
	point := func(dps pmetric.NumberDataPointSlice, v int64) pmetric.NumberDataPoint {
		dp := dps.AppendEmpty()
		dp.SetStartTimestamp(m.start)
		dp.SetTimestamp(ts)
		dp.SetIntValue(v)
		return dp
	}

	dps := sum(metricSessions, "{session}", "Sessions judged, by verdict and by the reason they closed.")
	for k, v := range m.sessions {
		dp := point(dps, v)
		dp.Attributes().PutStr(attrVerdict, k[0])
		dp.Attributes().PutStr(attrClosedBy, k[1])
	}

	x := ms.AppendEmpty()
	x.SetName(metricLatency)
	x.SetUnit("s")
	x.SetDescription("Time from the arrival of a session's last event to its verdict.")
	hist := x.SetEmptyHistogram()
	hist.SetAggregationTemporality(pmetric.AggregationTemporalityCumulative)
	for by, h := range m.latency {
		dp := hist.DataPoints().AppendEmpty()
		dp.SetStartTimestamp(m.start)
		dp.SetTimestamp(ts)
		dp.Attributes().PutStr(attrClosedBy, by)
		dp.ExplicitBounds().FromRaw(latencyBounds)
		dp.BucketCounts().FromRaw(h.counts)
		dp.SetSum(h.sum)
		dp.SetCount(h.count)
	}

	dps = sum(metricEvents, "{event}", "Events received, and their fate: judged (in a session), ignored (outside the signature), malformed, or late (past their session's grace).")
	for _, f := range []struct {
		fate string
		n    int
	}{{"received", n.Received}, {"judged", n.Events}, {"ignored", n.Ignored}, {"malformed", n.Malformed}, {"late", n.Late}} {
		point(dps, int64(f.n)).Attributes().PutStr(attrFate, f.fate)
	}

	point(sum(metricEvictions, "{session}", "Sessions judged early for lack of room."), int64(n.Evicted))

	g := ms.AppendEmpty()
	g.SetName(metricOpen)
	g.SetUnit("{session}")
	g.SetDescription("Sessions open.")
	gp := g.SetEmptyGauge().DataPoints().AppendEmpty()
	gp.SetTimestamp(ts)
	gp.SetIntValue(int64(n.Open))
	return md
}
