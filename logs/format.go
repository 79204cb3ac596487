package logs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ivc-project/ivc/internal/enum"
	"github.com/ivc-project/ivc/syntax"
)

// Format is the format of a log.
type Format uint8

const (
	Auto        Format = iota // decided by Detect from the file's name and first bytes
	HTF                       // HIBOU's .htf multi-trace: read it with multitrace.Read
	JSONL                     // JSON Lines event log: one JSON object, one event, a line
	CSV                       // CSV (or TSV) event log: a header row, then one event a row
	OTLP                      // OpenTelemetry OTLP/JSON traces, as the Collector's file exporter writes them
	Jaeger                    // Jaeger's JSON traces, as its UI downloads and its query API returns them
	Zipkin                    // Zipkin's v2 JSON spans, as its API returns them
	OTLPProto                 // OTLP/protobuf traces: one ExportTraceServiceRequest, or the file exporter's length-prefixed messages
	Stdouttrace               // the OpenTelemetry Go SDK's stdouttrace exporter: one JSON object a span
)

// formatNames are the formats as flags spell them, in lower case: not
// stringer's identifiers.
var formatNames = enum.New("Format", map[Format]string{Auto: "auto", HTF: "htf", JSONL: "jsonl", CSV: "csv", OTLP: "otlp", Jaeger: "jaeger",
	Zipkin: "zipkin", OTLPProto: "otlp-proto", Stdouttrace: "stdouttrace"})

// FormatNames lists the names ParseFormat reads, for a usage message.
const FormatNames = "auto, htf, jsonl, csv, otlp, otlp-proto, jaeger, zipkin or stdouttrace"

// String returns the name ParseFormat reads.
func (f Format) String() string { return formatNames.Name(f) }

// ParseFormat reads "auto", "htf", "jsonl", "csv", "otlp", "otlp-proto",
// "jaeger", "zipkin" or "stdouttrace".
func ParseFormat(s string) (Format, error) {
	if f, ok := formatNames.Value(s); ok {
		return f, nil
	}
	return 0, fmt.Errorf("unknown log format %q (expected %s)", s, FormatNames)
}

// Detect decides the format of a file by its name and its first bytes head
// (the more the better: 64 KiB is plenty). A ".gz" or ".zst" suffix is
// looked through, and so is a gzip or zstd head. Traces are recognized by
// their content first, whatever the name (the Collector's file exporter
// prefers .jsonl for its OTLP objects), by the keys of the first object:
//
//   - OTLP: "resourceSpans" (or "resource_spans"), also inside "result"
//     (Jaeger's API v3), or Tempo's "batches" of resource spans;
//   - Jaeger: "data" holding a trace or an array whose first element has
//     "traceID" (the query API, the UI's downloads and state files), or a
//     trace itself ("spans" or "processes"), or an array of traces;
//   - Zipkin (v2): an array of spans with "traceId" and "id", or one span
//     with a "localEndpoint" or a "remoteEndpoint" as well;
//   - Stdouttrace: "SpanContext", a span of the Go SDK's stdouttrace;
//   - OTLPProto: not JSON but a protobuf TracesData, or the file
//     exporter's length-prefixed messages (4 bytes big-endian, then the
//     message, protobuf or zstd-compressed).
//
// A shape recognized and not read (OTLP logs or metrics, Zipkin v1) gets an
// error naming it. Otherwise, by the name: .htf → HTF; .jsonl and .ndjson →
// JSONL; .csv and .tsv → CSV; .json → an error (it is no trace). Any other
// name (and "-", standard input) is decided by the content alone: another
// JSON object → JSONL, a '{' followed by '[' → HTF, a header row of names
// separated by ',' or a tab → CSV.
func Detect(name string, head []byte) (Format, error) {
	if f := DetectName(name); f != Auto {
		return f, nil
	}
	base := trimCompressed(name)
	head, err := decompressHead(head)
	if err != nil {
		return Auto, fmt.Errorf("%s: %w", syntax.FileName(name), err)
	}
	ext := filepath.Ext(base)
	f, unread := traceFormat(bytes.TrimPrefix(head, utf8BOM))
	if unread != "" {
		return Auto, fmt.Errorf("%s: %s", syntax.FileName(name), unread)
	}
	if f != Auto {
		return f, nil
	}
	if isOTLPProto(head) {
		return OTLPProto, nil
	}
	switch ext {
	case ".jsonl", ".ndjson":
		return JSONL, nil
	case ".csv", ".tsv":
		return CSV, nil
	}
	if err := binaryHead(name, head); err != nil {
		return Auto, err
	}
	if ext == ".json" {
		return Auto, fmt.Errorf("%s: cannot tell the log format: a .json file is read as OTLP when its first object has \"resourceSpans\" (also in \"result\", or Tempo's \"batches\"), as Jaeger when it has \"data\" with \"traceID\" or is a trace {\"traceID\", \"spans\", \"processes\"} or an array of them, as Zipkin when it is an array of spans {\"traceId\", \"id\", ...}, as stdouttrace when it has \"SpanContext\" (rename a JSON Lines event log .jsonl, or give the format)", syntax.FileName(name))
	}
	body := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(body) > 0 && body[0] == '{' {
		rest := bytes.TrimLeft(body[1:], " \t\r\n")
		switch {
		case len(rest) > 0 && rest[0] == '"':
			return JSONL, nil
		case len(rest) == 0 || rest[0] == '[' || rest[0] == '}' || bytes.HasPrefix(rest, []byte("/*")):
			return HTF, nil
		}
	}
	if isHeaderRow(body) {
		return CSV, nil
	}
	return Auto, fmt.Errorf("%s: cannot tell the log format from the file's name or first bytes: give it (%s)", syntax.FileName(name), strings.TrimPrefix(FormatNames, "auto, "))
}

