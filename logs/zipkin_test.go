package logs_test

import (
	"testing"

	"github.com/ivc-project/ivc/logs"
)

// zipkinSpan returns a Zipkin v2 span; service "" leaves out its
// localEndpoint, kind "" its kind.
func zipkinSpan(id, parent, kind, service, name string, start int, extra string) string {
	s := `{"traceId":"463ac35c9f6413ad","id":"` + id + `"`
	if parent != "" {
		s += `,"parentId":"` + parent + `"`
	}
	if kind != "" {
		s += `,"kind":"` + kind + `"`
	}
	s += `,"name":"` + name + `","timestamp":` + itoa(start) + `,"duration":5`
	if service != "" {
		s += `,"localEndpoint":{"serviceName":"` + service + `","ipv4":"10.0.0.1"}`
	}
	return s + extra + `}`
}

const zipkinTrace = "0000000000000000463ac35c9f6413ad"

func TestReadZipkin(t *testing.T) {
	runReadCases(t, []readCase{{
		// The SERVER half of an RPC shares its CLIENT half's id: one
		// call, paired, both with the server's name; a CONSUMER pairs
		// with its parent PRODUCER.
		name: "shared halves, messaging, local spans, spans out of order",
		file: "zipkin.json",
		in: "[\n" + zipkinSpan("a1", "", "SERVER", "b", "m", 20, `,"shared":true`) + ",\n" +
			zipkinSpan("a1", "", "CLIENT", "a", "get", 10, `,"remoteEndpoint":{"serviceName":"b"}`) + ",\n" +
			zipkinSpan("c1", "a1", "PRODUCER", "b", "publish", 30, `,"tags":{"messaging.destination.name":"n"}`) + ",\n" +
			zipkinSpan("d1", "c1", "CONSUMER", "c", "n", 40, "") + ",\n" +
			zipkinSpan("e1", "d1", "", "c", "work", 41, "") + ",\n" +
			zipkinSpan("f1", "d1", "CLIENT", "", "m", 42, "") + "\n]\n",
		want:  zipkinTrace + "@2 4/1: a!m | b?m.b!n | c?n\n",
		stats: logs.Stats{Sessions: 1, Events: 4, Ignored: 1, Unkinded: 1},
	}, {
		// A span without a time, a span that is no object, a
		// span without a trace id, a syntax error, each at its position.
		name: "malformed spans, then a syntax error",
		file: "spans",
		in: "[" + zipkinSpan("a1", "", "PRODUCER", "a", "m", 10, "") + ",\n" +
			`{"traceId":"463ac35c9f6413ad","id":"b1","kind":"CONSUMER","localEndpoint":{"serviceName":"b"},"name":"m"},` + "\n" +
			`  {"traceId":5},` + "\n" +
			`{"id":"x1","kind":"CLIENT"}]` + "\n" +
			"[" + zipkinSpan("a2", "", "PRODUCER", "a", "n", 20, "") + ",\n" +
			zipkinSpan("a3", "", "PRODUCER", "a", "n", 20, "") + ",,\n]\n",
		want: zipkinTrace + "@1 3/0: (1 dropped, from line 2) a!m.a!n.a!n |  | \n",
		reports: `spans:2:1: span "b1": timestamp "" is not a time (a positive integer of µs)
spans:3:3: invalid Zipkin span: json: cannot unmarshal number into Go struct field zipkinSpan.traceId of type string
spans:4:1: Zipkin span "x1": no traceId
spans:6:153: invalid JSON: invalid character ',' looking for beginning of value
`,
		stats: logs.Stats{Sessions: 1, Events: 3, Malformed: 4},
	}, {
		name: "one span alone, its lifeline from a tag",
		file: "span.json",
		opt:  logs.Options{LifelineAttr: "peer"},
		// Both names are declared: the span's name comes before rpc.method.
		in:   zipkinSpan("a1", "", "CLIENT", "frontend", "n", 10, `,"tags":{"peer":"c","rpc.method":"m"}`) + "\n",
		want: zipkinTrace + "@1 1/0:  |  | c!n\n", stats: logs.Stats{Sessions: 1, Events: 1},
	}})
}
