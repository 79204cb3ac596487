package logs_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

func gz(t testing.TB, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestParseFormat(t *testing.T) {
	for f := logs.Auto; f <= logs.Stdouttrace; f++ {
		g, err := logs.ParseFormat(f.String())
		if err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f, g, err)
		}
	}
	if _, err := logs.ParseFormat("xml"); err == nil || !strings.Contains(err.Error(), "jsonl") {
		t.Errorf("ParseFormat(xml): %v", err)
	}
}

func TestDetect(t *testing.T) {
	otlp := `{"resourceSpans":[{"resource":{}}]}`
	jaeger := "{\n  \"data\": [\n    {\n      \"traceID\": \"abc\", \"spans\": []}]}"
	for _, c := range []struct {
		name, head string
		want       logs.Format
		err        string
	}{
		{"x.htf", "", logs.HTF, ""},
		{"x.JSONL", "", logs.JSONL, ""},
		{"x.ndjson.gz", "", logs.JSONL, ""},
		{"x.csv", "", logs.CSV, ""},
		{"x.tsv", "", logs.CSV, ""},
		{"x.json", otlp, logs.OTLP, ""},
		{"x.json.gz", string(gz(t, otlp)), logs.OTLP, ""},
		{"x.json", `{"resource_spans":[]}`, logs.OTLP, ""},
		{"x.json", `{"total":3,"data":[{"traceID":"abc"}]}`, logs.Jaeger, ""},
		{"x.json", jaeger, logs.Jaeger, ""},
		{"x.json", `{"data":[{"spanID":"abc"}]}`, logs.Auto, "cannot tell the log format"},
		{"x.json", `{"session":"s1","action":"a!m"}`, logs.Auto, "rename a JSON Lines event log .jsonl"},
		{"-", `{"session":"s1","action":"a!m"}` + "\n", logs.JSONL, ""},
		{"-", otlp, logs.OTLP, ""},
		{"x.log", "{\n\t[a] a!m;\n}", logs.HTF, ""},
		{"x.txt", "session,lifeline,kind,message\ns1,a,send,m\n", logs.CSV, ""},
		{"x.txt", "a!m.b?m\n", logs.Auto, "cannot tell the log format"},
		{"x.json", "\x28\xb5\x2f\xfd\x00\x01", logs.Auto, "zstd-compressed"},
		{"x.bin", "\x0a\x85\x01\x0a\x10", logs.OTLPProto, ""},
		{"x.json", "\x00\x00\x01\x05\x0a\x85", logs.Auto, "OTLP/protobuf"},
		// Every common shape, told by content.
		{"x.json", `[{"traceId":"463ac35c9f6413ad","parentId":"1","id":"2","kind":"SERVER"}]`, logs.Zipkin, ""},
		{"x.jsonl", `{"traceId":"463ac35c9f6413ad","id":"2","localEndpoint":{"serviceName":"a"}}`, logs.Zipkin, ""},
		{"x.jsonl", `{"traceId":"463ac35c9f6413ad","id":"2","action":"a!m"}` + "\n", logs.JSONL, ""}, // an event log, not one span
		{"x.json", `[{"traceId":"1","name":"get","id":"2","annotations":[],"binaryAnnotations":[]}]`, logs.Auto, "Zipkin v1 JSON"},
		{"x.json", "{\n\t\"Name\": \"roll\",\n\t\"SpanContext\": {", logs.Stdouttrace, ""},
		{"x.json", `{"batches":[{"resource":{},"scopeSpans":[]}]}`, logs.OTLP, ""},
		{"x.json", `{"batches":[{"resource":{},"instrumentationLibrarySpans":[]}]}`, logs.OTLP, ""},
		{"x.jsonl", `{"batches":3}` + "\n", logs.JSONL, ""},
		{"x.json", `{"resourceLogs":[]}`, logs.Auto, `OTLP logs ("resourceLogs"), not traces`},
		{"x.json", `{"result":{"resourceMetrics":[]}}`, logs.Auto, `OTLP metrics ("resourceMetrics"), not traces`},
		{"x.json", `{"data":{"traceID":"abc","spans":[]},"id":"abc","state":"FETCH_DONE"}`, logs.Jaeger, ""},
		{"x.bin", "\x00\x00\x00\x20\x28\xb5\x2f\xfd\x00", logs.OTLPProto, ""}, // zstd frames behind their length
		{"x.json.zst", string(zstdOf(t, []byte(otlp))), logs.OTLP, ""},
		{"x.jsonl.zst", string(zstdOf(t, []byte(`{"session":"s1","action":"a!m"}`))), logs.JSONL, ""},
		{"x.htf.zst", "", logs.HTF, ""},
		{"x.log", "\n\n\n{}", logs.HTF, ""}, // text starting as a TracesData would: no binary byte
	} {
		got, err := logs.Detect(c.name, []byte(c.head))
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("Detect(%q, %q) = %v, %v; want %v, %q", c.name, c.head, got, err, c.want, c.err)
		}
	}
}

