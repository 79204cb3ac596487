package automata

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/synth"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// BenchmarkLongTraces reports the automata engine's throughput, in actions
// per second, on the long ABP and rover traces (corpus/long-traces, prefix
// mode), as HIBOU's global traces (one component) and projected on the
// discrete partition (one component per lifeline: local checks and the
// central search). The checkers are built before the timer starts: a spec
// is compiled once for millions of multi-traces.
func BenchmarkLongTraces(b *testing.B) {
	dir := filepath.Join(testutil.Shared(b), "corpus", "long-traces")
	for _, model := range []string{"abp", "rover"} {
		sp, err := spec.Load(filepath.Join(dir, model+".hsf"), "")
		if err != nil {
			b.Fatal(err)
		}
		e, err := New(sp.Store, sp.Root, Options{Mode: verdict.Prefix})
		if err != nil {
			b.Fatal(err)
		}
		e.unmemoized = true // the check itself, not the memo of verdicts
		var global, discrete []*multitrace.MultiTrace
		for _, lt := range testutil.LongTraces(b, dir, model) {
			if lt.Kind != "ACP" {
				continue
			}
			mt, err := multitrace.Read(lt.HTF, sp.Sig)
			if err != nil {
				b.Fatal(err)
			}
			global = append(global, mt)
			pm := gen.Project(mt.Components[0].Trace, interaction.DiscreteLocations(sp.Sig))
			discrete = append(discrete, &pm)
		}
		for _, set := range []struct {
			name string
			mts  []*multitrace.MultiTrace
		}{{"global", global}, {"discrete", discrete}} {
			b.Run(model+"/"+set.name, func(b *testing.B) {
				for _, mt := range set.mts {
					if v := e.Check(mt).Verdict; v != verdict.Pass && v != verdict.WeakPass {
						b.Fatalf("%s on an accepted prefix", v)
					}
				}
				actions := 0
				for b.Loop() {
					for _, mt := range set.mts {
						e.Check(mt)
						actions += mt.Len()
					}
				}
				b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
			})
		}
	}
}

// BenchmarkLfrem reports the automata engine's time per multi-trace, by
// verdict, in prefix mode, on the multi-traces of corpus/lfrem's
// compilable interactions (every fifth row of verdicts.tsv, as the
// benchtable's side-by-side with HIBOU takes them), one engine per
// interaction, built before the timer starts.
func BenchmarkLfrem(b *testing.B) {
	dir := filepath.Join(testutil.Shared(b), "corpus", "lfrem")
	engines := map[string]*Engine{}
	byVerdict := map[verdict.Verdict][]lfremCase{}
	for i, r := range testutil.LfremRows(b, dir) {
		if i%5 != 0 {
			continue
		}
		e, seen := engines[r.HIF]
		if !seen {
			sp, err := spec.Load(filepath.Join(dir, "signature.hsf"), filepath.Join(dir, r.HIF))
			if err != nil {
				b.Fatal(err)
			}
			var le *synth.LoopError
			if e, err = New(sp.Store, sp.Root, Options{Mode: verdict.Prefix}); err != nil && !errors.As(err, &le) {
				b.Fatal(err)
			}
			if e != nil {
				e.unmemoized = true // the check itself, not the memo of verdicts
			}
			engines[r.HIF] = e // nil: not compilable (a loopW)
		}
		if e == nil {
			continue
		}
		mt, err := multitrace.Read(filepath.Join(dir, r.HTF), e.sig)
		if err != nil {
			b.Fatal(err)
		}
		v := e.Check(mt).Verdict
		byVerdict[v] = append(byVerdict[v], lfremCase{e, mt})
	}
	for _, v := range []verdict.Verdict{verdict.Pass, verdict.WeakPass, verdict.Fail} {
		b.Run(v.String(), func(b *testing.B) {
			cases := byVerdict[v]
			for b.Loop() {
				for _, c := range cases {
					c.e.Check(c.mt)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/multi-trace")
			b.ReportMetric(0, "ns/op")
		})
	}
}

type lfremCase struct {
	e  *Engine
	mt *multitrace.MultiTrace
}
