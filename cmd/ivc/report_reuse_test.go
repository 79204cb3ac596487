package main

import (
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestReportKeepsReusedFails: the report keeps the multi-trace of each
// failure it draws, of sessions read as ivc analyze reads them (their
// storage reused once their outcome is printed: session.Source.Reuse), as
// it was judged, not as a later session left it.
func TestReportKeepsReusedFails(t *testing.T) {
	sp, err := spec.Load(filepath.Join("..", "..", "testdata", "abp", "abp.hsf"), "")
	if err != nil {
		t.Fatal(err)
	}
	drawn, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: gen.KindNoise, N: 60, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if _, err := gen.WriteFile(path, logs.JSONL, sp.Sig, drawn); err != nil {
		t.Fatal(err)
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	r := &reportBuilder{}
	var want []string // the failures' multi-traces as judged
	src := &session.Source{Options: logs.Options{Sig: sp.Sig}, Reuse: true}
	c.Run(src.Sessions([]string{path}), check.RunOptions{Jobs: 1}, func(o check.Outcome) {
		r.add(&o)
		if o.Result.Verdict == verdict.Fail && len(want) < len(r.fails) {
			want = append(want, string(o.MT.Format(sp.Sig)))
		}
	})
	if len(r.fails) < 2 || len(r.fails) != len(want) {
		t.Fatalf("%d failures kept, %d judged: want several", len(r.fails), len(want))
	}
	for i, f := range r.fails {
		if got := string(f.mt.Format(sp.Sig)); got != want[i] {
			t.Errorf("failure %d (row %d) kept as\n%s\nwant, as judged:\n%s", i, f.row, got, want[i])
		}
	}
}
