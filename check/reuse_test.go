package check_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestRunReleases: Run releases each session once its outcome's emit has
// returned, so that a session.Source that reuses storage (Reuse) builds a
// later session in it: an emit that copies what it keeps (MultiTrace.Clone)
// gets, with any number of workers, the outcomes of a Source that does not
// reuse storage, Fails and their stops included, and one that keeps an
// outcome's multi-trace itself sees it overwritten. The sessions outnumber
// what 4 workers take and emit at once (run's window: 4 a worker of 64 a
// batch), so that later ones must be built in storage released before.
func TestRunReleases(t *testing.T) {
	sp, err := spec.Load(filepath.Join(testdata, "abp/abp.hsf"), "")
	if err != nil {
		t.Fatal(err)
	}
	var drawn []multitrace.MultiTrace
	for _, kind := range []gen.Kind{gen.KindAccepted, gen.KindNoise} {
		mts, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: kind, N: 1500, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		drawn = append(drawn, mts...)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	mts, err := gen.WriteFile(path, logs.JSONL, sp.Sig, drawn)
	if err != nil {
		t.Fatal(err)
	}
	if len(mts) <= 4*4*64 {
		t.Fatalf("%d sessions: fewer than 4 workers' window", len(mts))
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	// kept is what an emit keeps of an outcome: its multi-trace (a copy,
	// and the outcome's own), verdict and stops.
	type kept struct {
		mt, own *multitrace.MultiTrace
		res     verdict.Result
		stops   []check.Stop
	}
	run := func(reuse bool, jobs int) []kept {
		src := &session.Source{Options: logs.Options{Sig: sp.Sig}, Reuse: reuse}
		var out []kept
		c.Run(src.Sessions([]string{path}), check.RunOptions{Jobs: jobs}, func(o check.Outcome) {
			if o.Err != nil || o.MT == nil {
				t.Fatalf("%s: %v", o.ID, o.Err)
			}
			out = append(out, kept{mt: o.MT.Clone(), own: o.MT, res: o.Result, stops: o.Stops()})
		})
		if len(out) != len(mts) {
			t.Fatalf("%d outcomes, want %d", len(out), len(mts))
		}
		return out
	}
	want := run(false, 1)
	fails := 0
	for _, k := range want {
		if k.res.Verdict == verdict.Fail {
			fails++
		}
	}
	if fails == 0 || fails == len(want) {
		t.Fatalf("%d Fails of %d sessions: want some", fails, len(want))
	}
	for _, jobs := range []int{1, 4} {
		got := run(true, jobs)
		overwritten := 0
		for i := range got {
			g, w := got[i], want[i]
			if !g.mt.Equal(w.mt) || !reflect.DeepEqual(g.res, w.res) || !reflect.DeepEqual(g.stops, w.stops) {
				t.Errorf("%d jobs, session %d: %v %+v %+v, want %v %+v %+v", jobs, i, g.mt, g.res, g.stops, w.mt, w.res, w.stops)
			}
			if !g.own.Equal(g.mt) {
				overwritten++
			}
		}
		if overwritten == 0 {
			t.Errorf("%d jobs: no multi-trace kept past its emit was overwritten: Run released none", jobs)
		}
	}
}
