package check_test

import (
	"fmt"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
)

// BenchmarkSeqLifelines measures what the engines cost on a seq of N
// messages along a ring of N lifelines (seqSpec: an NFA of 2N+1 states,
// each lifeline a location of its own), for one-event sessions read from
// a log (Fails and WeakPasses, on different lifelines):
//
//   - new: check.New (the automata engine compiles the interaction);
//   - first: the first check of a partition of the lifelines, by a fresh
//     checker (the automata engine builds the partition's checker: a
//     projection DFA per location; the runtime engine, its analyzer);
//   - steady: a check once the partition's checker is built.
//
// Each reports the CPU time of an operation (cpu-ns/op), which the load of
// a shared machine inflates less than ns/op. With EngineAuto, past
// DefaultAutoMaxCheckerWork (N ≈ 360), the runtime engine judges.
func BenchmarkSeqLifelines(b *testing.B) {
	for _, n := range []int{10, 100, 300, 1000} {
		sp, log := seqSpec(b, n, 64)
		var mts []*multitrace.MultiTrace
		for _, s := range oneEventLog(b, sp, log, 64) {
			mt, err := s.Read()
			if err != nil {
				b.Fatal(err)
			}
			mts = append(mts, mt)
		}
		for _, e := range []check.Engine{check.EngineRuntime, check.EngineAutomata, check.EngineAuto} {
			opt := check.DefaultOptions()
			opt.Engine = e
			checker := func() *check.Checker {
				c, err := check.New(sp, opt)
				if err != nil {
					b.Fatal(err)
				}
				return c
			}
			b.Run(fmt.Sprintf("n=%d/%s/new", n, e), func(b *testing.B) {
				var cpu testutil.CPUClock
				cpu.Start()
				for b.Loop() {
					checker()
				}
				cpu.Stop()
				cpu.Report(b, b.N, "op")
			})
			b.Run(fmt.Sprintf("n=%d/%s/first", n, e), func(b *testing.B) {
				var cpu testutil.CPUClock
				for b.Loop() {
					b.StopTimer()
					c := checker()
					b.StartTimer()
					cpu.Start()
					c.Check(mts[1])
					cpu.Stop()
				}
				cpu.Report(b, b.N, "op")
			})
			b.Run(fmt.Sprintf("n=%d/%s/steady", n, e), func(b *testing.B) {
				c := checker()
				for _, mt := range mts {
					c.Check(mt)
				}
				var cpu testutil.CPUClock
				cpu.Start()
				i := 0
				for b.Loop() {
					c.Check(mts[i%len(mts)])
					i++
				}
				cpu.Stop()
				cpu.Report(b, b.N, "op")
			})
		}
	}
}
