package check_test

import (
	"bytes"
	"fmt"
	"iter"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
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

// BenchmarkJoin measures logs → verdicts on one worker along the three
// paths of `ivc analyze` on the same 2,000 distinct sessions (accepted
// multi-traces of the ABP, whose loop makes them differ; repeated ones and
// empty ones dropped, so that no verdict is a memoized one): file, one log holding every session (--session-scope
// file); joined, one log per location joined by a logs.Joiner in memory;
// spilled, the same logs joined under a budget that forces the joiner to
// spill to temporary files. Run it with -cpu 1 to count one core.
func BenchmarkJoin(b *testing.B) {
	sp, err := check.LoadSpec(filepath.Join(testdata, "abp/abp.hsf"), filepath.Join(testdata, "abp/abp.hif"), "")
	if err != nil {
		b.Fatal(err)
	}
	benchmarkJoin(b, sp)
}

// distinct returns up to n distinct accepted multi-traces of in, drawn
// with successive seeds (at most 5 batches of n).
func distinct(b *testing.B, in *spec.Spec, n int) []*multitrace.MultiTrace {
	seen := map[string]bool{}
	var mts []*multitrace.MultiTrace
	for seed := uint64(1); seed <= 5 && len(mts) < n; seed++ {
		gen, err := tracegen.Generate(in.Store, in.Root, tracegen.Config{Kind: tracegen.KindAccepted, N: n, Seed: seed,
			Options: tracegen.Options{MaxLength: 100, StopProbability: 0.05}})
		if err != nil {
			b.Fatal(err)
		}
		for i := range gen {
			if k := string(gen[i].Format(in.Sig)); !seen[k] && gen[i].Len() > 0 && len(mts) < n {
				seen[k] = true
				mts = append(mts, &gen[i])
			}
		}
	}
	return mts
}

func benchmarkJoin(b *testing.B, sp *check.Spec) {
	in := sp.Interaction
	mts := distinct(b, in, 2000)
	events := 0
	for _, mt := range mts {
		events += mt.Len()
	}
	c, err := check.New(sp, check.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d distinct sessions, %d events, engine %s", len(mts), events, c.Engine())
	opt := logs.Options{Sig: in.Sig}
	for _, f := range []logs.Format{logs.JSONL, logs.OTLP} {
		ids := logs.IDs(f, len(mts), 1)
		var whole bytes.Buffer
		if err := logs.Write(&whole, f, in.Sig, ids, mts, 1); err != nil {
			b.Fatal(err)
		}
		var split [][]byte
		size := 0
		for k := range mts[0].Components {
			var buf bytes.Buffer
			if err := logs.Write(&buf, f, in.Sig, ids, logs.Location(mts, k), 1+int64(k)); err != nil {
				b.Fatal(err)
			}
			split = append(split, buf.Bytes())
			size += buf.Len()
		}
		judge := func(b *testing.B, sessions iter.Seq2[logs.Session, error]) {
			n, ok := 0, 0
			inputs := func(yield func(check.Input) bool) {
				for s, err := range sessions {
					if err != nil {
						b.Fatal(err)
					}
					n++
					if !yield(check.Input{Name: s.File, Session: s.ID,
						Read: func() (*multitrace.MultiTrace, error) { return s.MT, s.Err }}) {
						return
					}
				}
			}
			c.Run(inputs, 1, func(o check.Outcome) {
				if o.Err == nil && o.Result.Verdict.OK() {
					ok++
				}
			})
			if n != len(mts) || ok != n {
				b.Fatalf("%d of %d sessions pass, want all %d", ok, n, len(mts))
			}
		}
		b.Run(f.String()+"/file", func(b *testing.B) {
			data := whole.Bytes()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				sessions, st, err := logs.ReadFrom("bench", bytes.NewReader(data), f, opt, nil)
				if err != nil || st.Events != events {
					b.Fatalf("%+v %v, want %d events", st, err, events)
				}
				judge(b, func(yield func(logs.Session, error) bool) {
					for _, s := range sessions {
						if !yield(s, nil) {
							return
						}
					}
				})
			}
			b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
		joined := func(b *testing.B, budget int64) {
			b.SetBytes(int64(size))
			tmp := b.TempDir()
			for b.Loop() {
				j, err := logs.NewJoiner(opt, budget, tmp)
				if err != nil {
					b.Fatal(err)
				}
				read := 0
				for k, data := range split {
					lin, err := logs.NewInput(fmt.Sprintf("loc%d", k), bytes.NewReader(data), f, opt)
					if err != nil {
						b.Fatal(err)
					}
					st, err := j.Read(lin, nil)
					if err != nil {
						b.Fatal(err)
					}
					read += st.Events
				}
				if read != events || j.Spilled() != (budget > 0) {
					b.Fatalf("%d events, spilled %v; want %d, %v", read, j.Spilled(), events, budget > 0)
				}
				judge(b, j.Sessions())
				if err := j.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		}
		b.Run(f.String()+"/joined", func(b *testing.B) { joined(b, 0) })
		// A budget of a sixteenth of the events' bytes (about 72 B an
		// event held): the joiner spills early in the first log.
		b.Run(f.String()+"/spilled", func(b *testing.B) { joined(b, int64(events)*72/16) })
	}
}
