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
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestLinkedAcrossSources: the CLIENT span of a call comes from one
// service (OTLP), its SERVER span from another (Jaeger): the monitor pairs
// them as ivc analyze does across files (testdata/script/links_joined.txtar,
// whose files this reads).
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
	got := map[string]string{}
	m, err := monitor.New(c, logs.Options{Sig: sp.Sig}, monitor.Options{}, func(r check.Record) {
		got[r.Session] = r.Verdict
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []struct {
		name string
		f    logs.Format
	}{{"gateway.jsonl", logs.OTLP}, {"user.json", logs.Jaeger}} {
		f, err := os.Open(filepath.Join(dir, src.name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Scan(src.name, f, src.f); err != nil {
			t.Fatal(err)
		}
		f.Close()
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
			t.Errorf("session %s: %q, want %q", s, got[s], w)
		}
	}
}
