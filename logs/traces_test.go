package logs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// otlpSpan returns a span of OTLP/JSON, its id made of its start (the
// spans of a trace are one span each: the same id would be one span read
// twice).
func otlpSpan(trace, kind, name string, start int, attrs string) string {
	return `{"traceId":"` + trace + `","spanId":"` + fmt.Sprintf("01020304050607%02x", (7+start)%256) + `","name":"` + name + `","kind":` + kind +
		`,"startTimeUnixNano":"` + itoa(start) + `","attributes":[` + attrs + `]}`
}

func itoa(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}

// otlpLine returns a TracesData object of one resource (service) and spans.
func otlpLine(service string, spans ...string) string {
	out := `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"` + service +
		`"}}]},"scopeSpans":[{"spans":[`
	for i, s := range spans {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out + `]}]}]}`
}

const (
	t1 = "0af7651916cd43dd8448eb211c80319c"
	t2 = "4bf92f3577b34da6a3ce929d0e0e4736"
)

func dest(m string) string {
	return `{"key":"messaging.destination.name","value":{"stringValue":"` + m + `"}}`
}

func TestReadOTLP(t *testing.T) {
	runReadCases(t, []readCase{{
		name: "one object a line, spans out of time order",
		file: "traces.json",
		in: otlpLine("b",
			otlpSpan(t1, "5", "recv", 20, dest("m")),
			otlpSpan(t1, "\"SPAN_KIND_SERVER\"", "n", 10, ""),
			otlpSpan(t1, "1", "internal work", 5, ""),
			otlpSpan(t2, "2", "x", 5, `{"key":"rpc.method","value":{"stringValue":"n"}}`)) + "\n" +
			otlpLine("a",
				otlpSpan(t1, "4", "publish", 15, dest("m")),
				// A CLIENT span: rpc.method comes before messaging.destination.name.
				otlpSpan(t1, "3", "call", 3, dest("n")+`,{"key":"rpc.method","value":{"stringValue":"m"}}`),
				otlpSpan(t1, "0", "unspecified", 5, "")) + "\n\n" +
			otlpLine("db", otlpSpan(t2, "3", "query", 1, "")) + "\n" +
			`{"resourceSpans":[{"resource":{}, "scopeSpans":[{"spans":[{"traceId":"xyz"}]}]}]}` + "\n" +
			`{"resourceSpans":[` + "\n",
		want: t1 + "@1 4/0: a!m.a!m | b?n.b?m | \n" +
			t2 + "@1 1/1:  | b?n | \n",
		reports: "traces.json:5:70: invalid OTLP/JSON: traceId \"xyz\" is neither 32 hexadecimal digits nor the base64 of 16 bytes\n" +
			"traces.json:6:18: invalid OTLP/JSON: unexpected end of JSON input\n",
		stats: logs.Stats{Sessions: 2, Events: 5, Ignored: 1, Malformed: 2, Unkinded: 2},
	}, {
		name: "snake_case keys, one object over many lines, attribute overrides",
		file: "traces.json",
		opt:  logs.Options{LifelineAttr: "peer", MessageAttr: "msg"},
		in: `{
  "resource_spans": [
    {"resource": {"attributes": [{"key": "peer", "value": {"stringValue": "c"}}]},
     "scope_spans": [{"spans": [
        {"trace_id": "` + t1 + `", "kind": 4, "name": "m", "start_time_unix_nano": 2},
        {"trace_id": "` + t1 + `", "kind": 5, "name": "x", "start_time_unix_nano": 1,
         "attributes": [{"key": "msg", "value": {"stringValue": "n"}}]}]}]},
    {"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "c"}}]},
     "scope_spans": [{"spans": [
        {"trace_id": "` + t2 + `", "kind": 4, "name": "m", "start_time_unix_nano": 2,
         "attributes": [{"key": "peer", "value": {"stringValue": "a"}}]}]}]},
    {"resource": {}, "scope_spans": [{"spans": [{"trace_id": 12}]}]}
  ],
  "extra": {"ignored": [1, 2]}
}
{"resourceSpans": [{"resource": {}, "scopeSpans": [{"spans": [{"traceId": "` + t2 + `", "kind": 3, "name": "n", "startTimeUnixNano": "1",
  "attributes": [{"key": "peer", "value": {"stringValue": "b"}}]}]}]}]}
{"resourceSpans": [
  {"resource": {}} x
]}
`,
		want: t1 + "@3 2/0:  |  | c?n.c!m\n" + t2 + "@8 2/0: a!m | b!n | \n",
		reports: "traces.json:12:5: invalid OTLP/JSON resource spans: ReadStringAsSlice: expects \" or n, but found 1, error found in #10 byte of ...|ace_id\": 12}]}]}]}|..., bigger context ...|ce\": {}, \"scope_spans\": [{\"spans\": [{\"trace_id\": 12}]}]}]}|...\n" +
			"traces.json:19:20: invalid JSON: expected comma after array element\n",
		stats: logs.Stats{Sessions: 2, Events: 4, Malformed: 2},
	}})
}

// TestReadOTLPBase64 reads ids in base64, as proto3's canonical JSON
// writes them, as well as hex, in upper case too; an id
// that is neither is an error at its position.
func TestReadOTLPBase64(t *testing.T) {
	// t1 in base64: CvdlGRbNQ92ESOshHIAxnA==
	b64 := strings.Replace(otlpSpan(t1, "4", "m", 1, ""), t1, "CvdlGRbNQ92ESOshHIAxnA==", 1)
	b64 = strings.Replace(b64, "0102030405060708", "AQIDBAUGBwg=", 1)
	upper := otlpSpan(strings.ToUpper(t1), "5", "m", 2, "")
	runReadCases(t, []readCase{{
		name: "base64 and upper-case hex ids, one object a line",
		file: "t.json",
		in:   otlpLine("a", b64) + "\n" + otlpLine("b", upper) + "\n" + otlpLine("c", strings.Replace(b64, "AQIDBAUGBwg=", "AQIDBAUGBw==", 1)) + "\n",
		want: t1 + "@1 2/0: a!m | b?m | \n",
		reports: `t.json:3:170: invalid OTLP/JSON: spanId "AQIDBAUGBw==" is neither 16 hexadecimal digits nor the base64 of 8 bytes
`,
		stats: logs.Stats{Sessions: 1, Events: 2, Malformed: 1},
	}, {
		name: "base64 ids, one object over many lines",
		file: "t.json",
		in:   "{\"resourceSpans\": [\n" + strings.TrimSuffix(strings.TrimPrefix(otlpLine("a", b64), `{"resourceSpans":[`), "]}") + ",\n" + strings.TrimSuffix(strings.TrimPrefix(otlpLine("c", strings.Replace(b64, "AQIDBAUGBwg=", "!!", 1)), `{"resourceSpans":[`), "]}") + "\n]}\n",
		want: t1 + "@2 1/0: a!m |  | \n",
		reports: `t.json:3:152: invalid OTLP/JSON resource spans: spanId "!!" is neither 16 hexadecimal digits nor the base64 of 8 bytes
`,
		stats: logs.Stats{Sessions: 1, Events: 1, Malformed: 1},
	}})
}

// TestReadOTLPStart checks that a span without a start time, or one past
// 2^63-1 ns, is malformed and its session incomplete:
// read as 0 or as a negative time, it would move first and change the
// verdict silently.
func TestReadOTLPStart(t *testing.T) {
	noStart := strings.Replace(otlpSpan(t1, "4", "m", 1, ""), `,"startTimeUnixNano":"1"`, "", 1)
	runReadCases(t, []readCase{{
		name: "no start, start 2^64-1",
		file: "traces.jsonl.json",
		in: otlpLine("a", otlpSpan(t1, "4", "m", 5, ""), noStart) + "\n" +
			otlpLine("b", strings.Replace(otlpSpan(t1, "5", "m", 1, ""), `"1"`, `"18446744073709551615"`, 1)) + "\n",
		want: t1 + "@1 1/0: (2 dropped, from line 1) a!m |  | \n",
		// Each span at its own position: its spanId's column in its line.
		reports: `traces.jsonl.json:1:304: span "0102030405060708": startTimeUnixNano 0 is not a time (missing, or past 2^63-1 ns)
traces.jsonl.json:2:169: span "0102030405060708": startTimeUnixNano 18446744073709551615 is not a time (missing, or past 2^63-1 ns)
`,
		stats: logs.Stats{Sessions: 1, Events: 1, Malformed: 2},
	}})
}

func TestReadJaeger(t *testing.T) {
	span := func(trace, id, op, kind string, start int, proc, extra string) string {
		tags := `[{"key":"span.kind","type":"string","value":"` + kind + `"}` + extra + `]`
		if kind == "" {
			tags = `[]`
		}
		return `{"traceID":"` + trace + `","spanID":"` + id + `","operationName":"` + op + `","references":[],"startTime":` +
			itoa(start) + `,"duration":5,"tags":` + tags + `,"logs":[],"processID":"` + proc + `"}`
	}
	runReadCases(t, []readCase{{
		name: "traces, spans out of order, processes last",
		file: "jaeger.json",
		in: `{"data":[{"traceID":"abc1","spans":[
` + span("abc1", "s1", "m", "consumer", 30, "p2", "") + `,
` + span("abc1", "s2", "op", "producer", 10, "p1", `,{"key":"messaging.destination.name","type":"string","value":"m"}`) + `,
` + span("abc1", "s3", "n", "server", 20, "p2", "") + `,
` + span("abc1", "s4", "work", "", 20, "p2", "") + `,
` + span("abc1", "s5", "call", "client", 40, "p1", `,{"key":"rpc.method","type":"string","value":"n"},{"key":"big","type":"int64","value":12345678901234567890}`) + `,
` + span("abc1", "s6", "n", "client", 50, "p9", "") + `,
` + `{"spanID":"s7","startTime":"x","tags":[{"key":"span.kind","value":"client"}],"processID":"p1"}` + `,
` + `{"spanID":"s8","startTime":true}` + `
],
"processes":{"p1":{"serviceName":"a","tags":[]},"p2":{"serviceName":"b","tags":[]}},"warnings":null},
{"traceID":"abc2","processes":{"p1":{"serviceName":"frontend"}},"spans":[` + span("abc2", "t1", "m", "producer", 1, "p1", "") + `]}
],"total":0,"limit":0,"offset":0,"errors":null}
`,
		want: "abc1@2 4/0: (1 dropped, from line 7) a!m.a!n | b?n.b?m | \nabc2@12 0/1:  |  | \n",
		reports: `jaeger.json:8:1: invalid Jaeger span: json: invalid number literal, trying to unmarshal "\"x\"" into Number
jaeger.json:9:1: invalid Jaeger span: json: cannot unmarshal bool into Go struct field jaegerSpan.startTime of type json.Number
jaeger.json:7:1: span "s6": process "p9" is not in the trace's processes (at 1:10)
`,
		stats: logs.Stats{Sessions: 2, Events: 4, Ignored: 1, Malformed: 3, Unkinded: 1},
	}, {
		name: "a syntax error ends the file; what was read is kept",
		file: "jaeger.json",
		in: `{"data":[{"traceID":"abc1","spans":[
` + span("abc1", "s2", "m", "producer", 10, "p1", "") + `],"processes":{"p1":{"serviceName":"a"}}},
  {"traceID":"abc2","spans":[
` + span("abc2", "s2", "m", "producer", 10, "p1", "") + `,,
]}]}`,
		want:    "abc1@2 1/0: a!m |  | \n",
		reports: "jaeger.json:4:189: invalid JSON: invalid character ',' looking for beginning of value\n",
		stats:   logs.Stats{Sessions: 1, Events: 1, Malformed: 1},
	}, {
		// A start of 0 or below is no time, a
		// trace id that is not UTF-8 cannot be told from another, and what
		// the file holds is escaped in messages (no terminal escapes, no
		// forged lines).
		name: "no start time, a trace id not UTF-8, hostile span ids",
		file: "jaeger.json",
		in: `{"data":[{"traceID":"abc1","processes":{"p1":{"serviceName":"a"}},"spans":[
` + span("abc1", "s1", "m", "producer", 10, "p1", "") + `,
` + span("abc1", `\u001b]0;pwned\u0007\u001b[2J`, "m", "producer", 0, "p1", "") + `,
` + strings.Replace(span("abc1", `x\nabc1: Pass`, "m", "producer", 5, "p1", ""), `"startTime":5`, `"startTime":-5`, 1) + `,
` + span("a\xff", "s4", "m", "producer", 10, "p1", "") + `]}]}
`,
		want: "abc1@2 1/0: (2 dropped, from line 3) a!m |  | \n",
		reports: `jaeger.json:3:1: span "\x1b]0;pwned\a\x1b[2J": startTime "0" is not a time (a positive integer of µs)
jaeger.json:4:1: span "x\nabc1: Pass": startTime "-5" is not a time (a positive integer of µs)
jaeger.json:5:1: span "s4": trace id "a\ufffd" is not valid UTF-8
`,
		stats: logs.Stats{Sessions: 1, Events: 1, Malformed: 3},
	}})
}

// TestReadForced reads files in a forced format: a bare Jaeger trace and
// an array of them are Jaeger, and a file that holds none
// of the format's structure is an error naming the file and what was
// expected, not an empty log.
func TestReadForced(t *testing.T) {
	trace := func(id string) string {
		return `{"traceID":"` + id + `","spans":[{"traceID":"` + id + `","spanID":"s1","operationName":"m","startTime":1,` +
			`"tags":[{"key":"span.kind","value":"producer"}],"processID":"p1"},` +
			`{"traceID":"` + id + `","spanID":"s2","operationName":"work","startTime":2,"tags":[],"processID":"p1"}],` +
			`"processes":{"p1":{"serviceName":"a"}}}`
	}
	jsonl := `{"session":"s1","action":"a!m"}` + "\n" + `{"session":"s1","action":"b?m"}` + "\n"
	for _, c := range []struct {
		name, in string
		f        logs.Format
		want     string // dump, or the error
		unkinded int
	}{
		{"a bare Jaeger trace", trace("abc1"), logs.Jaeger, "abc1@1 1/0: a!m |  | \n", 1},
		{"an array of Jaeger traces", "[" + trace("abc1") + ",\n" + trace("abc2") + "]", logs.Jaeger,
			"abc1@1 1/0: a!m |  | \nabc2@2 1/0: a!m |  | \n", 2},
		{"JSON Lines read as OTLP", jsonl, logs.OTLP, `x.jsonl: no resource spans in the file: not OTLP/JSON (expected {"resourceSpans": [...]} objects, one a line or over many lines; Jaeger's API v3 {"result": {"resourceSpans": [...]}})`, 0},
		{"JSON Lines read as Jaeger", jsonl, logs.Jaeger, `x.jsonl: no traces in the file: not Jaeger JSON (expected {"data": [trace, ...]}, a trace {"traceID", "spans", "processes"}, or an array of traces)`, 0},
		{"an empty file is no error", "\n", logs.OTLP, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			opt := logs.Options{Sig: testSig(t)}
			sessions, st, err := session.ReadFrom("x.jsonl", strings.NewReader(c.in), c.f, opt, func(err error) { t.Error(err) })
			got := dump(opt.Sig, sessions)
			if err != nil {
				got = err.Error()
			}
			if got != c.want || st.Unkinded != c.unkinded {
				t.Errorf("got %s (%+v), want %s (%d unkinded)", got, st, c.want, c.unkinded)
			}
		})
	}
}

