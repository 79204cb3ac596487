package monitor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
)

// TestRetriedRequests: OTLP delivery is at least once: an exporter retries
// a request it got no answer for (the monitor's own 429 asks it to), so a
// span may come twice, in the same request again or in another. Each
// span counts once: the verdicts are those of the requests received once
// (2 WeakPass, 1 Fail: the early check walks no span twice), and the
// counts are ivc analyze's of the file and a copy of it.
func TestRetriedRequests(t *testing.T) {
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	lopt := logs.Options{Sig: sp.Sig}
	data, err := os.ReadFile("../testdata/logs/abp.otlp.json")
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "copy.json")
	if err := os.WriteFile(copied, data, 0o644); err != nil {
		t.Fatal(err)
	}
	src := &session.Source{Options: lopt}
	want := map[string]string{}
	for s := range src.Sessions([]string{"../testdata/logs/abp.otlp.json", copied}) {
		want[s.ID] = c.Judge(s).Result.Verdict.String()
	}
	if src.Counts.Duplicates != src.Counts.Events || len(want) != 3 {
		t.Fatalf("ivc analyze: %+v, %v", src.Counts, want)
	}
	var requests []ptrace.Traces
	var u ptrace.JSONUnmarshaler
	for line := range strings.Lines(string(data)) {
		td, err := u.UnmarshalTraces([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		requests = append(requests, td)
	}
	for _, order := range []string{"all twice", "each twice"} {
		var sent []ptrace.Traces
		if order == "all twice" {
			sent = append(append(sent, requests...), requests...)
		} else {
			for _, td := range requests {
				sent = append(sent, td, td)
			}
		}
		got := map[string]string{}
		m, err := monitor.NewTable(c, lopt, monitor.Options{Report: func(err error) { t.Errorf("%s: %v", order, err) }}, func(o check.Outcome) {
			got[o.ID] = o.Result.Verdict.String()
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, td := range sent {
			if _, err := m.ConsumeTraces("otlp", td); err != nil {
				t.Fatal(err)
			}
		}
		m.Close()
		for id, v := range want {
			if got[id] != v {
				t.Errorf("%s: session %s: %s, want %s", order, id, got[id], v)
			}
		}
		n := m.Counts()
		if n.Events != src.Counts.Events || n.Ignored != src.Counts.Ignored || n.Duplicates != src.Counts.Duplicates ||
			n.Received != n.Events+n.Ignored+n.Duplicates+n.Malformed+n.Late {
			t.Errorf("%s: counts %+v, ivc analyze's %+v", order, n, src.Counts)
		}
	}
}

// TestEarlyCheckRepeat: an event logged twice (the same seq and action)
// is one event, and the early check walks it once: no early Fail for a
// session that passes.
func TestEarlyCheckRepeat(t *testing.T) {
	sp, err := spec.Parse("s.hsf", []byte("@message{ m }\n@lifeline{ a; b }\n"), "s.hif", []byte("a -- m -> b\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	m, err := monitor.NewTable(c, logs.Options{Sig: sp.Sig}, monitor.Options{Report: func(err error) { t.Error(err) }}, func(o check.Outcome) {
		got = append(got, o.Result.Verdict.String()+" "+o.Live.ClosedBy)
	})
	if err != nil {
		t.Fatal(err)
	}
	log := `{"session":"x","lifeline":"a","kind":"send","message":"m","seq":1}
{"session":"x","lifeline":"a","kind":"send","message":"m","seq":1}
{"session":"x","lifeline":"b","kind":"receive","message":"m","seq":1}
`
	if _, err := m.ConsumeLog("app.jsonl", strings.NewReader(log), logs.JSONL); err != nil {
		t.Fatal(err)
	}
	m.Close()
	if n := m.Counts(); strings.Join(got, "; ") != "Pass shutdown" || n.Events != 2 || n.Duplicates != 1 {
		t.Errorf("records %q, counts %+v", got, n)
	}
}
