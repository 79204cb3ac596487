// Package e2e tests ivc monitor with real OpenTelemetry clients: a small
// shop (client, shop, db: goroutine services passing messages with W3C
// trace context) instrumented with the OpenTelemetry Go SDK, exporting with
// otlptracegrpc and otlptracehttp to a monitor, in a correct run and in runs
// with injected protocol faults. It is a nested module so that the core
// module does not carry the SDK. The shop (Service, Order, Run) is exported
// for the module monitor/collector, which puts a real OpenTelemetry
// Collector between it and the monitor.
package e2e
