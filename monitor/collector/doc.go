// Package collector tests ivc monitor behind a real OpenTelemetry
// Collector, built in code from the Collector's own modules (otlpreceiver,
// batchprocessor, the otlp_grpc and otlp_http exporters): the shop of
// monitor/e2e, instrumented with the OpenTelemetry Go SDK, sends its spans
// to the Collector, which forwards them to the monitor. BenchmarkPeers
// measures ivc monitor beside the Collector as a receiver of its own (OTLP
// receiver → batch or groupbytrace → nop exporter), each a process of its
// own under one sender; internal/cmd/benchtable -rows peers prints it. It
// is a nested module so that neither the core module nor monitor/e2e
// carries the Collector.
package collector
