package gen_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/gen/gentest"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
)

// abpTraces returns the ABP spec's signature, its .htf traces projected on
// one location per lifeline, and their names.
func abpTraces(t *testing.T) (*spec.Spec, []*multitrace.MultiTrace, []string) {
	t.Helper()
	sp, err := spec.Load("../../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	sig := sp.Sig
	files, err := filepath.Glob("../../testdata/abp/traces/*.htf")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	var mts []*multitrace.MultiTrace
	var names []string
	for _, f := range files {
		mt, err := multitrace.Read(f, sig)
		if err != nil {
			t.Fatal(err)
		}
		p := gen.Project(mt.Components[0].Trace, interaction.DiscreteLocations(sig))
		mts = append(mts, &p)
		names = append(names, filepath.Base(f))
	}
	return sp, mts, names
}

// readBack reads files as one run, with a session.Joiner in memory, and
// returns its sessions.
func readBack(t *testing.T, files []string, opt logs.Options) []session.Session {
	t.Helper()
	j, err := session.NewJoiner(opt, 0, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for _, f := range files {
		in, err := logs.Open(f, logs.Auto, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.Read(in, func(err error) { t.Error(err) }); err != nil {
			t.Fatal(err)
		}
		in.Close()
	}
	var out []session.Session
	for s, err := range j.Sessions() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// generated returns n multi-traces of the ABP example, of kind k, over the
// locations part ("discrete", "trivial", or "a,b;c").
func generated(t testing.TB, k gen.Kind, n int, part string) (*spec.Spec, interaction.Locations, []*multitrace.MultiTrace) {
	t.Helper()
	sp, err := spec.Load("../../testdata/abp/abp.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := interaction.ParseLocations(sp.Sig, part)
	if err != nil {
		t.Fatal(err)
	}
	mts, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: k, N: n, Seed: 3, Locations: p,
		Options: gen.Options{MaxLength: 60}})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*multitrace.MultiTrace, n)
	for i := range mts {
		out[i] = &mts[i]
	}
	return sp, p, out
}

// TestRoundTrip writes generated multi-traces in every format and reads
// them back: the same multi-traces, whatever the locations.
func TestRoundTrip(t *testing.T) {
	for _, f := range []logs.Format{logs.JSONL, logs.CSV, logs.OTLP, logs.Jaeger} {
		for _, part := range []string{"discrete", "trivial", "S,K;L,R"} {
			for _, k := range []gen.Kind{gen.KindAccepted, gen.KindSlice, gen.KindNoise} {
				t.Run(fmt.Sprintf("%s/%s/%s", f, part, k), func(t *testing.T) {
					sp, p, mts := generated(t, k, 20, part)
					var buf bytes.Buffer
					ids := gen.IDs(f, len(mts), 9)
					if err := gen.Write(&buf, f, sp.Sig, ids, mts, 9); err != nil {
						t.Fatal(err)
					}
					var reported []error
					sessions, st, err := session.ReadFrom("gen", &buf, f, logs.Options{Sig: sp.Sig, Locations: p},
						func(err error) { reported = append(reported, err) })
					if err != nil {
						t.Fatal(err)
					}
					if len(reported) > 0 {
						t.Fatalf("reported: %v", reported)
					}
					byID := map[string]*session.Session{}
					for i := range sessions {
						byID[sessions[i].ID] = &sessions[i]
					}
					events := 0
					for i, mt := range mts {
						events += mt.Len()
						s := byID[ids[i]]
						if mt.Len() == 0 {
							if s != nil {
								t.Errorf("session %s: no event written, but read", ids[i])
							}
							continue
						}
						if s == nil {
							t.Fatalf("session %s not read", ids[i])
						}
						if s.Err != nil || !s.MT.Equal(mt) {
							t.Fatalf("session %s (%v):\nwrote %s\nread  %s", ids[i], s.Err, mt.Format(sp.Sig), s.MT.Format(sp.Sig))
						}
					}
					if st.Events != events || st.Ignored != 0 || st.Malformed != 0 {
						t.Errorf("stats %+v, want %d events", st, events)
					}
				})
			}
		}
	}
}

// TestRealNames: real names, quoted in the spec and holding the
// .htf's punctuation ("a,b?c", "I'm a \"server\" span!", "back\slash"),
// survive a round trip through every log format.
func TestRealNames(t *testing.T) {
	sp, err := spec.Load("../compile/testdata/models/quoted/quoted.hsf", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []logs.Format{logs.JSONL, logs.CSV, logs.OTLP, logs.Jaeger} {
		for _, part := range []string{"discrete", `gateway,"xincan-user";plain,"back\\slash"`} {
			t.Run(fmt.Sprintf("%s/%s", f, part), func(t *testing.T) {
				p, err := interaction.ParseLocations(sp.Sig, part)
				if err != nil {
					t.Fatal(err)
				}
				mts, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: gen.KindAccepted, N: 10, Seed: 5,
					Locations: p, Options: gen.Options{MaxLength: 30}})
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				ids := gen.IDs(f, len(mts), 9)
				in := make([]*multitrace.MultiTrace, len(mts))
				for i := range mts {
					in[i] = &mts[i]
				}
				if err := gen.Write(&buf, f, sp.Sig, ids, in, 9); err != nil {
					t.Fatal(err)
				}
				sessions, _, err := session.ReadFrom("gen", &buf, f, logs.Options{Sig: sp.Sig, Locations: p},
					func(err error) { t.Errorf("reported: %v", err) })
				if err != nil {
					t.Fatal(err)
				}
				byID := map[string]int{}
				for i := range sessions {
					byID[sessions[i].ID] = i
				}
				for i := range mts {
					k, ok := byID[ids[i]]
					if mts[i].Len() == 0 {
						continue
					}
					if !ok {
						t.Fatalf("session %s not read", ids[i])
					}
					if s := sessions[k]; s.Err != nil || s.Ignored > 0 || !s.MT.Equal(&mts[i]) {
						t.Fatalf("session %s (%v, %d ignored):\nwrote %s\nread  %s", ids[i], s.Err, s.Ignored, mts[i].Format(sp.Sig), s.MT.Format(sp.Sig))
					}
				}
			})
		}
	}
}

// TestWriteRotated writes the ABP traces as one log per location, each
// rotated every few events, in every format, and checks that joining the
// files (in any order: the order keys order them) gives back every
// multi-trace, as the unsplit log does.
func TestWriteRotated(t *testing.T) {
	sp, mts, names := abpTraces(t)
	sig := sp.Sig
	opt := logs.Options{Sig: sig}
	for _, f := range []logs.Format{logs.JSONL, logs.CSV, logs.OTLP, logs.Jaeger} {
		t.Run(f.String(), func(t *testing.T) {
			dir := t.TempDir()
			ids := gen.IDs(f, len(mts), 3)
			var files []string
			for k := range mts[0].Components {
				var open []*os.File
				n, err := gen.WriteRotated(func() (io.Writer, error) {
					name := filepath.Join(dir, fmt.Sprintf("loc%d.%d.%s", k, len(files), f))
					files = append(files, name)
					w, err := os.Create(name)
					open = append(open, w)
					return w, err
				}, f, sig, ids, gen.Location(mts, k), int64(k), 20)
				for _, w := range open {
					if err := w.Close(); err != nil {
						t.Error(err)
					}
				}
				if err != nil {
					t.Fatal(err)
				}
				if n < 2 {
					t.Errorf("location %d: %d files, want it rotated", k, n)
				}
			}
			slices.Reverse(files) // the newest first, as a shell lists svc.jsonl before svc.1.jsonl
			sessions := readBack(t, files, opt)
			if len(sessions) != len(mts) {
				t.Fatalf("%d sessions, want %d", len(sessions), len(mts))
			}
			for i, id := range ids {
				k := slices.IndexFunc(sessions, func(s session.Session) bool { return s.ID == id })
				if k < 0 {
					t.Fatalf("no session %s (%s)", id, names[i])
				}
				if s := sessions[k]; s.Err != nil || !s.MT.Equal(mts[i]) {
					t.Errorf("session %s (%s): %v\n%s\nwant\n%s", id, names[i], s.Err, s.MT.Format(sig), mts[i].Format(sig))
				}
			}
		})
	}
}

// TestWriteStreamMemory writes 3,000 sessions (200,000 in the sweeps) in
// every format through WriteStream, the path of ivc gen --log-format, and
// checks that the live heap does not grow with the sessions written (issue
// 25 item 5): from the tenth of them to the last it may grow by a fixed
// bound, far below what holding the sessions or their events would take.
func TestWriteStreamMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 3,000 sessions per format")
	}
	sp, mts, _ := abpTraces(t)
	global := mts[0].Components
	var trace []interaction.MultiAction
	for _, c := range global {
		trace = append(trace, c.Trace[:min(2, len(c.Trace))]...)
	}
	locs := interaction.DiscreteLocations(sp.Sig)
	// By default a leak of more than about 240 B a session exceeds the
	// bound: a session's events, held, take several times that.
	n, mark, bound := 3_000, 300, uint64(640<<10)
	if testutil.Sweep() {
		n, mark, bound = 200_000, 20_000, 4<<20
	}
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for _, f := range []logs.Format{logs.JSONL, logs.CSV, logs.OTLP, logs.Jaeger} {
		perFiles := []int{0}
		if f == logs.Jaeger {
			perFiles = append(perFiles, 1000) // traces written at the end of a file too
		}
		for _, perFile := range perFiles {
			var before, after uint64
			seq := func(yield func(*multitrace.MultiTrace, error) bool) {
				for i := range n {
					switch i {
					case mark:
						before = heap()
					case n - 1:
						after = heap()
					}
					mt := gen.Project(trace, locs) // a new multi-trace each session
					if !yield(&mt, nil) {
						return
					}
				}
			}
			files, err := gen.WriteStream(func() (io.Writer, error) { return io.Discard, nil }, f, sp.Sig,
				func(i int) string { return gen.SessionID(f, i, 1) }, seq, 1, perFile)
			if err != nil {
				t.Fatal(err)
			}
			if perFile > 0 && files < n/perFile {
				t.Errorf("%s: %d files of %d events", f, files, perFile)
			}
			if after > before+bound {
				t.Errorf("%s, %d events a file: live heap grew from %d to %d bytes between session %d and %d (bound %d)", f, perFile, before, after, mark, n, bound)
			}
		}
	}
}

// BenchmarkWriteJSONL writes the log of BenchmarkJSONL.
func BenchmarkWriteJSONL(b *testing.B) {
	sp, mts, events := gentest.Accepted(b, "../../testdata/lfrem/signature.hsf", "../../testdata/lfrem/i1.hif", 2000)
	cpu := testutil.CPUTime()
	for b.Loop() {
		if err := gen.Write(io.Discard, logs.JSONL, sp.Sig, nil, mts, 1); err != nil {
			b.Fatal(err)
		}
	}
	n := float64(events) * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "events/s")
	if used := testutil.CPUTime() - cpu; used > 0 && cpu > 0 {
		b.ReportMetric(n/used.Seconds(), "events/cpu-s")
	}
}
