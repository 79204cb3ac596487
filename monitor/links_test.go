package monitor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/monitor"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// TestLinkedAcrossSources: the CLIENT span of a call comes from one
// service (OTLP), its SERVER span from another (Jaeger): the monitor pairs
// them as ivc analyze does across files (testdata/script/links_joined.txtar,
// whose files this reads), whether the OTLP file comes as a log or as
// requests, one a line; and it counts the events as ivc analyze does, the
// CLIENT span (named "GET", not declared) an event once paired.
func TestLinkedAcrossSources(t *testing.T) {
	ar, err := txtar.ParseFile("../testdata/script/links_joined.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sp, err := spec.Load(filepath.Join(dir, "spec.hsf"), "")
	if err != nil {
		t.Fatal(err)
	}
	opt := check.DefaultOptions()
	opt.Mode = verdict.Accept
	c, err := check.New(sp, opt)
	if err != nil {
		t.Fatal(err)
	}
	lopt := logs.Options{Sig: sp.Sig}
	// What ivc analyze counts of the same files.
	src := &session.Source{Options: lopt}
	for range src.Sessions([]string{filepath.Join(dir, "gateway.jsonl"), filepath.Join(dir, "user.json")}) {
	}
	if src.Counts.Events != 7 || src.Counts.Ignored != 1 {
		t.Fatalf("ivc analyze counts %+v, want 7 events, 1 ignored (links_joined.txtar)", src.Counts)
	}
	for _, requests := range []bool{false, true} {
		got := map[string]string{}
		m, err := monitor.NewTable(c, lopt, monitor.Options{}, func(o check.Outcome) {
			got[o.ID] = o.Result.Verdict.String()
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range []struct {
			name string
			f    logs.Format
		}{{"gateway.jsonl", logs.OTLP}, {"user.json", logs.Jaeger}} {
			data, err := os.ReadFile(filepath.Join(dir, src.name))
			if err != nil {
				t.Fatal(err)
			}
			if requests && src.f == logs.OTLP {
				var u ptrace.JSONUnmarshaler
				for line := range strings.Lines(string(data)) {
					td, err := u.UnmarshalTraces([]byte(line))
					if err != nil {
						t.Fatal(err)
					}
					if _, err := m.ConsumeTraces(src.name, td); err != nil {
						t.Fatal(err)
					}
				}
				continue
			}
			if _, err := m.ConsumeLog(src.name, strings.NewReader(string(data)), src.f); err != nil {
				t.Fatal(err)
			}
		}
		m.Close()
		id := func(d string) string { return strings.Repeat(d, 32) }
		want := map[string]string{
			id("1"): "Pass",
			id("2"): "Fail",
			id("3"): "Fail",
			id("4"): "Fail",
		}
		for s, w := range want {
			if got[s] != w {
				t.Errorf("requests %v: session %s: %q, want %q", requests, s, got[s], w)
			}
		}
		n := m.Counts()
		if n.Events != src.Counts.Events || n.Ignored != src.Counts.Ignored || n.Received != n.Events+n.Ignored+n.Malformed+n.Late {
			t.Errorf("requests %v: counts %+v, ivc analyze's %+v", requests, n, src.Counts)
		}
	}
}
