package monitor_test

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
)

// TestSpansAsAnalyze: spans sent to the monitor as OTLP/protobuf requests,
// one request a resource (a service's spans, so that a call's two spans
// come in two requests), are judged as ivc analyze judges the files they
// come from: each session's verdict, explanation, failure pattern and
// counts of ignored, duplicate and unpaired spans. Real traces (HotROD and
// the OpenTelemetry demo's cart flow: calls across services, nested spans,
// names not declared), a diagram that draws replies (a CLIENT span's end
// is the reply's reception), and ivc gen's messages (CONSUMER spans linked
// to their PRODUCER spans).
func TestSpansAsAnalyze(t *testing.T) {
	// A message through a queue: the CONSUMER span links to the PRODUCER
	// span (no parent), each from its own service.
	const queued = `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"client"}}]},"scopeSpans":[{"spans":[` +
		`{"traceId":"5af7651916cd43dd8448eb211c80319c","spanId":"3333333333333333","name":"publish","kind":4,"startTimeUnixNano":"1000","endTimeUnixNano":"2000",` +
		`"attributes":[{"key":"messaging.destination.name","value":{"stringValue":"GET /orders"}}]}]}]},` +
		`{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"api"}}]},"scopeSpans":[{"spans":[` +
		`{"traceId":"5af7651916cd43dd8448eb211c80319c","spanId":"4444444444444444","name":"process","kind":5,"startTimeUnixNano":"3000","endTimeUnixNano":"4000",` +
		`"links":[{"traceId":"5af7651916cd43dd8448eb211c80319c","spanId":"3333333333333333"}],` +
		`"attributes":[{"key":"messaging.destination.name","value":{"stringValue":"GET /orders"}}]}]}]}]}` + "\n"
	for _, c := range []struct {
		script, spec string
		files        []string // in the script, or from the repository's root
	}{
		{"replies_spans.txtar", "calls.hsf", []string{"queued.otlp.jsonl"}},
		{"realtraces_otlp.txtar", "hotrod.hsf", []string{"testdata/realtraces/otlp/hotrod-full-concurrent.otlp.pb"}},
		{"realtraces_otlp.txtar", "oteldemo.hsf", []string{"testdata/realtraces/otlp/oteldemo-cart-error-timeout.otlp.pb"}},
		{"replies_spans.txtar", "orders.mmd", []string{"client.otlp.jsonl", "api.otlp.jsonl"}},
		{"replies_spans.txtar", "calls.hsf", []string{"client.otlp.jsonl", "api.otlp.jsonl"}},
		// ivc gen's spans of ABP: PRODUCER and CONSUMER spans, linked.
		{"gen_stream.txtar", "testdata/abp/abp.hsf", []string{"golden/o1/slice.json"}},
	} {
		t.Run(filepath.Base(c.spec)+"/"+filepath.Base(c.files[0]), func(t *testing.T) {
			ar, err := txtar.ParseFile(filepath.Join("../testdata/script", c.script))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for _, f := range ar.Files {
				p := filepath.Join(dir, f.Name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, "queued.otlp.jsonl"), []byte(queued), 0o644); err != nil {
				t.Fatal(err)
			}
			// path is where the file f is.
			path := func(f string) string {
				if strings.HasPrefix(f, "testdata/") {
					return filepath.Join("..", f)
				}
				return filepath.Join(dir, f)
			}
			var paths []string
			for _, f := range c.files {
				paths = append(paths, path(f))
			}
			sp, err := spec.Load(path(c.spec), "")
			if err != nil {
				t.Fatal(err)
			}
			ch, err := check.New(sp, check.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			lopt := logs.Options{Sig: sp.Sig, Replies: sp.Replies}
			var reqs []request
			for _, p := range paths {
				reqs = append(reqs, requests(t, p)...)
			}
			judgeBoth(t, "", ch, lopt, paths, reqs)
		})
	}
}

// judgeBoth judges the files at paths as ivc analyze does, and the
// requests reqs (their spans) with a monitor, and reports each session
// whose judgments differ.
func judgeBoth(t *testing.T, label string, ch *check.Checker, lopt logs.Options, paths []string, reqs []request) {
	t.Helper()
	want := map[string]string{}
	ch.Run((&session.Source{Options: lopt}).Sessions(paths), check.RunOptions{}, func(o check.Outcome) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		want[o.ID] = judged(o)
	})
	got := map[string]string{}
	m, err := monitor.NewTable(ch, lopt, monitor.Options{}, func(o check.Outcome) { got[o.ID] = judged(o) })
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range reqs {
		if _, err := m.ConsumeTracesProto(req.source, req.body); err != nil {
			t.Fatal(err)
		}
	}
	m.Close()
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("%s: %d sessions judged by the monitor, %d by ivc analyze", label, len(got), len(want))
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: session %s:\nmonitor %s\nanalyze %s", label, id, got[id], w)
		}
	}
}

