// Package logs reads the logs real systems write, many sessions per file:
// event logs (JSON Lines, CSV) and traces (OTLP/JSON, OTLP/protobuf,
// Jaeger's JSON, Zipkin's v2 JSON, the Go SDK's stdouttrace, and the OTLP
// requests a receiver decoded with pdata). A reader turns each
// line, record or span into an event, an action of the signature with its
// session id and its order key, and hands it to a Consumer as it reads it.
// Package session is the consumer that gathers the events into
// multi-traces, one per session; ivc analyze, ivc-beam and ivc monitor
// open and read their inputs here.
//
//	in, err := logs.Open("app.jsonl", logs.Auto, logs.Options{Sig: sig})
//	if err != nil { ... }   // unreadable, too big, a format that cannot be decided
//	defer in.Close()
//	sessions, stats, err := session.ReadInput(in, func(err error) {
//		fmt.Fprintln(os.Stderr, err) // app.jsonl:12:27: field "action" (action): "a-m" is not an action l!m or l?m
//	})
//
// or, for a caller that groups the events itself, in.Scan(func(e logs.Event) { ... }, report).
//
// # Formats
//
// Event logs, JSON Lines (JSONL: one object a line) or CSV (a header row,
// then one event a row; TSV when separated by tabs), have one event a line,
// whose fields have roles:
//
//   - session: a string or a number; absent, the event belongs to the
//     session "" (a log without session field is one multi-trace);
//   - the action: either action, in HIBOU's notation l!m or l?m (a field
//     lifeline, if present, must agree; kind and message are then not
//     read, as a log's "message" is often free text), or lifeline, kind
//     (send, receive, ! or ?) and message;
//   - the order within a location: seq (an integer) if present, else time
//     (RFC 3339 with up to nanoseconds, or a number of any unit), else the
//     line order (Key); ties keep the line order. A session whose events
//     mix order keys (some with seq, some without; RFC 3339 times and
//     numbers) cannot be judged (session.Session.Err), and the other
//     sessions are.
//
// Other fields are ignored; Options.Fields renames the roles' fields. Empty
// strings and null count as absent.
//
// Traces, OTLP/JSON (as the OpenTelemetry Collector's file exporter writes
// them, one TracesData object a line, or one object over many lines) and
// Jaeger's JSON ({"data": [{"traceID", "spans", "processes"}]}), have one
// event a span: the session is the trace id (hex), the lifeline the
// service (service.name; Jaeger: the process's serviceName), a span of kind
// PRODUCER or CLIENT the emission l!m and one of kind CONSUMER or SERVER
// the reception l?m, where m is the first of the span's candidate names
// that the signature declares (naming.go: http.route, "METHOD route", the
// span's name, ... in one order per kind; none declared, the span is
// ignored under all of them); the order within a location is the spans'
// start times. The two spans of one call or message (a SERVER span and its
// parent CLIENT span, a CONSUMER span and its parent or linked PRODUCER
// span) carry one message, the receiving side's: paired within a file as
// it is read, and across the files of a
// run when their sessions are assembled (a span left without its partner
// in its file carries a SpanLink to a consumer that pairs across files).
// INTERNAL and unspecified spans carry no action: they are not events at
// all, neither judged nor counted (a service's internal work is not the
// protocol's business, and counting it as ignored would drown the count of
// the events that matter). OTLP/JSON is decoded by the Collector's own
// pdata module, and OTLP/protobuf read straight from its bytes as pdata
// reads them (otlpwire.go; by pdata where that reading is not sure to
// agree); Jaeger's model, internal to Jaeger, by a few encoding/json
// structs. TraceReader reads the requests an OTLP receiver received (their
// bytes, ReadProto) or decoded (pdata, Read), without turning them back
// into JSON, and pairs none of their spans: the partners
// of a request's spans come in it or in another as exporters batch them,
// so each span carries its SpanLink, and its session's assembly pairs them
// all, once.
//
// The other shapes of traces map alike (docs/logs.md): OTLP/JSON as Tempo
// answers ({"batches": ...}) and before OTLP 1.0, OTLP/protobuf (one
// request, or the Collector's file exporter's length-prefixed messages,
// otlpproto.go), Jaeger's UI state file, Zipkin's v2 spans (zipkin.go: a
// SERVER span pairs with the CLIENT span it shares its id with) and the
// stdouttrace spans (stdouttrace.go). No file is read as nothing silently:
// a shape recognized and not read (OTLP logs, Zipkin v1) is an error that
// names it, and so are OTLP resource spans of no span with a field OTLP
// does not know.
//
// Detect decides the format by the name and the first bytes; gzip and
// zstd files are read compressed (compress.go). A file's format is decided once: Recognize, which
// says which files of a directory are logs, returns what it detected, and
// OpenDetected opens the file with it.
//
// # Nothing lost
//
// Every event read is accounted for: in a session (Stats.Events: judged,
// or in a session that cannot be judged), ignored and counted
// (Stats.Ignored: its lifeline or message is not in the signature, a
// heartbeat or a database call say; Options.Strict reports them instead;
// Input.Undeclared names them) or reported as malformed (Stats.Malformed:
// bad JSON, a missing role, a bad l!m, a time that does not parse), as a
// *syntax.Error that prints "file:line:col: message", after which reading
// goes on. In a JSON document (Jaeger, multi-line OTLP) a syntax error
// ends the reading of the file: it is reported, and what was read before
// it is kept.
//
// # Readers and consumers
//
// A reader hands each event to its Consumer, in the order read: Add (in
// the signature, with its Key), Ignore (outside it), Drop (malformed: its
// session lost it), AddSpan (a span to pair across files). The session id
// it passes is valid during the call only, so that reading allocates
// nothing an event, and neither need the consumer. Input.Feed reads a log
// into any consumer: the gatherers of package session, and Scan's, which
// hands out Events for a caller that groups them by session itself (a
// distributed pipeline, in the nested module beam/, moves them between
// machines in their binary form, session.AppendEvent).
//
// # Memory and speed
//
// Memory follows the number of events, never the size of the text: lines
// are read one at a time (up to MaxLine bytes), and so are the traces and
// resources of a JSON document; Options.MaxMemory bounds what one value
// and the spans of a file held for pairing may take. A JSON line that is a
// flat object of plain values (the usual line) is read in one pass over its
// bytes, any other with fastjson (the same event either way, FuzzScanFlat):
// over twice as fast as encoding/json into a struct on the same log
// (BenchmarkJSONL, BenchmarkStdlibDecode).
package logs
