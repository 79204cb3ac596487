package main

import (
	"fmt"

	"github.com/ivc-project/ivc/hcf"
	"github.com/ivc-project/ivc/runtime"
	"github.com/ivc-project/ivc/spec"
	"github.com/spf13/cobra"
)

// analysisOptions turns the flags of ivc analyze into runtime options,
// layered: the command line over --options FILE.hcf over the option sections
// of a legacy single-file .hsf over the flags' defaults.
func (a *app) analysisOptions(cmd *cobra.Command, fl *analyzeFlags, sp *spec.Spec) (runtime.Options, error) {
	set := *fl
	modeFrom := "--mode"
	layer := func(file string, f *hcf.File) {
		sec := f.Section(hcf.Analyze)
		if sec == nil {
			return
		}
		if from := a.applyHCF(cmd, &set, file, sec); from != "" {
			modeFrom = from
		}
	}
	if sp.Options != nil {
		layer(sp.SigPath, sp.Options)
	}
	if fl.options != "" {
		src, err := spec.ReadFile(fl.options)
		if err != nil {
			return runtime.Options{}, err
		}
		f, err := hcf.Parse(fl.options, src)
		if err != nil {
			return runtime.Options{}, err
		}
		layer(fl.options, f)
	}

	var opts runtime.Options
	m, err := runtime.ParseMode(set.mode)
	if err != nil {
		return opts, a.usagef("invalid --mode %q (from %s): want accept, prefix or slice", set.mode, modeFrom)
	}
	opts.Mode = m
	switch {
	case set.simulation != nil && !cmd.Flags().Changed("budget"):
		opts.Simulation = *set.simulation
	case set.budget == "liberal":
		opts.Simulation = runtime.DefaultSimulation()
	case set.budget == "paper":
		opts.Simulation = runtime.PaperSimulation()
	default:
		return opts, a.usagef("invalid --budget %q: want liberal or paper", set.budget)
	}
	switch set.engine {
	case "auto", "runtime", "automata":
	default:
		return opts, a.usagef("invalid --engine %q: want auto, runtime or automata", set.engine)
	}
	s, err := runtime.ParseStrategy(set.strategy)
	if err != nil {
		return opts, a.usagef("invalid --strategy %q: want dfs or bfs", set.strategy)
	}
	if set.maxNodes < 0 {
		return opts, a.usagef("invalid --max-nodes %d: want a positive number, or 0 for the default", set.maxNodes)
	}
	if set.timeout < 0 {
		return opts, a.usagef("invalid --timeout %s: want a positive duration, or 0 for none", set.timeout)
	}
	if set.jobs < 1 {
		return opts, a.usagef("invalid --jobs %d: want at least 1", set.jobs)
	}
	opts.Strategy = s
	opts.POR, opts.LOC = set.por, set.loc
	opts.MaxNodes, opts.Timeout = set.maxNodes, set.timeout
	return opts, nil
}

// applyHCF sets the settings that an @analyze_option section gives and the
// command line does not. It returns where the mode came from when the section
// sets it.
func (a *app) applyHCF(cmd *cobra.Command, set *analyzeFlags, file string, sec *hcf.Section) (modeFrom string) {
	o := &sec.Options
	where := fmt.Sprintf("%s:%s", file, sec.Pos)
	given := func(k hcf.Key, flag string) bool { return o.Has(k) && !cmd.Flags().Changed(flag) }
	if given(hcf.KeyAnalysisKind, "mode") {
		switch o.Analysis.Kind {
		case hcf.Accept:
			set.mode = "accept"
		case hcf.Prefix, hcf.Eliminate:
			// HIBOU's prefix leaves Inconc LackObs where lifeline removal
			// decides: ivc's prefix mode answers both exactly.
			set.mode = "prefix"
		case hcf.Simulate:
			set.mode = "slice"
			sim := o.Analysis.Simulate
			if !sim.Slice {
				// Simulation after the end only: multi-prefixes, which prefix
				// mode decides exactly by lifeline removal.
				set.mode = "prefix"
				break
			}
			set.simulation = &runtime.Simulation{Reset: sim.Reset, Multiply: sim.Multiply,
				Loops: budgetOf(sim.Loop, true), Actions: budgetOf(sim.Act, false)}
		}
		modeFrom = fmt.Sprintf("analysis_kind = %s in %s", o.Analysis.Kind, where)
	}
	if given(hcf.KeyLocalAnalysis, "loc") {
		set.loc = o.LocalAnalysis.Enabled
	}
	if given(hcf.KeyPartialOrderReduction, "por") {
		set.por = o.PartialOrderReduction
	}
	if given(hcf.KeyStrategy, "strategy") {
		// HCS is depth first with a different order of siblings, and the
		// greedy strategy of HIBOU ≤ 0.7 has no equivalent: depth first.
		set.strategy = "dfs"
		if o.Strategy == hcf.BFS {
			set.strategy = "bfs"
		}
	}
	if given(hcf.KeyMaxNodeNumber, "max-nodes") {
		set.maxNodes = o.Filters.MaxNodeNumber
	}
	for _, k := range []hcf.Key{hcf.KeyMaxDepth, hcf.KeyMaxLoopDepth} {
		if o.Has(k) {
			a.warnf("%s: warning: filter %s is ignored (ivc bounds searches by --max-nodes and --timeout only)", where, k)
		}
	}
	return modeFrom
}

// budgetOf maps a budget of HIBOU's simulate[...] onto ivc's.
func budgetOf(b hcf.Budget, loops bool) runtime.Budget {
	switch b.Kind {
	case hcf.BudgetNone:
		return runtime.Budget{Kind: runtime.Fixed, N: 0}
	case hcf.BudgetNum:
		return runtime.Budget{Kind: runtime.Fixed, N: b.N}
	case hcf.BudgetMaxNum:
		return runtime.Budget{Kind: runtime.Count}
	default: // max_depth for loops; actions outside loops otherwise
		return runtime.Budget{Kind: runtime.Structural}
	}
}
