package check

import (
	"fmt"

	"github.com/ivc-project/ivc/internal/engine/rewrite"
	"github.com/ivc-project/ivc/internal/hcf"
	"github.com/ivc-project/ivc/spec"
	"github.com/ivc-project/ivc/syntax"
	"github.com/ivc-project/ivc/verdict"
)

// The settings that option files may give.
const (
	settingMode     = "mode"           // analysis_kind
	settingBudget   = "budget"         // the budget of analysis_kind = simulate[slice=true,...]
	settingLOC      = "local-analyses" // local_analysis
	settingPOR      = "por"            // partial_order_reduction
	settingStrategy = "strategy"       // strategy
	settingMaxNodes = "max-nodes"      // filters = [max_node_number = N]
)

// layer applies the HIBOU options of the @analyze_option sections of a
// legacy single-file .hsf, then of the .hcf files, in order, so that a later
// one wins; a setting for which fixed returns true (the caller's own) is
// left as it is. Options that do not change verdicts (goal, memoize,
// loggers, priorities) are ignored; the filters ivc does not have give
// warnings, which layer returns.
//
// The mapping: analysis_kind accept → verdict.Accept; prefix, eliminate,
// hide → verdict.Prefix (which decides exactly what HIBOU leaves Inconc);
// simulate[slice=true,...] → verdict.Slice with its budget; simulate
// without slice → verdict.Prefix. local_analysis → LOC,
// partial_order_reduction → POR, strategy BFS → rewrite.BFS (DFS, HCS and
// HIBOU ≤ 0.7's greedy → rewrite.DFS), max_node_number → MaxNodes.
func (o *Options) layer(sp *spec.Spec, hcfFiles []string, fixed func(setting string) bool) (warnings []string, err error) {
	apply := func(file string, f *hcf.File) {
		if sec := f.Section(hcf.Analyze); sec != nil {
			warnings = append(warnings, o.apply(file, sec, fixed)...)
		}
	}
	if sp.Options != nil {
		apply(sp.SigPath, sp.Options)
	}
	for _, file := range hcfFiles {
		src, err := syntax.ReadFile(file)
		if err != nil {
			return warnings, err
		}
		f, err := hcf.Parse(file, src)
		if err != nil {
			return warnings, err
		}
		apply(file, f)
	}
	return warnings, nil
}

// apply sets what an @analyze_option section gives and fixed does not pin.
func (o *Options) apply(file string, sec *hcf.Section, fixed func(string) bool) (warnings []string) {
	h := &sec.Options
	a := &o.Analysis
	given := func(k hcf.Key, setting string) bool { return h.Has(k) && !fixed(setting) }
	if given(hcf.KeyAnalysisKind, settingMode) {
		switch h.Analysis.Kind {
		case hcf.Accept:
			a.Mode = verdict.Accept
		case hcf.Prefix, hcf.Eliminate:
			a.Mode = verdict.Prefix
		case hcf.Simulate:
			sim := h.Analysis.Simulate
			if !sim.Slice {
				// Simulation after the end only: multi-prefixes, which prefix
				// mode decides exactly by lifeline removal.
				a.Mode = verdict.Prefix
				break
			}
			a.Mode = verdict.Slice
			if !fixed(settingBudget) {
				a.Simulation = rewrite.Simulation{Reset: sim.Reset, Multiply: sim.Multiply,
					Loops: budgetOf(sim.Loop), Actions: budgetOf(sim.Act)}
			}
		}
	}
	if given(hcf.KeyLocalAnalysis, settingLOC) {
		a.LOC = h.LocalAnalysis.Enabled
	}
	if given(hcf.KeyPartialOrderReduction, settingPOR) {
		a.POR = h.PartialOrderReduction
	}
	if given(hcf.KeyStrategy, settingStrategy) {
		// HCS is depth first with a different order of siblings, and the
		// greedy strategy of HIBOU ≤ 0.7 has no equivalent: depth first.
		a.Strategy = rewrite.DFS
		if h.Strategy == hcf.BFS {
			a.Strategy = rewrite.BFS
		}
	}
	if given(hcf.KeyMaxNodeNumber, settingMaxNodes) {
		a.MaxNodes = h.Filters.MaxNodeNumber
	}
	for _, k := range []hcf.Key{hcf.KeyMaxDepth, hcf.KeyMaxLoopDepth} {
		if h.Has(k) {
			warnings = append(warnings, fmt.Sprintf("%s:%s: warning: filter %s is ignored (ivc bounds searches by node and time budgets only)", file, sec.Pos, k))
		}
	}
	return warnings
}

// budgetOf maps a budget of HIBOU's simulate[...] onto ivc's: max_depth (for
// loops) and the count of actions outside loops are structural.
func budgetOf(b hcf.Budget) rewrite.Budget {
	switch b.Kind {
	case hcf.BudgetNone:
		return rewrite.Budget{Kind: rewrite.Fixed, N: 0}
	case hcf.BudgetNum:
		return rewrite.Budget{Kind: rewrite.Fixed, N: b.N}
	case hcf.BudgetMaxNum:
		return rewrite.Budget{Kind: rewrite.Count}
	default:
		return rewrite.Budget{Kind: rewrite.Structural}
	}
}
