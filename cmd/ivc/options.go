package main

import (
	"github.com/ivc-project/ivc/check"
	"github.com/ivc-project/ivc/runtime"
	"github.com/ivc-project/ivc/verdict"
	"github.com/spf13/cobra"
)

// checkOptions turns the flags of ivc analyze into the checker's options;
// check.Options.Layer then layers option files under the flags given.
func (a *app) checkOptions(cmd *cobra.Command, fl *analyzeFlags) (check.Options, error) {
	opts := check.DefaultOptions()
	m, err := verdict.ParseMode(fl.mode)
	if err != nil {
		return opts, a.usagef("invalid --mode %q: want accept, prefix or slice", fl.mode)
	}
	o := &opts.Analysis
	o.Mode = m
	switch fl.budget {
	case "liberal":
		o.Simulation = runtime.DefaultSimulation()
	case "paper":
		o.Simulation = runtime.PaperSimulation()
	default:
		return opts, a.usagef("invalid --budget %q: want liberal or paper", fl.budget)
	}
	if opts.Engine, err = check.ParseEngine(fl.engine); err != nil {
		return opts, a.usagef("invalid --engine %q: want auto, runtime or automata", fl.engine)
	}
	if o.Strategy, err = runtime.ParseStrategy(fl.strategy); err != nil {
		return opts, a.usagef("invalid --strategy %q: want dfs or bfs", fl.strategy)
	}
	if fl.maxNodes < 0 {
		return opts, a.usagef("invalid --max-nodes %d: want a positive number, or 0 for the default", fl.maxNodes)
	}
	if fl.timeout < 0 {
		return opts, a.usagef("invalid --timeout %s: want a positive duration, or 0 for none", fl.timeout)
	}
	if fl.jobs < 1 {
		return opts, a.usagef("invalid --jobs %d: want at least 1", fl.jobs)
	}
	if fl.maxInput <= 0 {
		return opts, a.usagef("invalid --max-input %d: want a positive size", fl.maxInput)
	}
	opts.MaxInput = int64(fl.maxInput)
	if fl.maxStates < 0 {
		return opts, a.usagef("invalid --max-states %d: want a positive number, or 0 for the default", fl.maxStates)
	}
	opts.MaxStates = fl.maxStates
	if fl.maxMemory < 0 {
		return opts, a.usagef("invalid --max-memory %d: want a positive size, or 0 for the default", fl.maxMemory)
	}
	o.MaxMemory = int64(fl.maxMemory)
	if o.MaxMemory == 0 {
		o.MaxMemory = check.DefaultMaxMemory(fl.jobs)
	}
	o.POR, o.LOC = fl.por, fl.loc
	o.MaxNodes, o.Timeout = fl.maxNodes, fl.timeout
	return opts, nil
}
