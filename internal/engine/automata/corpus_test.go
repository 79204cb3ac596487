package automata

import (
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/internal/gen"
	"github.com/ivc-project/ivc/internal/synth"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestLfremCorpus checks the rows of corpus/lfrem/verdicts.tsv whose
// interaction compiles, in accept and prefix modes, by AS and AC, against
// the published verdicts and the runtime engine's.
func TestLfremCorpus(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(testutil.Shared(t), "corpus", "lfrem")
	rows := testutil.LfremRows(t, dir)
	step := 50 // a sample of 200 rows; the sweep checks the 10,000
	if testutil.Sweep() {
		step = 1
	}
	type model struct {
		sp      *spec.Spec
		engines map[string]*Engine
		rt      [2]*rewrite.Analyzer
		err     error
	}
	models := map[string]*model{}
	get := func(hif string) *model {
		if m, ok := models[hif]; ok {
			return m
		}
		m := &model{engines: map[string]*Engine{}}
		models[hif] = m
		m.sp, m.err = spec.Load(filepath.Join(dir, "signature.hsf"), filepath.Join(dir, hif))
		if m.err != nil {
			t.Fatal(m.err)
		}
		for _, mode := range []verdict.Mode{verdict.Accept, verdict.Prefix} {
			for _, p := range []Procedure{AS, AC} {
				e, err := New(m.sp.Store, m.sp.Root, Options{Mode: mode, Procedure: p})
				var le *synth.LoopError
				if errors.As(err, &le) {
					m.err = err
					return m
				}
				if err != nil {
					t.Fatal(err)
				}
				m.engines[mode.String()+string(rune('0'+p))] = e
			}
		}
		m.rt[0] = rewrite.New(m.sp.Store, m.sp.Root, rewrite.Options{Mode: verdict.Accept, POR: true, LOC: true})
		m.rt[1] = rewrite.New(m.sp.Store, m.sp.Root, rewrite.Options{Mode: verdict.Prefix, POR: true, LOC: true})
		return m
	}
	checked, skipped := 0, 0
	compiled := map[string]bool{}
	for i := 0; i < len(rows); i += step {
		row := rows[i]
		m := get(row.HIF)
		if m.err != nil {
			skipped++
			continue
		}
		compiled[row.HIF] = true
		mt, err := multitrace.Read(filepath.Join(dir, row.HTF), m.sp.Sig)
		if err != nil {
			t.Fatal(err)
		}
		for mi, mode := range []verdict.Mode{verdict.Accept, verdict.Prefix} {
			want := row.Accept
			if mode == verdict.Prefix {
				want = row.Prefix
			}
			rt := m.rt[mi].Check(mt).Verdict.String()
			for _, p := range []Procedure{AS, AC} {
				res := m.engines[mode.String()+string(rune('0'+p))].Check(mt)
				got := res.Verdict.String()
				if got != rt {
					t.Errorf("%s (%s) %s %v: automata %s (%s), runtime %s", row.HTF, row.Kind, mode, p, got, res.Text(), rt)
				}
				if want != "?" && got != want && !(want == "WeakPass|Pass" && res.Verdict.OK()) {
					t.Errorf("%s (%s) %s %v: automata %s, corpus %s", row.HTF, row.Kind, mode, p, got, want)
				}
				checked++
			}
		}
	}
	t.Logf("%d analyses checked on %d compiled interactions; %d rows skipped (loops outside the sublanguage)", checked, len(compiled), skipped)
}

// TestLongTraces checks the long ABP and rover traces against HIBOU's
// prefix verdicts (one global component), and their projections on the
// discrete partition, and on locations of several lifelines, against the
// runtime engine.
func TestLongTraces(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(testutil.Shared(t), "corpus", "long-traces")
	rng := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for _, model := range []string{"abp", "rover"} {
		sp, err := spec.Load(filepath.Join(dir, model+".hsf"), "")
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(sp.Store, sp.Root, Options{Mode: verdict.Prefix})
		if err != nil {
			t.Fatal(err)
		}
		ea, err := New(sp.Store, sp.Root, Options{Mode: verdict.Accept})
		if err != nil {
			t.Fatal(err)
		}
		rt := rewrite.New(sp.Store, sp.Root, rewrite.DefaultOptions())
		rta := rewrite.New(sp.Store, sp.Root, rewrite.Options{Mode: verdict.Accept, POR: true, LOC: true})
		for k, lt := range testutil.LongTraces(t, dir, model) {
			mt, err := multitrace.Read(lt.HTF, sp.Sig)
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Check(mt); got.Verdict.String() != lt.Verdict {
				t.Errorf("%s/%s (%d actions): %s (%s), want %s", model, lt.Name, mt.Len(), got.Verdict, got.Text(), lt.Verdict)
			}
			checked++
			// Projections: the global trace cut into the discrete partition
			// and into two locations, compared with the runtime.
			if !testutil.Sweep() && (k%4 != 0 || mt.Len() > 2500) {
				continue
			}
			global := mt.Components[0].Trace
			sig := sp.Sig
			half := interaction.LifelinesOf()
			for l := range sig.NumLifelines() / 2 {
				half = half.Add(interaction.LifelineID(l))
			}
			for _, part := range []interaction.Locations{interaction.DiscreteLocations(sig), {half, sig.AllLifelines().Minus(half)}} {
				pm := gen.Project(global, part)
				if rng.IntN(2) == 0 {
					pm = gen.Prefix(pm, rng)
				}
				for _, c := range []struct {
					e  *Engine
					rt *rewrite.Analyzer
				}{{e, rt}, {ea, rta}} {
					want := c.rt.Check(&pm)
					if want.Verdict == verdict.Inconc {
						continue
					}
					if got := c.e.Check(&pm); got.Verdict != want.Verdict {
						t.Errorf("%s/%s projected on %d components (%d events) %s: automata %s (%s), runtime %s",
							model, lt.Name, len(part), pm.Len(), want.Mode, got.Verdict, got.Text(), want.Verdict)
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d analyses checked", checked)
}
