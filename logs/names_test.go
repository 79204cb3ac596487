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

// TestRealNames: real names (issue 24), quoted in the spec and holding the
// .htf's punctuation ("a,b?c", "I'm a \"server\" span!", "back\slash"),
// survive a round trip through every log format.
func TestRealNames(t *testing.T) {
	sp, err := spec.Load("../internal/compile/testdata/models/quoted/quoted.hsf", "")
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
				ids := logs.IDs(f, len(mts), 9)
				in := make([]*multitrace.MultiTrace, len(mts))
				for i := range mts {
					in[i] = &mts[i]
				}
				if err := logs.Write(&buf, f, sp.Sig, ids, in, 9); err != nil {
					t.Fatal(err)
				}
				sessions, _, err := logs.ReadFrom("gen", &buf, f, logs.Options{Sig: sp.Sig, Locations: p},
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
