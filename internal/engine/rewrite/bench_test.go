package rewrite

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

type lfremCase struct {
	sp  *spec.Spec
	mt  *multitrace.MultiTrace
	row testutil.LfremRow
}

// loadLfrem reads the rows of the lifeline-removal corpus for which keep
// holds (every row when keep is nil), given their index.
func loadLfrem(b testing.TB, keep func(i int, row testutil.LfremRow) bool) []lfremCase {
	dir := filepath.Join(testutil.Shared(b), "corpus", "lfrem")
	specs := map[string]*spec.Spec{}
	var cases []lfremCase
	for i, row := range testutil.LfremRows(b, dir) {
		if keep != nil && !keep(i, row) {
			continue
		}
		sp := specs[row.HIF]
		if sp == nil {
			var err error
			if sp, err = spec.Load(filepath.Join(dir, "signature.hsf"), filepath.Join(dir, row.HIF)); err != nil {
				b.Fatal(err)
			}
			specs[row.HIF] = sp
		}
		mt, err := multitrace.Read(filepath.Join(dir, row.HTF), sp.Sig)
		if err != nil {
			b.Fatal(err)
		}
		cases = append(cases, lfremCase{sp, mt, row})
	}
	return cases
}

// BenchmarkLfrem analyzes the 10,000 multi-traces of the lifeline-removal
// benchmark in prefix mode, once per iteration, with fresh analyzers (cold
// memo tables) for each interaction, and reports the median, 99th percentile
// and maximum time per multi-trace.
func BenchmarkLfrem(b *testing.B) {
	cases := loadLfrem(b, nil)
	for _, cfg := range configs {
		if only := os.Getenv("IVC_CONFIG"); only != "" && only != cfg.name {
			continue
		}
		b.Run(cfg.name, func(b *testing.B) {
			var times []time.Duration
			for b.Loop() {
				times = times[:0]
				analyzers := map[*spec.Spec]*Analyzer{}
				for _, c := range cases {
					a := analyzers[c.sp]
					if a == nil {
						a = New(c.sp.Store, c.sp.Root, Options{Mode: verdict.Prefix, POR: cfg.por, LOC: cfg.loc, Timeout: 3 * time.Second})
						analyzers[c.sp] = a
					}
					t0 := time.Now()
					res := a.Check(c.mt)
					times = append(times, time.Since(t0))
					if res.Verdict == verdict.Inconc {
						b.Errorf("%s: Inconc (%s)", c.row.HTF, res.Text())
					}
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e3, "median-µs")
			b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds())/1e3, "p99-µs")
			b.ReportMetric(float64(times[len(times)-1].Nanoseconds())/1e3, "max-µs")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkLfremFresh analyzes the multi-traces of the benchtable's
// side-by-side with HIBOU (every fifth row of corpus/lfrem), in prefix mode
// with the default options, each interaction's on an analyzer of a fresh
// store, as each checker of check has (a new analyzer per interaction and
// per iteration, made outside the timer), and reports the median and p90
// time per multi-trace, in all and by verdict.
func BenchmarkLfremFresh(b *testing.B) {
	cases := loadLfrem(b, func(i int, _ testutil.LfremRow) bool { return i%5 == 0 })
	byVerdict := map[string][]time.Duration{}
	for b.Loop() {
		analyzers := map[*spec.Spec]*Analyzer{}
		for _, c := range cases {
			a := analyzers[c.sp]
			if a == nil {
				b.StopTimer()
				st, root := c.sp.Store.Fresh(c.sp.Root)
				a = New(st, root, DefaultOptions())
				analyzers[c.sp] = a
				b.StartTimer()
			}
			t0 := time.Now()
			v := a.Check(c.mt).Verdict.String()
			d := time.Since(t0)
			byVerdict[v] = append(byVerdict[v], d)
			byVerdict["all"] = append(byVerdict["all"], d)
		}
	}
	for v, ts := range byVerdict {
		slices.Sort(ts)
		b.ReportMetric(float64(ts[len(ts)/2].Nanoseconds())/1e3, v+"-median-µs")
		b.ReportMetric(float64(ts[len(ts)*9/10].Nanoseconds())/1e3, v+"-p90-µs")
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkSessions analyzes small multi-traces, as a log's sessions are:
// 2,000 accepted multi-traces of lfrem's i1 (one lifeline per component,
// about five events each; as in a log, they repeat: 9 are distinct) with
// one analyzer, prefix mode and the default options, and reports the time
// and allocations per multi-trace. BenchmarkLfrem measures distinct
// multi-traces.
func BenchmarkSessions(b *testing.B) {
	sp, err := spec.Load(filepath.Join("..", "..", "..", "testdata", "lfrem", "signature.hsf"), filepath.Join("..", "..", "..", "testdata", "lfrem", "i1.hif"))
	if err != nil {
		b.Fatal(err)
	}
	mts, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: gen.KindAccepted, N: 2000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	a := New(sp.Store, sp.Root, DefaultOptions())
	events := 0
	for i := range mts {
		events += mts[i].Len()
	}
	b.ReportAllocs()
	var cpu testutil.CPUClock
	cpu.Start()
	for b.Loop() {
		for i := range mts {
			if res := a.Check(&mts[i]); !res.Verdict.OK() {
				b.Fatalf("multi-trace %d: %s", i, res.Text())
			}
		}
	}
	cpu.Stop()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(mts)), "ns/multi-trace")
	cpu.Report(b, b.N*len(mts), "multi-trace")
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkDistinct analyzes 10,000 different multi-traces of the slice
// paper's i0 (accepted ones, one lifeline per component, 31 events each on
// average), as the distinct-i0 sessions of check's BenchmarkLogs: no
// verdict is judged twice, so the analyzer's verdict memo never answers.
// Each run of the 10,000 gets a new analyzer (outside the timer); the time
// and allocations are per multi-trace.
func BenchmarkDistinct(b *testing.B) {
	sp, err := spec.Load(filepath.Join("..", "..", "..", "testdata", "slice", "i0.hsf"), filepath.Join("..", "..", "..", "testdata", "slice", "i0.hif"))
	if err != nil {
		b.Fatal(err)
	}
	mts := distinctMultiTraces(b, sp, 10000, 40)
	events := 0
	for _, mt := range mts {
		events += mt.Len()
	}
	b.ReportAllocs()
	var cpu testutil.CPUClock
	for b.Loop() {
		b.StopTimer()
		a := New(sp.Store, sp.Root, DefaultOptions())
		b.StartTimer()
		cpu.Start()
		for i, mt := range mts {
			if res := a.Check(mt); !res.Verdict.OK() {
				b.Fatalf("multi-trace %d: %s", i, res.Text())
			}
		}
		cpu.Stop()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(mts)), "ns/multi-trace")
	cpu.Report(b, b.N*len(mts), "multi-trace")
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// distinctMultiTraces returns the first n distinct accepted multi-traces
// of sp of at most maxLen events (drawn from 8n).
func distinctMultiTraces(b *testing.B, sp *spec.Spec, n, maxLen int) []*multitrace.MultiTrace {
	gen, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: gen.KindAccepted, N: 8 * n, Seed: 1,
		Options: gen.Options{MaxLength: maxLen}})
	if err != nil {
		b.Fatal(err)
	}
	seen := map[string]bool{}
	var mts []*multitrace.MultiTrace
	for i := range gen {
		if k := string(gen[i].Format(sp.Sig)); !seen[k] && len(mts) < n {
			seen[k] = true
			mt := gen[i] // a copy: the others are not kept live through gen
			mts = append(mts, &mt)
		}
	}
	if len(mts) < n {
		b.Fatalf("%d distinct multi-traces among %d, want %d", len(mts), len(gen), n)
	}
	return mts
}
