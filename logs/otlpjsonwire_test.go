package logs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/logs"
)

// The reading of OTLP/JSON documents from their bytes (otlpjsonwire.go) is
// held to pdata's: on the same bytes, with it on and off (pdata then reads
// every document), the reader of files gives the same sessions, reports
// (and their positions), stats and names outside the signature, whether
// the file holds one document a line or documents over many lines.

// readFile reads in as a file of format f, its OTLP/JSON documents read
// from their bytes or not.
func readFile(t *testing.T, name string, in []byte, f logs.Format, opt logs.Options, wire bool) fileReading {
	t.Helper()
	defer logs.SetJSONWire(wire)()
	fr, err := readInput(t, name, in, f, opt)
	if err != nil {
		return fileReading{Dump: "open: " + err.Error()}
	}
	return fr
}

// sameJSONFile checks that the file in is read alike from its bytes and by
// pdata.
func sameJSONFile(t *testing.T, name string, in []byte, f logs.Format, opt logs.Options) {
	t.Helper()
	if w, p := readFile(t, "x.json", in, f, opt, true), readFile(t, "x.json", in, f, opt, false); !reflect.DeepEqual(w, p) {
		t.Errorf("%s: read from its bytes:\n%+v\nby pdata:\n%+v", name, w, p)
	}
}

// sameJSONReading checks that doc, an OTLP/JSON document, is read alike
// from its bytes and by pdata, in a file of one document a line and, when
// it is JSON, written over many lines; it returns whether doc is read from
// its bytes, and checks that pdata then reads it, spans and all.
func sameJSONReading(t *testing.T, name string, doc []byte, opt logs.Options) bool {
	t.Helper()
	sameJSONFile(t, name+", a line", append(slices.Clip(doc), '\n'), logs.OTLP, opt)
	var indented bytes.Buffer
	if json.Indent(&indented, doc, "", "  ") == nil {
		sameJSONFile(t, name+", indented", indented.Bytes(), logs.OTLP, opt)
	}
	decoded := logs.JSONWireDecodes(doc, opt, false)
	if decoded {
		var u ptrace.JSONUnmarshaler
		if td, err := u.UnmarshalTraces(doc); err != nil || td.SpanCount() == 0 {
			t.Errorf("%s: read from its bytes, and pdata reads %d spans, %v", name, td.SpanCount(), err)
		}
	}
	return decoded
}

// Documents written by hand: a span of trace 1, id id, kind kind, named
// name, starting at start (their JSON), with more fields.
func spanJSON(id byte, kind, name, start string, more ...string) string {
	s := fmt.Sprintf(`{"traceId":"01010101010101010101010101010101","spanId":"%02x00000000000001","name":%s,"kind":%s,"startTimeUnixNano":%s`,
		id, name, kind, start)
	for _, m := range more {
		s += "," + m
	}
	return s + "}"
}

// resourceJSON is a resource spans of service svc (its JSON value) with
// one scope of spans.
func resourceJSON(svc string, spans ...string) string {
	return `{"resource":{"attributes":[{"key":"service.name","value":` + svc + `}]},"scopeSpans":[{"scope":{"name":"lib"},"spans":[` +
		strings.Join(spans, ",") + `]}]}`
}

func docJSON(rss ...string) string { return `{"resourceSpans":[` + strings.Join(rss, ",") + `]}` }

// routeJSON is a document of a span whose message is read from the
// attribute http.route, of value v.
func routeJSON(v string) string {
	return docJSON(resourceJSON(`{"stringValue":"a"}`, spanJSON(1, "2", `"GET"`, `"100"`, `"attributes":[{"key":"http.route","value":`+v+`}]`)))
}

