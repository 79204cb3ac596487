package check_test

import (
	"bytes"
	"os"
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

// TestSharedVerdicts: the sessions of a log that repeat share their
// multi-trace (session.Session.Shared), whose verdict the checker
// remembers. Each outcome is the one a checker of its own gives the
// session judged alone, not shared: its verdict, explanation and stops
// and its repair in prefix mode, which the checker remembers too
// (multi-traces of lfrem's i1, accepted, prefixes and Fails, six times
// each, in accept and prefix mode, with one worker and two).
func TestSharedVerdicts(t *testing.T) {
	sp, err := spec.Load(filepath.Join(testdata, "lfrem/signature.hsf"), filepath.Join(testdata, "lfrem/i1.hif"))
	if err != nil {
		t.Fatal(err)
	}
	var drawn []multitrace.MultiTrace
	for _, k := range []gen.Kind{gen.KindAccepted, gen.KindPrefix, gen.KindNoise, gen.KindSwapAct} {
		mts, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: k, N: 3, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		for _, mt := range mts {
			if mt.Len() > 0 { // an empty one writes no session
				drawn = append(drawn, mt)
			}
		}
	}
	var mts []*multitrace.MultiTrace
	for range 6 {
		for i := range drawn {
			mts = append(mts, &drawn[i])
		}
	}
	var buf bytes.Buffer
	if err := gen.Write(&buf, logs.JSONL, sp.Sig, nil, mts, 1); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "abp.jsonl")
	if err := os.WriteFile(log, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []verdict.Mode{verdict.Accept, verdict.Prefix} {
		opt := check.DefaultOptions()
		opt.Mode = mode
		opt.RepairFails = mode == verdict.Prefix
		for _, jobs := range []int{1, 2} {
			c, err := check.New(sp, opt)
			if err != nil {
				t.Fatal(err)
			}
			src := &session.Source{Format: logs.JSONL, Options: logs.Options{Sig: sp.Sig}}
			shared := 0
			sessions := func(yield func(session.Session) bool) {
				for s := range src.Sessions([]string{log}) {
					if s.Shared {
						shared++
					}
					if !yield(s) {
						return
					}
				}
			}
			var outs []check.Outcome
			c.Run(sessions, check.RunOptions{Jobs: jobs}, func(o check.Outcome) { outs = append(outs, o) })
			if len(outs) != len(mts) || shared < len(mts)-2*len(drawn) {
				t.Fatalf("%s, %d jobs: %d outcomes, %d shared, want %d, at least %d", mode, jobs, len(outs), shared, len(mts), len(mts)-2*len(drawn))
			}
			fails := 0
			for _, o := range outs {
				if o.Err != nil {
					t.Fatal(o.Err)
				}
				alone, err := check.New(sp, opt)
				if err != nil {
					t.Fatal(err)
				}
				want := alone.Judge(session.Session{Meta: o.Meta, MT: o.MT})
				if !reflect.DeepEqual(o.Result, want.Result) || !reflect.DeepEqual(o.Stops(), want.Stops()) ||
					!reflect.DeepEqual(o.Repair, want.Repair) {
					t.Errorf("%s, %d jobs, session %s: %v %v %+v, judged alone %v %v %+v", mode, jobs, o.ID, o.Result, o.Stops(), o.Repair, want.Result, want.Stops(), want.Repair)
				}
				if opt.RepairFails && o.Result.Verdict == verdict.Fail && o.Repair == nil {
					t.Errorf("%s, %d jobs, session %s: a Fail without its repair", mode, jobs, o.ID)
				}
				if o.Result.Verdict == verdict.Fail {
					fails++
					if len(o.Stops()) == 0 {
						t.Errorf("%s, %d jobs, session %s: a Fail without stops", mode, jobs, o.ID)
					}
				}
			}
			if fails < 6 {
				t.Errorf("%s, %d jobs: %d Fails, want 6 at least", mode, jobs, fails)
			}
		}
	}
}
