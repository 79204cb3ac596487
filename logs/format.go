package logs

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ivc-project/ivc/internal/enum"
	"github.com/ivc-project/ivc/syntax"
)

// Format is the format of a log.
type Format uint8

const (
	Auto   Format = iota // decided by Detect from the file's name and first bytes
	HTF                  // HIBOU's .htf multi-trace: read it with multitrace.Read
	JSONL                // JSON Lines event log: one JSON object, one event, a line
	CSV                  // CSV (or TSV) event log: a header row, then one event a row
	OTLP                 // OpenTelemetry OTLP/JSON traces, as the Collector's file exporter writes them
	Jaeger               // Jaeger's JSON traces, as its UI downloads and its query API returns them
)

// formatNames are the formats as flags spell them, in lower case: not
// stringer's identifiers.
var formatNames = enum.New("Format", map[Format]string{Auto: "auto", HTF: "htf", JSONL: "jsonl", CSV: "csv", OTLP: "otlp", Jaeger: "jaeger"})

// String returns the name ParseFormat reads.
func (f Format) String() string { return formatNames.Name(f) }

// ParseFormat reads "auto", "htf", "jsonl", "csv", "otlp" or "jaeger".
func ParseFormat(s string) (Format, error) {
	if f, ok := formatNames.Value(s); ok {
		return f, nil
	}
	return 0, fmt.Errorf("unknown log format %q (expected auto, htf, jsonl, csv, otlp or jaeger)", s)
}

// Magic numbers of the compressed and binary forms Detect recognizes.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// Detect decides the format of a file by its name and its first bytes head
// (the more the better: 64 KiB is plenty). A ".gz" suffix is looked
// through, and so is a gzip head. Traces are recognized by their content
// first, whatever the name (the Collector's file exporter prefers .jsonl
// for its OTLP objects): OTLP when the first object has "resourceSpans"
// (or "resource_spans"), also inside "result" (Jaeger's API v3); Jaeger
// when it has "data" whose first element has "traceID", or is itself a
// trace (it has "spans" or "processes"), or is an array whose
// first element is one. Otherwise, by the name: .htf → HTF; .jsonl and
// .ndjson → JSONL; .csv and .tsv → CSV; .json → an error (it is neither
// OTLP nor Jaeger). Any other name (and "-", standard input) is decided by
// the content alone: another JSON object → JSONL, a '{' followed by '[' →
// HTF, a header row of names separated by ',' or a tab → CSV.
//
// A zstd-compressed or binary (protobuf) head gets an error saying so:
// ivc reads OTLP/JSON, not OTLP/protobuf.
func Detect(name string, head []byte) (Format, error) {
	if f := DetectName(name); f != Auto {
		return f, nil
	}
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(name)), ".gz")
	if bytes.HasPrefix(head, gzipMagic) {
		head = gunzipHead(head)
	}
	ext := filepath.Ext(base)
	if f := traceFormat(bytes.TrimPrefix(head, utf8BOM)); f != Auto {
		return f, nil
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
		return Auto, fmt.Errorf("%s: cannot tell the log format: a .json file is read as OTLP when its first object has \"resourceSpans\" (also in \"result\"), as Jaeger when it has \"data\" with \"traceID\" or is a trace {\"traceID\", \"spans\", \"processes\"} or an array of them (rename a JSON Lines event log .jsonl, or give the format)", syntax.FileName(name))
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
	return Auto, fmt.Errorf("%s: cannot tell the log format from the file's name or first bytes: give it (htf, jsonl, csv, otlp or jaeger)", syntax.FileName(name))
}

// DetectName returns the format that the name of a file decides whatever
// the file holds, as Detect decides it: HTF for a .htf file (.htf.gz too).
// For any other name it returns Auto: the first bytes decide (Detect).
func DetectName(name string) Format {
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(name)), ".gz")
	if filepath.Ext(base) == ".htf" {
		return HTF
	}
	return Auto
}

// gunzipHead returns what the gzip head decompresses to, as far as it goes.
func gunzipHead(head []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(head))
	if err != nil {
		return head
	}
	out, _ := io.ReadAll(io.LimitReader(zr, 1<<20))
	return out
}

// binaryHead returns an error for a zstd-compressed or binary head: the
// Collector's file exporter writes these with format: proto or
// compression: zstd.
func binaryHead(name string, head []byte) error {
	if bytes.HasPrefix(head, zstdMagic) {
		return fmt.Errorf("%s: zstd-compressed: ivc reads plain or gzip-compressed logs (decompress it with zstd -d, or set the file exporter's compression to none)", syntax.FileName(name))
	}
	n := min(len(head), 512)
	for _, b := range head[:n] {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' {
			return fmt.Errorf("%s: binary content (OTLP/protobuf?): ivc reads OTLP/JSON (set the file exporter's format to json)", syntax.FileName(name))
		}
	}
	return nil
}

// traceFormat returns OTLP or Jaeger when the first JSON value of head has
// their top-level keys (see Detect), Auto otherwise.
func traceFormat(head []byte) Format {
	d := json.NewDecoder(bytes.NewReader(head))
	t, err := d.Token()
	if err != nil {
		return Auto
	}
	if t == json.Delim('[') { // an array of Jaeger traces
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			return Auto
		}
		return objectFormat(d, false)
	}
	if t != json.Delim('{') {
		return Auto
	}
	return objectFormat(d, true)
}

// objectFormat returns the format of the object d is in (after its '{'):
// top, when it is a file's first value.
func objectFormat(d *json.Decoder, top bool) Format {
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return Auto
		}
		switch t {
		case "resourceSpans", "resource_spans":
			if top {
				return OTLP
			}
		case "result": // Jaeger's API v3: OTLP inside
			if t, err := d.Token(); top && err == nil && t == json.Delim('{') {
				if objectFormat(d, true) == OTLP {
					return OTLP
				}
			}
			return Auto
		case "data":
			if top && firstHasTraceID(d) {
				return Jaeger
			}
			return Auto
		case "spans", "processes": // not "traceID" alone: an event log may name its session so
			return Jaeger
		}
		if skipValue(d) != nil {
			return Auto
		}
	}
	return Auto
}

// firstHasTraceID reports whether the value d is at is an array whose
// first element is an object with the key "traceID".
func firstHasTraceID(d *json.Decoder) bool {
	if t, err := d.Token(); err != nil || t != json.Delim('[') {
		return false
	}
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return false
		}
		if t == "traceID" {
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
