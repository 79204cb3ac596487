package infer_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/infer"
	"github.com/ivc-project/ivc/internal/random"
	"github.com/ivc-project/ivc/logs"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/session"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// examples are the shipped specifications the drafts are tested on.
var examples = []struct{ name, hsf, hif string }{
	{"abp", "../../testdata/abp/abp.hsf", ""},
	{"checkout", "../../testdata/checkout/design.md", ""},
	{"lfrem-i1", "../../testdata/lfrem/signature.hsf", "../../testdata/lfrem/i1.hif"},
	{"lfrem-i14", "../../testdata/lfrem/signature.hsf", "../../testdata/lfrem/i14.hif"},
	{"slice-i0", "../../testdata/slice/i0.hsf", ""},
}

// source reads JSON Lines logs over sig, as ivc analyze does by default.
func source(sig *interaction.Signature) (*session.Source, error) {
	return &session.Source{Options: logs.Options{Sig: sig}}, nil
}

// writeLog writes mts as a JSON Lines log in dir.
func writeLog(t *testing.T, dir, name string, sig *interaction.Signature, mts []multitrace.MultiTrace) string {
	t.Helper()
	ptrs := make([]*multitrace.MultiTrace, len(mts))
	for i := range mts {
		ptrs[i] = &mts[i]
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := gen.Write(f, logs.JSONL, sig, nil, ptrs, 1); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDraftsOfExamples: on generated logs of the shipped examples, the
// draft accepts every session it is drawn from, and fails at least 90% of
// their noise mutants that the example itself fails. Named by the logs
// alone, a draft knows no name that no session carries: a mutant's event
// of such a name is outside its signature, ignored, as ivc analyze
// ignores it; named by the example's signature, it knows them all.
func TestDraftsOfExamples(t *testing.T) {
	for _, ex := range examples {
		for _, named := range []bool{false, true} {
			name := ex.name
			if named {
				name += "-sig"
			}
			t.Run(name, func(t *testing.T) { testDraft(t, ex.hsf, ex.hif, named) })
		}
	}
}

func testDraft(t *testing.T, hsf, hif string, named bool) {
	{
		{
			sp, err := spec.Load(hsf, hif)
			if err != nil {
				t.Fatal(err)
			}
			mts, err := gen.Generate(sp.Store, sp.Root, gen.Config{Kind: gen.KindAccepted, N: 40, Seed: 7,
				Options: gen.Options{MinLength: 1, MaxLength: 40}})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			good := writeLog(t, dir, "good.jsonl", sp.Sig, mts)
			cfg := infer.Config{Source: source}
			if named {
				cfg.Sig = sp.Sig
			}
			d, err := infer.Infer([]string{good}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			files, err := d.Files(filepath.Join(dir, "draft.mmd"))
			if err != nil {
				t.Fatal(err)
			}
			unfit, sum, err := d.Check(files, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range unfit {
				var b strings.Builder
				o.WriteText(&b)
				t.Log(b.String())
			}
			if len(unfit) > 0 || sum.Verdicts[verdict.Pass] != len(mts) {
				t.Errorf("the draft accepts %d of %d sessions:\n%s", sum.Verdicts[verdict.Pass], len(mts), files[0].Data)
			}

			// Noise mutants that the example fails, judged against the draft.
			opts, _, err := (&check.Settings{Mode: "accept", Jobs: 1}).Options(sp)
			if err != nil {
				t.Fatal(err)
			}
			orig, err := check.New(sp, opts)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			var mutants []multitrace.MultiTrace
			for len(mutants) < 100 {
				m := gen.Noise(sp.Sig, mts[rng.IntN(len(mts))], rng)
				if orig.Check(&m).Verdict == verdict.Fail {
					mutants = append(mutants, m)
				}
			}
			bad := writeLog(t, dir, "noise.jsonl", sp.Sig, mutants)
			dsp, err := spec.Parse(files[0].Path, files[0].Data, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			dopts, _, err := (&check.Settings{Mode: "accept", Jobs: 1}).Options(dsp)
			if err != nil {
				t.Fatal(err)
			}
			dc, err := check.New(dsp, dopts)
			if err != nil {
				t.Fatal(err)
			}
			src, _ := source(dsp.Sig)
			s := dc.Run(src.Sessions([]string{bad}), check.RunOptions{Jobs: 2}, func(check.Outcome) {})
			failed := s.Verdicts[verdict.Fail]
			t.Logf("%d sessions, %d shapes, draft of %d arrows (%d widened), %d lines; %d/%d noise mutants fail",
				d.Sessions, d.Shapes, d.Arrows, d.Widened, lines(files[0].Data), failed, len(mutants))
			if named && failed*10 < len(mutants)*9 {
				t.Errorf("the draft fails %d of %d noise mutants, want 90%%:\n%s", failed, len(mutants), files[0].Data)
			}
		}
	}
}

func lines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// TestDraftsOfRandomInteractions: the draft of sessions drawn from random
// interactions of every operator accepts each of them, their lifelines
// each a location, or all one (whose order across lifelines the draft
// does not force).
func TestDraftsOfRandomInteractions(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 10
	}
	msgs := random.DefaultMessages()
	msgs.Synch = 0 // a log holds one action an event
	for seed := range uint64(seeds) {
		for _, trivial := range []bool{false, true} {
			sig := random.Signature(4, 3)
			st := interaction.NewStore(sig)
			term := random.Interaction(st, random.New(seed), random.Params{MaxDepth: 4, MinActions: 4, Weights: random.All(), Messages: msgs})
			cfg := gen.Config{Kind: gen.KindAccepted, N: 12, Seed: seed, Options: gen.Options{MinLength: 1, MaxLength: 30}}
			icfg := infer.Config{Source: source}
			if trivial {
				cfg.Locations = interaction.TrivialLocations(sig)
				icfg.Locations = "trivial"
			}
			mts, err := gen.Generate(st, term, cfg)
			if err != nil {
				continue // no trace of events within the bounds
			}
			dir := t.TempDir()
			good := writeLog(t, dir, "good.jsonl", sig, mts)
			d, err := infer.Infer([]string{good}, icfg)
			if err != nil {
				t.Fatalf("seed %d: %s: %v", seed, st.Format(term), err)
			}
			files, err := d.Files(filepath.Join(dir, "draft.mmd"))
			if err != nil {
				t.Fatal(err)
			}
			unfit, sum, err := d.Check(files, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(unfit) > 0 || sum.Verdicts[verdict.Pass] != len(mts) || len(d.Unused) > 0 {
				var b strings.Builder
				for _, o := range unfit {
					o.WriteText(&b)
					b.WriteString("\n")
				}
				t.Errorf("seed %d (trivial %v): %s\nthe draft accepts %d of %d sessions (%v unused):\n%s%s", seed, trivial,
					st.Format(term), sum.Verdicts[verdict.Pass], len(mts), d.Unused, b.String(), files[0].Data)
			}
		}
	}
}
