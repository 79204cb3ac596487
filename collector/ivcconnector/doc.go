// Package ivcconnector is ivc as an OpenTelemetry Collector component: a
// connector that takes the spans of a traces pipeline and gives each
// session's verdict as a log record and the session table's counts as
// metrics, to a logs and a metrics pipeline.
//
// It is configuration and transport only: the spans go to ivc monitor's
// session table (monitor.Table), which groups them by trace, closes a
// session when it is over and judges it through the checker of ivc analyze
// (check.Checker.Judge); each outcome becomes a log record (severity by
// verdict, the text of the verdict as its body, ivc.verdict, ivc.reason,
// ivc.closed_by, ivc.revision as attributes, the session's trace id), and
// the table's counts the metrics ivc monitor serves to Prometheus. A
// Collector distribution imports it as any component:
//
//	factories.Connectors, err = otelcol.MakeFactoryMap[connector.Factory](ivcconnector.NewFactory())
//
// and a configuration wires it (see the module's README):
//
//	connectors:
//	  ivc: {spec: /etc/ivc/shop.hsf}
//	service:
//	  pipelines:
//	    traces: {receivers: [otlp], exporters: [ivc]}
//	    logs:   {receivers: [ivc], exporters: [debug]}
package ivcconnector
