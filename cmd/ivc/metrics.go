package main

import (
	"net/http"
	"sync/atomic"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/receiver"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/verdict"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are ivc monitor's Prometheus metrics, served with /healthz and
// /readyz by handler: the counts of the session table and of the OTLP
// receivers, as collectors, and the sessions judged as they come:
//
//	ivc_monitor_sessions_total{verdict,closed_by}   records emitted
//	ivc_monitor_verdict_latency_seconds{closed_by}  time from a session's last event (early: the one that failed) to its verdict
//	ivc_monitor_events_received_total, _judged_total, _ignored_total, _malformed_total, _late_total
//	ivc_monitor_open_sessions                       sessions open
//	ivc_monitor_evictions_total                     sessions judged early for lack of room
//	ivc_monitor_rejected_requests_total{reason}     OTLP requests refused (saturated, too_large, malformed)
//	ivc_monitor_records_unwritten_total             records that could not be written (a full disk)
//	ivc_monitor_pattern_sessions{pattern}           Fails by failure pattern: the metricPatterns most frequent, then "other"
//
// metricPatterns is how many failure patterns have a label of their own in
// ivc_monitor_pattern_sessions: the most frequent; the Fails of the others
// are counted under "other", so that the label set stays bounded.
const metricPatterns = 10

type metrics struct {
	sessions *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	ready    atomic.Bool
}

func newMetrics() *metrics {
	return &metrics{
		sessions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ivc_monitor_sessions_total",
			Help: "Sessions judged, by verdict and by the reason they closed."}, []string{"verdict", "closed_by"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ivc_monitor_verdict_latency_seconds",
			Help: "Time from the arrival of a session's last event to its verdict.",
			// 10 µs to 84 s: early failures take microseconds,
			// sessions closed idle --session-idle and more.
			Buckets: prometheus.ExponentialBuckets(10e-6, 2, 24)}, []string{"closed_by"}),
	}
}

// observe counts a session judged by the table (with its Live part).
func (x *metrics) observe(o *check.Outcome) {
	x.sessions.WithLabelValues(o.Result.Verdict.String(), o.Live.ClosedBy).Inc()
	x.latency.WithLabelValues(o.Live.ClosedBy).Observe(float64(o.Live.LatencyUS) / 1e6)
}

// setReady says whether /readyz answers 200 (accepting traffic) or 503.
func (x *metrics) setReady(ok bool) { x.ready.Store(ok) }

// handler serves /metrics, /healthz and /readyz for t, the receiver otlp
// (nil: none) and the records' output: /healthz fails while records cannot
// be written.
func (x *metrics) handler(t *monitor.Table, otlp *receiver.OTLP, out *recordOutput) http.Handler {
	reg := prometheus.NewRegistry()
	counter := func(name, help string, f func(monitor.Counts) int) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help},
			func() float64 { return float64(f(t.Counts())) })
	}
	reg.MustRegister(x.sessions, x.latency,
		counter("ivc_monitor_events_received_total", "Events received.", func(c monitor.Counts) int { return c.Received }),
		counter("ivc_monitor_events_judged_total", "Events of sessions judged.", func(c monitor.Counts) int { return c.Events }),
		counter("ivc_monitor_events_ignored_total", "Events outside the signature.", func(c monitor.Counts) int { return c.Ignored }),
		counter("ivc_monitor_events_malformed_total", "Events malformed (reported).", func(c monitor.Counts) int { return c.Malformed }),
		counter("ivc_monitor_events_late_total", "Events of sessions closed past their grace.", func(c monitor.Counts) int { return c.Late }),
		counter("ivc_monitor_events_duplicate_total", "Events received again (a span of an id its session had: a retried request), dropped.",
			func(c monitor.Counts) int { return c.Duplicates }),
		counter("ivc_monitor_evictions_total", "Sessions judged early for lack of room.", func(c monitor.Counts) int { return c.Evicted }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ivc_monitor_open_sessions", Help: "Sessions open."},
			func() float64 { return float64(t.Counts().Open) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "ivc_monitor_records_unwritten_total", Help: "Records that could not be written."},
			func() float64 { return float64(out.unwritten.Load()) }),
	)
	rejected := prometheus.NewDesc("ivc_monitor_rejected_requests_total",
		"OTLP requests refused: saturated (retried by clients), too large or malformed.", []string{"reason"}, nil)
	reg.MustRegister(prometheus.CollectorFunc(func(ch chan<- prometheus.Metric) {
		var c receiver.Counts
		if otlp != nil {
			c = otlp.Counts()
		}
		ch <- prometheus.MustNewConstMetric(rejected, prometheus.CounterValue, float64(c.Rejected), "saturated")
		ch <- prometheus.MustNewConstMetric(rejected, prometheus.CounterValue, float64(c.TooLarge), "too_large")
		ch <- prometheus.MustNewConstMetric(rejected, prometheus.CounterValue, float64(c.Malformed), "malformed")
	}))
	patterns := prometheus.NewDesc("ivc_monitor_pattern_sessions",
		"Fail sessions by failure pattern: the most frequent patterns, then the others as \"other\".", []string{"pattern"}, nil)
	reg.MustRegister(prometheus.CollectorFunc(func(ch chan<- prometheus.Metric) {
		for _, m := range patternCounts(t.Counts().Summary, metricPatterns) {
			ch <- prometheus.MustNewConstMetric(patterns, prometheus.GaugeValue, float64(m.count), m.pattern)
		}
	}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		if err := out.healthy(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !x.ready.Load() {
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	return mux
}

type patternCount struct {
	pattern string
	count   int
}

// patternCounts returns the Fails of the k most frequent failure patterns
// of s, then those of all others as "other" (when any): at most k+1
// labels, however many patterns there are. A pattern that leaves the k
// most frequent counts in "other" from then on, so the series are gauges.
func patternCounts(s check.Summary, k int) []patternCount {
	var out []patternCount
	rest := s.Verdicts[verdict.Fail]
	for _, p := range s.TopPatterns(k) {
		out = append(out, patternCount{p.Key, p.Count})
		rest -= p.Count
	}
	if rest > 0 {
		out = append(out, patternCount{"other", rest})
	}
	return out
}
