package check_test

import (
	"path/filepath"
	"testing"

	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/internal/repair"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/multitrace"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/verdict"
)

// TestRepairCorpus repairs the failing mutants of the lifeline-removal
// corpus (noise, swapped actions, swapped components) in prefix mode, and
// the noise mutants in accept mode (where the automata engine takes the
// interaction: a multi-prefix needs the rest of a run inserted, too many
// edits for the runtime engine's bounded search), as ivc analyze would (the engine auto
// chooses): every repair must be one (the front door checks it again, and
// an error says when it fails), and where a search is cheap, no repair
// with fewer edits may exist: the runtime engine's bounded search, up to
// one edit less, finds none. Without -tags sweep, a tenth of the files.
func TestRepairCorpus(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(testutil.Shared(t), "corpus", "lfrem")
	rows := testutil.LfremRows(t, dir)
	sweep := testutil.Sweep()
	maxProved := 2 // the smallest cost whose minimality is not searched
	if sweep {
		maxProved = 3
	}
	type key struct {
		hif  string
		mode verdict.Mode
	}
	checkers := map[key][2]*check.Checker{} // the auto one, and the runtime one
	checker := func(hif string, mode verdict.Mode) [2]*check.Checker {
		if c, ok := checkers[key{hif, mode}]; ok {
			return c
		}
		sp, err := spec.Load(filepath.Join(dir, "signature.hsf"), filepath.Join(dir, hif))
		if err != nil {
			t.Fatal(err)
		}
		var cs [2]*check.Checker
		for i, e := range []check.Engine{check.EngineAuto, check.EngineRuntime} {
			opt := check.DefaultOptions()
			opt.Engine, opt.Mode = e, mode
			// A few candidates of the runtime engine's search have
			// thousands of vertices: a budget keeps the sweep short.
			opt.Repair.MaxNodes = 1 << 17
			if cs[i], err = check.New(sp, opt); err != nil {
				t.Fatal(err)
			}
		}
		checkers[key{hif, mode}] = cs
		return cs
	}
	costs := map[string]int{}
	incomplete, proved := 0, 0
	for k, row := range rows {
		if row.Kind != "noise" && row.Kind != "swap_act" && row.Kind != "swap_comp" || !sweep && k%10 != 0 {
			continue
		}
		for _, mode := range []verdict.Mode{verdict.Prefix, verdict.Accept} {
			want := row.Prefix
			if mode == verdict.Accept {
				want = row.Accept
			}
			if want != "Fail" || mode == verdict.Accept && row.Kind != "noise" {
				continue
			}
			cs := checker(row.HIF, mode)
			c := cs[0]
			if mode == verdict.Accept && c.Engine() != check.EngineAutomata {
				// A multi-prefix is accepted once the rest of a run is
				// inserted: beyond the bounded search, the alignment's.
				continue
			}
			mt, err := multitrace.Read(filepath.Join(dir, row.HTF), c.Spec().Sig)
			if err != nil {
				t.Fatal(err)
			}
			res := c.Check(mt)
			if res.Verdict != verdict.Fail {
				t.Errorf("%s %s: %s, want Fail", row.HTF, mode, res.Verdict)
				continue
			}
			r, err := c.Repair(mt, res)
			switch {
			case err != nil:
				t.Errorf("%s %s: %v", row.HTF, mode, err)
				continue
			case r.Incomplete:
				incomplete++
				t.Logf("%s %s (%s): %s", row.HTF, mode, c.Engine(), r.Detail)
				if r.Cost() == 0 {
					continue
				}
			case r.Cost() == 0:
				t.Errorf("%s %s: no repair: %s", row.HTF, mode, r.Detail)
				continue
			}
			if !r.Verdict.OK() {
				t.Errorf("%s %s: the repaired multi-trace is %s", row.HTF, mode, r.Verdict)
			}
			costs[mode.String()+" "+row.Kind+" "+c.Engine().String()] += r.Cost()
			if r.Incomplete || r.Cost() < 2 || r.Cost() > maxProved {
				continue
			}
			rc := cs[1]
			sp := rc.Spec()
			shorter := repair.Search(mt, repair.Alphabet(sp.Store, sp.Root, mt.Locations()), rc.Check,
				repair.Options{MaxEdits: r.Cost() - 1, MaxNodes: 1 << 20})
			switch {
			case shorter.Found:
				t.Errorf("%s %s: repaired by %d edits (%s), but %d do: %v", row.HTF, mode, r.Cost(), formatRepair(r), len(shorter.Edits), shorter.Edits)
			case !shorter.Incomplete:
				proved++
			}
		}
	}
	t.Logf("edits by mode, kind and engine: %v; %d incomplete; %d repairs of 2 edits or more proved smallest", costs, incomplete, proved)
}