// TestReadFiles reads files: by name, compressed, and the errors of a
// file as a whole.
func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sig := testSig(t)
	log := `{"session":"s1","action":"a!m"}` + "\n" + `{"session":"s1","action":"b?m"}` + "\n"
	for _, name := range []string{"x.jsonl", "x.jsonl.gz"} {
		data := []byte(log)
		if strings.HasSuffix(name, ".gz") {
			data = gz(t, log)
		}
		sessions, st, err := session.Read(write(name, data), logs.Auto, logs.Options{Sig: sig}, nil)
		if err != nil || len(sessions) != 1 || st.Events != 2 || sessions[0].File != filepath.Join(dir, name) {
			t.Errorf("%s: %v %+v %v", name, sessions, st, err)
		}
	}
	for _, c := range []struct {
		name string
		data []byte
		f    logs.Format
		opt  logs.Options
		err  string
	}{
		{"missing.jsonl", nil, logs.Auto, logs.Options{Sig: sig}, "missing.jsonl: no such file or directory"},
		{".", nil, logs.JSONL, logs.Options{Sig: sig}, ": is a directory"},
		{"x.htf", []byte("{[a] a!m}"), logs.Auto, logs.Options{Sig: sig}, "x.htf: a .htf multi-trace is not a log: read it with multitrace.Read"},
		{"big.jsonl", []byte(log), logs.Auto, logs.Options{Sig: sig, MaxBytes: 10}, "big.jsonl: larger than 10 bytes"},
		{"bomb.jsonl.gz", gz(t, strings.Repeat(log, 100)), logs.JSONL, logs.Options{Sig: sig, MaxBytes: 1000}, "bomb.jsonl.gz: larger than 1000 bytes"},
		{"cut.jsonl.gz", gz(t, log)[:30], logs.JSONL, logs.Options{Sig: sig}, "cut.jsonl.gz: unexpected EOF"},
		{"x.json", []byte("[1]"), logs.Auto, logs.Options{Sig: sig}, "x.json: cannot tell the log format"},
		{"x.jsonl", []byte(log), logs.Auto, logs.Options{}, "x.jsonl: no signature"},
		{"x.jsonl", []byte(log), logs.Auto, logs.Options{Sig: sig, Fields: map[string]string{"sesion": "id"}}, `x.jsonl: unknown role "sesion"`},
		{"x.jsonl", []byte(log), logs.Auto, logs.Options{Sig: sig, Fields: map[string]string{"session": "action"}}, `x.jsonl: field "action" is given two roles, session and action`},
		{"x.csv", []byte("session,action,action\n"), logs.Auto, logs.Options{Sig: sig}, `x.csv:1:16: header row: field "action" appears twice`},
		{"x.csv", []byte("session,\"action\n"), logs.Auto, logs.Options{Sig: sig}, `x.csv:1: header row: quoted field not closed`},
		{"x.pb", []byte("\x01\x02binary"), logs.OTLP, logs.Options{Sig: sig}, `x.pb: binary content, and no OTLP/protobuf`},
		{"x.zst", []byte("\x28\xb5\x2f\xfd\x00"), logs.JSONL, logs.Options{Sig: sig}, `x.zst: zstd-compressed`},
	} {
		path := filepath.Join(dir, c.name)
		if c.data != nil {
			write(c.name, c.data)
		}
		sessions, _, err := session.Read(path, c.f, c.opt, nil)
		if err == nil || !strings.Contains(err.Error(), c.err) || sessions != nil {
			t.Errorf("%s: %v, %v; want an error %q", c.name, sessions, err, c.err)
		}
	}
}

// TestLongLine: a line longer than the limit is reported as malformed and
// skipped, and reading goes on. The default run lowers the limit to 1 MiB
// (16 of the reader's chunks, so the buffer still grows); -tags sweep writes
// a line of MaxLine, the limit the readers ship with.
func TestLongLine(t *testing.T) {
	limit := 1 << 20
	if testutil.Sweep() {
		limit = logs.MaxLine
	} else {
		defer logs.SetMaxLine(limit)()
	}
	var b bytes.Buffer
	b.WriteString(`{"action":"a!m","pad":"`)
	b.Write(bytes.Repeat([]byte("x"), limit))
	b.WriteString("\"}\n{\"action\":\"b?m\"}\n")
	long := b.String()
	var reports []string
	sessions, st, err := session.ReadFrom("long.jsonl", &b, logs.JSONL, logs.Options{Sig: testSig(t)},
		func(err error) { reports = append(reports, err.Error()) })
	if err != nil || len(sessions) != 1 || st.Events != 1 || st.Malformed != 1 ||
		len(reports) != 1 || reports[0] != fmt.Sprintf("long.jsonl:1: line longer than %d bytes (--max-line raises it)", limit) {
		t.Errorf("%+v %v %q", st, err, reports)
	}
	// Options.MaxLine (--max-line) moves the limit, past MaxLine.
	reports = nil
	sessions, st, err = session.ReadFrom("long.jsonl", strings.NewReader(long), logs.JSONL, logs.Options{Sig: testSig(t), MaxLine: 2 * limit},
		func(err error) { reports = append(reports, err.Error()) })
	if err != nil || len(sessions) != 1 || st.Events != 2 || st.Malformed != 0 || len(reports) != 0 {
		t.Errorf("MaxLine %d: %+v %v %q", 2*limit, st, err, reports)
	}
}
