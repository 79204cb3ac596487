package logs_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// resources returns the resource spans of td, each its own Traces.
func resources(td ptrace.Traces) []ptrace.Traces {
	var out []ptrace.Traces
	for i := range td.ResourceSpans().Len() {
		one := ptrace.NewTraces()
		td.ResourceSpans().At(i).CopyTo(one.ResourceSpans().AppendEmpty())
		out = append(out, one)
	}
	return out
}

func protoOf(t testing.TB, td ptrace.Traces) []byte {
	var m ptrace.ProtoMarshaler
	b, err := m.MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonOf(t testing.TB, td ptrace.Traces) []byte {
	var m ptrace.JSONMarshaler
	b, err := m.MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func zstdOf(t testing.TB, b []byte) []byte {
	e, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	return e.EncodeAll(b, nil)
}

// frame returns msg behind its length, as the file exporter writes it.
func frame(msg []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(msg))), msg...)
}

// readAll reads in, named name, and returns its dump, reports and stats.
func readAll(t *testing.T, name string, in []byte, f logs.Format, opt logs.Options) (string, string, logs.Stats) {
	t.Helper()
	if opt.Sig == nil {
		opt.Sig = testSig(t)
	}
	var reports strings.Builder
	sessions, st, err := session.ReadFrom(name, bytes.NewReader(in), f, opt, func(err error) { fmt.Fprintln(&reports, err) })
	if err != nil {
		return "error: " + err.Error(), reports.String(), st
	}
	return dump(opt.Sig, sessions), reports.String(), st
}

// TestReadOTLPProto reads OTLP/protobuf in its shapes, told by content: one
// request, the file exporter's messages (protobuf, and zstd frames of
// protobuf or JSON); the events are OTLP/JSON's, the errors name the part
// and its offset.
func TestReadOTLPProto(t *testing.T) {
	td := pairedRequest()
	wantDump, _, wantStats := readAll(t, "req.json", jsonOf(t, td), logs.Auto, logs.Options{})
	if wantStats.Events != 4 {
		t.Fatalf("read as OTLP/JSON: %s %+v", wantDump, wantStats)
	}
	parts := resources(td)
	var stream []byte
	for i, p := range parts {
		switch i % 3 {
		case 0:
			stream = append(stream, frame(protoOf(t, p))...)
		case 1:
			stream = append(stream, frame(zstdOf(t, protoOf(t, p)))...)
		case 2:
			stream = append(stream, frame(zstdOf(t, jsonOf(t, p)))...)
		}
	}
	// A part is a line: a request's resource spans, a stream's message.
	want := "01020300000000000000000000000000@1 4/1: (1 dropped, from line 6) a!m | b?m.b!n | c?n\n"
	for name, in := range map[string][]byte{"req.pb": protoOf(t, td), "req.bin": protoOf(t, td), "stream": stream, "stream.zst": zstdOf(t, stream)} {
		got, reports, st := readAll(t, name, in, logs.Auto, logs.Options{})
		report := name + `:6: span "0600000000000000": startTimeUnixNano 0 is not a time (missing, or past 2^63-1 ns)` + "\n"
		if got != want || reports != report || st != wantStats {
			t.Errorf("%s: %s%s%+v\nwant %s%s%+v", name, got, reports, st, want, report, wantStats)
		}
	}
}

// TestReadOTLPProtoErrors: a part that does not decode is reported with
// its number and offset, and reading goes on; a cut file, a part past the
// value limit and a field that is no resource spans end the reading, what
// was read before kept.
func TestReadOTLPProtoErrors(t *testing.T) {
	parts := resources(pairedRequest())
	a, b := protoOf(t, parts[0]), protoOf(t, parts[1]) // a!m, b?m (paired: the receiving side's message)
	big := bytes.Repeat([]byte(" "), 5000)             // past the 4 KiB a value may hold within 1 KiB of memory
	ab := "01020300000000000000000000000000@1 2/0: a!m | b?m | \n"
	for _, c := range []struct {
		name    string
		in      []byte
		opt     logs.Options
		want    string
		reports string
	}{{
		name: "x.pb", in: append(append(append([]byte{}, a...), b...), a[:len(a)-3]...),
		want:    ab,
		reports: fmt.Sprintf("x.pb:3: OTLP/protobuf resource spans at byte %d: the file ends in its %d bytes\n", len(a)+len(b), len(a)-2),
	}, {
		name: "x.pb", in: append(append(append([]byte{}, a...), b...), 0x12, 0),
		want:    ab,
		reports: fmt.Sprintf("x.pb:3: OTLP/protobuf resource spans at byte %d: field 2 of wire type 2: a TracesData holds only resource spans (field 1, of wire type 2)\n", len(a)+len(b)),
	}, {
		name: "x.bin", in: append(append(append(frame(a), frame([]byte{0x0a, 0x02, 0xff, 0xff})...), frame(b)...), 0, 0, 0, 9, 0x0a),
		want: ab,
		reports: fmt.Sprintf("x.bin:2: OTLP/protobuf message at byte %d: unexpected EOF\n", len(a)+4) +
			fmt.Sprintf("x.bin:4: OTLP/protobuf message at byte %d: the file ends in its 9 bytes\n", len(a)+len(b)+16),
	}, {
		name: "x.bin", in: append(append(frame(a), frame(b)...), 0, 0),
		want:    ab,
		reports: fmt.Sprintf("x.bin:3: OTLP/protobuf message at byte %d: the file ends in the 4 bytes of its length\n", len(a)+len(b)+8),
	}, {
		name: "x.bin", opt: logs.Options{MaxMemory: 1 << 10},
		in:   append(append(append(frame(a), frame(zstdOf(t, big))...), frame(b)...), frame(big)...),
		want: ab,
		reports: fmt.Sprintf("x.bin:2: OTLP/protobuf message at byte %d: zstd-compressed, and more than the 4096 bytes one value may hold once decompressed (--max-memory raises it, up to 16777216)\n", len(a)+4) +
			fmt.Sprintf("x.bin:4: OTLP/protobuf message at byte %d: 5000 bytes, more than the 4096 bytes one value may hold (--max-memory raises it, up to 16777216)\n", len(a)+len(b)+8+4+len(zstdOf(t, big))),
	}} {
		got, reports, _ := readAll(t, c.name, c.in, logs.Auto, c.opt)
		if got != c.want || reports != c.reports {
			t.Errorf("%s: %s%s\nwant %s%s", c.name, got, reports, c.want, c.reports)
		}
	}
}
