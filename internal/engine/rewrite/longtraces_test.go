package rewrite

import (
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

type longTrace struct {
	model, name, kind, verdict string
	sp                         *spec.Spec
	mt                         *multitrace.MultiTrace
}

// loadLongTraces reads corpus/long-traces: ABP and rover global traces of
// 250 to 10,000 actions with HIBOU's verdicts in the CSVs. It reads the
// multi-traces keep keeps, and returns the number of traces listed.
func loadLongTraces(t testing.TB, keep func(testutil.LongTrace) bool) ([]longTrace, int) {
	dir := filepath.Join(testutil.Shared(t), "corpus", "long-traces")
	specs := map[string]*spec.Spec{}
	var out []longTrace
	listed := testutil.LongTraces(t, dir, "abp", "rover")
	for _, lt := range listed {
		if !keep(lt) {
			continue
		}
		sp := specs[lt.Model]
		if sp == nil {
			var err error
			if sp, err = spec.Load(filepath.Join(dir, lt.Model+".hsf"), ""); err != nil {
				t.Fatal(err)
			}
			specs[lt.Model] = sp
		}
		mt, err := multitrace.Read(lt.HTF, sp.Sig)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, longTrace{lt.Model, lt.Name, lt.Kind, lt.Verdict, sp, mt})
	}
	return out, len(listed)
}

// TestLongTraces checks HIBOU's prefix-mode verdicts on the long global
// traces (one component of all lifelines), in every POR/LOC configuration,
// within a node budget ten times the most any trace explores (24,265
// vertices), so that the verdicts do not depend on the machine's speed.
func TestLongTraces(t *testing.T) {
	t.Parallel()
	// Without -tags sweep, a sample: the first trace of each model, kind and
	// verdict.
	sampled := map[[3]string]bool{}
	traces, listed := loadLongTraces(t, func(lt testutil.LongTrace) bool {
		group := [3]string{lt.Model, lt.Kind, lt.Verdict}
		keep := testutil.Sweep() || !sampled[group]
		sampled[group] = true
		return keep
	})
	if listed != 238 {
		t.Fatalf("%d long traces, want 238", listed)
	}
	for _, cfg := range configs {
		analyzers := map[*spec.Spec]*Analyzer{}
		for _, lt := range traces {
			a := analyzers[lt.sp]
			if a == nil {
				a = New(lt.sp.Store, lt.sp.Root, Options{Mode: verdict.Prefix, POR: cfg.por, LOC: cfg.loc, MaxNodes: 250_000})
				analyzers[lt.sp] = a
			}
			res := a.Check(lt.mt)
			if res.Verdict.String() != lt.verdict {
				t.Errorf("%s/%s (%s, %d actions) %s: %s (%s), want %s", lt.model, lt.name, lt.kind, lt.mt.Len(), cfg.name, res.Verdict, res.Text(), lt.verdict)
			}
		}
	}
}

// BenchmarkLongTraces reports the analysis throughput on the long traces, in
// actions per second, per model and kind (ACP: prefixes of accepted traces;
// ERR: one wrong action appended).
func BenchmarkLongTraces(b *testing.B) {
	traces, _ := loadLongTraces(b, func(testutil.LongTrace) bool { return true })
	for _, model := range []string{"abp", "rover"} {
		for _, kind := range []string{"ACP", "ERR"} {
			b.Run(model+"/"+kind, func(b *testing.B) {
				actions := 0
				for b.Loop() {
					analyzers := map[*spec.Spec]*Analyzer{}
					for _, lt := range traces {
						if lt.model != model || lt.kind != kind {
							continue
						}
						a := analyzers[lt.sp]
						if a == nil {
							a = New(lt.sp.Store, lt.sp.Root, DefaultOptions())
							analyzers[lt.sp] = a
						}
						a.Check(lt.mt)
						actions += lt.mt.Len()
					}
				}
				b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
			})
		}
	}
}
