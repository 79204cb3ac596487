// Package loadbalance tests several ivc monitors behind one OpenTelemetry
// Collector: the contrib load_balancing exporter routes each trace, by its
// id, to one of two monitors (a static resolver), in a Collector built in
// code from the Collector's own modules; the shop of monitor/e2e,
// instrumented with the OpenTelemetry Go SDK, sends the spans. It also
// shows what a trace split over two monitors (a membership change in the
// middle of a trace) is judged. It is a nested module so that neither the
// core module nor the other nested modules carry the contrib exporter and
// its resolvers' dependencies (Kubernetes and AWS clients); its Collector
// modules are the release that goes with that exporter, which need not be
// the release monitor/collector and collector/ use: the Collector and the
// monitors speak OTLP.
package loadbalance
