// Package logs reads the logs real systems write, many sessions per file,
// as multi-traces to judge, one per session, and writes multi-traces as
// such logs (issue 15).
//
// A session is one execution of the protocol: the events of one session id
// form one multi-trace, whose components are the locations (groups of
// lifelines that share a clock). Within a location the events are ordered
// by that location's clock; across locations nothing orders them, which is
// exactly what a multi-trace says.
//
//	sessions, stats, err := logs.Read("app.jsonl", logs.Auto, logs.Options{Sig: sig}, func(err error) {
//		fmt.Fprintln(os.Stderr, err) // app.jsonl:12:27: field "action" (action): "a-m" is not an action l!m or l?m
//	})
//	for _, s := range sessions {
//		if s.Err != nil { ... }      // this session alone cannot be judged
//		res := checker.Check(s.MT)   // one verdict per session
//	}
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
//     line order; ties keep the line order. A session whose events mix
//     order keys (some with seq, some without; RFC 3339 times and numbers)
//     gets Session.Err, and the other sessions are judged.
//
// Other fields are ignored; Options.Fields renames the roles' fields. Empty
// strings and null count as absent. A session starts with its first event,
// judged or ignored; the sessions come in that order.
//
// Traces, OTLP/JSON (as the OpenTelemetry Collector's file exporter writes
// them, one TracesData object a line, or one object over many lines) and
// Jaeger's JSON ({"data": [{"traceID", "spans", "processes"}]}), have one
// event a span: the session is the trace id (hex), the lifeline the
// service (service.name; Jaeger: the process's serviceName), a span of kind
// PRODUCER or CLIENT the emission l!m and one of kind CONSUMER or SERVER
// the reception l?m, where m is the attribute messaging.destination.name,
// else rpc.method, else the span's name; the order within a location is
// the spans' start times. The two spans of one call or message (a SERVER
// span and its parent CLIENT span, a CONSUMER span and its parent or linked
// PRODUCER span) carry one message, the receiving side's (http.route counts
// there): paired within a file as it is read, and, by a Joiner, Scan and
// an Assembler, across the files of a run when their sessions are
// assembled. INTERNAL and unspecified spans carry no action:
// they are not events at all, neither judged nor counted (a service's
// internal work is not the protocol's business, and counting it as ignored
// would drown the count of the events that matter). OTLP is decoded by the
// Collector's own pdata module; Jaeger's model, internal to Jaeger, by a
// few encoding/json structs.
//
// Detect decides the format by the name and the first bytes; gzip files
// are read compressed.
//
// # Nothing lost
//
// Every event read is accounted for: in a session (Stats.Events: judged,
// or in a session with an Err), ignored and counted (Stats.Ignored, and per
// session Session.Ignored: its lifeline or message is not in the
// signature, a heartbeat or a database call say; Options.Strict reports
// them instead) or reported as malformed (Stats.Malformed: bad JSON, a
// missing role, a bad l!m, a time that does not parse), as a *syntax.Error that
// prints "file:line:col: message", after which reading goes on. In a JSON
// document (Jaeger, multi-line OTLP) a syntax error ends the reading of the
// file: it is reported, and what was read before it is kept.
//
// # One session across many logs
//
// Real systems write one log per service, often rotated into several
// files. A Joiner reads every log of a run and makes a session of each id
// across all of them (Scope: ScopeFile keeps the per-file sessions), in
// any mix of formats; a location's events are ordered by their keys across
// files, ties in input then line order, and a location with events from
// several files but line order only is its session's error. Past a memory
// budget, a Joiner spills to temporary files partitioned by session, with
// the same sessions in the same order. Open (or NewInput) opens any input,
// Recognize says which files of a directory are logs, and Location
// restricts multi-traces to one location, so that Write makes one log per
// service.
//
// # Reading across machines
//
// Scan reads a log like Read, with the same readers, but hands out each
// event (Event: its session, its rank in the file, its line, its action and
// order key) as it is read, instead of gathering the sessions; an Assembler
// then builds a session from its events, in any order, exactly as Read
// would have. A distributed pipeline (ivc's Apache Beam pipeline, in the
// nested module beam/) scans files on many workers, groups the events by
// session, and assembles and judges each session where its group lands.
// Events travel in a compact binary form (Event.AppendBinary).
//
// # Memory and speed
//
// Memory follows the number of events, never the size of the text: lines
// are read one at a time (up to MaxLine bytes), and so are the traces and
// resources of a JSON document; an event is kept as a 32-byte record until
// the end of the file (and 4 bytes more to find it in its session once the
// file is read), then as an action and an event of its multi-trace (28
// bytes). A JSON line that is a flat object of plain values (the
// usual line) is read in one pass over its bytes, any other with fastjson
// (the same event either way, FuzzScanFlat): over twice as fast as
// encoding/json into a struct on the same log (BenchmarkJSONL,
// BenchmarkStdlibDecode).
package logs