// judged is what TestSpansAsAnalyze compares of an outcome: its record but
// for where its events were read and the times.
func judged(o check.Outcome) string {
	r := o.Record()
	b, _ := json.Marshal(struct {
		Verdict, Engine, Reason, Pattern string
		Explanation                      any
		Nodes, Ignored, Duplicates       int
		Unpaired, Stops, Repairs         int
	}{r.Verdict, r.Engine, r.Reason, r.Pattern, r.Explanation, r.Nodes, r.IgnoredEvents, r.DuplicateEvents,
		r.UnpairedSpans, len(r.At), len(r.Repair)})
	return string(b)
}

// A request is an OTLP/protobuf request and the source it comes from (the
// name of the file its spans come from).
type request struct {
	source string
	body   []byte
}

// requests returns the spans of the file at path (an OTLP/protobuf request,
// or OTLP/JSON lines) as OTLP/protobuf requests, one a resource.
func requests(t *testing.T, path string) []request {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tds []ptrace.Traces
	if strings.HasSuffix(path, ".pb") {
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(data); err != nil {
			t.Fatal(err)
		}
		tds = append(tds, req.Traces())
	} else {
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var u ptrace.JSONUnmarshaler
			td, err := u.UnmarshalTraces(sc.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			tds = append(tds, td)
		}
	}
	var out []request
	for _, td := range tds {
		for i := range td.ResourceSpans().Len() {
			one := ptrace.NewTraces()
			td.ResourceSpans().At(i).CopyTo(one.ResourceSpans().AppendEmpty())
			b, err := ptraceotlp.NewExportRequestFromTraces(one).MarshalProto()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, request{filepath.Base(path), b})
		}
	}
	return out
}

// TestGeneratedSpansAsAnalyze: ABP's multi-traces of every kind ivc gen
// makes (accepted, prefixes, slices, noise, swapped actions and
// components), written as OTLP spans, sent to one monitor one request a
// service in a shuffled order, are judged as ivc analyze judges the file:
// sessions of every size assembled one after the other in reused storage
// (ivc gen writes each action as a span of its own, which no span pairs:
// TestSpansAsAnalyze pairs them).
func TestGeneratedSpansAsAnalyze(t *testing.T) {
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []check.Engine{check.EngineAutomata, check.EngineRuntime} {
		opt := check.DefaultOptions()
		opt.Engine = e
		ch, err := check.New(sp, opt)
		if err != nil {
			t.Fatal(err)
		}
		lopt := logs.Options{Sig: sp.Sig}
		for k := gen.KindAccepted; k <= gen.KindSwapComp; k++ {
			mts, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: k, N: 30, Seed: uint64(k) + 1, Options: gen.Options{MaxLength: 24}})
			if err != nil {
				t.Fatal(err)
			}
			ptrs := make([]*multitrace.MultiTrace, len(mts))
			for i := range mts {
				ptrs[i] = &mts[i]
			}
			path := filepath.Join(t.TempDir(), "spans.otlp.jsonl")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := gen.Write(f, logs.OTLP, sp.Sig, gen.IDs(logs.OTLP, len(mts), int64(k)), ptrs, int64(k)); err != nil {
				t.Fatal(err)
			}
			f.Close()
			reqs := requests(t, path)
			rand.New(rand.NewPCG(uint64(k), 7)).Shuffle(len(reqs), func(i, j int) { reqs[i], reqs[j] = reqs[j], reqs[i] })
			judgeBoth(t, e.String()+", "+k.String(), ch, lopt, []string{path}, reqs)
		}
	}
}
