package check_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/tracegen"
)

// BenchmarkLogs measures the whole path from a log to verdicts on one
// worker: reading 20,000 lfrem-like sessions (accepted multi-traces of the
// lifeline-removal benchmark's interactions, one location per lifeline)
// and judging each: i1 with the runtime engine (it does not compile), i14
// with the automata engine. Run it with -cpu 1 to count one core.
func BenchmarkLogs(b *testing.B) {
	for _, hif := range []string{"i1", "i14"} {
		b.Run(hif, func(b *testing.B) { benchmarkLogs(b, hif) })
	}
}

func benchmarkLogs(b *testing.B, hif string) {
	sp, err := check.LoadSpec(filepath.Join(testdata, "lfrem/signature.hsf"), filepath.Join(testdata, "lfrem", hif+".hif"), "")
	if err != nil {
		b.Fatal(err)
	}
	in := sp.Interaction
	gen, err := tracegen.Generate(in.Store, in.Root, tracegen.Config{Kind: tracegen.KindAccepted, N: 20000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	mts := make([]*multitrace.MultiTrace, len(gen))
	events := 0
	for i := range gen {
		mts[i] = &gen[i]
		events += gen[i].Len()
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	if want := map[string]check.Engine{"i1": check.EngineRuntime, "i14": check.EngineAutomata}[hif]; c.Engine() != want {
		b.Fatalf("%s: engine %s, want %s", hif, c.Engine(), want)
	}
	for _, f := range []logs.Format{logs.JSONL, logs.OTLP} {
		var buf bytes.Buffer
		if err := logs.Write(&buf, f, in.Sig, nil, mts, 1); err != nil {
			b.Fatal(err)
		}
		data := buf.Bytes()
		b.Run(f.String(), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				sessions, st, err := logs.ReadFrom("bench", bytes.NewReader(data), f, logs.Options{Sig: in.Sig}, nil)
				if err != nil || st.Events != events {
					b.Fatalf("%+v %v, want %d events", st, err, events)
				}
				inputs := func(yield func(check.Input) bool) {
					for _, s := range sessions {
						if !yield(check.Input{Name: "bench", Session: s.ID,
							Read: func() (*multitrace.MultiTrace, error) { return s.MT, s.Err }}) {
							return
						}
					}
				}
				ok := 0
				c.Run(inputs, 1, func(o check.Outcome) {
					if o.Err == nil && o.Result.Verdict.OK() {
						ok++
					}
				})
				if ok != len(sessions) {
					b.Fatalf("%d of %d sessions pass, want all", ok, len(sessions))
				}
			}
			b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(events)/float64(len(mts)), "events/session")
		})
	}
}