// everyFieldJSON is everyField in OTLP/JSON, its names written with no
// escape.
func everyFieldJSON(t testing.TB) []byte {
	td := everyField()
	for _, rs := range td.ResourceSpans().All() {
		for _, ss := range rs.ScopeSpans().All() {
			for _, sp := range ss.Spans().All() {
				if sp.Name() == "n\x00" {
					sp.SetName("n")
				}
				if v, ok := sp.Attributes().Get(logs.MessagingDestination); ok && v.Str() == "\xff\xfe" {
					sp.Attributes().PutStr(logs.MessagingDestination, "\u00e9")
				}
			}
		}
	}
	return jsonOf(t, td)
}

const (
	tid1 = `"01010101010101010101010101010101"`
	sid1 = `"0100000000000001"`
)

// jsonHandWritten returns documents written by hand, and whether each is
// read from its bytes (with the default options).
func jsonHandWritten() map[string]struct {
	doc  string
	fast bool
} {
	a := spanJSON(1, "3", `"m"`, `"100"`)
	b := spanJSON(2, "2", `"m"`, `"90"`, `"parentSpanId":`+sid1)
	svc := `{"stringValue":"a"}`
	type c = struct {
		doc  string
		fast bool
	}
	return map[string]c{
		"two resources": {docJSON(resourceJSON(svc, a), resourceJSON(`{"stringValue":"b"}`, b)), true},
		"snake case": {`{"resource_spans":[{"resource":{"attributes":[{"key":"service.name","value":{"string_value":"a"},"key_strindex":0}],` +
			`"dropped_attributes_count":1,"entity_refs":[{"schema_url":"s","type":"service","id_keys":["a"],"description_keys":[]}]},` +
			`"scope_spans":[{"scope":{"name":"x","version":"1","attributes":[],"dropped_attributes_count":0},"schema_url":"u","spans":[` +
			`{"trace_id":` + tid1 + `,"span_id":` + sid1 + `,"parent_span_id":"0200000000000001","trace_state":"k=v","name":"m","kind":3,` +
			`"start_time_unix_nano":"100","end_time_unix_nano":"200","attributes":[{"key":"x","value":{"int_value":"3"}}],` +
			`"dropped_attributes_count":"1","events":[{"time_unix_nano":"5","name":"e","attributes":[],"dropped_attributes_count":0}],` +
			`"dropped_events_count":2,"links":[{"trace_id":` + tid1 + `,"span_id":"0300000000000001","trace_state":"","attributes":[],` +
			`"dropped_attributes_count":0,"flags":1}],"dropped_links_count":0,"status":{"message":"","code":"STATUS_CODE_OK"},"flags":"256"}]}],` +
			`"schema_url":"r"}]}`, true},
		"camel case, every field": {`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a"},"keyStrindex":"0"}],` +
			`"droppedAttributesCount":"1","entityRefs":[{"schemaUrl":"s","type":"service","idKeys":["a"],"descriptionKeys":["d"]}]},` +
			`"scopeSpans":[{"scope":{"name":"x","version":"1","attributes":[{"key":"k","value":{"boolValue":true}}],"droppedAttributesCount":"0"},"schemaUrl":"u","spans":[` +
			`{"traceId":` + tid1 + `,"spanId":` + sid1 + `,"parentSpanId":"0200000000000001","traceState":"k=v","name":"m","kind":5,` +
			`"startTimeUnixNano":100,"endTimeUnixNano":200,"attributes":[{"key":"x","value":{"intValue":3}}],` +
			`"droppedAttributesCount":1,"events":[{"timeUnixNano":5,"name":"e","attributes":[{"key":"b","value":{"bytesValue":"AQI="}}],"droppedAttributesCount":"0"}],` +
			`"droppedEventsCount":"2","links":[{"traceId":` + tid1 + `,"spanId":"0300000000000001","traceState":"","attributes":[],` +
			`"droppedAttributesCount":"0","flags":"1"},{"traceId":"","spanId":""}],"droppedLinksCount":"0","status":{"message":"no","code":2},"flags":256}]}],` +
			`"schemaUrl":"r"}]}`, true},
		"whitespace": {" \t\r{ \"resourceSpans\" :\t[ " + strings.ReplaceAll(resourceJSON(svc, a, b), ",", " , ") + " ] }\r ", true},
		"kind names": {docJSON(resourceJSON(svc, spanJSON(1, `"SPAN_KIND_CLIENT"`, `"m"`, `"100"`), spanJSON(2, `"SPAN_KIND_SERVER"`, `"m"`, `"90"`),
			spanJSON(3, `"SPAN_KIND_PRODUCER"`, `"n"`, `"110"`), spanJSON(4, `"SPAN_KIND_CONSUMER"`, `"n"`, `"120"`),
			spanJSON(5, `"SPAN_KIND_INTERNAL"`, `"n"`, `"130"`), spanJSON(6, `"SPAN_KIND_UNSPECIFIED"`, `"n"`, `"140"`))), true},
		"kinds of no action": {docJSON(resourceJSON(svc, a, spanJSON(2, "7", `"m"`, `"90"`), spanJSON(3, "-1", `"m"`, `"90"`),
			spanJSON(4, "-0", `"m"`, `"90"`), spanJSON(5, "2147483", `"m"`, `"90"`))), true},
		"empty ids":     {docJSON(resourceJSON(svc, `{"traceId":"","spanId":"","parentSpanId":"","name":"m","kind":3,"startTimeUnixNano":"100"}`, a)), true},
		"upper hex ids": {docJSON(resourceJSON(svc, `{"traceId":"0A0B0C0D0E0F0A0B0C0D0E0F0A0B0C0D","spanId":"ABCDEF0123456789","name":"m","kind":3,"startTimeUnixNano":"100"}`)), true},
		"no trace id":   {docJSON(resourceJSON(svc, `{"spanId":"ABCDEF0123456789","name":"m","kind":3,"startTimeUnixNano":"100"}`)), true},
		"times not times": {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"0"`), spanJSON(2, "3", `"m"`, `"18446744073709551615"`),
			spanJSON(3, "3", `"m"`, "9999999999999999999"), spanJSON(4, "3", `"m"`, `"0100"`), spanJSON(5, "3", `"m"`, "0"),
			spanJSON(6, "3", `"m"`, `"100"`, `"endTimeUnixNano":"1"`))), true},
		"no start": {docJSON(resourceJSON(svc, `{"traceId":`+tid1+`,"spanId":`+sid1+`,"name":"m","kind":3}`)), true},
		"links": {docJSON(resourceJSON(svc, a), resourceJSON(`{"stringValue":"b"}`, spanJSON(2, "5", `"m"`, `"110"`,
			`"links":[{"traceId":"02010101010101010101010101010101","spanId":`+sid1+`},{"traceId":`+tid1+`,"spanId":`+sid1+`,"attributes":[{"key":"spanId","value":{"stringValue":"x"}}]}]`),
			spanJSON(3, "2", `"m"`, `"120"`, `"links":[]`))), true},
		"a spanId in a value": {docJSON(resourceJSON(svc, spanJSON(1, "3", `"spanId"`, `"100"`), spanJSON(2, "3", `"m"`, `"100"`, `"attributes":[{"key":"span_id","value":{"stringValue":"spanId"}}]`))), true},
		"names of all kinds": {docJSON(resourceJSON(svc,
			spanJSON(1, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"intValue":-12}}]`),
			spanJSON(2, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"intValue":"100"}}]`),
			spanJSON(3, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"boolValue":false}}]`),
			spanJSON(4, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"doubleValue":1e21}}]`),
			spanJSON(5, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"doubleValue":1E-7}}]`),
			spanJSON(6, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"doubleValue":"NaN"}}]`),
			spanJSON(7, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"doubleValue":"-Infinity"}}]`),
			spanJSON(8, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"doubleValue":-0}}]`),
			spanJSON(9, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"doubleValue":0.25}}]`),
			spanJSON(10, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"doubleValue":"1.5e3"}}]`),
			spanJSON(11, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"bytesValue":"bQ=="}}]`),
			spanJSON(12, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"bytesValue":""}}]`),
			spanJSON(13, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{}}]`),
			spanJSON(14, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route"}]`),
			spanJSON(15, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"stringValueStrindex":3}}]`),
			spanJSON(16, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"stringValue":"z","intValue":"1"}}]`),
			spanJSON(17, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"intValue":"1","stringValue":"m"}}]`),
			spanJSON(18, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"stringValue":"r"}},{"key":"http.request.method","value":{"intValue":3}}]`),
			spanJSON(19, "3", `"x"`, `"100"`, `"attributes":[{"key":"rpc.service","value":{"stringValue":"s"}},{"key":"rpc.method","value":{"doubleValue":2}}]`),
			spanJSON(20, "3", `"x"`, `"100"`, `"attributes":[{"key":"msg","value":{"stringValue":"n"}},{"key":"svc","value":{"stringValue":"b"}}]`),
			spanJSON(21, "3", `"x"`, `"100"`, `"attributes":[{"key":"msg","value":{"intValue":5}},{"key":"svc","value":{"boolValue":true}}]`),
			spanJSON(22, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"stringValue":"`+"\u00e9t\u00e9"+`"}}]`),
			spanJSON(23, "3", `"x"`, `"100"`, `"attributes":[{"key":"http.route","value":{"stringValue":"m"}},{"key":"http.route","value":{"stringValue":"n"}}]`),
		)), true},
		"escapes unread": {docJSON(`{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a"}},{"key":"x","value":{"stringValue":"\"q\" \\ \/ \b\f\n\r\t"}}]},` +
			`"scopeSpans":[{"scope":{"name":"l\u0069b","version":"\ud83d\ude00","attributes":[{"key":"\u006b","value":{"stringValue":"\ud800"}}]},"schemaUrl":"\ud800\u0041","spans":[` +
			spanJSON(1, "3", `"m"`, `"100"`, `"traceState":"a\"b"`, `"status":{"message":"x\ny"}`,
				`"events":[{"name":"\u00e9","attributes":[{"key":"log\n","value":{"stringValue":"[{\"a\":1}]"}},{"key":"n","value":{"arrayValue":{"values":[{"stringValue":"\\"}]}}}]}]`,
				`"attributes":[{"key":"log","value":{"stringValue":"[{\"a\":1}]"}}]`,
				`"links":[{"traceState":"\t","attributes":[{"key":"\"","value":{"stringValue":"\""}}]}]`) + `]}]}`), true},
		"escaped quotes before span ids": {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"traceState":"a\"spanId"`),
			spanJSON(2, "3", `"m"`, `"100"`, `"attributes":[{"key":"k","value":{"stringValue":"\"span_id"}}]`), spanJSON(3, "4", `"n"`, `"100"`))), true},
		"a service of no string": {docJSON(resourceJSON(`{"intValue":"7"}`, a)), true},
		"no resource":            {`{"resourceSpans":[{"scopeSpans":[{"spans":[` + a + `]}]}]}`, true},
		"nested values unnamed": {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`,
			`"attributes":[{"key":"list","value":{"arrayValue":{"values":[{"intValue":1},{"arrayValue":{}},{"kvlistValue":{"values":[{"key":"k","value":{"stringValue":"v"}}]}}]}}}]`))), true},
		"an unnamed deep list": {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"attributes":[{"key":"deep","value":`+nestedJSON(5)+`}]`))), true},

		// Left to pdata.
		"every field, escaped":       {"", false}, // filled in by the test
		"an escaped name":            {docJSON(resourceJSON(svc, spanJSON(1, "3", `"\u006d"`, `"100"`))), false},
		"an escaped key":             {docJSON(resourceJSON(svc, `{"traceId":`+tid1+`,"spanId":`+sid1+`,"n\u0061me":"m","kind":3,"startTimeUnixNano":"100"}`)), false},
		"an escaped quote":           {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m\""`, `"100"`))), false},
		"a control character":        {docJSON(resourceJSON(svc, spanJSON(1, "3", "\"m\t\"", `"100"`))), false},
		"an escaped route":           {routeJSON(`{"stringValue":"\u006d"}`), false},
		"an escaped service":         {docJSON(resourceJSON(`{"stringValue":"\u0061"}`, a)), false},
		"an escaped attribute key":   {routeJSON(`{"stringValue":"m"}},{"key":"\u0078","value":{"stringValue":"m"}`), false},
		"a bad escape":               {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"traceState":"\x"`))), false},
		"a short escape":             {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"traceState":"\u12"`))), false},
		"a control character unread": {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, "\"traceState\":\"\\n\x01\""))), false},
		"a key twice":                {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"name":"n"`))), false},
		"a key twice, both cases":    {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"span_id":"0200000000000001"`))), false},
		"resource spans twice":       {`{"resourceSpans":[` + resourceJSON(svc, a) + `],"resource_spans":[]}`, false},
		"an unknown key":             {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"foo":1`))), false},
		"an unknown top key":         {`{"resourceSpans":[` + resourceJSON(svc, a) + `],"foo":{}}`, false},
		"an empty key":               {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"":1`))), false},
		"legacy names": {`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a"}}]},` +
			`"instrumentationLibrarySpans":[{"instrumentationLibrary":{},"spans":[` + a + `]}]}]}`, false},
		"legacy and new names": {`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a"}}]},` +
			`"instrumentationLibrarySpans":[{"spans":[` + b + `]}],"scopeSpans":[{"spans":[` + a + `]}]}]}`, false},
		"batches":                   {`{"batches":[` + resourceJSON(svc, a) + `]}`, false},
		"result":                    {`{"result":` + docJSON(resourceJSON(svc, a)) + `}`, false},
		"deprecated scope spans":    {`{"resourceSpans":[{"deprecatedScopeSpans":[{"spans":[` + a + `]}]}]}`, false},
		"null attributes":           {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"attributes":null`))), false},
		"a null name":               {docJSON(resourceJSON(svc, spanJSON(1, "3", "null", `"100"`))), false},
		"a start of a fraction":     {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, "100.5"))), false},
		"a start of an exponent":    {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, "1e3"))), false},
		"a start of 20 digits":      {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, "18446744073709551615"))), false},
		"a start past 2^64":         {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"18446744073709551616"`))), false},
		"a negative start":          {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, "-1"))), false},
		"a start of a leading zero": {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, "0100"))), false},
		"a start signed":            {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"+100"`))), false},
		"an unknown kind name":      {docJSON(resourceJSON(svc, spanJSON(1, `"SPAN_KIND_FOO"`, `"m"`, `"100"`))), false},
		"a kind in a string":        {docJSON(resourceJSON(svc, spanJSON(1, `"3"`, `"m"`, `"100"`))), false},
		"a kind of a fraction":      {docJSON(resourceJSON(svc, spanJSON(1, "3.0", `"m"`, `"100"`))), false},
		"a kind past 2^31":          {docJSON(resourceJSON(svc, spanJSON(1, "2147483651", `"m"`, `"100"`))), false},
		"a kind of true":            {docJSON(resourceJSON(svc, spanJSON(1, "true", `"m"`, `"100"`))), false},
		"an unknown status code":    {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"status":{"code":"ERROR"}`))), false},
		"base64 ids": {docJSON(resourceJSON(svc, `{"traceId":"AQEBAQEBAQEBAQEBAQEBAQ==","spanId":"AQAAAAAAAAE=","name":"m","kind":3,"startTimeUnixNano":"100"}`)),
			false},
		"a short id":              {docJSON(resourceJSON(svc, `{"traceId":"0101","spanId":`+sid1+`,"name":"m","kind":3,"startTimeUnixNano":"100"}`)), false},
		"a long span id":          {docJSON(resourceJSON(svc, `{"traceId":`+tid1+`,"spanId":"010000000000000100","name":"m","kind":3,"startTimeUnixNano":"100"}`)), false},
		"an id not hex":           {docJSON(resourceJSON(svc, `{"traceId":"0101010101010101010101010101010g","spanId":`+sid1+`,"name":"m","kind":3,"startTimeUnixNano":"100"}`)), false},
		"a link id not hex":       {docJSON(resourceJSON(svc, spanJSON(1, "5", `"m"`, `"100"`, `"links":[{"spanId":"zz"}]`))), false},
		"an id of a number":       {docJSON(resourceJSON(svc, `{"traceId":1,"spanId":`+sid1+`,"name":"m","kind":3,"startTimeUnixNano":"100"}`)), false},
		"an array route":          {routeJSON(`{"arrayValue":{"values":[{"stringValue":"m"}]}}`), false},
		"a map route":             {routeJSON(`{"kvlistValue":{"values":[{"key":"k","value":{"stringValue":"m"}}]}}`), false},
		"a map service":           {docJSON(resourceJSON(`{"kvlistValue":{"values":[]}}`, a)), false},
		"a nested list":           {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"attributes":[{"key":"deep","value":`+nestedJSON(40)+`}]`))), false},
		"bad base64":              {routeJSON(`{"bytesValue":"!!"}`), false},
		"base64 unpadded":         {routeJSON(`{"bytesValue":"bQ"}`), false},
		"a bool of a string":      {routeJSON(`{"boolValue":"true"}`), false},
		"an int of 19 digits":     {routeJSON(`{"intValue":1000000000000000000}`), false},
		"an int past 2^63":        {routeJSON(`{"intValue":"9223372036854775808"}`), false},
		"an int of a fraction":    {routeJSON(`{"intValue":1.5}`), false},
		"a double of a dot":       {routeJSON(`{"doubleValue":1.}`), false},
		"a double past range":     {routeJSON(`{"doubleValue":1e400}`), false},
		"a double of hex":         {routeJSON(`{"doubleValue":0x10}`), false},
		"a double of a plus":      {routeJSON(`{"doubleValue":+1}`), false},
		"flags past 2^32":         {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"flags":4294967296`))), false},
		"flags of 10 digits":      {docJSON(resourceJSON(svc, spanJSON(1, "3", `"m"`, `"100"`, `"flags":1000000000`))), false},
		"an unknown entity field": {`{"resourceSpans":[{"resource":{"entityRefs":[{"id":1}]},"scopeSpans":[{"spans":[` + a + `]}]}]}`, false},
		"no span":                 {docJSON(resourceJSON(svc)), false},
		"no resource spans":       {`{"resourceSpans":[]}`, false},
		"an empty object":         {`{}`, false},
		"something after":         {docJSON(resourceJSON(svc, a)) + `x`, false},
		"a second object":         {docJSON(resourceJSON(svc, a)) + docJSON(resourceJSON(svc, b)), false},
		"a cut document":          {docJSON(resourceJSON(svc, a))[:60], false},
		"an array":                {`[` + docJSON(resourceJSON(svc, a)) + `]`, false},
		"a trailing comma":        {docJSON(resourceJSON(svc, a, "")), false},
		"a leading comma":         {`{"resourceSpans":[,` + resourceJSON(svc, a) + `]}`, false},
		"a missing colon":         {`{"resourceSpans"[` + resourceJSON(svc, a) + `]}`, false},
		"a resource of a string":  {`{"resourceSpans":["x",` + resourceJSON(svc, a) + `]}`, false},
		"empty":                   {``, false},
	}
}

