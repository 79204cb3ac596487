package logs_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/gen/gentest"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// benchLog is a log of lfrem-like sessions (the interaction of the
// lifeline-removal benchmark, its accepted multi-traces of up to 30 events,
// one location per lifeline), written in format f.
type benchLog struct {
	sig    *interaction.Signature
	data   []byte
	events int
}

var benchLogs = map[logs.Format]*benchLog{}

func lfremLog(b *testing.B, f logs.Format) *benchLog {
	if l := benchLogs[f]; l != nil {
		return l
	}
	sp, mts, events := gentest.Accepted(b, "../testdata/lfrem/signature.hsf", "../testdata/lfrem/i1.hif", 20000)
	var buf bytes.Buffer
	if err := gen.Write(&buf, f, sp.Sig, nil, mts, 1); err != nil {
		b.Fatal(err)
	}
	l := &benchLog{sig: sp.Sig, data: buf.Bytes(), events: events}
	benchLogs[f] = l
	return l
}

func benchRead(b *testing.B, f logs.Format) {
	l := lfremLog(b, f)
	b.SetBytes(int64(len(l.data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := testutil.CPUTime()
	for b.Loop() {
		_, st, err := session.ReadFrom("bench", bytes.NewReader(l.data), f, logs.Options{Sig: l.sig}, nil)
		if err != nil || st.Events != l.events {
			b.Fatalf("%+v %v, want %d events", st, err, l.events)
		}
	}
	reportEvents(b, l.events, cpu)
}

// reportEvents reports events/s (wall clock) and events/cpu-s (CPU time
// since cpu: steadier on a loaded machine; run with GOMAXPROCS=1 to count
// one core).
func reportEvents(b *testing.B, events int, cpu time.Duration) {
	n := float64(events) * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "events/s")
	if used := testutil.CPUTime() - cpu; used > 0 && cpu > 0 {
		b.ReportMetric(n/used.Seconds(), "events/cpu-s")
	}
}

// BenchmarkJSONL reads a JSON Lines event log into sessions' multi-traces.
func BenchmarkJSONL(b *testing.B) { benchRead(b, logs.JSONL) }

// BenchmarkCSV reads the same log as CSV.
func BenchmarkCSV(b *testing.B) { benchRead(b, logs.CSV) }

// BenchmarkOTLP reads the same events as OTLP/JSON spans.
func BenchmarkOTLP(b *testing.B) { benchRead(b, logs.OTLP) }

// BenchmarkJaeger reads the same events as Jaeger spans.
func BenchmarkJaeger(b *testing.B) { benchRead(b, logs.Jaeger) }

// BenchmarkStdlibDecode is the baseline: what a user's own script would do
// with the JSON Lines log of BenchmarkJSONL, decode each line into a struct
// with encoding/json, without even grouping the events into sessions.
func BenchmarkStdlibDecode(b *testing.B) {
	l := lfremLog(b, logs.JSONL)
	type event struct {
		Session  string `json:"session"`
		Time     string `json:"time"`
		Lifeline string `json:"lifeline"`
		Kind     string `json:"kind"`
		Message  string `json:"message"`
	}
	b.SetBytes(int64(len(l.data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu := testutil.CPUTime()
	for b.Loop() {
		d := json.NewDecoder(bufio.NewReader(bytes.NewReader(l.data)))
		n := 0
		for {
			var e event
			if err := d.Decode(&e); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != l.events {
			b.Fatalf("%d events, want %d", n, l.events)
		}
	}
	reportEvents(b, l.events, cpu)
}

// BenchmarkOTLPProto reads the same events as one OTLP/protobuf request
// (ExportTraceServiceRequest), as an OTLP/HTTP body saved to a file.
func BenchmarkOTLPProto(b *testing.B) {
	l := benchLogs[logs.OTLPProto]
	if l == nil {
		src := lfremLog(b, logs.OTLP)
		all := ptrace.NewTraces()
		var u ptrace.JSONUnmarshaler
		for line := range bytes.Lines(src.data) {
			td, err := u.UnmarshalTraces(line)
			if err != nil {
				b.Fatal(err)
			}
			td.ResourceSpans().MoveAndAppendTo(all.ResourceSpans())
		}
		var m ptrace.ProtoMarshaler
		data, err := m.MarshalTraces(all)
		if err != nil {
			b.Fatal(err)
		}
		l = &benchLog{sig: src.sig, data: data, events: src.events}
		benchLogs[logs.OTLPProto] = l
	}
	benchRead(b, logs.OTLPProto)
}
