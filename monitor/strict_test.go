package monitor_test

import (
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/spec"
)

// TestUnpairedStrict: read strictly, a request's spans are paired within
// it, and a CLIENT span left without its SERVER span there is counted
// unpaired in its session (Meta.Unpaired, the record's unpaired_spans), as
// ivc analyze counts it in a file, once though the request holds it twice
// and a second request holds it again (each leaving it alone).
func TestUnpairedStrict(t *testing.T) {
	sp, err := spec.Parse("s.hsf", []byte("@message{ n }\n@lifeline{ a; b }\n"), "s.hif", []byte("a -- n -> b\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	const span = `{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"00000000000000c1","name":"n","kind":3,"startTimeUnixNano":"1000","endTimeUnixNano":"2000"}`
	const request = `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"a"}}]},"scopeSpans":[{"spans":[` +
		span + `,` + span + `]}]}]}`
	var u ptrace.JSONUnmarshaler
	td, err := u.UnmarshalTraces([]byte(request))
	if err != nil {
		t.Fatal(err)
	}
	var got []check.Outcome
	m, err := monitor.NewTable(c, logs.Options{Sig: sp.Sig, Strict: true}, monitor.Options{}, func(o check.Outcome) { got = append(got, o) })
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if n, err := m.ConsumeTraces("otlp", td); err != nil || n != 0 {
			t.Fatalf("ConsumeTraces: %d rejected, %v", n, err)
		}
	}
	m.Close()
	if len(got) != 1 {
		t.Fatalf("%d sessions, want 1", len(got))
	}
	if o := got[0]; o.Unpaired != 1 || o.Events != 1 || o.Duplicates != 3 {
		t.Errorf("%d unpaired, %d events, %d duplicates; want 1, 1, 3", o.Unpaired, o.Events, o.Duplicates)
	}
}