// nestedJSON is an AnyValue of lists in lists, depth deep.
func nestedJSON(depth int) string {
	v := `{"stringValue":"x"}`
	for range depth {
		v = `{"arrayValue":{"values":[` + v + `]}}`
	}
	return v
}

// TestOTLPJSONWire: documents of every field, built with pdata or written
// by hand, are read from their bytes as pdata reads them, with every
// option; those that pdata reads in a way of its own, and those that do
// not decode, are left to pdata.
func TestOTLPJSONWire(t *testing.T) {
	docs := jsonHandWritten()
	docs["paired"] = struct {
		doc  string
		fast bool
	}{string(jsonOf(t, pairedRequest())), true}
	docs["every field"] = struct {
		doc  string
		fast bool
	}{string(everyFieldJSON(t)), true}
	docs["every field, escaped"] = struct {
		doc  string
		fast bool
	}{string(jsonOf(t, everyField())), false}
	var all []byte
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range docs {
			if !yield(name) {
				return
			}
		}
	})
	for _, name := range names {
		d := docs[name]
		all = append(append(all, d.doc...), '\n')
		for oname, opt := range wireOptions(t) {
			want := d.fast
			if opt.LifelineAttr != "" && strings.HasSuffix(name, "service") || opt.MessageAttr != "" && strings.HasSuffix(name, "route") {
				want = true // the attribute is not read
			}
			if got := sameJSONReading(t, name+", "+oname, []byte(d.doc), opt); got != want {
				t.Errorf("%s, %s: read from its bytes %v", name, oname, got)
			}
		}
	}
	// All in one file, one a line, and one after the other over lines.
	for oname, opt := range wireOptions(t) {
		sameJSONFile(t, "all, "+oname, all, logs.OTLP, opt)
		sameJSONFile(t, "all over lines, "+oname, append([]byte("\n{\"resourceSpans\":[]}\n"), all...), logs.OTLP, opt)
	}
	// The hand-written documents say what they should.
	sig := testSig(t)
	for name, want := range map[string]string{
		"two resources": "01010101010101010101010101010101@1 2/0: a!m | b?m | \n",
		"kind names":    "01010101010101010101010101010101@1 4/0: a?m.a!m.a!n.a?n |  | \n",
	} {
		if got := readFile(t, "x.json", []byte(docs[name].doc), logs.OTLP, logs.Options{Sig: sig}, true).Dump; got != want {
			t.Errorf("%s: %swant %s", name, got, want)
		}
	}
}

