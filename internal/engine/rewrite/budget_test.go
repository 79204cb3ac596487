package rewrite

import (
	"slices"
	"testing"

	"github.com/ivc-project/ivc/interaction"
	"github.com/ivc-project/ivc/internal/testutil"
	"github.com/ivc-project/ivc/verdict"
)

// TestNodeBudgetCost checks that the vertices an analysis reports
// (Result.Nodes + Result.LocalNodes) are what it needs: judged again under
// a budget (Options.MaxNodes) of exactly that many, by a fresh analyzer as
// the first was, it gives the same result at the same cost; under one
// vertex less, it does not decide as much (Inconc, or a WeakPass whose
// exactness is undecided). In prefix, accept and slice modes, on the
// lifeline-removal corpus: every row with -tags sweep, else one row in 500
// and the rows that once broke it (the warm-up of an analyzer under the
// budget explored less, which numbered the terms otherwise and so changed
// the order of the searches; a verdict the warm-up decided was remembered
// whatever its cost).
func TestNodeBudgetCost(t *testing.T) {
	t.Parallel()
	pinned := []string{"i3_slices/trace43s1.htf", "i3_swap_act/trace139s1_swap_act.htf", "i10_accepted/trace79.htf",
		"i12_slices/trace199s1.htf", "i12_noise/trace121s1_noise.htf", "i0_accepted/trace115.htf"}
	cases := loadLfrem(t, func(i int, row testutil.LfremRow) bool {
		return testutil.Sweep() || i%500 == 0 || slices.Contains(pinned, row.HTF)
	})
	checked := 0
	for _, c := range cases {
		sp, mt, row := c.sp, c.mt, c.row
		for _, mode := range []verdict.Mode{verdict.Prefix, verdict.Accept, verdict.Slice} {
			judge := func(maxNodes int) verdict.Result {
				opt := DefaultOptions()
				opt.Mode, opt.MaxNodes = mode, maxNodes
				st := interaction.NewStore(sp.Sig) // a fresh store, as check gives each analyzer
				return New(st, st.Import(sp.Store, sp.Root), opt).Check(mt)
			}
			res := judge(0)
			cost := res.Nodes + res.LocalNodes
			if res.Verdict == verdict.Inconc || cost < 2 { // a budget of 0 is the default one
				continue
			}
			if got := judge(cost); got.Verdict != res.Verdict || got.Reason != res.Reason || got.Nodes != res.Nodes || got.LocalNodes != res.LocalNodes {
				t.Errorf("%s %s: %s at %d+%d vertices; under a budget of %d: %s at %d+%d (%s)",
					row.HTF, mode, res.Verdict, res.Nodes, res.LocalNodes, cost, got.Verdict, got.Nodes, got.LocalNodes, got.Text())
			}
			if got := judge(cost - 1); got.Verdict == res.Verdict && got.Reason == res.Reason {
				t.Errorf("%s %s: %s at %d+%d vertices, and the same under a budget of %d (%d+%d)",
					row.HTF, mode, res.Verdict, res.Nodes, res.LocalNodes, cost-1, got.Nodes, got.LocalNodes)
			}
			checked++
		}
	}
	t.Logf("%d analyses checked", checked)
}
