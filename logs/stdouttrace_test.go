package logs_test

import (
	"strings"
	"testing"

	"github.com/ivc-project/ivc/logs"
)

// stdoutSpan returns a span as the Go SDK's stdouttrace prints it, pretty
// (over many lines, tab-indented): kind is its SpanKind, parent its
// parent's id ("": none, printed as zeros).
func stdoutSpan(id, parent string, kind int, service, name, start, attrs string) string {
	if parent == "" {
		parent = "0000000000000000"
	}
	return "{\n\t\"Name\": \"" + name + "\",\n\t\"SpanContext\": {\n\t\t\"TraceID\": \"" + t1 + "\",\n\t\t\"SpanID\": \"" + id +
		"\",\n\t\t\"TraceFlags\": \"01\",\n\t\t\"Remote\": false\n\t},\n\t\"Parent\": {\n\t\t\"TraceID\": \"" + t1 + "\",\n\t\t\"SpanID\": \"" + parent +
		"\",\n\t\t\"Remote\": true\n\t},\n\t\"SpanKind\": " + itoa(kind) + ",\n\t\"StartTime\": \"" + start +
		"\",\n\t\"Attributes\": [" + attrs + "],\n\t\"Links\": null,\n\t\"Resource\": [\n\t\t{\n\t\t\t\"Key\": \"service.name\",\n\t\t\t\"Value\": {\n\t\t\t\t\"Type\": \"STRING\",\n\t\t\t\t\"Value\": \"" +
		service + "\"\n\t\t\t}\n\t\t}\n\t]\n}\n"
}

func TestReadStdouttrace(t *testing.T) {
	rpc := `{"Key": "rpc.method", "Value": {"Type": "STRING", "Value": "n"}}`
	runReadCases(t, []readCase{{
		// Printed in the order the spans end: the server's work first,
		// then the server, then its client.
		name: "a call between two services, an internal span, an offset",
		file: "stdout.json",
		in: stdoutSpan("00000000000000c1", "00000000000000b1", 1, "b", "roll", "2026-01-28T09:58:44.298985982+01:00", "") +
			stdoutSpan("00000000000000b1", "00000000000000a1", 2, "b", "m", "2026-01-28T08:58:44.298Z", "") +
			stdoutSpan("00000000000000a1", "", 3, "a", "HTTP GET", "2026-01-28T08:58:44.297Z", rpc),
		want:  t1 + "@28 2/0: a!m | b?m | \n",
		stats: logs.Stats{Sessions: 1, Events: 2, Unkinded: 1},
	}, {
		name: "a start that is no time, a span that is no object, a syntax error",
		file: "stdout.log",
		in: stdoutSpan("00000000000000a1", "", 4, "a", "m", "2026-01-28T08:58:44Z", "") +
			strings.Replace(stdoutSpan("00000000000000a2", "", 4, "a", "n", "yesterday", ""), "\t", "  ", -1) +
			"[5]\n" + stdoutSpan("00000000000000a3", "", 5, "c", "n", "2026-01-28T08:58:45Z", "") + "{\"Name\": }\n",
		want: t1 + "@1 2/0: (1 dropped, from line 28) a!m |  | c?n\n",
		reports: `stdout.log:28:1: span "00000000000000a2": StartTime "yesterday" is not a time (RFC 3339, after 1970)
stdout.log:55:2: invalid stdouttrace span: json: cannot unmarshal number into Go value of type logs.stdoutSpan
stdout.log:83:10: invalid JSON: invalid character '}' looking for beginning of value
`,
		stats: logs.Stats{Sessions: 1, Events: 2, Malformed: 3},
	}})
}
