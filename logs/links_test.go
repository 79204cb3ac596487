package logs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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

// jaegerTrace returns a Jaeger trace of spans, with processes p1, p2, p3
// of services a, b, c.
func jaegerTrace(trace string, spans ...string) string {
	return `{"traceID":"` + trace + `","spans":[` + strings.Join(spans, ",") +
		`],"processes":{"p1":{"serviceName":"a"},"p2":{"serviceName":"b"},"p3":{"serviceName":"c"}}}`
}

// jaegerSpan returns a span of Jaeger JSON, its start in µs.
func jaegerSpan(trace, id, op, kind string, start int, proc, tags, refs string) string {
	if tags != "" {
		tags = "," + tags
	}
	return `{"traceID":"` + trace + `","spanID":"` + id + `","operationName":"` + op + `","references":[` + refs + `],"startTime":` +
		itoa(start) + `,"tags":[{"key":"span.kind","type":"string","value":"` + kind + `"}` + tags + `],"processID":"` + proc + `"}`
}

// TestJoinLinkedSpans: a client span in one service's OTLP file and its
// server span in another's Jaeger file are paired as if in one file, when
// the sessions are joined across the files of a run: by a Joiner (in
// memory and spilling) and by Scan and Assemble (ivc-beam, the monitor).
func TestJoinLinkedSpans(t *testing.T) {
	const t3 = "33333333333333333333333333333333"
	dir := t.TempDir()
	gateway := filepath.Join(dir, "gateway.jsonl")
	services := filepath.Join(dir, "services.json")
	childOf := func(trace, id string) string {
		return `{"refType":"CHILD_OF","traceID":"` + trace + `","spanID":"` + id + `"}`
	}
	route := `{"key":"http.route","type":"string","value":"n"}`
	write := func(name, data string) {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(gateway, otlpLine("a",
		linkedSpan(t1, c1, "", "3", "HTTP GET", 10e9, "", ""),       // CLIENT of b's SERVER s1
		linkedSpan(t2, c1, "", "3", "HTTP GET", 20e9, "", ""))+"\n"+ // CLIENT, a request lost
		otlpLine("c", linkedSpan(t1, k1, "", "5", "process", 12e9, dest("m"), `{"traceId":"`+t1+`","spanId":"`+p1+`"}`))+"\n") // CONSUMER of b's PRODUCER p1
	write(services, `{"data":[`+jaegerTrace(t1,
		jaegerSpan(t1, s1[8:], "GET /n", "server", 9e6, "p2", route, childOf(t1, c1)), // b's clock 1 s behind a's
		jaegerSpan(t1, p1, "publish", "producer", 9.5e6, "p2", "", childOf(t1, s1)))+","+
		jaegerTrace(t3, jaegerSpan(t3, "a3", "n", "server", 30e6, "p2", "", childOf(t3, "ff")))+ // a reception nobody sent
		"]}\n")
	sig := testSig(t)
	opt := logs.Options{Sig: sig}
	files := []string{gateway, services}
	want := t1 + " from gateway.jsonl:1 in gateway.jsonl,services.json: 4/0: { [a] a!n; [b] b?n.b!m; [c] c?m }\n" +
		t2 + " from gateway.jsonl:1 in gateway.jsonl: 0/1: { [a] ; [b] ; [c] ; }\n" +
		t3 + " from services.json:1 in services.json: 1/0: { [a] ; [b] b?n; [c] ; }\n"
	for _, budget := range []int64{0, 1} {
		if got := dumpJoined(sig, joined(t, files, opt, budget, budget > 0)); got != want {
			t.Errorf("budget %d:\n%s\nwant\n%s", budget, got, want)
		}
	}
	// Only the lost request's client stays outside the signature.
	j, err := logs.NewJoiner(opt, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		in, err := logs.Open(f, logs.Auto, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.Read(in, nil); err != nil {
			t.Fatal(err)
		}
		if u := in.Undeclared(); len(u) > 0 {
			t.Errorf("%s: undeclared %v before assembly", f, u)
		}
		in.Close()
	}
	for range j.Sessions() {
	}
	if u := j.Undeclared(); !reflect.DeepEqual(u, []logs.Undeclared{{Name: "HTTP GET", Events: 1}}) {
		t.Errorf("undeclared %v", u)
	}

	// Scan and Assemble, the events of a session from both files.
	groups := map[string][]logs.Event{}
	var order []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := logs.Scan(f, bytes.NewReader(data), logs.Auto, opt, func(e logs.Event) {
			b, err := e.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var d logs.Event
			if err := d.UnmarshalBinary(b); err != nil || !reflect.DeepEqual(d, e) {
				t.Fatalf("event %+v decodes as %+v (%v)", e, d, err)
			}
			d.File = f
			if _, ok := groups[d.Session]; !ok {
				order = append(order, d.Session)
			}
			groups[d.Session] = append(groups[d.Session], d)
		}, func(err error) { t.Error(err) }); err != nil {
			t.Fatal(err)
		}
	}
	a, err := logs.NewAssembler(opt)
	if err != nil {
		t.Fatal(err)
	}
	var got []logs.Session
	for _, id := range order {
		s, err := a.Assemble("", id, groups[id])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if d := dumpJoined(sig, got); d != want {
		t.Errorf("Scan and Assemble:\n%s\nwant\n%s", d, want)
	}
}