// realJSON are the real traces' OTLP/JSON files: their documents (or, over
// many lines, their resource spans) are all read from their bytes.
var realJSON = []string{"hotrod-full-concurrent.json.zst", "oteldemo-cart-error-timeout.json.zst"}

// jsonDocs returns the documents of an OTLP/JSON file (zstd), and the
// resource spans of each.
func jsonDocs(t testing.TB, path string) (docs, elements [][]byte) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if b, err = d.DecodeAll(b, nil); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		var doc struct {
			ResourceSpans []json.RawMessage `json:"resourceSpans"`
		}
		start := dec.InputOffset()
		if err := dec.Decode(&doc); err != nil {
			break
		}
		docs = append(docs, bytes.TrimSpace(b[start:dec.InputOffset()]))
		for _, e := range doc.ResourceSpans {
			elements = append(elements, e)
		}
	}
	if len(docs) == 0 {
		t.Fatalf("%s: no document", path)
	}
	return docs, elements
}

// TestOTLPJSONWireReal: the real traces' OTLP/JSON files, as they are,
// each document on a line, and the file exporter's zstd messages, are read
// from their bytes as pdata reads them, against the signature of their
// names and the test's.
func TestOTLPJSONWireReal(t *testing.T) {
	for _, file := range realJSON {
		path := filepath.Join(realTraces, "otlp", file)
		docs, elements := jsonDocs(t, path)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var lines []byte
		for _, doc := range docs {
			var c bytes.Buffer
			if err := json.Compact(&c, doc); err != nil {
				t.Fatal(err)
			}
			lines = append(append(lines, c.Bytes()...), '\n')
		}
		for _, opt := range []logs.Options{{Sig: namesOf(t, path)}, {Sig: testSig(t)}} {
			sameJSONFile(t, file, raw, logs.OTLP, opt)
			sameJSONFile(t, file+", a line each", lines, logs.OTLP, opt)
			for i, doc := range bytes.Split(bytes.TrimSpace(lines), []byte("\n")) {
				if !logs.JSONWireDecodes(doc, opt, false) {
					t.Errorf("%s#%d: read by pdata", file, i)
				}
			}
			for i, e := range elements {
				if !logs.JSONWireDecodes(e, opt, true) {
					t.Errorf("%s, resource spans #%d: read by pdata", file, i)
				}
			}
		}
	}
	for _, file := range []string{"hotrod-full-concurrent.fileexporter-json-zstd.bin", "oteldemo-cart-error-timeout.fileexporter-json-zstd.bin"} {
		path := filepath.Join(realTraces, "otlp", file)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []logs.Options{{Sig: namesOf(t, path)}, {Sig: testSig(t)}} {
			sameJSONFile(t, file, raw, logs.OTLPProto, opt)
		}
	}
}

