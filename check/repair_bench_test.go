package check_test

import (
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// BenchmarkRepair measures the repair of a Fail against its check, on the
// failing noise mutants of the lifeline-removal corpus in prefix mode
// (1,784 multi-traces of 50 interactions), as ivc analyze would judge
// them: the engine auto chooses, the automata engine for 19 of the
// interactions, the runtime engine for the others; the sub-benchmarks
// automata and runtime take the multi-traces of each. Each run makes fresh
// checkers, set up for the partition of the multi-traces (outside the
// timer: no verdict remembered from a run before), then checks each
// multi-trace and repairs it at once, each timed apart. It
// reports, over the multi-traces, the medians of the check's time and of
// the repair's (the fastest of the runs, in µs), and the median of their
// ratio; ns/op is one multi-trace's check and repair.
func BenchmarkRepair(b *testing.B) {
	dir := filepath.Join(testutil.Shared(b), "corpus", "lfrem")
	type set struct {
		sp  *spec.Spec
		mts []*multitrace.MultiTrace
	}
	byEngine := map[check.Engine][]set{}
	specs := map[string]*spec.Spec{}
	files := map[string][]string{}
	var order []string
	for _, row := range testutil.LfremRows(b, dir) {
		if row.Kind != "noise" || row.Prefix != "Fail" {
			continue
		}
		if specs[row.HIF] == nil {
			sp, err := spec.Load(filepath.Join(dir, "signature.hsf"), filepath.Join(dir, row.HIF))
			if err != nil {
				b.Fatal(err)
			}
			specs[row.HIF] = sp
			order = append(order, row.HIF)
		}
		files[row.HIF] = append(files[row.HIF], row.HTF)
	}
	for _, hif := range order {
		sp := specs[hif]
		c, err := check.New(sp, check.DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		s := set{sp: sp}
		for _, f := range files[hif] {
			mt, err := multitrace.Read(filepath.Join(dir, f), sp.Sig)
			if err != nil {
				b.Fatal(err)
			}
			s.mts = append(s.mts, mt)
		}
		byEngine[c.Engine()] = append(byEngine[c.Engine()], s)
	}
	for _, sub := range []struct {
		name string
		sets []set
	}{
		{"all", slices.Concat(byEngine[check.EngineAutomata], byEngine[check.EngineRuntime])},
		{"automata", byEngine[check.EngineAutomata]},
		{"runtime", byEngine[check.EngineRuntime]},
	} {
		b.Run(sub.name, func(b *testing.B) {
			n := 0
			for _, s := range sub.sets {
				n += len(s.mts)
			}
			checkTime, repairTime := make([]time.Duration, n), make([]time.Duration, n)
			for k := range checkTime {
				checkTime[k], repairTime[k] = 1<<62, 1<<62
			}
			for b.Loop() {
				b.StopTimer()
				checkers := make([]*check.Checker, len(sub.sets))
				for i, s := range sub.sets {
					c, err := check.New(s.sp, check.DefaultOptions())
					if err != nil {
						b.Fatal(err)
					}
					// The setup of the partition's checker (automata) or of
					// an analyzer (runtime), which a check reports apart.
					empty := &multitrace.MultiTrace{Components: slices.Clone(s.mts[0].Components)}
					for j := range empty.Components {
						empty.Components[j].Trace = nil
					}
					c.Check(empty)
					checkers[i] = c
				}
				runtime.GC() // the garbage of the setup, collected now
				b.StartTimer()
				k := 0
				for i, s := range sub.sets {
					c := checkers[i]
					for _, mt := range s.mts {
						t0 := time.Now()
						res := c.Check(mt)
						t1 := time.Now()
						r, err := c.Repair(mt, res)
						t2 := time.Now()
						if err != nil || res.Verdict != verdict.Fail || r.Cost() == 0 || r.Incomplete {
							b.Fatalf("%s: %+v, %v", res.Verdict, r, err)
						}
						checkTime[k], repairTime[k] = min(checkTime[k], t1.Sub(t0)), min(repairTime[k], t2.Sub(t1))
						k++
					}
				}
			}
			ratios := make([]float64, n)
			for k := range ratios {
				ratios[k] = float64(repairTime[k]) / float64(checkTime[k])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/op")
			b.ReportMetric(median(checkTime).Seconds()*1e6, "check-µs")
			b.ReportMetric(median(repairTime).Seconds()*1e6, "repair-µs")
			slices.Sort(ratios)
			b.ReportMetric(ratios[n/2], "ratio")
		})
	}
}

// median returns the median of ds.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
