package monitor

import (
	"net/http"
	"sync/atomic"

	"github.com/ivc-project/ivc/check"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the monitor's Prometheus metrics, served with /healthz and
// /readyz by Handler:
//
//	ivc_monitor_sessions_total{verdict,closed_by}   records emitted
//	ivc_monitor_verdict_latency_seconds{closed_by}  time from a session's last event (early: the one that failed) to its verdict
//	ivc_monitor_events_received_total, _judged_total, _ignored_total, _malformed_total, _late_total
//	ivc_monitor_open_sessions                       sessions open
//	ivc_monitor_evictions_total                     sessions judged early for lack of room
//	ivc_monitor_rejected_requests_total{reason}     OTLP requests refused (saturated, malformed)
type Metrics struct {
	sessions *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	ready    atomic.Bool
}

// NewMetrics returns the metrics, to be fed with Observe.
func NewMetrics() *Metrics {
	return &Metrics{
		sessions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ivc_monitor_sessions_total",
			Help: "Sessions judged, by verdict and by the reason they closed."}, []string{"verdict", "closed_by"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ivc_monitor_verdict_latency_seconds",
			Help: "Time from the arrival of a session's last event to its verdict.",
			// 10 µs to 84 s: early failures take microseconds,
			// sessions closed idle --session-idle and more.
			Buckets: prometheus.ExponentialBuckets(10e-6, 2, 24)}, []string{"closed_by"}),
	}
}

// Observe counts a record of the monitor (with its Live part).
func (x *Metrics) Observe(r check.Record) {
	x.sessions.WithLabelValues(r.Verdict, r.ClosedBy).Inc()
	x.latency.WithLabelValues(r.ClosedBy).Observe(float64(r.LatencyUS) / 1e6)
}

// SetReady says whether /readyz answers 200 (accepting traffic) or 503.
func (x *Metrics) SetReady(ok bool) { x.ready.Store(ok) }

// Handler serves /metrics, /healthz and /readyz for m.
func (x *Metrics) Handler(m *Monitor) http.Handler {
	reg := prometheus.NewRegistry()
	counter := func(name, help string, f func(Counts) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help},
			func() float64 { return float64(f(m.Counts())) })
	}
	reg.MustRegister(x.sessions, x.latency,
		counter("ivc_monitor_events_received_total", "Events received.", func(c Counts) int64 { return c.Received }),
		counter("ivc_monitor_events_judged_total", "Events of sessions judged.", func(c Counts) int64 { return c.Judged }),
		counter("ivc_monitor_events_ignored_total", "Events outside the signature.", func(c Counts) int64 { return c.Ignored }),
		counter("ivc_monitor_events_malformed_total", "Events malformed (reported).", func(c Counts) int64 { return c.Malformed }),
		counter("ivc_monitor_events_late_total", "Events of sessions closed past their grace.", func(c Counts) int64 { return c.Late }),
		counter("ivc_monitor_evictions_total", "Sessions judged early for lack of room.", func(c Counts) int64 { return c.Evicted }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ivc_monitor_open_sessions", Help: "Sessions open."},
			func() float64 { return float64(m.Counts().Open) }),
	)
	rejected := prometheus.NewDesc("ivc_monitor_rejected_requests_total",
		"OTLP requests refused: saturated (retried by clients) or malformed.", []string{"reason"}, nil)
	reg.MustRegister(prometheus.CollectorFunc(func(ch chan<- prometheus.Metric) {
		c := m.Counts()
		ch <- prometheus.MustNewConstMetric(rejected, prometheus.CounterValue, float64(c.Rejected), "saturated")
		ch <- prometheus.MustNewConstMetric(rejected, prometheus.CounterValue, float64(c.BadRequests), "malformed")
	}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !x.ready.Load() {
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	return mux
}