// TestReadByContent reads traces recognized by their content, whatever
// their name: OTLP objects in a .jsonl file (the
// Collector's file exporter prefers it), with a byte order mark, Jaeger's
// API v3 answer {"result": TracesData} on one line or many, a bare Jaeger
// trace and an array of them in a .json file; an event log whose session
// field is named traceID stays an event log.
func TestReadByContent(t *testing.T) {
	span := otlpSpan(t1, "4", "m", 1, "")
	jaeger := `{"traceID":"abc1","spans":[{"spanID":"s1","operationName":"m","startTime":1,` +
		`"tags":[{"key":"span.kind","value":"producer"}],"processID":"p1"}],"processes":{"p1":{"serviceName":"a"}}}`
	runReadCases(t, []readCase{{
		name: "OTLP in a .jsonl file, with a byte order mark",
		file: "traces.jsonl", in: "\ufeff" + otlpLine("a", span) + "\n",
		want: t1 + "@1 1/0: a!m |  | \n", stats: logs.Stats{Sessions: 1, Events: 1},
	}, {
		name: "Jaeger's API v3, one line",
		file: "v3.json", in: `{"result":` + otlpLine("a", span) + "}\n",
		want: t1 + "@1 1/0: a!m |  | \n", stats: logs.Stats{Sessions: 1, Events: 1},
	}, {
		name: "Jaeger's API v3, many lines",
		file: "v3.json", in: "{\"result\": {\n \"resourceSpans\": [" + strings.TrimSuffix(strings.TrimPrefix(otlpLine("a", span), `{"resourceSpans":[`), "]}") + "]\n }\n}\n",
		want: t1 + "@2 1/0: a!m |  | \n", stats: logs.Stats{Sessions: 1, Events: 1},
	}, {
		name: "a bare Jaeger trace",
		file: "trace.json", in: jaeger + "\n",
		want: "abc1@1 1/0: a!m |  | \n", stats: logs.Stats{Sessions: 1, Events: 1},
	}, {
		name: "an array of Jaeger traces",
		file: "traces", in: "[\n" + jaeger + "\n]\n",
		want: "abc1@2 1/0: a!m |  | \n", stats: logs.Stats{Sessions: 1, Events: 1},
	}, {
		name: "an event log whose session is named traceID",
		file: "x.jsonl", opt: logs.Options{Fields: map[string]string{"session": "traceID"}},
		in:   `{"traceID":"t","action":"a!m"}` + "\n",
		want: "t@1 1/0: a!m |  | \n", stats: logs.Stats{Sessions: 1, Events: 1},
	}})
}
