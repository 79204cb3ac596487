package logs_test

import (
	"testing"

	"github.com/ivc-project/ivc/logs"
)

// linkedSpan returns a span of OTLP/JSON with its id, parent and links.
func linkedSpan(trace, id, parent, kind, name string, start int, attrs, links string) string {
	return `{"traceId":"` + trace + `","spanId":"` + id + `","parentSpanId":"` + parent + `","name":"` + name + `","kind":` + kind +
		`,"startTimeUnixNano":"` + itoa(start) + `","attributes":[` + attrs + `],"links":[` + links + `]}`
}

const (
	c1 = "00000000000000c1"
	s1 = "00000000000000a1"
	p1 = "00000000000000b1"
	k1 = "00000000000000d1"
)

// Client and server spans of one call, producer and consumer spans of one
// message, carry one message: the receiving side's, by the trace's links,
// whatever the order of the spans and of their clocks.
func TestReadLinkedSpans(t *testing.T) {
	route := `{"key":"http.route","value":{"stringValue":"n"}}`
	runReadCases(t, []readCase{{
		name: "OTLP: server before its client, in time and in the file; consumer linked to its producer",
		file: "traces.json",
		in: otlpLine("b",
			linkedSpan(t1, s1, c1, "2", "n", 5, "", ""),                // SERVER named after its route, its clock ahead of its client's
			linkedSpan(t1, p1, s1, "4", "publish", 7, "", "")) + "\n" + // PRODUCER
			otlpLine("c",
				linkedSpan(t1, k1, "", "5", "process", 30, dest("m"), `{"traceId":"`+t1+`","spanId":"`+p1+`"}`)) + "\n" + // CONSUMER
			otlpLine("a",
				linkedSpan(t1, c1, "", "3", "HTTP GET", 10, "", ""),                  // CLIENT
				linkedSpan(t2, c1, "", "3", "HTTP GET", 10, "", ""),                  // CLIENT, nobody received: its own name
				linkedSpan(t2, s1, "00000000000000ff", "2", "m", 20, "", "")) + "\n", // SERVER whose client is not in the file: its own name
		want:  t1 + "@1 4/0: a!n | b?n.b!m | c?m\n" + t2 + "@3 1/1: a?m |  | \n",
		stats: logs.Stats{Sessions: 2, Events: 5, Ignored: 1},
	}, {
		name: "OTLP: http.route names the pair; --message-attr still overrides",
		file: "traces.json",
		in: otlpLine("a", linkedSpan(t1, c1, "", "3", "HTTP GET", 10, "", "")) + "\n" +
			otlpLine("b", linkedSpan(t1, s1, c1, "2", "GET /x", 20, route, "")) + "\n",
		want:  t1 + "@1 2/0: a!n | b?n | \n",
		stats: logs.Stats{Sessions: 1, Events: 2},
	}, {
		name: "OTLP: --message-attr",
		file: "traces.json",
		opt:  logs.Options{MessageAttr: "op"},
		in: otlpLine("a", linkedSpan(t1, c1, "", "3", "HTTP GET", 10, "", "")) + "\n" +
			otlpLine("b", linkedSpan(t1, s1, c1, "2", "GET /x", 20, route+`,{"key":"op","value":{"stringValue":"m"}}`, "")) + "\n",
		want:  t1 + "@1 2/0: a!m | b?m | \n",
		stats: logs.Stats{Sessions: 1, Events: 2},
	}})
}

func TestReadLinkedJaegerSpans(t *testing.T) {
	span := func(id, op, kind string, start int, proc, refs string) string {
		return `{"traceID":"abc1","spanID":"` + id + `","operationName":"` + op + `","references":[` + refs + `],"startTime":` +
			itoa(start) + `,"tags":[{"key":"span.kind","type":"string","value":"` + kind + `"}],"processID":"` + proc + `"}`
	}
	ref := func(typ, id string) string { return `{"refType":"` + typ + `","traceID":"ABC1","spanID":"` + id + `"}` }
	runReadCases(t, []readCase{{
		name: "CHILD_OF pairs a server with its client, FOLLOWS_FROM a consumer with its producer",
		file: "jaeger.json",
		in: `{"traceID":"abc1","spans":[
` + span("s1", "n", "server", 5, "p2", ref("CHILD_OF", "C1")) + `,
` + span("k1", "m", "consumer", 30, "p3", ref("CHILD_OF", "s1")+","+ref("FOLLOWS_FROM", "p1")) + `,
` + span("p1", "send", "producer", 7, "p2", ref("CHILD_OF", "s1")) + `,
` + span("c1", "HTTP GET", "client", 10, "p1", "") + `
],"processes":{"p1":{"serviceName":"a"},"p2":{"serviceName":"b"},"p3":{"serviceName":"c"}}}
`,
		want:  "abc1@2 4/0: a!n | b?n.b!m | c?m\n",
		stats: logs.Stats{Sessions: 1, Events: 4},
	}})
}