// DetectName returns the format that the name of a file decides whatever
// the file holds, as Detect decides it: HTF for a .htf file (.htf.gz and
// .htf.zst too). For any other name it returns Auto: the first bytes
// decide (Detect).
func DetectName(name string) Format {
	if filepath.Ext(trimCompressed(name)) == ".htf" {
		return HTF
	}
	return Auto
}

// binaryHead returns an error for a head of binary content (once
// decompressed) that is no OTLP/protobuf: ivc reads it as no format.
func binaryHead(name string, head []byte) error {
	if isBinary(head) {
		return fmt.Errorf("%s: binary content, and no OTLP/protobuf (one ExportTraceServiceRequest, or the file exporter's length-prefixed messages): ivc reads text logs and traces, OTLP/protobuf, gzip or zstd-compressed", syntax.FileName(name))
	}
	return nil
}

// isBinary reports whether the first 512 bytes of head hold a control
// character that no text log holds.
func isBinary(head []byte) bool {
	for _, b := range head[:min(len(head), 512)] {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' {
			return true
		}
	}
	return false
}

// traceFormat returns the trace format of the first JSON value of head
// (see Detect), Auto when it is none; unread names a shape of traces
// recognized and not read.
func traceFormat(head []byte) (f Format, unread string) {
	d := json.NewDecoder(bytes.NewReader(head))
	t, err := d.Token()
	if err != nil {
		return Auto, ""
	}
	if t == json.Delim('[') { // an array of Jaeger traces or of Zipkin spans
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			return Auto, ""
		}
		return objectFormat(d, false)
	}
	if t != json.Delim('{') {
		return Auto, ""
	}
	return objectFormat(d, true)
}

// otlpResourceKeys are the keys of an OTLP resource spans, of any version.
var otlpResourceKeys = []string{"resource", "scopeSpans", "scope_spans", "instrumentationLibrarySpans", "instrumentation_library_spans", "schemaUrl", "schema_url"}

// otlpOtherSignals are the keys of OTLP's other signals, with their names.
var otlpOtherSignals = map[string]string{"resourceLogs": "logs", "resource_logs": "logs", "resourceMetrics": "metrics",
	"resource_metrics": "metrics", "resourceProfiles": "profiles", "resource_profiles": "profiles"}

