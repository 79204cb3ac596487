package rewrite

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

var configs = []struct {
	name     string
	por, loc bool
}{
	{"por+loc", true, true},
	{"por", true, false},
	{"loc", false, true},
	{"none", false, false},
}

// TestLfremCorpus checks every row of corpus/lfrem/verdicts.tsv (a sample
// of one row in ten without -tags sweep) in prefix and accept modes, with
// POR and local analyses on and off (without -tags sweep, the configuration
// with neither, which explores every interleaving and takes half the time,
// checks one sampled row in four).
func TestLfremCorpus(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(testutil.Shared(t), "corpus", "lfrem")
	rows := testutil.LfremRows(t, dir)
	if len(rows) < 10000 {
		t.Fatalf("verdicts.tsv has %d rows, want 10000", len(rows))
	}
	// Without -tags sweep, a sample: every tenth row, four rows of each
	// group of 40 (an interaction and a kind of multi-trace).
	step := 40 // a sample of 250 rows; the sweep checks the 10,000
	if testutil.Sweep() {
		step = 1
	}
	specs := map[string]*spec.Spec{}
	analyzers := map[string]*Analyzer{}
	checked := 0
	for i := 0; i < len(rows); i += step {
		row := rows[i]
		sp := specs[row.HIF]
		if sp == nil {
			var err error
			sp, err = spec.Load(filepath.Join(dir, "signature.hsf"), filepath.Join(dir, row.HIF))
			if err != nil {
				t.Fatal(err)
			}
			specs[row.HIF] = sp
		}
		mt, err := multitrace.Read(filepath.Join(dir, row.HTF), sp.Sig)
		if err != nil {
			t.Fatal(err)
		}
		for _, cfg := range configs {
			if only := os.Getenv("IVC_CONFIG"); only != "" && only != cfg.name {
				continue
			}
			if cfg.name == "none" && (i/step)%4 != 0 && !testutil.Sweep() {
				continue
			}
			for _, mode := range []verdict.Mode{verdict.Prefix, verdict.Accept} {
				want := row.Prefix
				if mode == verdict.Accept {
					want = row.Accept
				}
				if want == "?" {
					continue
				}
				key := row.HIF + cfg.name + mode.String()
				a := analyzers[key]
				if a == nil {
					a = New(sp.Store, sp.Root, Options{Mode: mode, POR: cfg.por, LOC: cfg.loc})
					analyzers[key] = a
				}
				res := a.Check(mt)
				got := res.Verdict.String()
				if got != want && !(want == "WeakPass|Pass" && res.Verdict.OK()) {
					t.Errorf("%s (%s) %s %s: got %s (%s), want %s", row.HTF, row.Kind, mode, cfg.name, got, res.Text(), want)
				}
				checked++
			}
		}
		// Slice mode: every multi-prefix is a slice, and Pass stays Pass.
		if row.Prefix != "Fail" {
			a := analyzers[row.HIF+"slice"]
			if a == nil {
				a = New(sp.Store, sp.Root, Options{Mode: verdict.Slice, POR: true, LOC: true, Simulation: DefaultSimulation()})
				analyzers[row.HIF+"slice"] = a
			}
			res := a.Check(mt)
			if !res.Verdict.OK() || row.Prefix != "WeakPass|Pass" && res.Verdict.String() != row.Prefix {
				t.Errorf("%s (%s) slice: got %s (%s), want %s", row.HTF, row.Kind, res.Verdict, res.Text(), row.Prefix)
			}
			checked++
		}
	}
	t.Logf("%d analyses checked", checked)
}
