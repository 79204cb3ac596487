package logs_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
)

// generated returns n multi-traces of the ABP example, of kind k, over the
// locations part ("discrete", "trivial", or "a,b;c").
func generated(t testing.TB, k gen.Kind, n int, part string) (*spec.Spec, interaction.Locations, []*multitrace.MultiTrace) {
	t.Helper()
	sp, err := spec.Load("../testdata/abp/abp.hsf", "")
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
					ids := logs.IDs(f, len(mts), 9)
					if err := logs.Write(&buf, f, sp.Sig, ids, mts, 9); err != nil {
						t.Fatal(err)
					}
					var reported []error
					sessions, st, err := logs.ReadFrom("gen", &buf, f, logs.Options{Sig: sp.Sig, Locations: p},
						func(err error) { reported = append(reported, err) })
					if err != nil {
						t.Fatal(err)
					}
					if len(reported) > 0 {
						t.Fatalf("reported: %v", reported)
					}
					byID := map[string]*logs.Session{}
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