// objectFormat returns the format of the object d is in (after its '{'):
// top, when it is a file's first value, else the first element of an
// array; unread names a shape recognized and not read.
func objectFormat(d *json.Decoder, top bool) (f Format, unread string) {
	var z zipkinKeys
	for d.More() {
		t, err := d.Token()
		if err != nil {
			break
		}
		key, _ := t.(string)
		switch key {
		case "resourceSpans", "resource_spans":
			if top {
				return OTLP, ""
			}
		case "batches": // Tempo's API: resource spans by another name
			if top && firstHasKey(d, otlpResourceKeys...) {
				return OTLP, ""
			}
			return Auto, ""
		case "result": // Jaeger's API v3: OTLP inside
			if t, err := d.Token(); top && err == nil && t == json.Delim('{') {
				if f, unread := objectFormat(d, true); f == OTLP || unread != "" {
					return f, unread
				}
			}
			return Auto, ""
		case "data":
			if top && dataHasTrace(d) {
				return Jaeger, ""
			}
			return Auto, ""
		case "spans", "processes": // not "traceID" alone: an event log may name its session so
			return Jaeger, ""
		case "SpanContext":
			return Stdouttrace, ""
		case "traceId":
			z.traceID = true
		case "id":
			z.id = true
		case "localEndpoint", "remoteEndpoint":
			z.endpoint = true
		case "binaryAnnotations":
			z.v1 = true
		}
		if signal, ok := otlpOtherSignals[key]; ok && top {
			return Auto, fmt.Sprintf("OTLP %s (%q), not traces: ivc reads traces (\"resourceSpans\")", signal, key)
		}
		if skipValue(d) != nil {
			break
		}
	}
	return z.format(top)
}

// zipkinKeys are the keys of a Zipkin span met in an object.
type zipkinKeys struct{ traceID, id, endpoint, v1 bool }

// format returns Zipkin for a span's keys: in an array, a trace id and an
// id; alone (top), an endpoint as well, since an event log's line may name
// its fields traceId and id.
func (z zipkinKeys) format(top bool) (Format, string) {
	if !z.traceID || !z.id || top && !z.endpoint {
		return Auto, ""
	}
	if z.v1 {
		return Auto, `Zipkin v1 JSON ("binaryAnnotations"): ivc reads Zipkin's v2 spans (its API v2, /api/v2/trace/{traceId})`
	}
	return Zipkin, ""
}

// dataHasTrace reports whether the value d is at holds a Jaeger trace: an
// array whose first element has "traceID" (the query API, a download), or
// a trace itself (the UI's state file, {"data": trace, "id", "state"}).
func dataHasTrace(d *json.Decoder) bool {
	t, err := d.Token()
	if err != nil {
		return false
	}
	switch t {
	case json.Delim('['):
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			return false
		}
		return hasKey(d, "traceID")
	case json.Delim('{'):
		return hasKey(d, "traceID", "spans", "processes")
	}
	return false
}

// firstHasKey reports whether the value d is at is an array whose first
// element is an object with one of keys.
func firstHasKey(d *json.Decoder, keys ...string) bool {
	if t, err := d.Token(); err != nil || t != json.Delim('[') {
		return false
	}
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	return hasKey(d, keys...)
}

// hasKey reports whether the object d is in (after its '{') has one of
// keys.
func hasKey(d *json.Decoder, keys ...string) bool {
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return false
		}
		if k, ok := t.(string); ok && slices.Contains(keys, k) {
			return true
		}
		if skipValue(d) != nil {
			return false
		}
	}
	return false
}

// skipValue reads one value with Token, without keeping it.
func skipValue(d *json.Decoder) error {
	depth := 0
	for {
		t, err := d.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// isHeaderRow reports whether the first line of b looks like the header of
// a CSV or TSV event log: at least two names separated by ',' or a tab.
func isHeaderRow(b []byte) bool {
	line, _, complete := bytes.Cut(b, []byte("\n"))
	if !complete {
		return false
	}
	line = bytes.TrimSuffix(line, []byte("\r"))
	sep := byte(',')
	if bytes.IndexByte(line, '\t') >= 0 {
		sep = '\t'
	}
	fields := bytes.Split(line, []byte{sep})
	if len(fields) < 2 {
		return false
	}
	for _, f := range fields {
		f = bytes.Trim(bytes.TrimSpace(f), `"`)
		if len(f) == 0 {
			return false
		}
		for _, c := range f {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-.@ ", c) >= 0) {
				return false
			}
		}
	}
	return true
}