// FuzzOTLPJSONWire: on any bytes, an OTLP/JSON file is read from its bytes
// as pdata reads it, and a document (or resource spans) is never read from
// its bytes when pdata refuses it. Seeds: the documents of
// TestOTLPJSONWire and of the real traces, and
// testdata/fuzz/FuzzOTLPJSONWire.
func FuzzOTLPJSONWire(f *testing.F) {
	f.Add(jsonOf(f, pairedRequest()), 0)
	f.Add(everyFieldJSON(f), 1)
	f.Add(jsonOf(f, everyField()), 2)
	for _, d := range jsonHandWritten() {
		f.Add([]byte(d.doc), 3)
	}
	docs, _ := jsonDocs(f, filepath.Join(realTraces, "otlp", realJSON[1]))
	for _, doc := range docs[:min(len(docs), 2)] {
		f.Add(doc, 0)
	}
	// in is also read as the fields of a span, and as the value of the
	// attribute that names a span's message, of a document around them.
	f.Add([]byte(`"kind":"SPAN_KIND_SERVER","endTimeUnixNano":200,"flags":"1"`), 4)
	f.Add([]byte(`{"intValue":"12"}`), 8)
	f.Add([]byte(`{"doubleValue":1.5e-7,"bytesValue":"bQ=="}`), 8)
	f.Add([]byte(`"links":[{"traceId":"01010101010101010101010101010101","spanId":"0100000000000001"}],"status":{"code":"STATUS_CODE_ERROR"}`), 4)
	f.Fuzz(func(t *testing.T, in []byte, o int) {
		opts := wireOptions(t)
		names := []string{"default", "strict", "message attr", "lifeline"}
		o = o & math.MaxInt32
		name := names[o%len(names)]
		opt := opts[name]
		switch o / len(names) % 3 {
		case 1:
			in = []byte(docJSON(resourceJSON(`{"stringValue":"a"}`, spanJSON(1, "2", `"m"`, `"100"`, string(in)))))
		case 2:
			in = []byte(routeJSON(string(in)))
		}
		sameJSONFile(t, name, in, logs.OTLP, opt)
		var u ptrace.JSONUnmarshaler
		if logs.JSONWireDecodes(in, opt, false) {
			if td, err := u.UnmarshalTraces(in); err != nil || td.SpanCount() == 0 {
				t.Errorf("read from its bytes, and pdata reads %d spans, %v", td.SpanCount(), err)
			}
		}
		if logs.JSONWireDecodes(in, opt, true) {
			wrapped := append(append([]byte(`{"resourceSpans":[`), in...), "]}"...)
			if td, err := u.UnmarshalTraces(wrapped); err != nil || td.SpanCount() == 0 {
				t.Errorf("resource spans read from their bytes, and pdata reads %d spans, %v", td.SpanCount(), err)
			}
		}
	})
}
