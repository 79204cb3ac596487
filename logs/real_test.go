package logs_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
)

// realTraces is the folder of trace files written elsewhere (its
// README.md says where each comes from).
const realTraces = "../testdata/realtraces"

// TestRealTraces reads every trace file written elsewhere, by its content
// whatever its name: each is told apart, read without a malformed span,
// and every span is accounted for, as an event (here, all ignored: the
// test signature declares none of their names) or as a span without a
// protocol kind.
func TestRealTraces(t *testing.T) {
	for _, c := range []struct {
		file              string
		format            logs.Format
		ignored, unkinded int
	}{
		{"zipkin/skew.json", logs.Zipkin, 3, 1}, // the SERVER half shares its CLIENT's id
		{"zipkin/messaging.json", logs.Zipkin, 3, 1},
		{"zipkin/messaging2.json", logs.Zipkin, 8, 3},
		{"zipkin/messaging-kafka.json", logs.Zipkin, 16, 12},
		{"zipkin/ascend.json", logs.Zipkin, 6, 2},
		{"zipkin/yelp.json", logs.Zipkin, 15, 1},
		{"zipkin/envoy.json", logs.Zipkin, 1, 0}, // no serviceName: the lifeline "", ignored
		{"zipkin/simple-db-p6.json", logs.Zipkin, 5, 0},
		{"zipkin/benchmarks-zipkin2-client.json", logs.Zipkin, 1, 0}, // one span, no array
		{"zipkin/smartthings-oauth-authorization.json", logs.Zipkin, 172, 3},
		{"jaeger-ui/ui-state-flamegraph-testTrace.json", logs.Jaeger, 2, 2},
		{"jaeger-ui/petclinic-spansAmongEachOther.json", logs.Jaeger, 3, 9},
		{"jaeger-ui/tracegraph-testTrace.json", logs.Jaeger, 7, 4},
		{"jaeger-ui/hotrod-apiv3-getTrace-response.json", logs.OTLP, 40, 0},
		{"jaeger/n_plus_one_full_concurrent.json", logs.OTLP, 40, 0},
		{"jaeger/error_timeout_masked.json", logs.OTLP, 22, 4}, // two SERVER spans nested in the frontend's: local work
		{"tempo/tempopb-trace-batches.json", logs.OTLP, 1, 0},
		{"tempo/tempopb-trace-batches.pre-1.0.derived.json", logs.OTLP, 1, 0},
		{"otlp/hotrod-full-concurrent.otlp.pb", logs.OTLPProto, 40, 0},
		{"otlp/hotrod-full-concurrent.fileexporter-proto.bin", logs.OTLPProto, 40, 0},
		{"otlp/hotrod-full-concurrent.fileexporter-json-zstd.bin", logs.OTLPProto, 40, 0},
		{"otlp/hotrod-full-concurrent.json.zst", logs.OTLP, 40, 0},
		{"otlp/hotrod-full-concurrent.pre-1.0.jsonl", logs.OTLP, 40, 0},
		{"otlp/oteldemo-cart-error-timeout.otlp.pb", logs.OTLPProto, 22, 4},
		{"otlp/oteldemo-cart-error-timeout.fileexporter-proto.bin", logs.OTLPProto, 22, 4},
		{"otlp/oteldemo-cart-error-timeout.fileexporter-json-zstd.bin", logs.OTLPProto, 22, 4},
		{"otlp/oteldemo-cart-error-timeout.json.zst", logs.OTLP, 22, 4},
		{"stdouttrace/stdouttrace-output.json", logs.Stdouttrace, 2, 2},
		{"stdouttrace/go-getting-started.stdouttrace-sample.derived.json", logs.Stdouttrace, 1, 1},
	} {
		t.Run(c.file, func(t *testing.T) {
			in, err := logs.Open(filepath.Join(realTraces, c.file), logs.Auto, logs.Options{Sig: testSig(t)})
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if in.Format != c.format {
				t.Errorf("format %v, want %v", in.Format, c.format)
			}
			sessions, st, err := session.ReadInput(in, func(err error) { t.Error(err) })
			want := logs.Stats{Sessions: 1, Ignored: c.ignored, Unkinded: c.unkinded}
			if err != nil || st != want || len(sessions) != 1 {
				t.Errorf("%+v %v, want %+v", st, err, want)
			}
		})
	}
}

// TestRealTracesAgree reads one trace in each shape it was written in (by
// Jaeger's API, and by the Collector's pdata and file exporter): the
// sessions are the same, event for event.
func TestRealTracesAgree(t *testing.T) {
	for from, shapes := range map[string][]string{
		"jaeger/n_plus_one_full_concurrent.json": {"otlp/hotrod-full-concurrent.otlp.pb", "otlp/hotrod-full-concurrent.fileexporter-proto.bin",
			"otlp/hotrod-full-concurrent.fileexporter-json-zstd.bin", "otlp/hotrod-full-concurrent.json.zst", "otlp/hotrod-full-concurrent.pre-1.0.jsonl"},
		"jaeger/error_timeout_masked.json": {"otlp/oteldemo-cart-error-timeout.otlp.pb", "otlp/oteldemo-cart-error-timeout.fileexporter-proto.bin",
			"otlp/oteldemo-cart-error-timeout.fileexporter-json-zstd.bin", "otlp/oteldemo-cart-error-timeout.json.zst"},
		"tempo/tempopb-trace-batches.json": {"tempo/tempopb-trace-batches.pre-1.0.derived.json"},
	} {
		sig := namesOf(t, filepath.Join(realTraces, from))
		want := realEvents(t, filepath.Join(realTraces, from), sig)
		if strings.Count(want, "!")+strings.Count(want, "?") < 1 {
			t.Fatalf("%s: no event: %s", from, want)
		}
		for _, f := range shapes {
			if got := realEvents(t, filepath.Join(realTraces, f), sig); got != want {
				t.Errorf("%s:\n%s\nwant, as %s:\n%s", f, got, from, want)
			}
		}
	}
}

// namesOf returns the signature of the lifelines and messages of the log
// at path.
func namesOf(t *testing.T, path string) *interaction.Signature {
	t.Helper()
	in, err := logs.Open(path, logs.Auto, logs.Options{Sig: testSig(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, _, err := session.ReadInput(in, nil); err != nil {
		t.Fatal(err)
	}
	var ls, ms []string
	for _, u := range in.Undeclared() {
		if u.Lifeline {
			ls = append(ls, u.Name)
		} else {
			ms = append(ms, u.Name)
		}
	}
	// A name may come with several sets of other candidates (Also).
	slices.Sort(ls)
	slices.Sort(ms)
	sig, err := interaction.NewSignature(slices.Compact(ls), slices.Compact(ms), nil)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

// realEvents returns the sessions of the log at path, their events location
// by location.
func realEvents(t *testing.T, path string, sig *interaction.Signature) string {
	t.Helper()
	sessions, st, err := session.Read(path, logs.Auto, logs.Options{Sig: sig}, func(err error) { t.Error(err) })
	if err != nil || st.Ignored > 0 {
		t.Fatalf("%s: %+v %v", path, st, err)
	}
	var b strings.Builder
	for _, s := range sessions {
		fmt.Fprintf(&b, "%s:", s.ID)
		for _, c := range s.MT.Components {
			for _, e := range c.Trace {
				fmt.Fprintf(&b, " %s", e.Format(sig))
			}
			b.WriteString(" |")
		}
		b.WriteByte('\n')
	}
	return b.String()
}
